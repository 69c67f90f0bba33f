package verdict

import (
	"fmt"
	"maps"
	"slices"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/fsinfo"
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/record"
)

// Summary is what a sweep's samples say: the rows by size, the knees
// with their intervals, how the knee moves between rounds, the
// recommendation with how to apply it, and the warnings these call for.
// Summarize derives it; renderers only read it.
type Summary struct {
	Results        []record.SizeResult
	Knee           knee.Estimate
	ReadKnee       *knee.Estimate // when a sweep measured both directions
	KneeStability  *knee.Spread   // with MinStabilityRounds full rounds or more
	Recommendation *advice.Recommendation
	// Variants are the curves of an interleaved sweep (--convert, --type
	// or --direct lists), the first the reference; Results then hold every
	// variant's rows, and Knee, ReadKnee, KneeStability and the
	// recommendation are the first variant's.
	Variants []VariantResult
	// Ratios are each later variant over the first, size by size.
	Ratios   []VariantRatio
	Warnings []Warning
	// Verdict is the answer a report gives first, from the numbers above.
	Verdict Verdict
}

// Warning is a warning the summary's numbers call for, in words a
// report prints as they are.
type Warning struct {
	Kind WarningKind
	Text string
}

// WarningKind says what a Warning is about.
type WarningKind string

// The warnings Summarize derives.
const (
	// WarnKneeNotEstablished: a knee was found but its interval is too
	// wide to rely on, so the recommendation is provisional.
	WarnKneeNotEstablished WarningKind = "knee_not_established"
	// WarnOutliersSetAside: isolated slow runs were left out of the knee
	// with too few rounds to check that they were noise.
	WarnOutliersSetAside WarningKind = "outliers_set_aside"
)

// MinStabilityRounds is the fewest full rounds for which Summarize reports
// how the knee moves between rounds: with two, one disagreement cannot say
// which round was the odd one out.
const MinStabilityRounds = 3

// Summarize derives the summary of a sweep's result, run with plan c on
// file system fs, its how-to-apply block for the runtimes applyFor names
// (advice.ParseRuntimes names; empty: every one that applies). sweep and
// analyze both call it, so the same samples give the same report.
func Summarize(res *record.Result, c record.Config, fs fsinfo.Info, applyFor []string) Summary {
	s := Summary{Results: record.Summarize(res)}
	s.Variants = variantCurves(res, c, s.Results)
	// An interleaved sweep's knee and recommendation are its first
	// variant's; each variant's curve is in Variants.
	rows, first := s.Results, curveOf("", s.Results, res, c)
	if len(s.Variants) > 0 {
		rows, first = VariantRows(s.Results, s.Variants[0].Name), s.Variants[0]
		s.Ratios = variantRatios(s.Variants, s.Results, c.KneeFraction)
	}
	s.Knee, s.ReadKnee, s.KneeStability = first.Knee, first.ReadKnee, first.KneeStability
	s.Recommendation = advice.Recommend(s.Knee, Runs(rows, c.PrimaryMode()), fs)
	s.Verdict = sweepVerdict(ModeRows(rows, c.PrimaryMode()), s.Knee, s.Recommendation, c, fs.IOBlockSize, applyFor, res.Incomplete)
	s.Recommendation.Apply = howToApply(s.Recommendation, s.Verdict, s.Knee, c, fs, applyFor)
	s.Recommendation.Apply = applyVerdict(s.Recommendation.Apply, s.Verdict)
	s.Warnings = KneeWarnings(s.Knee)
	return s
}

// curveOf is the knees of the curve of rows, the variant name ("" for a
// sweep of one), and how its knee moves between the rounds of res.
func curveOf(name string, rows []record.SizeResult, res *record.Result, c record.Config) VariantResult {
	v := VariantResult{Name: name}
	v.Knee, v.ReadKnee = knees(rows, c)
	samples := res.Samples
	if name != "" {
		samples = variantSamples(samples, name)
	}
	if rounds := FullRoundCurves(samples, c.PrimaryMode()); len(rounds) >= MinStabilityRounds {
		sp := knee.Stability(rounds, c.KneeFraction)
		v.KneeStability = &sp
	}
	if res.Adaptive != nil {
		v.Knee.Rounds = res.Adaptive.Rounds // the rounds run, not the most runs of one size
	}
	return v
}

// knees are the knee of the primary direction, and of reads when a sweep
// measured both, of rows.
func knees(rows []record.SizeResult, c record.Config) (knee.Estimate, *knee.Estimate) {
	k := knee.EstimateKnee(Runs(rows, record.ModeWrite), c.KneeFraction)
	if c.Mode == record.ModeWrite {
		return k, nil
	}
	rk := knee.EstimateKnee(Runs(rows, record.ModeRead), c.KneeFraction)
	if c.Mode == record.ModeRead {
		return rk, nil
	}
	return k, &rk
}

// howToApply is the recommendation's how-to-apply block: for a write knee
// (a flat curve has none, and read advice sets no write buffer), the
// settings of the runtimes applyFor names.
func howToApply(rec *advice.Recommendation, v Verdict, k knee.Estimate, c record.Config, fs fsinfo.Info, applyFor []string) []advice.Apply {
	if !rec.Applicable() || c.PrimaryMode() != record.ModeWrite {
		return nil
	}
	buf := rec.BufferSize
	if v.Writes != nil {
		buf = v.Writes.Recommended // the safe size when the knee is not established
	}
	as := advice.HowToApply(advice.ApplyFacts{Knee: k.WriteSize, Buffer: buf, FS: fs,
		StripeSize: c.StripeSize, DefaultVerdict: rec.Gfortran.Verdict})
	if kept, err := advice.FilterApply(as, applyFor); err == nil {
		return kept
	}
	return as // names the command line did not check: all, rather than none
}

// KneeWarnings are the warnings the knee calls for: one that is not
// established, and slow runs set aside with too few rounds to be sure.
func KneeWarnings(k knee.Estimate) []Warning {
	var out []Warning
	if k.Found && !k.Established {
		out = append(out, Warning{WarnKneeNotEstablished, "knee: " + advice.StatusWords(k) + "; treat the recommendation as provisional"})
	}
	if len(k.Outliers) > 0 && k.Rounds < MinStabilityRounds {
		out = append(out, Warning{WarnOutliersSetAside, fmt.Sprintf("knee: isolated slow runs at %v bytes were set aside; run with --repeat 3 or more for medians and a knee stability check", k.Outliers)})
	}
	return out
}

// FullRoundCurves is one curve per round of samples in one direction, in
// round order, for the rounds that measured every size: each is a full
// sweep with its own knee. Rounds that measured only some sizes (adaptive
// rounds, an interrupted sweep) are left out.
func FullRoundCurves(samples []record.Sample, mode record.Mode) [][]knee.Point {
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
func Runs(rows []record.SizeResult, mode record.Mode) []knee.Runs {
	out := make([]knee.Runs, 0, len(rows))
	for _, row := range rows {
		if row.Mode != mode {
			continue
		}
		r := knee.Runs{Size: row.WriteSize, MiBPerSec: make([]float64, len(row.Samples))}
		for i, s := range row.Samples {
			r.MiBPerSec[i] = s.MiBPerSec()
		}
		out = append(out, r)
	}
	return out
}
