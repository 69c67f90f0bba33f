package iobench

import (
	"slices"
	"time"

	"github.com/iobench/iobench/knee"
)

// Aggregate combines the samples of several ranks, run by run (all ranks
// ran the same plan), the way IOR does: all bytes over the span from the
// earliest start to the latest end. perRank[i] holds rank i's samples.
func Aggregate(perRank [][]Sample) ([]Sample, []RankSpread) {
	if len(perRank) == 0 {
		return nil, nil
	}
	runs := len(perRank[0])
	for _, ss := range perRank {
		runs = min(runs, len(ss))
	}
	agg := make([]Sample, runs)
	spread := make([]RankSpread, runs)
	for i := range runs {
		agg[i], spread[i] = aggregateRun(perRank, i)
	}
	return agg, spread
}

func aggregateRun(perRank [][]Sample, i int) (Sample, RankSpread) {
	a := Sample{Run: perRank[0][i].Run, Start: perRank[0][i].Start, End: perRank[0][i].End}
	rates := make([]float64, len(perRank))
	slowest := 0
	for r, ss := range perRank {
		s := ss[i]
		a.Bytes += s.Bytes
		a.Calls += s.Calls
		a.ShortWrites += s.ShortWrites
		a.EINTR += s.EINTR
		a.TimeLimited = a.TimeLimited || s.TimeLimited
		a.Latency = MergeLatency(a.Latency, s.Latency)
		a.Start = earliest(a.Start, s.Start)
		a.End = latest(a.End, s.End)
		rates[r] = s.MiBPerSec()
		if rates[r] < rates[slowest] {
			slowest = r
		}
	}
	a.Seconds = a.End.Sub(a.Start).Seconds()
	return a, RankSpread{Run: a.Run, MinMiBPerSec: slices.Min(rates), MedianMiBPerSec: knee.Median(rates),
		MaxMiBPerSec: slices.Max(rates), SlowestRank: slowest}
}

func earliest(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
