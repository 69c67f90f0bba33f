package report

import (
	"slices"
	"time"

	"github.com/iobench/iobench/fsinfo"
	"github.com/iobench/iobench/hostinfo"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/knee"
)

// Header is how every report of a measurement begins: the build, the
// command line, when it ran and for how long, the host and the file
// system it measured.
type Header struct {
	Tool            Tool          `json:"tool"`
	Command         []string      `json:"command"`
	StartTime       time.Time     `json:"start_time"`
	DurationSeconds float64       `json:"duration_seconds"`
	Host            hostinfo.Host `json:"host"`
	FS              fsinfo.Info   `json:"fs"`
}

// Report is everything one sweep produced; every format renders it. Its
// JSON document is reportJSON's.
type Report struct {
	Header
	Config    Config
	WarmupRan bool
	Summary
	Adaptive *iobench.Adaptive // what --repeat auto did
	MPI      *MPI
	Jobs     *Jobs // --jobs: writers in one process, aggregated
	// Variant names the variant a VariantReport shows; "" otherwise.
	Variant   string
	KeptFile  string
	LeftFiles []iobench.LeftFile // data files that could not be removed
	Verified  *iobench.Verified  // what --verify read back and checked
	// Warnings are the run's own (the plan, the launcher, files left
	// behind) and the input's, in the order they were added; the
	// summary's follow them (AllWarnings).
	Warnings   []string
	Incomplete bool
	Error      string
	// ETAError is how far the progress display's time left was off; nil
	// when nothing estimated it.
	ETAError *ETAError
	// ApplyFor names the runtimes the recommendation's how-to-apply block
	// covers (advice.ParseRuntimes names); empty: every one that applies.
	// A choice of the command line, not a result, so not in JSON.
	ApplyFor []string
}

// SetResult records what a sweep ran, and its summary.
func (r *Report) SetResult(res *iobench.Result) {
	r.WarmupRan, r.KeptFile, r.LeftFiles, r.Verified, r.Incomplete = res.WarmupRan, res.KeptFile, res.LeftFiles, res.Verified, res.Incomplete
	r.Jobs = newJobs(res.Jobs)
	r.Adaptive = res.Adaptive
	if res.Adaptive != nil {
		r.Config.Repeat = res.Adaptive.Rounds
	}
	r.Summary = Summarize(res, r.Config, r.FS, r.ApplyFor)
}

// AllWarnings are the run's warnings, then the summary's.
func (r *Report) AllWarnings() []string {
	out := slices.Clone(r.Warnings)
	for _, w := range r.Summary.Warnings {
		out = append(out, w.Text)
	}
	return out
}

// MPI describes a run under mpirun or srun. With it, each sample in Results
// is the aggregate of one run over all ranks: all bytes over the span from
// the earliest start to the latest end, as IOR computes it.
type MPI struct {
	Ranks        int      `json:"ranks"`
	Nodes        int      `json:"nodes"`
	Hosts        []string `json:"hosts"`          // one per node
	SharedFile   bool     `json:"shared_file"`    // one file, disjoint segments
	CountPerRank bool     `json:"count_per_rank"` // --count/--size per rank (false: --total split)
	RunBytes     int64    `json:"run_bytes"`      // bytes each run moves over all ranks; 0: unknown
	PerRank      RankRuns `json:"per_rank"`       // per-run spread across ranks
	// PerRankSamples says what became of each rank's own samples
	// (PerRankSummarised); empty in reports of earlier versions.
	PerRankSamples string `json:"per_rank_samples,omitempty"`
	// API is how the ranks move the data: "posix" (write(2), read(2)) or
	// "mpiio" (MPIIO says how).
	API   string `json:"api"`
	MPIIO *MPIIO `json:"mpiio,omitempty"`
	// ReadShift: rank r's read runs read the file of rank (r+ReadShift)
	// mod Ranks (--read-shift, IOR's -C); 0: each rank reads its own.
	ReadShift int `json:"read_shift"`
}

// PerRankSummarised is MPI.PerRankSamples of a report that keeps no
// rank's own samples, so its size does not grow with the ranks.
const PerRankSummarised = "summarised: results hold each run's aggregate over all ranks and per_rank its min, median and max MiB/s over the ranks and the slowest rank; no rank's own samples are kept"

// Tool identifies the build that measured.
type Tool struct {
	Name      string `json:"name"`
	Version   string `json:"version"`
	Revision  string `json:"revision,omitempty"`
	GoVersion string `json:"go_version"`
}

// Config is the plan as reported, with enums spelled out.
type Config struct {
	Count       int64   `json:"count"`                         // elements per run
	ElementType string  `json:"element_type"`                  // float64, int32, ...
	ElementSize int64   `json:"element_size"`                  // bytes
	TotalBytes  int64   `json:"total_bytes"`                   // bytes per run
	Sizes       []int64 `json:"sizes"`                         // write sizes, bytes
	Source      string  `json:"source"`                        // array or window
	SourceBytes int64   `json:"source_bytes"`                  // memory held by the source
	Sync        string  `json:"sync"`                          // flush before each run: syncfs, sync, none
	Fsync       bool    `json:"fsync"`                         // fsync inside the timing
	Repeat      int     `json:"repeat"`                        // rounds (with RepeatAuto, the most any size ran)
	RepeatAuto  bool    `json:"repeat_auto"`                   // --repeat auto: adaptive rounds
	TimeBudget  float64 `json:"time_budget_seconds,omitempty"` // --time-budget, seconds; 0: the default
	Order       string  `json:"order"`                         // size order within a round
	Seed        uint64  `json:"seed"`                          // shuffle seed
	Warmup      bool    `json:"warmup"`                        // warm-up pass requested
	Convert     string  `json:"convert"`                       // byte order in the file
	Stride      int     `json:"stride"`                        // source elements per element written
	Mode        string  `json:"mode"`                          // write, read, both
	Direct      bool    `json:"direct"`                        // O_DIRECT
	CacheDrop   string  `json:"cache_drop"`                    // how read runs avoid the page cache
	Verify      bool    `json:"verify"`                        // every file read back and checked
	Jobs        int     `json:"jobs,omitempty"`                // --jobs: writers in one process; 0 is 1
	// Variants are the variants of an interleaved sweep, in plan order.
	Variants     []ConfigVariant `json:"variants,omitempty"`
	KneeFraction float64         `json:"knee_fraction"`   // share of the plateau that counts
	Clock        string          `json:"clock,omitempty"` // "" is iobench's monotonic clock
	Profile      string          `json:"profile,omitempty"`
	ProfileWhy   string          `json:"profile_reason,omitempty"`
	// StripeSize is the Lustre stripe size of the directory (lfs
	// getstripe) when known, for the how-to-apply block; 0: unknown.
	StripeSize int64 `json:"stripe_size,omitempty"`
	// How each run did its I/O; empty in results of older versions and
	// of other tools.
	TimeLimit   float64 `json:"time_limit_seconds,omitempty"` // --time-limit, seconds; 0: none
	Data        string  `json:"data,omitempty"`               // ramp, random, zero
	Flush       string  `json:"flush,omitempty"`              // fsync, fdatasync, none: inside the timing
	OpenSync    string  `json:"open_sync,omitempty"`          // dsync, sync; "": neither
	Preallocate bool    `json:"preallocate"`                  // each file fallocated before its run
	Overwrite   bool    `json:"overwrite"`                    // one file, written in full first, overwritten by every run
	Latency     bool    `json:"latency"`                      // per-call times measured
	LatencyAll  bool    `json:"latency_all,omitempty"`        // every call timed, not a sample
}

// GfortranProfile is the profile whose write sizes are defined as element
// counts (the libgfortran buffer experiment of GCC PR 91030), so tables
// show each size in elements as well as bytes.
const GfortranProfile = "gfortran-pr91030"

// NewConfig describes a plan for the report; its knee fraction is the
// plan's, knee.DefaultFraction when the plan leaves it 0.
func NewConfig(c iobench.Config) Config {
	fraction := c.KneeFraction
	if fraction == 0 {
		fraction = knee.DefaultFraction
	}
	return Config{
		Count: c.Count, ElementType: c.Type.String(), ElementSize: c.ElemSize(), TotalBytes: c.TotalBytes(),
		Sizes: c.Sizes, Source: string(c.Source), SourceBytes: c.SourceBytes(), Sync: string(c.Sync),
		Fsync: c.FlushKind() == iobench.FlushFsync, Repeat: c.Repeat, RepeatAuto: c.Auto, TimeBudget: c.TimeBudget.Seconds(), Order: string(c.Order), Seed: c.Seed, Warmup: c.Warmup,
		Convert: c.Convert.String(), Stride: c.Stride, Mode: string(c.Mode), Direct: c.Direct,
		CacheDrop: string(c.Drop), Verify: c.Verify, KneeFraction: fraction,
		TimeLimit: c.TimeLimit.Seconds(), Data: string(c.DataKind()), Flush: string(c.FlushKind()), OpenSync: string(c.OpenSync),
		Preallocate: c.Preallocate, Overwrite: c.Overwrite, Latency: c.Latency, LatencyAll: c.LatencyAll,
		Jobs: c.Jobs, Variants: NewConfigVariants(c),
	}
}

// PrimaryMode is the direction a report's Knee describes.
func (c Config) PrimaryMode() iobench.Mode {
	if c.Mode == string(iobench.ModeRead) {
		return iobench.ModeRead
	}
	return iobench.ModeWrite
}
