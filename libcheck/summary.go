package libcheck

import (
	"cmp"
	"math"
	"slices"

	"github.com/iobench/iobench/knee"
)

// Sweep is the write(2) sweep whose curve predicts what a runtime should
// measure: the throughput at each write size, every run kept, and the
// knee and recommendation drawn from it.
type Sweep struct {
	// Source says where the curve came from, for the report.
	Source string       `json:"source"`
	Points []SweepPoint `json:"points"`
	// KneeBytes is the sweep's knee and RecommendedBytes its recommended
	// write size; 0 without a knee.
	KneeBytes        int64   `json:"knee_bytes"`
	KneeEstablished  bool    `json:"knee_established"`
	RecommendedBytes int64   `json:"recommended_bytes"`
	Fraction         float64 `json:"knee_fraction"`
}

// SweepPoint is every run of one write size of the sweep.
type SweepPoint struct {
	WriteSize int64     `json:"write_size"`
	MiBPerSec []float64 `json:"mib_per_s"` // each run
}

// NewSweep builds a Sweep from runs grouped by size, as package knee
// groups them (unusable values dropped, sorted by size).
func NewSweep(source string, runs []knee.Runs, kneeBytes, recommended int64, established bool, fraction float64) *Sweep {
	s := &Sweep{Source: source, KneeBytes: kneeBytes, RecommendedBytes: recommended, KneeEstablished: established, Fraction: fraction}
	for _, r := range knee.GroupRuns(runs) {
		s.Points = append(s.Points, SweepPoint{WriteSize: r.Size, MiBPerSec: r.MiBPerSec})
	}
	return s
}

// How a sweep figure was read off the curve.
const (
	FromMeasured     = "measured"     // the sweep ran that write size
	FromInterpolated = "interpolated" // between two sizes it ran, linear in log2(size)
	FromLargest      = "largest"      // above the sweep: its largest size's figure
	FromSmallest     = "smallest"     // below the sweep: its smallest size's figure
)

// at is the sweep's median throughput at write size n, the runs behind it
// when n was measured, and how it was read.
func (s *Sweep) at(n int64) (mib float64, runs []float64, how string) {
	pts := s.Points
	if len(pts) == 0 {
		return 0, nil, ""
	}
	i, found := slices.BinarySearchFunc(pts, n, func(p SweepPoint, n int64) int { return cmp.Compare(p.WriteSize, n) })
	switch {
	case found:
		return knee.Median(pts[i].MiBPerSec), pts[i].MiBPerSec, FromMeasured
	case i == 0:
		return knee.Median(pts[0].MiBPerSec), nil, FromSmallest
	case i == len(pts):
		return knee.Median(pts[i-1].MiBPerSec), nil, FromLargest
	}
	lo, hi := pts[i-1], pts[i]
	x0, x1 := math.Log2(float64(lo.WriteSize)), math.Log2(float64(hi.WriteSize))
	t := (math.Log2(float64(n)) - x0) / (x1 - x0)
	m0, m1 := knee.Median(lo.MiBPerSec), knee.Median(hi.MiBPerSec)
	return m0 + t*(m1-m0), nil, FromInterpolated
}

// AgreeTolerance is how far a measured gain may be from the predicted
// one and still agree with it when the interval does not hold it.
const AgreeTolerance = 0.15

// Agreement verdicts.
const (
	AgreeInterval = "within_interval" // the predicted gain lies in the measured gain's interval
	AgreeClose    = "within_15pct"    // outside it, but within AgreeTolerance
	Differ        = "differ"          // further apart than both
)

// Summary is what a runtime plan measured, case by case, held against
// the write(2) sweep, and the buffer each layout and byte order needs.
type Summary struct {
	Runtime Runtime       `json:"runtime"`
	Cases   []CaseSummary `json:"cases"`
	Advice  []Advice      `json:"advice"`
	// CallsAsPredicted: every case's write(2) calls, in every run, were
	// the ones Predict gives from the runtime's buffering rule.
	CallsAsPredicted bool `json:"calls_as_predicted"`
	// Pack is, for MPI-IO, what gathering strided memory cost: the
	// library's and the writer's typed loop, beside each strided case.
	Pack []PackCost `json:"pack,omitempty"`
}

// CaseSummary is one case: measured through the runtime (MiB/s, its
// interval, the write(2) calls the writer counted, the gain over the
// default) and inferred from write(2) (Predicted calls, Sweep).
type CaseSummary struct {
	Case
	Runs         int     `json:"runs"`
	MiBPerSec    float64 `json:"mib_per_s"` // median
	CILow        float64 `json:"ci_low_mib_per_s"`
	CIHigh       float64 `json:"ci_high_mib_per_s"`
	CIConfidence float64 `json:"ci_confidence"`
	CV           float64 `json:"cv"`
	// WriteCalls is the median count of write(2) calls per run, -1 when
	// the writer could not count them; MeanCallBytes the bytes per call.
	WriteCalls    int64   `json:"write_calls"`
	MeanCallBytes float64 `json:"mean_call_bytes"`
	// Predicted is what the runtime's buffering rule gives (Predict);
	// CallsAsPredicted says every run counted exactly Predicted.Count.
	Predicted        Calls `json:"predicted_calls"`
	CallsAsPredicted bool  `json:"calls_as_predicted"`
	// A library's calls outside the data path (HDF5's metadata, OMPIO's
	// at open): the median counted, and what its rule gives, which may
	// vary between Min and Max. WriteCalls counts them too; Predicted
	// does not.
	OverheadCalls     int64      `json:"overhead_calls,omitempty"`
	PredictedOverhead *CallRange `json:"predicted_overhead,omitempty"`
	// Rule names the library's rule behind Predicted; NoRule says why
	// none models the case (then CallsAsPredicted is false).
	Rule   string `json:"rule,omitempty"`
	NoRule string `json:"no_rule,omitempty"`
	// PackNanos is the MPI-IO writer's median packing time (packed memory).
	PackNanos int64 `json:"pack_ns,omitempty"`
	// Gain is this buffer over the runtime's default for the same layout
	// and byte order; nil for the default itself or without one.
	Gain *knee.Gain `json:"gain,omitempty"`
	// Sweep is the write(2) sweep's prediction for the case; nil without
	// a sweep.
	Sweep *SweepPrediction `json:"sweep,omitempty"`
}

// SweepPrediction is what the write(2) sweep says a case should give,
// from the calls the buffering rule predicts.
type SweepPrediction struct {
	CallBytes int64   `json:"call_bytes"` // mean write(2) size the rule gives
	MiBPerSec float64 `json:"mib_per_s"`  // the sweep's throughput at that size
	From      string  `json:"from"`       // how it was read: a From* value
	// RuntimeShare is the runtime's measured median over MiBPerSec: what
	// the runtime's copying and converting cost beside raw write(2).
	RuntimeShare float64 `json:"runtime_share"`
	// Gain is MiBPerSec over the default's; GainLow and GainHigh bound it
	// when the sweep measured both sizes (knee.CompareGain), else they
	// equal Gain. SameCalls: the rule gives both the same calls, so the
	// gain is 1 by construction.
	Gain      float64 `json:"gain"`
	GainLow   float64 `json:"gain_ci_low"`
	GainHigh  float64 `json:"gain_ci_high"`
	SameCalls bool    `json:"same_calls"`
	// Agreement is the measured gain against this one (an Agree* value or
	// Differ) and DiffersBy the measured gain over it, minus 1.
	Agreement string  `json:"agreement"`
	DiffersBy float64 `json:"differs_by"`
}

// Summarize derives the summary of res, the samples of plan p run with
// rt, against the write(2) sweep sw (nil: none).
func Summarize(rt Runtime, p Plan, res *Result, sw *Sweep) Summary {
	sum := Summary{Runtime: rt, CallsAsPredicted: true}
	bySample := map[Case][]Sample{}
	for _, s := range res.Samples {
		bySample[s.Case] = append(bySample[s.Case], s)
	}
	for _, c := range p.Cases() {
		ss := bySample[c]
		if len(ss) == 0 {
			continue
		}
		cs := summarizeCase(rt, p, c, ss)
		sum.CallsAsPredicted = sum.CallsAsPredicted && cs.CallsAsPredicted
		sum.Cases = append(sum.Cases, cs)
	}
	if len(sum.Cases) == 0 {
		sum.CallsAsPredicted = false
	}
	sum.compareDefaults(rt, p, bySample, sw)
	if rt.IsLibrary() {
		sum.Advice = adviseLibrary(rt, p, sum.Cases, sw)
		sum.Pack = packCosts(p, sum.Cases)
		return sum
	}
	sum.Advice = advise(rt, p, sum.Cases, sw)
	return sum
}

func summarizeCase(rt Runtime, p Plan, c Case, ss []Sample) CaseSummary {
	rates, calls, callBytes := make([]float64, len(ss)), make([]float64, len(ss)), make([]float64, len(ss))
	cs := CaseSummary{Case: c, Runs: len(ss)}
	counted := true
	for i, s := range ss {
		rates[i] = s.MiBPerSec()
		calls[i] = float64(s.WriteCalls)
		if s.WriteCalls > 0 && s.WrittenBytes >= 0 {
			callBytes[i] = float64(s.WrittenBytes) / float64(s.WriteCalls)
		}
		counted = counted && s.WriteCalls >= 0
	}
	cs.MiBPerSec, cs.CV = knee.Median(rates), knee.CV(rates)
	if ci := knee.SummarizeRuns(rates); !math.IsNaN(ci.Median) {
		cs.CILow, cs.CIHigh, cs.CIConfidence = ci.Low, ci.High, ci.Confidence
	}
	cs.WriteCalls, cs.MeanCallBytes = -1, 0
	if counted {
		cs.WriteCalls, cs.MeanCallBytes = int64(knee.Median(calls)), knee.Median(callBytes)
	}
	if rt.IsLibrary() {
		cs.libraryCalls(rt, p, ss, counted)
		return cs
	}
	cs.Predicted = predict(rt, p, c)
	cs.CallsAsPredicted = counted
	for _, s := range ss {
		cs.CallsAsPredicted = cs.CallsAsPredicted && s.WriteCalls == cs.Predicted.Count
	}
	return cs
}

// predict is Predict for case c of plan p; a plan that validated cannot
// make it fail. A library's case without a rule gives no calls.
func predict(rt Runtime, p Plan, c Case) Calls {
	if rt.IsLibrary() {
		lc, _ := predictLibrary(rt, p, c)
		return lc.Data
	}
	pat := Pattern{Bytes: p.Bytes(), BufferBytes: c.BufferBytes, Swap: c.Swap()}
	if c.Layout == LayoutRecords {
		pat.RecordBytes = p.RecordBytes
	}
	calls, _ := Predict(rt, pat)
	return calls
}

// meanCall is the mean write(2) size of calls for bytes of data.
func meanCall(bytes int64, c Calls) int64 {
	if c.Count == 0 {
		return 0
	}
	return bytes / c.Count
}

// compareDefaults sets each case's gain over the default case of its
// layout and byte order, measured and as the sweep predicts it.
func (sum *Summary) compareDefaults(rt Runtime, p Plan, samples map[Case][]Sample, sw *Sweep) {
	fraction := knee.DefaultFraction
	if sw != nil && sw.Fraction > 0 && sw.Fraction <= 1 {
		fraction = sw.Fraction
	}
	for i := range sum.Cases {
		cs := &sum.Cases[i]
		def := p.defaultOf(cs.Case)
		defRuns := rates(samples[def])
		if !cs.Default && len(defRuns) > 0 {
			g := knee.CompareGain(rates(samples[cs.Case]), defRuns, fraction)
			cs.Gain = &g
		}
		if sw == nil || len(sw.Points) == 0 || cs.Predicted.Count == 0 {
			continue
		}
		cs.Sweep = sw.predict(p.totalBytes(rt), cs, predict(rt, p, def), fraction)
	}
}

func rates(ss []Sample) []float64 {
	out := make([]float64, len(ss))
	for i, s := range ss {
		out[i] = s.MiBPerSec()
	}
	return out
}

// predict is the sweep's prediction for cs, whose default case makes
// defCalls.
func (s *Sweep) predict(bytes int64, cs *CaseSummary, defCalls Calls, fraction float64) *SweepPrediction {
	n, dn := meanCall(bytes, cs.Predicted), meanCall(bytes, defCalls)
	mib, runs, how := s.at(n)
	dmib, druns, _ := s.at(dn)
	sp := &SweepPrediction{CallBytes: n, MiBPerSec: mib, From: how}
	if mib > 0 {
		sp.RuntimeShare = cs.MiBPerSec / mib
	}
	switch {
	case n == dn:
		sp.Gain, sp.GainLow, sp.GainHigh, sp.SameCalls = 1, 1, 1, true
	case runs != nil && druns != nil:
		g := knee.CompareGain(runs, druns, fraction)
		sp.Gain, sp.GainLow, sp.GainHigh = g.Ratio, g.Low, g.High
	case dmib > 0:
		sp.Gain = mib / dmib
		sp.GainLow, sp.GainHigh = sp.Gain, sp.Gain
	}
	if cs.Gain != nil && sp.Gain > 0 {
		sp.Agreement, sp.DiffersBy = agreement(*cs.Gain, sp.Gain)
	}
	return sp
}

// agreement holds a measured gain against a predicted one.
func agreement(measured knee.Gain, predicted float64) (string, float64) {
	by := measured.Ratio/predicted - 1
	switch {
	case predicted >= measured.Low && predicted <= measured.High:
		return AgreeInterval, by
	case math.Abs(by) <= AgreeTolerance:
		return AgreeClose, by
	}
	return Differ, by
}
