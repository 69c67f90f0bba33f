package report

import "github.com/iobench/iobench/advice"

// AppProgram is the program `iobench app -- PROG` ran, and how its
// figures were taken.
type AppProgram struct {
	Argv     []string `json:"argv"`
	Exe      string   `json:"exe"`     // the executable that wrote most bytes (a script's program, not its shell)
	Status   int      `json:"status"`  // as a shell gives it: exit code, or 128+N for signal N
	Outcome  string   `json:"outcome"` // "exit status 0", "killed by signal 9 (killed)"
	Traced   bool     `json:"traced"`  // the writes come from an strace run
	TraceWhy string   `json:"trace_note,omitempty"`
	// Ranks is a launcher's ranks, each traced by an strace the launcher
	// started in its place; nil when strace ran the command itself.
	Ranks *AppRanks `json:"ranks,omitempty"`
	// TracedSeconds is the wall time of the traced run; UntracedSeconds
	// that of a run without the tracer (0: none ran, UntracedWhy says
	// why). WallBasis says which the report's comparisons take.
	TracedSeconds   float64 `json:"traced_wall_seconds,omitempty"`
	UntracedSeconds float64 `json:"untraced_wall_seconds,omitempty"`
	UntracedWhy     string  `json:"untraced_note,omitempty"`
	WallBasis       string  `json:"wall_basis"`
	// TracedWriteSeconds is strace's -T time of the write calls: the
	// tracer inflates it, so it is reported, not compared.
	TracedWriteSeconds float64            `json:"traced_write_seconds,omitempty"`
	Libraries          []AppLibrary       `json:"libraries"`
	Flush              string             `json:"flush"` // the program's flush mode (workload.Flush constants)
	FlushWhy           string             `json:"flush_reason"`
	Unseen             []string           `json:"unseen_writes,omitempty"` // files written through mmap
	Behaviours         []advice.Behaviour `json:"behaviours,omitempty"`
	Curve              *AppProgramCurve   `json:"curve,omitempty"`
	RuntimePrice       *AppRuntimePrice   `json:"runtime_price,omitempty"`
	Notes              []string           `json:"notes,omitempty"`
	// NoCurve says why no curve was measured for the program, when none
	// was: it wrote no regular file, or there is no room for the curve.
	NoCurve string `json:"no_curve,omitempty"`
}

// AppRuntimePrice is the program's writes priced through the runtime
// that made them: its own writer, records through the buffer that gives
// the program's call size now and through the advised one, interleaved.
// A write(2) curve prices the calls; this prices the runtime around them.
type AppRuntimePrice struct {
	Runtime     string   `json:"runtime"` // advice's runtime name
	Files       []string `json:"files"`   // the program's files it stands for
	Bytes       int64    `json:"bytes"`   // the program's bytes in them
	RunBytes    int64    `json:"run_bytes"`
	RecordBytes int64    `json:"record_bytes"`
	RecordNote  string   `json:"record_note"`
	Flush       string   `json:"flush"`
	// Now and Advised are the writer's runs; a buffer is the writer's,
	// which gives the calls the program makes.
	Now     AppPriceTiming `json:"now"`
	Advised AppPriceTiming `json:"advised"`
	// Saving is for the program's Bytes: the runs' saving scaled.
	SavingSeconds float64 `json:"saving_seconds"`
	SavingLow     float64 `json:"saving_seconds_low"`
	SavingHigh    float64 `json:"saving_seconds_high"`
}

// Settled says whether the price tells a saving or a loss: its
// interval holds no "no change". An unsettled price is shown, and the
// estimate stays the curve's.
func (rp *AppRuntimePrice) Settled() bool { return rp.SavingLow > 0 || rp.SavingHigh < 0 }

// AppPriceTiming is one buffer's runs: median seconds and its interval.
type AppPriceTiming struct {
	BufferBytes int64   `json:"buffer_bytes"`
	Seconds     float64 `json:"seconds"`
	Low         float64 `json:"seconds_low"`
	High        float64 `json:"seconds_high"`
	Runs        int     `json:"runs"`
	Calls       int64   `json:"calls"` // of a run; -1: not counted
}

// AppRanks is how many of a launcher's ranks were traced: each writes
// a trace of its own where the working directory is shared, so a rank
// on a node that cannot see it, or lacks strace, runs untraced.
type AppRanks struct {
	Launcher string `json:"launcher"`        // "mpirun", "mpiexec.hydra", "srun"
	Traced   int    `json:"traced"`          // the ranks whose traces appeared
	Asked    int    `json:"asked,omitempty"` // the ranks the command line asks for; 0: it does not say
}

// Missing is how many ranks asked for left no trace.
func (r *AppRanks) Missing() int { return max(0, r.Asked-r.Traced) }

// AppLibrary is one I/O runtime the program loaded or linked.
type AppLibrary struct {
	Kind     string `json:"kind"`
	Lib      string `json:"lib,omitempty"` // the shared object's path; "" when static
	Version  string `json:"version,omitempty"`
	Evidence string `json:"evidence"`
}

// AppProgramCurve is where the curve that priced the program came from.
type AppProgramCurve struct {
	Source     string  `json:"source"`  // "quick sweep" or the --curve file
	Flush      string  `json:"flush"`   // the curve's flush mode
	Matches    bool    `json:"matches"` // the curve's flush mode is the program's
	Dir        string  `json:"dir,omitempty"`
	FileBytes  int64   `json:"file_bytes,omitempty"` // bytes per run of the quick sweep
	Seconds    float64 `json:"seconds,omitempty"`    // what the quick sweep took
	Comparable bool    `json:"comparable"`           // the estimate may be held against the program's time
}
