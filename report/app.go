package report

import (
	"cmp"
	"io"
	"slices"
	"time"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/fsinfo"
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/workload"
)

// AppReport is `iobench app`: what a program's writes, read from Darshan
// logs or strace traces, cost on a measured curve, and what to set.
type AppReport struct {
	Tool      Tool        `json:"tool"`
	Command   []string    `json:"command"`
	StartTime time.Time   `json:"start_time"`
	Program   *AppProgram `json:"program,omitempty"` // app -- PROG: the run itself
	Curve     *AppCurve   `json:"curve,omitempty"`   // nil without --curve
	Inputs    []AppInput  `json:"inputs"`
	// Estimate is all inputs together on the curve; nil without one.
	Estimate *AppEstimate `json:"estimate,omitempty"`
	Warnings []string     `json:"warnings,omitempty"`

	curve *Report // the curve's report, for its settings' rendering
}

// AppReporter writes an AppReport in one format.
type AppReporter func(w io.Writer, r *AppReport) error

// AppCurve is the curve the writes are held against.
type AppCurve struct {
	Path        string      `json:"path"`
	FS          fsinfo.Info `json:"fs"`
	MinSize     int64       `json:"min_write_size"`
	MaxSize     int64       `json:"max_write_size"`
	Knee        int64       `json:"knee_write_size"`        // 0: no knee
	Established bool        `json:"knee_established"`       // the knee is established
	Recommended int64       `json:"recommended_write_size"` // 0: no recommendation
	Plateau     float64     `json:"plateau_mib_per_s"`      // 0: no plateau
	Summary     string      `json:"recommendation_summary"` // the curve's own recommendation
	Fraction    float64     `json:"knee_fraction"`          // the knee's band: a gain must clear 1/fraction
	StdioBuffer int64       `json:"stdio_buffer,omitempty"` // C stdio's write(2) size there
}

// AppInput is one log or trace.
type AppInput struct {
	Path           string      `json:"path"`
	Kind           string      `json:"kind"` // darshan or strace
	DarshanVersion string      `json:"darshan_version,omitempty"`
	Compression    string      `json:"compression,omitempty"`
	NProcs         int64       `json:"nprocs"`
	Exe            string      `json:"exe,omitempty"`
	RunSeconds     float64     `json:"run_seconds,omitempty"`
	Partial        []string    `json:"partial"` // modules with incomplete data: totals are lower bounds
	Skipped        []string    `json:"skipped,omitempty"`
	Notes          []string    `json:"notes,omitempty"`
	Modules        []AppModule `json:"modules"`
	Files          []AppFile   `json:"files"`
	// Estimate is this input's files on the curve; nil without one.
	Estimate *AppEstimate `json:"estimate,omitempty"`
}

// AppModule is one module's totals in one input.
type AppModule struct {
	Module       string           `json:"module"`
	Records      int              `json:"records"`
	Files        int              `json:"files"`
	Writes       int64            `json:"writes"`
	BytesWritten int64            `json:"bytes_written"`
	Histogram    map[string]int64 `json:"write_histogram,omitempty"` // POSIX, MPI-IO, strace: Darshan's bins
	WriteSeconds float64          `json:"write_seconds"`             // as the log measured, summed over ranks
}

// AppFile is one file's writes.
type AppFile struct {
	Path              string         `json:"path"`
	Module            string         `json:"module"`
	Mount             string         `json:"mount,omitempty"`
	FSType            string         `json:"fs_type,omitempty"`
	Records           int            `json:"records"`
	Shared            bool           `json:"shared,omitempty"`
	Writes            int64          `json:"writes"`
	BytesWritten      int64          `json:"bytes_written"`
	Sizes             []AppSizeClass `json:"sizes,omitempty"` // none for STDIO: only the mean
	MeanSize          int64          `json:"mean_write_size"`
	WriteSeconds      float64        `json:"write_seconds"`
	CollectiveWrites  int64          `json:"collective_writes,omitempty"`
	IndependentWrites int64          `json:"independent_writes,omitempty"`
	// Estimate is the file on the curve, when it is its path's write(2)
	// layer (a file written through MPI-IO onto POSIX is estimated once,
	// by its POSIX record).
	Estimate *AppEstimate `json:"estimate,omitempty"`
}

// AppSizeClass is write calls of one exact size (low = high) or of a
// Darshan bin.
type AppSizeClass struct {
	Low   int64  `json:"low"`
	High  int64  `json:"high"`
	Calls int64  `json:"calls"`
	Bin   string `json:"bin,omitempty"`
	// Bytes, Outside and the seconds are the class on the curve, in an
	// estimate's classes.
	Bytes                int64   `json:"bytes,omitempty"`
	Outside              bool    `json:"outside_curve,omitempty"`
	SecondsNow           float64 `json:"seconds_now,omitempty"`
	SecondsAtRecommended float64 `json:"seconds_at_recommended,omitempty"`
}

// AppEstimate is writes on the curve: seconds now, at the recommended
// size, the saving and the gain, each with its interval.
type AppEstimate struct {
	Basis                string  `json:"basis,omitempty"` // for a file: where its write(2) sizes come from
	SecondsNow           float64 `json:"seconds_now"`
	SecondsNowLow        float64 `json:"seconds_now_low"`
	SecondsNowHigh       float64 `json:"seconds_now_high"`
	SecondsAtRecommended float64 `json:"seconds_at_recommended"`
	SecondsAtRecLow      float64 `json:"seconds_at_recommended_low"`
	SecondsAtRecHigh     float64 `json:"seconds_at_recommended_high"`
	SavingSeconds        float64 `json:"saving_seconds"`
	Gain                 float64 `json:"gain"`
	GainLow              float64 `json:"gain_ci_low"`
	GainHigh             float64 `json:"gain_ci_high"`
	// MeasuredWriteSeconds is the write time the logs measured in the
	// same writes, summed over ranks; AccountsFor the estimate now over
	// it (0: none measured).
	MeasuredWriteSeconds float64 `json:"measured_write_seconds"`
	AccountsFor          float64 `json:"accounts_for,omitempty"`
	// MeasuredBy says what measured it: Darshan's timers, which the
	// estimate may be held against, or strace's -T, which the tracer
	// inflates (then AccountsFor is 0).
	MeasuredBy     string `json:"measured_by,omitempty"`
	EstimatedCalls int64  `json:"estimated_calls"`
	EstimatedBytes int64  `json:"estimated_bytes"`
	OutsideCalls   int64  `json:"outside_curve_calls"`
	OutsideBytes   int64  `json:"outside_curve_bytes"`
	// Classes are a file's write(2) calls by size as the estimate took
	// them (for STDIO, those its buffer makes), each with its cost.
	Classes []AppSizeClass `json:"classes,omitempty"`
	// SmallWrites, Evidence and Apply are set on the estimate of all
	// inputs.
	SmallWrites *AppSmallWrites   `json:"small_writes,omitempty"`
	Evidence    []advice.Evidence `json:"evidence,omitempty"`
	Apply       []advice.Apply    `json:"apply,omitempty"`
}

// AppSmallWrites is Drishti's small-write check against the curve.
type AppSmallWrites struct {
	Calls                int64   `json:"calls"`
	Of                   int64   `json:"of"`
	Flagged              bool    `json:"flagged"` // Drishti would flag them
	CurveAgrees          bool    `json:"curve_agrees"`
	SecondsNow           float64 `json:"seconds_now"`
	SecondsAtRecommended float64 `json:"seconds_at_recommended"`
	Gain                 float64 `json:"gain"`
	GainLow              float64 `json:"gain_ci_low"`
	GainHigh             float64 `json:"gain_ci_high"`
}

// CostCurve is the report's write curve, its first variant's, as the
// estimate of a program's writes takes it; stdioBuffer is C stdio's
// write(2) size on the report's file system.
func (r *Report) CostCurve(stdioBuffer int64) advice.CostCurve {
	c := advice.CostCurve{Fraction: r.Config.KneeFraction, StdioBuffer: stdioBuffer}
	if c.Fraction <= 0 {
		c.Fraction = knee.DefaultFraction
	}
	if rec := r.Recommendation; rec != nil {
		c.Recommended = rec.BufferSize
	}
	first := ""
	if len(r.Variants) > 0 {
		first = r.Variants[0].Name
	}
	for _, row := range r.Results {
		if row.Mode != record.ModeWrite || row.Variant != first || !(row.MiBPerSec > 0) {
			continue
		}
		lo, hi := row.CILow, row.CIHigh
		if !(lo > 0 && hi >= lo) { // one run: the median alone
			lo, hi = row.MiBPerSec, row.MiBPerSec
		}
		c.Points = append(c.Points, advice.CurvePoint{Size: row.WriteSize, MiBPerSec: row.MiBPerSec, Low: lo, High: hi})
	}
	slices.SortFunc(c.Points, func(a, b advice.CurvePoint) int { return cmp.Compare(a.Size, b.Size) })
	return c
}

// AppCurveOf describes the curve of report curve, read from path, as cc
// takes it.
func AppCurveOf(path string, curve *Report, cc advice.CostCurve) *AppCurve {
	c := &AppCurve{Path: path, FS: curve.FS, StdioBuffer: cc.StdioBuffer, Fraction: cc.Fraction, Recommended: cc.Recommended}
	if n := len(cc.Points); n > 0 {
		c.MinSize, c.MaxSize = cc.Points[0].Size, cc.Points[n-1].Size
	}
	if curve.Knee.Found {
		c.Knee, c.Established, c.Plateau = curve.Knee.WriteSize, curve.Knee.Established, curve.Knee.PlateauMiBPerSec
	}
	if rec := curve.Recommendation; rec != nil {
		c.Summary = rec.Summary
	}
	return c
}

// NewAppReport puts the inputs, and with a curve their cost on it, into
// the report; curve is nil without one.
func NewAppReport(head AppReport, inputs []workload.Input, curve *Report, cost *advice.Cost, ev []advice.Evidence, apply []advice.Apply) *AppReport {
	r := head
	r.curve = curve
	costs := map[fileKey]advice.FileCost{}
	if cost != nil {
		for _, fc := range cost.Files {
			costs[fileKey{fc.Input, fc.Path, fc.Module}] = fc
		}
	}
	for n, in := range inputs {
		ai := newAppInput(in)
		var files []advice.FileCost
		for i, f := range in.Files {
			fc, ok := costs[fileKey{n, f.Path, f.Module}]
			if ok {
				ai.Files[i].Estimate = appEstimate(fc, 0)
				ai.Files[i].Estimate.Classes = costedClasses(fc)
				files = append(files, fc)
			}
		}
		if cost != nil {
			ai.Estimate = appEstimate(total(files), 0)
		}
		r.Inputs = append(r.Inputs, ai)
	}
	if cost != nil {
		r.Estimate = appEstimate(cost.Total, cost.AccountsFor)
		r.Estimate.SmallWrites = appSmall(cost.Small)
		r.Estimate.Evidence, r.Estimate.Apply = ev, apply
		r.Estimate.MeasuredBy = measuredBy(inputs)
		if r.Estimate.MeasuredBy != MeasuredByDarshan {
			r.Estimate.AccountsFor = 0 // a tracer's time is not the program's
		}
	}
	return &r
}

// What measured the write time of an app report's inputs.
const (
	MeasuredByDarshan = "darshan"
	MeasuredByStrace  = "strace -T" // inflated by the tracer, per call
	MeasuredByMixed   = "darshan and strace -T"
)

func measuredBy(inputs []workload.Input) string {
	kinds := map[string]bool{}
	for _, in := range inputs {
		kinds[in.Kind] = true
	}
	switch {
	case kinds[workload.KindStrace] && kinds[workload.KindDarshan]:
		return MeasuredByMixed
	case kinds[workload.KindStrace]:
		return MeasuredByStrace
	}
	return MeasuredByDarshan
}

type fileKey struct {
	input        int
	path, module string
}

func newAppInput(in workload.Input) AppInput {
	ai := AppInput{Path: in.Path, Kind: in.Kind, DarshanVersion: in.Version, Compression: in.Compression, NProcs: in.NProcs,
		Exe: in.Exe, RunSeconds: in.RunSeconds, Partial: orEmpty(in.Partial), Skipped: in.Skipped, Notes: in.Notes, Modules: []AppModule{}}
	for _, m := range in.Modules {
		ai.Modules = append(ai.Modules, AppModule{Module: m.Name, Records: m.Records, Files: m.Files, Writes: m.Writes,
			BytesWritten: m.BytesWritten, Histogram: m.Histogram, WriteSeconds: m.WriteSeconds})
	}
	ai.Files = []AppFile{}
	for _, f := range in.Files {
		af := AppFile{Path: f.Path, Module: f.Module, Mount: f.Mount, FSType: f.FSType, Records: f.Records, Shared: f.Shared,
			Writes: f.Writes, BytesWritten: f.Bytes, MeanSize: f.MeanSize(), WriteSeconds: f.WriteSeconds,
			CollectiveWrites: f.CollectiveWrites, IndependentWrites: f.IndependentWrites}
		for _, c := range f.Sizes {
			af.Sizes = append(af.Sizes, AppSizeClass{Low: c.Low, High: c.High, Calls: c.Calls, Bin: c.Bin})
		}
		ai.Files = append(ai.Files, af)
	}
	return ai
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// costedClasses are a file's classes as the estimate saw them (for
// STDIO, the write(2) calls it inferred).
func costedClasses(fc advice.FileCost) []AppSizeClass {
	out := make([]AppSizeClass, len(fc.Classes))
	for i, c := range fc.Classes {
		out[i] = AppSizeClass{Low: c.Low, High: c.High, Calls: c.Calls, Bin: c.Bin, Bytes: c.Bytes, Outside: c.Outside,
			SecondsNow: c.Now.Est, SecondsAtRecommended: c.AtRecommended.Est}
	}
	return out
}

func total(files []advice.FileCost) advice.FileCost { return advice.SumCosts(files) }

func appEstimate(fc advice.FileCost, accountsFor float64) *AppEstimate {
	g, lo, hi := fc.Gain()
	if accountsFor == 0 && fc.Measured > 0 {
		accountsFor = fc.Now.Est / fc.Measured
	}
	return &AppEstimate{Basis: fc.Basis, SecondsNow: fc.Now.Est, SecondsNowLow: fc.Now.Low, SecondsNowHigh: fc.Now.High,
		SecondsAtRecommended: fc.AtRecommended.Est, SecondsAtRecLow: fc.AtRecommended.Low, SecondsAtRecHigh: fc.AtRecommended.High,
		SavingSeconds: fc.Saving().Est, Gain: g, GainLow: lo, GainHigh: hi,
		MeasuredWriteSeconds: fc.Measured, AccountsFor: accountsFor,
		EstimatedCalls: fc.EstimatedCalls, EstimatedBytes: fc.EstimatedBytes, OutsideCalls: fc.OutsideCalls, OutsideBytes: fc.OutsideBytes}
}

func appSmall(s advice.SmallWrites) *AppSmallWrites {
	g, lo, hi := s.Cost.Gain()
	return &AppSmallWrites{Calls: s.Calls, Of: s.Of, Flagged: s.Flagged, CurveAgrees: s.Agrees,
		SecondsNow: s.Cost.Now.Est, SecondsAtRecommended: s.Cost.AtRecommended.Est, Gain: g, GainLow: lo, GainHigh: hi}
}
