// Package report turns a sweep's results into what people read and attach
// to bug reports: one function per output format (Text, JSON, CSV,
// Markdown, Gobench, chosen by Lookup), plots of one or more sweeps (Plot,
// PlotFile), a side-by-side comparison (Compare) of reports read back with
// ReadJSONFile, and Anonymize for reports posted in public.
//
// Every reporter renders into memory and writes once, so there is one
// write error to check and it is always returned; files are published
// atomically and never overwritten (WriteNewFile, PlotFile).
// Throughput is MiB/s (2^20 bytes per second) throughout, except where the
// Go benchmark format demands Go's MB/s (see Gobench).
package report

import (
	"fmt"
	"io"
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

// Report is everything one sweep produced; every format renders it.
type Report struct {
	Tool            Tool                   `json:"tool"`
	Command         []string               `json:"command"`
	StartTime       time.Time              `json:"start_time"`
	DurationSeconds float64                `json:"duration_seconds"`
	Host            hostinfo.Host          `json:"host"`
	FS              fsinfo.Info            `json:"fs"`
	Config          Config                 `json:"config"`
	WarmupRan       bool                   `json:"warmup_ran"`
	Results         []iobench.SizeResult   `json:"results"`
	Knee            knee.Result            `json:"knee"`
	ReadKnee        *knee.Result           `json:"read_knee,omitempty"`
	KneeStability   *knee.Spread           `json:"knee_stability,omitempty"`
	Recommendation  *advice.Recommendation `json:"recommendation,omitempty"`
	MPI             *MPI                   `json:"mpi,omitempty"`
	KeptFile        string                 `json:"kept_file,omitempty"`
	Warnings        []string               `json:"warnings"`
	Incomplete      bool                   `json:"incomplete"`
	Error           string                 `json:"error,omitempty"`
}

// MPI describes a run under mpirun or srun. With it, each sample in Results
// is the aggregate of one run over all ranks: all bytes over the span from
// the earliest start to the latest end, as IOR computes it.
type MPI struct {
	Ranks        int       `json:"ranks"`
	Nodes        int       `json:"nodes"`
	Hosts        []string  `json:"hosts"`          // one per node
	SharedFile   bool      `json:"shared_file"`    // one file, disjoint segments
	CountPerRank bool      `json:"count_per_rank"` // --count/--size per rank (false: --total split)
	PerRank      []RankRun `json:"per_rank"`       // per-run spread across ranks
}

// RankRun is the spread of one run's per-rank throughputs.
type RankRun struct {
	Mode            string  `json:"mode"`
	WriteSize       int64   `json:"write_size"`
	Round           int     `json:"round"`
	MinMiBPerSec    float64 `json:"min_mib_per_s"`
	MedianMiBPerSec float64 `json:"median_mib_per_s"`
	MaxMiBPerSec    float64 `json:"max_mib_per_s"`
	SlowestRank     int     `json:"slowest_rank"`
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
	Count        int64   `json:"count"`           // elements per run
	ElementType  string  `json:"element_type"`    // float64, int32, ...
	ElementSize  int64   `json:"element_size"`    // bytes
	TotalBytes   int64   `json:"total_bytes"`     // bytes per run
	Sizes        []int64 `json:"sizes"`           // write sizes, bytes
	Source       string  `json:"source"`          // array or window
	SourceBytes  int64   `json:"source_bytes"`    // memory held by the source
	Sync         string  `json:"sync"`            // flush before each run: syncfs, sync, none
	Fsync        bool    `json:"fsync"`           // fsync inside the timing
	Repeat       int     `json:"repeat"`          // rounds
	Order        string  `json:"order"`           // size order within a round
	Seed         uint64  `json:"seed"`            // shuffle seed
	Warmup       bool    `json:"warmup"`          // warm-up pass requested
	Convert      string  `json:"convert"`         // byte order in the file
	Stride       int     `json:"stride"`          // source elements per element written
	Mode         string  `json:"mode"`            // write, read, both
	Direct       bool    `json:"direct"`          // O_DIRECT
	CacheDrop    string  `json:"cache_drop"`      // how read runs avoid the page cache
	Verify       bool    `json:"verify"`          // every file read back and checked
	KneeFraction float64 `json:"knee_fraction"`   // share of the plateau that counts
	Clock        string  `json:"clock,omitempty"` // "" is iobench's monotonic clock
	Profile      string  `json:"profile,omitempty"`
	ProfileWhy   string  `json:"profile_reason,omitempty"`
}

// NewConfig describes a plan for the report.
func NewConfig(c iobench.Config, fraction float64) Config {
	return Config{
		Count: c.Count, ElementType: c.Type.String(), ElementSize: c.ElemSize(), TotalBytes: c.TotalBytes(),
		Sizes: c.Sizes, Source: string(c.Source), SourceBytes: c.SourceBytes(), Sync: string(c.Sync),
		Fsync: c.Fsync, Repeat: c.Repeat, Order: string(c.Order), Seed: c.Seed, Warmup: c.Warmup,
		Convert: c.Convert.String(), Stride: c.Stride, Mode: string(c.Mode), Direct: c.Direct,
		CacheDrop: string(c.Drop), Verify: c.Verify, KneeFraction: fraction,
	}
}

// SetResults fills the results and knees from a sweep's outcome.
func (r *Report) SetResults(res *iobench.Result) {
	r.WarmupRan = res.WarmupRan
	r.KeptFile = res.KeptFile
	r.Incomplete = res.Incomplete
	r.Results = iobench.Summarize(res)
	r.Knee = knee.Find(Curve(r.Results, iobench.ModeWrite), r.Config.KneeFraction)
	if r.Config.Mode != string(iobench.ModeWrite) {
		rk := knee.Find(Curve(r.Results, iobench.ModeRead), r.Config.KneeFraction)
		if r.Config.Mode == string(iobench.ModeRead) {
			r.Knee = rk
		} else {
			r.ReadKnee = &rk
		}
	}
	r.KneeStability = nil
	if r.Config.Repeat >= MinStabilityRounds {
		sp := knee.Stability(RoundCurves(res.Samples, r.primaryMode()), r.Config.KneeFraction)
		r.KneeStability = &sp
	}
}

// MinStabilityRounds is the fewest rounds for which SetResults reports how
// the knee moves between rounds: with two, one disagreement cannot say
// which round was the odd one out.
const MinStabilityRounds = 3

// primaryMode is the direction r.Knee describes.
func (r *Report) primaryMode() iobench.Mode {
	if r.Config.Mode == string(iobench.ModeRead) {
		return iobench.ModeRead
	}
	return iobench.ModeWrite
}

// RoundCurves is one curve per round of samples in one direction, in round
// order: each round is a full sweep, so each has its own knee. Rounds with
// no sample (an interrupted sweep) are left out rather than counted as
// rounds without a knee.
func RoundCurves(samples []iobench.Sample, mode iobench.Mode) [][]knee.Point {
	byRound := map[int][]knee.Point{}
	for _, s := range samples {
		if s.Mode == mode {
			byRound[s.Round] = append(byRound[s.Round], knee.Point{Size: s.WriteSize, MiBPerSec: s.MiBPerSec()})
		}
	}
	var out [][]knee.Point
	for _, round := range slices.Sorted(maps.Keys(byRound)) {
		out = append(out, byRound[round])
	}
	return out
}

// Curve is the median curve of one direction, for knee finding.
func Curve(rows []iobench.SizeResult, mode iobench.Mode) []knee.Point {
	var pts []knee.Point
	for _, row := range rows {
		if row.Mode == mode {
			pts = append(pts, knee.Point{Size: row.WriteSize, MiBPerSec: row.MiBPerSec})
		}
	}
	return pts
}

// Reporter writes a report in one format.
type Reporter func(w io.Writer, r *Report) error

// Formats lists the formats Lookup knows.
var Formats = []string{"text", "json", "csv", "markdown", "gobench"}

// Lookup returns the reporter for a --format value.
func Lookup(format string) (Reporter, error) {
	switch format {
	case "text":
		return Text, nil
	case "json":
		return JSON, nil
	case "csv":
		return CSV, nil
	case "markdown":
		return Markdown, nil
	case "gobench":
		return Gobench, nil
	}
	return nil, fmt.Errorf("--format: unknown format %q (valid: %s)", format, strings.Join(Formats, ", "))
}
