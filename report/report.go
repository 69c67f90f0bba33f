package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/iobench/iobench/advice"
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

// Report is everything one sweep produced; every format renders it.
type Report struct {
	Header
	Config         Config                 `json:"config"`
	WarmupRan      bool                   `json:"warmup_ran"`
	Results        []iobench.SizeResult   `json:"results"`
	Knee           knee.Estimate          `json:"knee"`
	ReadKnee       *knee.Estimate         `json:"read_knee,omitempty"`
	KneeStability  *knee.Spread           `json:"knee_stability,omitempty"`
	Adaptive       *iobench.Adaptive      `json:"adaptive,omitempty"` // what --repeat auto did
	Recommendation *advice.Recommendation `json:"recommendation,omitempty"`
	MPI            *MPI                   `json:"mpi,omitempty"`
	Jobs           *Jobs                  `json:"jobs,omitempty"` // --jobs: writers in one process, aggregated
	// Variants are the curves of an interleaved sweep (--convert, --type
	// or --direct lists), the first the reference; Results then hold every
	// variant's rows, and Knee, ReadKnee, KneeStability and the
	// recommendation are the first variant's.
	Variants []VariantResult `json:"variants,omitempty"`
	// Ratios are each later variant over the first, size by size.
	Ratios []VariantRatio `json:"ratios,omitempty"`
	// Variant names the variant a VariantReport shows; "" otherwise.
	Variant    string             `json:"-"`
	KeptFile   string             `json:"kept_file,omitempty"`
	LeftFiles  []iobench.LeftFile `json:"left_files,omitempty"` // data files that could not be removed
	Verified   *iobench.Verified  `json:"verified,omitempty"`   // what --verify read back and checked
	Warnings   []string           `json:"warnings"`
	Incomplete bool               `json:"incomplete"`
	Error      string             `json:"error,omitempty"`
	// ApplyFor names the runtimes the recommendation's how-to-apply block
	// covers (advice.ParseRuntimes names); empty: every one that applies.
	// A choice of the command line, not a result, so not in JSON.
	ApplyFor []string `json:"-"`
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
	// API is how the ranks move the data: "posix" (write(2), read(2)) or
	// "mpiio" (MPIIO says how).
	API   string `json:"api"`
	MPIIO *MPIIO `json:"mpiio,omitempty"`
	// ReadShift: rank r's read runs read the file of rank (r+ReadShift)
	// mod Ranks (--read-shift, IOR's -C); 0: each rank reads its own.
	ReadShift int `json:"read_shift"`
}

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

// NewConfig describes a plan for the report.
func NewConfig(c iobench.Config, fraction float64) Config {
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

// Summarize derives everything a report says from a sweep's samples:
// per-size results, the knees with their intervals, how the knee moves
// between rounds, the recommendation and the warnings about them. sweep
// and analyze both call it, so the same samples give the same report.
// Warnings it derived before (SummaryWarningPrefix) are replaced; others,
// from the run itself, are kept.
func (r *Report) Summarize(res *iobench.Result) {
	r.WarmupRan = res.WarmupRan
	r.KeptFile = res.KeptFile
	r.LeftFiles = res.LeftFiles
	r.Verified = res.Verified
	r.Incomplete = res.Incomplete
	r.Results = iobench.Summarize(res)
	r.Jobs = newJobs(res.Jobs)
	if res.Adaptive != nil {
		r.Adaptive = res.Adaptive
		r.Config.Repeat = res.Adaptive.Rounds
	}
	f := r.Config.KneeFraction
	// An interleaved sweep's knee and recommendation are its first
	// variant's; each variant's curve is in Variants.
	rows, samples := r.Results, res.Samples
	names := variantNames(res, r.Config, r.Results)
	if len(names) > 0 {
		rows, samples = VariantRows(r.Results, names[0]), variantSamples(res.Samples, names[0])
	}
	r.Knee, r.ReadKnee = r.knees(rows)
	r.KneeStability = nil
	if rounds := FullRoundCurves(samples, r.primaryMode()); len(rounds) >= MinStabilityRounds {
		sp := knee.Stability(rounds, f)
		r.KneeStability = &sp
	}
	if r.Adaptive != nil {
		r.Knee.Rounds = r.Adaptive.Rounds // the rounds run, not the most runs of one size
	}
	r.summarizeVariants(names, res)
	r.Recommendation = advice.Recommend(r.Knee, Runs(rows, r.primaryMode()), r.FS)
	r.Recommendation.Apply = r.howToApply()
	r.Warnings = append(slices.DeleteFunc(slices.Clone(r.Warnings), isSummaryWarning), r.summaryWarnings()...)
}

// SummaryWarningPrefix starts every warning Summarize derives.
const SummaryWarningPrefix = "knee: "

func isSummaryWarning(w string) bool { return strings.HasPrefix(w, SummaryWarningPrefix) }

// summaryWarnings are the warnings the numbers call for: a knee that is
// not established, and slow runs set aside with too few rounds to be sure.
func (r *Report) summaryWarnings() []string {
	var out []string
	k := r.Knee
	if k.Found && !k.Established {
		out = append(out, SummaryWarningPrefix+advice.StatusWords(k)+"; treat the recommendation as provisional")
	}
	if len(k.Outliers) > 0 && k.Rounds < MinStabilityRounds {
		out = append(out, fmt.Sprintf("%sisolated slow runs at %v bytes were set aside; run with --repeat 3 or more for medians and a knee stability check", SummaryWarningPrefix, k.Outliers))
	}
	return out
}

// MinStabilityRounds is the fewest full rounds for which Summarize reports
// how the knee moves between rounds: with two, one disagreement cannot say
// which round was the odd one out.
const MinStabilityRounds = 3

// primaryMode is the direction r.Knee describes.
func (r *Report) primaryMode() iobench.Mode {
	if r.Config.Mode == string(iobench.ModeRead) {
		return iobench.ModeRead
	}
	return iobench.ModeWrite
}

// FullRoundCurves is one curve per round of samples in one direction, in
// round order, for the rounds that measured every size: each is a full
// sweep with its own knee. Rounds that measured only some sizes (adaptive
// rounds, an interrupted sweep) are left out.
func FullRoundCurves(samples []iobench.Sample, mode iobench.Mode) [][]knee.Point {
	byRound := map[int][]knee.Point{}
	sizes := map[int64]bool{}
	for _, s := range samples {
		if s.Mode == mode {
			byRound[s.Round] = append(byRound[s.Round], knee.Point{Size: s.WriteSize, MiBPerSec: s.MiBPerSec()})
			sizes[s.WriteSize] = true
		}
	}
	var out [][]knee.Point
	for _, round := range slices.Sorted(maps.Keys(byRound)) {
		if len(byRound[round]) >= len(sizes) {
			out = append(out, byRound[round])
		}
	}
	return out
}

// Runs are every run of one direction, by size, for the knee estimate.
func Runs(rows []iobench.SizeResult, mode iobench.Mode) []knee.Runs {
	var out []knee.Runs
	for _, row := range rows {
		if row.Mode != mode {
			continue
		}
		r := knee.Runs{Size: row.WriteSize}
		for _, s := range row.Samples {
			r.MiBPerSec = append(r.MiBPerSec, s.MiBPerSec())
		}
		out = append(out, r)
	}
	return out
}
