package report

import (
	"slices"
	"time"

	"github.com/iobench/iobench/fsinfo"
	"github.com/iobench/iobench/hostinfo"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/verdict"
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
	verdict.Summary
	Adaptive *record.Adaptive // what --repeat auto did
	MPI      *MPI
	Jobs     *Jobs // --jobs: writers in one process, aggregated
	// Variant names the variant a VariantReport shows; "" otherwise.
	Variant   string
	KeptFile  string
	LeftFiles []record.LeftFile // data files that could not be removed
	Verified  *record.Verified  // what --verify read back and checked
	// Warnings are the run's own (the plan, the launcher, files left
	// behind) and the input's, in the order they were added; the
	// summary's follow them (AllWarnings).
	Warnings   []string
	Incomplete bool
	Error      string
	// ETAError is how far the progress display's time left was off; nil
	// when nothing estimated it.
	ETAError *record.ETAError
	// ApplyFor names the runtimes the recommendation's how-to-apply block
	// covers (advice.ParseRuntimes names); empty: every one that applies.
	// A choice of the command line, not a result, so not in JSON.
	ApplyFor []string
}

// SetResult records what a sweep ran, and its summary.
func (r *Report) SetResult(res *record.Result) {
	r.WarmupRan, r.KeptFile, r.LeftFiles, r.Verified, r.Incomplete = res.WarmupRan, res.KeptFile, res.LeftFiles, res.Verified, res.Incomplete
	r.Jobs = newJobs(res.Jobs)
	r.Adaptive = res.Adaptive
	if res.Adaptive != nil {
		r.Config.Repeat = res.Adaptive.Rounds
	}
	r.Summary = verdict.Summarize(res, r.Config, r.FS, r.ApplyFor)
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

// GfortranProfile is the profile whose write sizes are defined as element
// counts (the libgfortran buffer experiment of GCC PR 91030), so tables
// show each size in elements as well as bytes.
const GfortranProfile = "gfortran-pr91030"

// Config is the plan as reported (record.Config).
type Config = record.Config

// ConfigVariant is one variant of an interleaved sweep (record.ConfigVariant).
type ConfigVariant = record.ConfigVariant
