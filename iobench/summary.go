package iobench

import (
	"cmp"
	"math"
	"slices"

	"github.com/iobench/iobench/knee"
)

// SizeResult is the summary of every run of one size in one direction.
type SizeResult struct {
	Mode      Mode    `json:"mode"`
	WriteSize int64   `json:"write_size"` // bytes per call
	MiBPerSec float64 `json:"mib_per_s"`  // median over runs
	// CILow and CIHigh bound the median at CIConfidence (benchmath's
	// order-statistic interval; with too few runs for 95%, the runs'
	// minimum and maximum at the confidence they give; 0 for one run).
	CILow            float64  `json:"ci_low_mib_per_s"`
	CIHigh           float64  `json:"ci_high_mib_per_s"`
	CIConfidence     float64  `json:"ci_confidence"`
	MinMiBPerSec     float64  `json:"min_mib_per_s"`
	MaxMiBPerSec     float64  `json:"max_mib_per_s"`
	CV               float64  `json:"cv"`          // stddev/mean of the runs' MiB/s
	WideSpread       bool     `json:"wide_spread"` // CV above WideCV
	WriteCalls       int64    `json:"write_calls"` // system calls per run (median)
	ConvertMiBPerSec float64  `json:"convert_mib_per_s,omitempty"`
	Samples          []Sample `json:"samples"`
}

// Summarize groups samples by direction and size, sorted by size.
func Summarize(res *Result) []SizeResult {
	type key struct {
		mode Mode
		size int64
	}
	groups := map[key][]Sample{}
	for _, s := range res.Samples {
		k := key{s.Mode, s.WriteSize}
		groups[k] = append(groups[k], s)
	}
	var out []SizeResult
	for k, ss := range groups {
		sr := summarizeSize(ss)
		if k.mode == ModeWrite {
			sr.ConvertMiBPerSec = res.ConvertMiBPerSec[k.size]
		}
		out = append(out, sr)
	}
	slices.SortFunc(out, func(a, b SizeResult) int {
		return cmp.Or(cmp.Compare(modeRank(a.Mode), modeRank(b.Mode)), cmp.Compare(a.WriteSize, b.WriteSize))
	})
	return out
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
	return sr
}
