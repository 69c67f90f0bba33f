package knee

import (
	"math"
	"slices"
)

// RunsWanted are the sizes whose next runs the establishment test turns
// on (see Estimate.Established), for a planner that spends rounds only
// where the verdict is decided. It projects the cheapest way, in runs, to
// make every median that decides the knee precise enough to resolve the
// band: more runs of those sizes alone, or first a level more runs of
// each plateau size (whose median the others are tested against), and
// wants the sizes of that plan. While the interval is too wide every size
// in it and next to it is wanted, and any deciding size short of
// MinEstablishRuns runs. Nil when the knee is established, when no knee
// is found, and with one round (no noise measured yet to judge by).
func RunsWanted(runs []Runs, fraction float64) []int64 {
	rs := cleanRuns(runs)
	f := normFraction(fraction)
	nz := rs.noise()
	if len(rs.size) < MinPoints || nz.df == 0 {
		return nil
	}
	n := rs.counts()
	j := rs.judge(f, nz, n, Find(rs.points(), f).PlateauMiBPerSec)
	if j.status == StatusNoKnee || j.status == StatusEstablished || j.status == StatusOneRound {
		return nil
	}
	from, to := max(j.lo-1, 0), j.hi
	want := rs.cheapestPlan(f, nz, n, j, from, to)
	for i := from; i <= min(to+1, len(n)-1); i++ {
		if j.status == StatusWide || n[i] < MinEstablishRuns {
			want[i] = true
		}
	}
	var out []int64
	for i, s := range rs.size {
		if want[i] {
			out = append(out, s)
		}
	}
	return out
}

// cheapestPlan is the sizes (by index) of the plan with the fewest runs
// that would make the medians of [from, to] resolve the band, trying up
// to maxPlateauLevels more runs of each plateau size first.
func (rs runSet) cheapestPlan(f float64, nz noiseEstimate, n []int, j judgement, from, to int) map[int]bool {
	var best map[int]bool
	bestRuns := math.MaxInt
	for level := 0; level <= maxPlateauLevels; level++ {
		plan, runs := rs.plan(f, nz, n, j, from, to, level)
		if runs < bestRuns {
			best, bestRuns = plan, runs
		}
	}
	return best
}

// maxPlateauLevels bounds the extra runs per plateau size a plan tries.
const maxPlateauLevels = 3

// plateauPerLook is the most plateau sizes one look wants: a plan to
// raise them all rests on a noise estimate that is still rough early on,
// and each look plans afresh.
const plateauPerLook = 2

// plan raises every plateau size above to to the fewest runs among them
// plus level, then each size of [from, to] to the runs that make it
// precise against that plateau (MaxProjectedRounds at most); it returns
// the sizes raised and the runs added.
func (rs runSet) plan(f float64, nz noiseEstimate, n []int, j judgement, from, to, level int) (map[int]bool, int) {
	m := slices.Clone(n)
	raised, added := map[int]bool{}, 0
	if level > 0 && to+1 <= j.end {
		floor := slices.Min(m[to+1:j.end+1]) + level
		var onPlateau []int
		for i := to + 1; i <= j.end; i++ {
			if m[i] < floor {
				added += floor - m[i]
				m[i] = floor
				onPlateau = append(onPlateau, i)
			}
		}
		// the fewest runs first, then the nearest the knee
		slices.SortStableFunc(onPlateau, func(a, b int) int { return n[a] - n[b] })
		for _, i := range onPlateau[:min(plateauPerLook, len(onPlateau))] {
			raised[i] = true
		}
	}
	crit := critical(nz.df, IntervalConfidence)
	for i := from; i <= to; i++ {
		for m[i] < MaxProjectedRounds && !rs.preciseAt(f, nz, crit, m, j, i) {
			m[i]++
			added++
			raised[i] = true
		}
	}
	return raised, added
}

// preciseAt: with m runs per size, the median of size i would be precise
// enough to tell the band's edge from a band's width below it. The
// critical value stays that of the noise measured so far (the projected
// runs would lower it): erring towards more runs, and one t quantile per
// look instead of one per projected run.
func (rs runSet) preciseAt(f float64, nz noiseEstimate, crit float64, m []int, j judgement, i int) bool {
	t := sizeTests{logMed: rs.logMed, crit: crit}
	for _, k := range m {
		t.se = append(t.se, nz.sigma*math.Sqrt(medianVarianceFactor(k)/float64(k)))
	}
	t.setPlateau(j.plateau, math.Log(f), j.hi, j.end)
	return t.precise(i, i, t.plateau-t.band)
}
