package verdict

import (
	"math"

	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/record"
)

// VariantResult is one variant's curve: the knee of its rows, as a sweep
// of that variant alone would report it.
type VariantResult struct {
	Name          string         `json:"name"`
	Knee          knee.Estimate  `json:"knee"`
	ReadKnee      *knee.Estimate `json:"read_knee,omitempty"`
	KneeStability *knee.Spread   `json:"knee_stability,omitempty"`
}

// VariantRatio is one variant's throughput over the first variant's at
// one size: the ratio of the medians, bounded by the confidence intervals
// of both (knee.CompareGain, benchmath's order statistics), and the
// Mann-Whitney U test of the two sets of runs.
type VariantRatio struct {
	Variant   string      `json:"variant"`
	Mode      record.Mode `json:"mode"`
	WriteSize int64       `json:"write_size"`
	Ratio     float64     `json:"ratio"`
	CILow     float64     `json:"ci_low"`
	CIHigh    float64     `json:"ci_high"`
	// CIConfidence is the confidence of the interval: at least the product
	// of both medians' (0 with one run of either: no interval).
	CIConfidence float64 `json:"ci_confidence"`
	P            float64 `json:"p_value"`
	// Differs: P is below knee.GainAlpha and the interval excludes 1, so
	// the variant is measurably faster or slower at this size.
	Differs   bool `json:"differs"`
	Runs      int  `json:"runs"`       // runs of the variant
	FirstRuns int  `json:"first_runs"` // runs of the first variant
}

// VariantRows are the rows of one variant, in order.
func VariantRows(rows []record.SizeResult, variant string) []record.SizeResult {
	return keep(rows, func(r record.SizeResult) bool { return r.Variant == variant })
}

func variantSamples(samples []record.Sample, variant string) []record.Sample {
	return keep(samples, func(s record.Sample) bool { return s.Variant == variant })
}

// keep is the elements of xs for which ok holds, in a new slice.
func keep[T any](xs []T, ok func(T) bool) []T {
	var out []T
	for _, x := range xs {
		if ok(x) {
			out = append(out, x)
		}
	}
	return out
}

// variantNames are the variants in plan order: the result's, else those
// the plan lists (a report read back), else those its rows name.
func variantNames(res *record.Result, c record.Config, rows []record.SizeResult) []string {
	if len(res.Variants) > 0 {
		return res.Variants
	}
	var out []string
	for _, v := range c.Variants {
		out = append(out, v.Name)
	}
	for _, row := range rows {
		if row.Variant != "" && record.VariantRank(out, row.Variant) == len(out) {
			out = append(out, row.Variant)
		}
	}
	return out
}

// variantCurves are the curves of an interleaved sweep's variants, in
// plan order; nil for a sweep of one.
func variantCurves(res *record.Result, c record.Config, rows []record.SizeResult) []VariantResult {
	var out []VariantResult
	for _, name := range variantNames(res, c, rows) {
		out = append(out, curveOf(name, VariantRows(rows, name), res, c))
	}
	return out
}

// variantRatios are each later variant over the first, size by size.
func variantRatios(variants []VariantResult, rows []record.SizeResult, fraction float64) []VariantRatio {
	var out []VariantRatio
	first := VariantRows(rows, variants[0].Name)
	for _, v := range variants[1:] {
		for _, row := range VariantRows(rows, v.Name) {
			if ref, ok := rowAt(first, row.Mode, row.WriteSize); ok {
				out = append(out, variantRatio(v.Name, row, ref, fraction))
			}
		}
	}
	return out
}

func rowAt(rows []record.SizeResult, mode record.Mode, size int64) (record.SizeResult, bool) {
	for _, row := range rows {
		if row.Mode == mode && row.WriteSize == size {
			return row, true
		}
	}
	return record.SizeResult{}, false
}

func rates(row record.SizeResult) []float64 {
	out := make([]float64, len(row.Samples))
	for i, s := range row.Samples {
		out[i] = s.MiBPerSec()
	}
	return out
}

func variantRatio(name string, row, ref record.SizeResult, fraction float64) VariantRatio {
	g := knee.CompareGain(rates(row), rates(ref), fraction)
	vr := VariantRatio{Variant: name, Mode: row.Mode, WriteSize: row.WriteSize, Ratio: g.Ratio,
		CILow: g.Low, CIHigh: g.High, CIConfidence: g.Confidence, P: g.P, Runs: g.PlateauRuns, FirstRuns: g.Runs} // CompareGain(plateau=variant, at=first)
	for _, x := range []*float64{&vr.Ratio, &vr.CILow, &vr.CIHigh, &vr.P} {
		if math.IsNaN(*x) || math.IsInf(*x, 0) {
			*x = 0 // JSON has no NaN; 0 is "not measured"
		}
	}
	vr.Differs = vr.CIConfidence > 0 && vr.P > 0 && vr.P < knee.GainAlpha && (vr.CILow > 1 || vr.CIHigh < 1)
	return vr
}

// ModeRows are the rows of one direction, in order.
func ModeRows(rows []record.SizeResult, mode record.Mode) []record.SizeResult {
	n := 0
	for _, row := range rows {
		if row.Mode == mode {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]record.SizeResult, 0, n) // one copy: a row is hundreds of bytes
	for _, row := range rows {
		if row.Mode == mode {
			out = append(out, row)
		}
	}
	return out
}
