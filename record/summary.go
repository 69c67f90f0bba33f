package record

import (
	"cmp"
	"math"
	"slices"

	"github.com/iobench/iobench/knee"
)

// SizeResult is the summary of every run of one size in one direction.
type SizeResult struct {
	// Variant names the variant of an interleaved sweep; "" in a sweep
	// of one.
	Variant   string  `json:"variant,omitempty"`
	Mode      Mode    `json:"mode"`
	WriteSize int64   `json:"write_size"` // bytes per call
	MiBPerSec float64 `json:"mib_per_s"`  // median over runs
	// CILow and CIHigh bound the median at CIConfidence (benchmath's
	// order-statistic interval; with too few runs for 95%, the runs'
	// minimum and maximum at the confidence they give; 0 for one run).
	CILow            float64 `json:"ci_low_mib_per_s"`
	CIHigh           float64 `json:"ci_high_mib_per_s"`
	CIConfidence     float64 `json:"ci_confidence"`
	MinMiBPerSec     float64 `json:"min_mib_per_s"`
	MaxMiBPerSec     float64 `json:"max_mib_per_s"`
	CV               float64 `json:"cv"`          // stddev/mean of the runs' MiB/s
	WideSpread       bool    `json:"wide_spread"` // CV above WideCV
	WriteCalls       int64   `json:"write_calls"` // system calls per run (median)
	ConvertMiBPerSec float64 `json:"convert_mib_per_s,omitempty"`
	// TimeLimitedRuns counts the runs Config.TimeLimit cut short.
	TimeLimitedRuns int `json:"time_limited_runs,omitempty"`
	// Latency is the per-call times of all runs, with Config.Latency.
	Latency *LatencySummary `json:"latency,omitempty"`
	Samples []Sample        `json:"samples"`
}

// Summarize groups samples by variant, direction and size, sorted by
// variant (in res.Variants order), direction and size.
func Summarize(res *Result) []SizeResult {
	type key struct {
		variant string
		mode    Mode
		size    int64
	}
	groups := make(map[key][]Sample, len(res.Samples))
	for _, s := range res.Samples {
		k := key{s.Variant, s.Mode, s.WriteSize}
		groups[k] = append(groups[k], s)
	}
	out := make([]SizeResult, 0, len(groups))
	for k, ss := range groups {
		sr := summarizeSize(ss)
		if k.mode == ModeWrite {
			sr.ConvertMiBPerSec = res.ConvertMiBPerSec[k.size]
			if k.variant != "" {
				sr.ConvertMiBPerSec = res.VariantConvertMiBPerSec[k.variant][k.size]
			}
		}
		out = append(out, sr)
	}
	slices.SortFunc(out, func(a, b SizeResult) int {
		return cmp.Or(cmp.Compare(VariantRank(res.Variants, a.Variant), VariantRank(res.Variants, b.Variant)), cmp.Compare(a.Variant, b.Variant),
			cmp.Compare(modeRank(a.Mode), modeRank(b.Mode)), cmp.Compare(a.WriteSize, b.WriteSize))
	})
	return out
}

// VariantRank is the place of variant among names, the plan's variants in
// order; a variant not listed comes after them.
func VariantRank(names []string, variant string) int {
	if i := slices.Index(names, variant); i >= 0 {
		return i
	}
	return len(names)
}

func modeRank(m Mode) int {
	if m == ModeRead {
		return 1
	}
	return 0
}

func summarizeSize(ss []Sample) SizeResult {
	rates := make([]float64, len(ss))
	calls := make([]float64, len(ss))
	for i, s := range ss {
		rates[i] = s.MiBPerSec()
		calls[i] = float64(s.Calls)
	}
	sr := SizeResult{
		Variant:      ss[0].Variant,
		Mode:         ss[0].Mode,
		WriteSize:    ss[0].WriteSize,
		MiBPerSec:    knee.Median(rates),
		MinMiBPerSec: slices.Min(rates),
		MaxMiBPerSec: slices.Max(rates),
		CV:           knee.CV(rates),
		WriteCalls:   int64(knee.Median(calls)),
		Samples:      slices.SortedFunc(slices.Values(ss), func(a, b Sample) int { return cmp.Compare(a.Round, b.Round) }),
	}
	sr.WideSpread = sr.CV > knee.WideCV
	if ci := knee.SummarizeRuns(rates); !math.IsNaN(ci.Median) {
		sr.CILow, sr.CIHigh, sr.CIConfidence = ci.Low, ci.High, ci.Confidence
	}
	sr.TimeLimitedRuns, sr.Latency = summarizeIO(ss)
	return sr
}

// summarizeIO is what a size's runs say beyond throughput: how many the
// time limit cut, and their per-call times merged.
func summarizeIO(ss []Sample) (limited int, lat *LatencySummary) {
	ls := make([]*Latency, 0, len(ss))
	for _, s := range ss {
		if s.TimeLimited {
			limited++
		}
		ls = append(ls, s.Latency)
	}
	return limited, MergeLatency(ls...).Summary()
}
