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
	Notes              []string           `json:"notes,omitempty"`
}

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
