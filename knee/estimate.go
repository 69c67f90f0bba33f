package knee

import (
	"cmp"
	"math"
	"slices"

	"github.com/aclements/go-moremath/stats"
)

// Runs are the throughputs of every run of one write size, in MiB/s.
type Runs struct {
	Size      int64
	MiBPerSec []float64
}

// Estimate is the knee of repeated, noisy runs, judged against the
// run-to-run noise that was measured: the knee (the embedded Result), the
// interval of sizes it may be in, and whether it counts as established.
//
// Every test is one-sided, at IntervalConfidence, on the log medians, with
// the standard error that the pooled noise of all sizes gives a median of
// that many runs. The plateau is the median level of the sizes surely on
// it. The interval runs from the earliest size that is not distinguishably
// below the band (fraction x plateau) to the first size from which the
// curve is not distinguishably below the plateau itself. Below the
// interval the curve is measurably too slow; from its top up it is as fast
// as the runs can tell; in between they cannot tell. The knee is the
// smallest size in the interval whose median reaches the band, or the
// middle size of a three-size interval.
//
// When that interval does not establish the knee, it may only show that
// the tests lacked the power to tell, so the reported one spans the sizes
// that could still be the knee: up to the first size from which the curve
// is surely in the band; with one round and no noise to test by, every
// size not settled far below the plateau, up to the end of the band.
type Estimate struct {
	Result
	// Established is true when the interval lies within one size step of
	// the knee on either side, every size that decides it ran at least
	// MinEstablishRuns times, and the runs pin the knee down: either the
	// medians are precise enough to resolve the band's width, or the curve
	// climbs onto the plateau in one step larger than cornerStep, at
	// StepConfidence.
	Established bool `json:"established"`
	// CILow and CIHigh bound the sizes the knee may be in; 0 without a knee.
	CILow        int64   `json:"ci_low_write_size"`
	CIHigh       int64   `json:"ci_high_write_size"`
	CIConfidence float64 `json:"ci_confidence"`
	// Rounds is the most runs any size had (the rounds run) and
	// DecidingRuns the fewest runs of a size that decides the knee.
	Rounds       int `json:"rounds"`
	DecidingRuns int `json:"deciding_runs"`
	// NoiseCV is the run-to-run noise: the pooled standard deviation of
	// log throughput, close to the coefficient of variation. With one
	// round it is read off the scatter of the plateau instead.
	NoiseCV float64 `json:"noise_cv"`
	// RoundsNeeded is about how many runs of each deciding size would
	// establish the knee if the curve and the noise stay as measured; 0
	// when established, unknown, or more than MaxProjectedRounds.
	RoundsNeeded int `json:"rounds_needed,omitempty"`
	// Deciding lists the sizes whose further runs would narrow the
	// interval: the tested interval, the knee, and one size on either
	// side.
	Deciding []int64 `json:"deciding_write_sizes,omitempty"`
	// Status says why the knee is or is not established: a Status* value.
	Status string `json:"status"`
}

// Why an estimate is or is not established.
const (
	StatusEstablished = "established"
	StatusOneRound    = "one_round"     // one run per size: no run-to-run noise to judge by
	StatusFewRuns     = "too_few_runs"  // fewer than MinEstablishRuns runs of a deciding size
	StatusWide        = "wide_interval" // the interval spans more than a step on either side
	StatusUnresolved  = "unresolved"    // the noise hides a step of the band's width and no corner shows
	StatusNoKnee      = "no_knee"       // rising or too few sizes
)

const (
	// MinEstablishRuns is the fewest runs of each deciding size that can
	// establish a knee: with two, one slow run cannot be told from noise.
	MinEstablishRuns = 3
	// IntervalConfidence is the level of the one-sided tests that bound
	// the interval.
	IntervalConfidence = 0.95
	// StepConfidence is the level of the test that a step into the band
	// is a corner of the curve.
	StepConfidence = 0.99
	// MaxProjectedRounds bounds RoundsNeeded.
	MaxProjectedRounds = 64
	// slowRunCut sets aside, for the noise estimate only, runs further
	// than this many robust standard deviations from their size's median:
	// an isolated slow run is not the file system's noise.
	slowRunCut = 4
)

// EstimateKnee finds the knee of repeated runs and the interval around
// it (see Estimate). Runs with unusable values are dropped; sizes may come
// in any order and more than once. With one round the noise is read off
// the scatter of the plateau sizes, and the knee is never established.
func EstimateKnee(runs []Runs, fraction float64) Estimate {
	rs := cleanRuns(runs)
	f := normFraction(fraction)
	plain := Find(rs.points(), f)
	est := Estimate{Result: plain, CIConfidence: IntervalConfidence, Rounds: rs.maxRuns()}
	nz := rs.noise()
	if nz.df == 0 && plain.Found {
		nz = rs.plateauScatter(plain)
	}
	est.NoiseCV = nz.sigma
	switch {
	case len(rs.size) < MinPoints || nz.df == 0 && !plain.Found:
		est.Status = StatusNoKnee
		return est
	case nz.df == 0:
		est.Status = StatusOneRound
		est.CILow, est.CIHigh = rs.unmeasuredInterval(plain)
		return est
	}
	j := rs.judge(f, nz, rs.counts(), plain.PlateauMiBPerSec)
	est.Result = rs.result(j, f)
	est.Status = j.status
	if !est.Found {
		return est
	}
	est.Established = j.status == StatusEstablished
	est.setInterval(rs, j)
	if !est.Established && nz.sigma > 0 {
		est.RoundsNeeded = rs.roundsNeeded(f, nz, est.PlateauMiBPerSec)
	}
	return est
}

// setInterval reports the tested interval when it establishes the knee.
// Otherwise the tests may lack the power to tell a size below the band
// from one in it, so the interval reaches up to where the curve is surely
// in the band. Deciding stays the sizes the tests turn on.
func (est *Estimate) setInterval(rs runSet, j judgement) {
	hi := j.hi
	if !est.Established {
		hi = max(hi, j.inBand)
	}
	est.CILow, est.CIHigh = rs.size[j.lo], rs.size[hi]
	from, to := max(j.lo-1, 0), min(j.hi+1, len(rs.size)-1)
	est.Deciding = slices.Clone(rs.size[from : to+1])
	est.DecidingRuns = rs.minRuns(from, to)
}

// unmeasuredInterval is where the knee of a single round may be when
// nothing measured the noise, so no test can rule a size out: from the
// first size after the last two in a row that measured below settledBelow
// of the plateau, to the end of the band.
func (rs runSet) unmeasuredInterval(k Result) (lo, hi int64) {
	far := func(i int) bool { return rs.med[i] < settledBelow*k.PlateauMiBPerSec }
	first := 0
	for i := 0; i+1 < rs.index(k.WriteSize); i++ {
		if far(i) && far(i+1) {
			first = i + 2
		}
	}
	hi = rs.size[len(rs.size)-1]
	if k.DeclinesAbove > 0 {
		hi = k.DeclinesAbove
	}
	return rs.size[first], hi
}

// settledBelow is the share of the plateau under which two sizes in a row
// cannot be the knee however noisy the runs: no noise of a file system
// worth measuring turns half the plateau into the knee's share of it.
const settledBelow = 0.5

// judgement is the statistical reading of one curve, as indices: the
// interval [lo, hi], the knee in it, the last size of the band (end), the
// first size from which the curve is surely in the band (inBand), the
// plateau (ln MiB/s), the shape and the status.
type judgement struct {
	lo, hi, knee, end, inBand int
	plateau                   float64
	centered                  bool
	shape, status             string
}

// judge reads the curve with one-sided tests against the noise nz, as if
// size i had n[i] runs, starting from the plateau p0 (MiB/s).
func (rs runSet) judge(fraction float64, nz noiseEstimate, n []int, p0 float64) judgement {
	t := rs.tests(nz, n)
	j := judgement{plateau: math.Log(p0)}
	// The plateau is the median of the sizes surely on it, which depends
	// on where that run starts and ends; iterate to a fixed point.
	for range maxPlateauSteps + 4 {
		t.setPlateau(j.plateau, math.Log(fraction), j.hi, j.end)
		j.end = t.bandEnd()
		j.hi = t.reachedFlat(j.end)
		level := rs.level(j.hi, j.end)
		if level == j.plateau {
			break
		}
		j.plateau = level
	}
	t.setPlateau(j.plateau, math.Log(fraction), j.hi, j.end)
	j.lo = reachedSoon(j.end, t.belowBand)
	j.hi = max(t.reachedFlat(j.end), j.lo)
	j.knee = j.hi
	for k := j.lo; k < j.hi; k++ {
		if t.logMed[k] >= t.band {
			j.knee = k
			break
		}
	}
	if mid := j.lo + 1; j.hi-j.lo == 2 && j.knee != mid {
		j.knee, j.centered = mid, true
	}
	j.inBand = t.reachedBand(j.lo, j.end)
	j.shape = t.shape(j)
	j.status = t.status(j, rs, n)
	return j
}

// reachedSoon is the first index k <= end that is not below and after which
// the curve does not fall below for two sizes in a row: the earliest the
// curve may have reached a level, forgiving one size that measured low.
// end if none.
func reachedSoon(end int, below func(int) bool) int {
	for k := 0; k < end; k++ {
		if !below(k) && !(below(k+1) && (k+2 > end || below(k+2))) {
			return k
		}
	}
	return end
}

// reachedFlat is the first index k <= end at which the curve has surely
// reached the plateau: neither k nor the next size is measurably below it.
// end if none.
func (t sizeTests) reachedFlat(end int) int {
	for k := 0; k < end; k++ {
		if !t.belowPlateau(k) && !t.belowPlateau(k+1) {
			return k
		}
	}
	return end
}

// reachedBand is the first index k in [from, end] at which the curve is
// surely in the band: the sizes of a window ending at k, pooled, are
// measurably above its lower edge. A curve that rises to its knee is at
// k at least as high as their mean. end if none.
func (t sizeTests) reachedBand(from, end int) int {
	for k := from; k < end; k++ {
		for j := max(from, k-poolSizes+1); j <= k; j++ {
			if t.pooledAboveBand(j, k) {
				return k
			}
		}
	}
	return end
}

// poolSizes is the most sizes reachedBand pools.
const poolSizes = 4

// pooledAboveBand: the mean log median of sizes [j, k] is measurably above
// the band's lower edge.
func (t sizeTests) pooledAboveBand(j, k int) bool {
	var sum, ss float64
	for i := j; i <= k; i++ {
		sum += t.logMed[i]
		ss += t.se[i] * t.se[i]
	}
	m := float64(k - j + 1)
	return sum/m-t.band > t.crit*math.Hypot(math.Sqrt(ss)/m, t.seP)
}

// sizeTests holds what the one-sided tests need per size.
type sizeTests struct {
	logMed  []float64
	se      []float64 // standard error of each log median
	plateau float64   // ln plateau
	band    float64   // ln of the band's lower edge
	seP     float64   // standard error of the plateau
	crit    float64   // one-sided critical value
	// critStep is the stricter value a step must pass to establish a knee
	// that the band's width cannot resolve: the step is looked for among
	// every size, and noise makes one somewhere.
	critStep float64
}

func (rs runSet) tests(nz noiseEstimate, n []int) sizeTests {
	t := sizeTests{crit: critical(nz.df, IntervalConfidence), critStep: critical(nz.df, StepConfidence)}
	t.logMed = rs.logMed
	for i := range rs.med {
		t.se = append(t.se, nz.sigma*math.Sqrt(medianVarianceFactor(n[i])/float64(n[i])))
	}
	return t
}

// setPlateau sets the level tested against; the plateau is the median of
// the sizes in [lo, end], so its error is that of a median of those.
func (t *sizeTests) setPlateau(plateau, logFraction float64, lo, end int) {
	t.plateau, t.band = plateau, plateau+logFraction
	m := max(end-lo+1, 1)
	var ss float64
	for i := lo; i < lo+m && i < len(t.se); i++ {
		ss += t.se[i] * t.se[i]
	}
	t.seP = math.Sqrt(medianVarianceFactor(m) * ss / float64(m) / float64(m))
}

func (t sizeTests) below(i int, level float64) bool {
	return t.logMed[i]-level < -t.crit*math.Hypot(t.se[i], t.seP)
}

func (t sizeTests) belowBand(i int) bool    { return t.below(i, t.band) }
func (t sizeTests) belowPlateau(i int) bool { return t.below(i, t.plateau) }

// bandEnd is the last size of the band: the largest size, unless the
// curve ends in two or more sizes that are measurably below the band (a
// decline); one low last size is not a decline.
func (t sizeTests) bandEnd() int {
	last := len(t.logMed) - 1
	j := last
	for j > 0 && t.belowBand(j) {
		j--
	}
	if last-j >= 2 {
		return j
	}
	return last
}

// shape names the curve: rising when no size below the largest reaches
// the band (or only the one below it, and the largest is measurably
// higher still); declines when the band ends before the largest size;
// flat when it starts at the smallest.
func (t sizeTests) shape(j judgement) string {
	last := len(t.logMed) - 1
	switch {
	case j.lo == last, j.lo == last-1 && t.rises(last):
		return ShapeRising
	case j.end < last:
		return ShapeDeclines
	case j.knee == 0:
		return ShapeFlat
	}
	return ShapePlateau
}

// status decides whether the interval establishes the knee.
func (t sizeTests) status(j judgement, rs runSet, n []int) string {
	from, to := max(j.lo-1, 0), j.hi
	switch {
	case j.shape == ShapeRising:
		return StatusNoKnee
	case slices.Max(n) < 2:
		return StatusOneRound
	case j.lo < j.knee-1 || j.hi > j.knee+1:
		return StatusWide
	case minOf(n[from:to+1]) < MinEstablishRuns:
		return StatusFewRuns
	case !t.resolved(from, to) && !t.corner(j.lo):
		return StatusUnresolved
	}
	return StatusEstablished
}

// resolved: the medians in [from, to] are precise enough to tell a size
// on the band's edge from one a band's width below it.
func (t sizeTests) resolved(from, to int) bool { return t.precise(from, to, t.plateau-t.band) }

// precise: the medians in [from, to] could show a shortfall of width
// below the plateau.
func (t sizeTests) precise(from, to int, width float64) bool {
	for i := from; i <= min(to, len(t.se)-1); i++ {
		if t.crit*math.Hypot(t.se[i], t.seP) > width {
			return false
		}
	}
	return true
}

// corner: the curve steps onto the plateau at i (stepsIntoBand), i is not
// measurably below the plateau, and the runs at i and after it are
// precise enough that they would have shown a shortfall of cornerStep:
// with too few runs for that, "not below" means only "cannot tell".
func (t sizeTests) corner(i int) bool {
	return t.stepsIntoBand(i) && !t.belowPlateau(i) && t.precise(i, i+1, cornerStep)
}

// rises: the throughput at i is measurably above the size below it.
func (t sizeTests) rises(i int) bool { return i > 0 && t.above(i, i-1, 0) }

// above: the log median at i exceeds that at j by measurably more than
// margin.
func (t sizeTests) above(i, j int, margin float64) bool {
	return t.logMed[i]-t.logMed[j]-margin > t.crit*math.Hypot(t.se[i], t.se[j])
}

// stepsIntoBand: the curve climbs onto the plateau at i in one step that
// is measurably larger than cornerStep (and than the band), and the size
// after i stands as far above the size before it: a corner, not a slope
// on which one lucky size looks like one. A smooth curve near its 95%
// point rises by less than cornerStep per doubling.
func (t sizeTests) stepsIntoBand(i int) bool {
	margin := max(t.plateau-t.band, cornerStep)
	strict := t
	strict.crit = t.critStep
	return i > 0 && strict.above(i, i-1, margin) && (i+1 >= len(t.logMed) || strict.above(i+1, i-1, margin))
}

// cornerStep is the rise per size doubling that a saturating curve does
// not make near its knee: y = s/(s+s0), a fixed cost per call, rises by
// 10% from 83% to 90% of its plateau and by 5% from 90% to 95%.
var cornerStep = math.Log(1.25)

// result turns a judgement into the knee Result the reports show: sizes
// and the measured medians of the table, with the plateau it found.
func (rs runSet) result(j judgement, fraction float64) Result {
	c := curve{size: rs.size, raw: rs.med}
	res := Result{Fraction: fraction, Shape: j.shape, PlateauMiBPerSec: math.Exp(j.plateau), Centered: j.centered}
	best := c.bestMeasured()
	res.BestSize, res.BestMiBPerSec = c.size[best], c.raw[best]
	if res.Shape != ShapeFlat {
		res.KneedleSize, res.KneedleFound = kneedleOn(c.size[:j.end+1], c.raw[:j.end+1], DefaultSensitivity)
	}
	if res.Shape == ShapeRising {
		res.Reason = risingReason(c)
		return res
	}
	res.Found = true
	res.WriteSize, res.MiBPerSec = c.size[j.knee], c.raw[j.knee]
	for i := j.knee; i <= j.end; i++ {
		if c.raw[i] < fraction*res.PlateauMiBPerSec {
			res.Outliers = append(res.Outliers, c.size[i])
		}
	}
	if res.Shape == ShapeDeclines {
		res.DeclinesAbove = c.size[j.end]
	}
	res.Reason = reason(res, c)
	return res
}

// critical is the one-sided Student t value for confidence with
// df degrees of freedom (the normal value for df 0, unknown noise).
func critical(df int, confidence float64) float64 {
	if df <= 0 {
		df = math.MaxInt32
	}
	return stats.InvCDF(stats.TDist{V: float64(df)})(confidence)
}

// roundsNeeded is the fewest runs per size (of projectedRounds) with which
// the knee would be established if the medians and the noise stayed as
// measured; 0 if none would.
func (rs runSet) roundsNeeded(fraction float64, nz noiseEstimate, plateau float64) int {
	for _, r := range projectedRounds {
		n := rs.counts()
		for i := range n {
			n[i] = max(n[i], r)
		}
		proj := nz
		proj.df = max(nz.df, len(n)*(r-1))
		if rs.judge(fraction, proj, n, plateau).status == StatusEstablished {
			return r
		}
	}
	return 0
}

// projectedRounds are the round counts roundsNeeded tries.
var projectedRounds = []int{3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 48, MaxProjectedRounds}

// runSet holds cleaned runs: sizes ascending, each with its log throughputs.
type runSet struct {
	size   []int64
	logs   [][]float64 // ln MiB/s of every run
	med    []float64   // median MiB/s, as the table shows it
	logMed []float64   // ln med
	// levels holds level's medians: judge asks for the same few spans
	// again and again, each a sort of up to every size.
	levels map[[2]int]float64
}

// level is the median of logMed[from:to+1], the plateau of those sizes.
func (rs runSet) level(from, to int) float64 {
	if v, ok := rs.levels[[2]int{from, to}]; ok {
		return v
	}
	v := Median(rs.logMed[from : to+1])
	rs.levels[[2]int{from, to}] = v
	return v
}

// GroupRuns merges runs of the same size, drops unusable values (zero,
// negative, infinite, NaN) and sizes left without any, and sorts by size.
// Each size keeps its values in the order they came.
func GroupRuns(runs []Runs) []Runs {
	sorted := slices.Clone(runs)
	slices.SortStableFunc(sorted, func(a, b Runs) int { return cmp.Compare(a.Size, b.Size) })
	out := make([]Runs, 0, len(sorted))
	for _, r := range sorted {
		if r.Size <= 0 {
			continue
		}
		if n := len(out); n == 0 || out[n-1].Size != r.Size {
			out = append(out, Runs{Size: r.Size, MiBPerSec: make([]float64, 0, len(r.MiBPerSec))})
		}
		last := &out[len(out)-1]
		for _, v := range r.MiBPerSec {
			if v > 0 && !math.IsInf(v, 1) {
				last.MiBPerSec = append(last.MiBPerSec, v)
			}
		}
	}
	return slices.DeleteFunc(out, func(r Runs) bool { return len(r.MiBPerSec) == 0 })
}

func cleanRuns(runs []Runs) runSet {
	rs := runSet{levels: map[[2]int]float64{}}
	for _, r := range GroupRuns(runs) {
		logs := make([]float64, len(r.MiBPerSec))
		for i, v := range r.MiBPerSec {
			logs[i] = math.Log(v)
		}
		rs.size = append(rs.size, r.Size)
		rs.logs = append(rs.logs, logs)
		rs.med = append(rs.med, Median(r.MiBPerSec))
		rs.logMed = append(rs.logMed, math.Log(rs.med[len(rs.med)-1]))
	}
	return rs
}

func (rs runSet) points() []Point {
	pts := make([]Point, len(rs.size))
	for i, s := range rs.size {
		pts[i] = Point{Size: s, MiBPerSec: rs.med[i]}
	}
	return pts
}

func (rs runSet) index(size int64) int {
	i, _ := slices.BinarySearch(rs.size, size)
	return i
}

func (rs runSet) counts() []int {
	n := make([]int, len(rs.size))
	for i, l := range rs.logs {
		n[i] = len(l)
	}
	return n
}

func (rs runSet) maxRuns() int {
	m := 0
	for _, l := range rs.logs {
		m = max(m, len(l))
	}
	return m
}

// minRuns is the fewest runs of a size in indices [from, to].
func (rs runSet) minRuns(from, to int) int { return minOf(rs.counts()[from : to+1]) }

func minOf(n []int) int {
	if len(n) == 0 {
		return 0
	}
	return slices.Min(n)
}

// noiseEstimate is a standard deviation of log throughput and its degrees
// of freedom; df 0 means it was not measured.
type noiseEstimate struct {
	sigma float64
	df    int
}

// noise pools the run-to-run scatter of every size with two or more runs.
// A robust scale first sets aside isolated slow runs (more than slowRunCut
// robust deviations from their median); the rest give a pooled variance
// about each size's mean.
func (rs runSet) noise() noiseEstimate {
	s0 := rs.robustScale()
	var ss float64
	var df int
	for _, logs := range rs.logs {
		kept := logs
		if len(logs) >= 3 && s0 > 0 {
			c := Median(logs)
			kept = slices.DeleteFunc(slices.Clone(logs), func(x float64) bool { return math.Abs(x-c) > slowRunCut*s0 })
		}
		if len(kept) < 2 {
			continue
		}
		m := mean(kept)
		for _, x := range kept {
			ss += (x - m) * (x - m)
		}
		df += len(kept) - 1
	}
	if df == 0 {
		return noiseEstimate{}
	}
	return noiseEstimate{sigma: math.Sqrt(ss / float64(df)), df: df}
}

// robustScale is 1.4826 x the median absolute deviation of the runs from
// their size's median, pooled over sizes; the middle run of an odd count,
// whose deviation is 0 by construction, is left out.
func (rs runSet) robustScale() float64 {
	var dev []float64
	for _, logs := range rs.logs {
		if len(logs) < 2 {
			continue
		}
		c := Median(logs)
		skipped := len(logs)%2 == 0
		for _, x := range logs {
			if x == c && !skipped {
				skipped = true
				continue
			}
			dev = append(dev, math.Abs(x-c))
		}
	}
	if len(dev) == 0 {
		return 0
	}
	return 1.4826 * Median(dev)
}

// plateauScatter estimates the noise of a single round from the sizes in
// the plateau band, which should all measure the same throughput: their
// robust spread about their median. Any real slope on the plateau counts
// as noise too, so this errs towards more noise.
func (rs runSet) plateauScatter(k Result) noiseEstimate {
	end := len(rs.size) - 1
	if k.DeclinesAbove > 0 {
		end = rs.index(k.DeclinesAbove)
	}
	var band []float64
	for i := rs.index(k.WriteSize); i <= end; i++ {
		band = append(band, rs.logs[i]...)
	}
	if len(band) < 4 {
		return noiseEstimate{}
	}
	c := Median(band)
	dev := make([]float64, len(band))
	for i, x := range band {
		dev[i] = math.Abs(x - c)
	}
	return noiseEstimate{sigma: 1.4826 * Median(dev), df: len(band) - 1}
}

// medianVarianceFactor is Var(median of n) / (sigma^2 / n) for normal
// samples (n <= 2 is the mean); measured by simulation, pi/2 in the limit.
func medianVarianceFactor(n int) float64 {
	table := []float64{1, 1, 1, 1.34, 1.20, 1.44, 1.29, 1.47, 1.34, 1.49, 1.39, 1.51, 1.41}
	if n < len(table) {
		return table[max(n, 0)]
	}
	return math.Pi / 2
}

func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
