package knee

import (
	"math"

	"golang.org/x/perf/benchmath"
)

// Gain compares the runs on the plateau with the runs of one other write
// size (a runtime's default buffer): how much faster the plateau is, with
// an interval, and whether that is a real difference.
type Gain struct {
	// Ratio is the median of the plateau runs over the median of the
	// size's runs.
	Ratio float64 `json:"ratio"`
	// Low and High bound the ratio: the plateau's confidence interval of
	// its median over the size's, each from benchmath (order statistics),
	// so at least Confidence holds for both at once.
	Low        float64 `json:"ci_low"`
	High       float64 `json:"ci_high"`
	Confidence float64 `json:"ci_confidence"`
	// P is the two-sided p-value of the Mann-Whitney U test (benchmath's
	// AssumeNothing comparison) of the two sets of runs.
	P           float64 `json:"p_value"`
	Runs        int     `json:"runs"`         // runs of the size
	PlateauRuns int     `json:"plateau_runs"` // runs on the plateau
	// Significant is true when P is below GainAlpha and even the low end
	// of the interval exceeds the band (1/fraction): the size is
	// measurably slower than the plateau, by more than the band forgives.
	Significant bool `json:"significant"`
}

// GainAlpha is the level of the U test behind Gain.Significant.
const GainAlpha = 0.05

// CompareGain compares plateau runs with the runs of one size; fraction is
// the knee's band (DefaultFraction when out of range). Throughputs are
// MiB/s; unusable values are dropped.
func CompareGain(plateau, at []float64, fraction float64) Gain {
	p, a := usable(plateau), usable(at)
	g := Gain{Runs: len(a), PlateauRuns: len(p)}
	if len(p) == 0 || len(a) == 0 {
		return g
	}
	th := benchmath.DefaultThresholds
	sp, sa := benchmath.NewSample(p, &th), benchmath.NewSample(a, &th)
	ps, as := SummarizeRuns(p), SummarizeRuns(a)
	g.Ratio = ps.Median / as.Median
	g.Low, g.High = ps.Low/as.High, ps.High/as.Low
	g.Confidence = ps.Confidence * as.Confidence
	g.P = benchmath.AssumeNothing.Compare(sp, sa).P
	g.Significant = g.P < GainAlpha && g.Low > 1/normFraction(fraction)
	return g
}

// RunsSummary is the median of a size's runs and its confidence interval,
// as benchmath gives it; where too few runs allow IntervalConfidence, the
// widest interval the runs give (their minimum and maximum) with the
// confidence it has.
type RunsSummary struct {
	Median     float64
	Low        float64
	High       float64
	Confidence float64 // 0 for a single run: no interval
}

// SummarizeRuns summarises runs (MiB/s) with benchmath's AssumeNothing:
// the median, and the order-statistic interval around it.
func SummarizeRuns(runs []float64) RunsSummary {
	v := usable(runs)
	if len(v) == 0 {
		return RunsSummary{Median: math.NaN(), Low: math.NaN(), High: math.NaN()}
	}
	th := benchmath.DefaultThresholds
	s := benchmath.NewSample(v, &th)
	sum := benchmath.AssumeNothing.Summary(s, IntervalConfidence)
	out := RunsSummary{Median: sum.Center, Low: sum.Lo, High: sum.Hi, Confidence: sum.Confidence}
	if math.IsInf(sum.Lo, 0) || math.IsInf(sum.Hi, 0) {
		// The interval [min, max] holds the median with probability
		// 1 - 2 (1/2)^n.
		out.Low, out.High = s.Values[0], s.Values[len(s.Values)-1]
		out.Confidence = 1 - 2*math.Pow(0.5, float64(len(v)))
	}
	return out
}

func usable(xs []float64) []float64 {
	out := make([]float64, 0, len(xs))
	for _, x := range xs {
		if x > 0 && !math.IsInf(x, 1) {
			out = append(out, x)
		}
	}
	return out
}
