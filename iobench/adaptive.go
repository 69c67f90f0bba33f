package iobench

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/iobench/iobench/knee"
)

// Adaptive rounds (--repeat auto): the first round runs every size; the
// second runs the sizes within aroundKnee steps of the first round's knee,
// except those far below the plateau. From then on each round runs only
// the sizes whose runs the establishment test still needs
// (knee.RunsWanted: the knee's neighbours while too few or too imprecise,
// the plateau while its error matters), the knee as the candidate safe
// size, and the reference sizes until they have knee.MinEstablishRuns
// runs: every run goes where the verdict is decided. The rounds go on
// until the knee is established in two looks in a row, no knee can be
// found, or not even one wanted size fits the time budget; a round that
// does not fit whole is cut to the most wanted sizes that do. The first
// MinAutoRounds rounds always run: the budget governs the ones after.
const (
	// farBelow is the share of the first round's plateau under which a
	// size, with the next size up, counts as settled: no noise of a file
	// system worth measuring turns 50% into the knee's 95%.
	farBelow = 0.5
	// aroundKnee is how many size steps on either side of the first
	// round's knee the second round covers: one round's knee may be a few
	// steps off at 10-20% noise, and sizes further up the plateau add
	// little to its level.
	aroundKnee = 2
)

// autoRounds plans an adaptive sweep's rounds from what has been measured.
type autoRounds struct {
	cfg   Config
	start time.Time
	log   Adaptive
	// lastKnee is the knee the last look established, 0 if none. A sweep
	// stops only when two looks in a row establish knees within a size
	// step of each other: every look is another chance for noise to pass
	// the tests, and stopping at the first would make a false knee that
	// much likelier.
	lastKnee int64
}

func newAutoRounds(cfg Config, start time.Time) *autoRounds {
	a := &autoRounds{cfg: cfg, start: start}
	a.log.BudgetSeconds = cfg.TimeBudget.Seconds()
	a.log.BudgetFromFlag = cfg.TimeBudget > 0
	return a
}

// next chooses the sizes of round round+1 after round has finished, from
// every sample so far; nil stops the sweep, with the reason in the log.
func (a *autoRounds) next(samples []Sample, round int, sizes []int64, now time.Time) []int64 {
	runs, est, elapsed, stopped := a.settle(samples, round, sizes, now)
	if stopped {
		return nil
	}
	want := a.wanted(runs, est, round)
	switch {
	case round < MinAutoRounds:
		return want
	case a.endsWith(want, round):
		return nil
	}
	return a.fitBudget(samples, runs, est, want, elapsed.Seconds())
}

// endsWith says whether want, the sizes wanted after round (at least
// MinAutoRounds), ends the sweep: none wanted, or the last round run;
// the reason is logged.
func (a *autoRounds) endsWith(want []int64, round int) bool {
	switch {
	case len(want) == 0:
		a.stop(StopNoKnee)
	case round >= MaxAutoRounds:
		a.stop(StopMaxRounds)
	default:
		return false
	}
	return true
}

// settle books round, just finished with sizes, in the log and
// estimates the knee over every sample; stopped says the sweep ends
// here (the knee confirmed, or none after MinAutoRounds), the reason
// logged.
func (a *autoRounds) settle(samples []Sample, round int, sizes []int64, now time.Time) (runs []knee.Runs, est knee.Estimate, elapsed time.Duration, stopped bool) {
	a.log.Rounds = round
	a.log.SizesPerRound = append(a.log.SizesPerRound, len(sizes))
	a.log.DecidingWriteSizes = slices.Clone(sizes)
	elapsed = now.Sub(a.start)
	a.log.SpentSeconds = elapsed.Seconds()
	if round == 1 {
		a.log.FirstRoundSeconds = elapsed.Seconds()
		if !a.log.BudgetFromFlag {
			a.log.BudgetSeconds = DefaultBudgetRounds * elapsed.Seconds()
		}
	}
	runs = a.runs(samples)
	est = knee.EstimateKnee(runs, a.cfg.fraction())
	confirmed := est.Established && a.lastKnee > 0 && est.WriteSize <= 2*a.lastKnee && a.lastKnee <= 2*est.WriteSize
	a.lastKnee = 0
	if est.Established {
		a.lastKnee = est.WriteSize
	}
	switch {
	case confirmed && round >= MinAutoRounds:
		a.stop(StopEstablished)
		return runs, est, elapsed, true
	case !est.Found && round >= MinAutoRounds:
		a.stop(StopNoKnee)
		return runs, est, elapsed, true
	}
	return runs, est, elapsed, false
}

// fitBudget is the most wanted of want (byNeed) that fit the budget left
// after elapsed seconds, each size's cost as predict counts it; nil, with
// the cost of the most wanted size, when not even that fits.
func (a *autoRounds) fitBudget(samples []Sample, runs []knee.Runs, est knee.Estimate, want []int64, elapsed float64) []int64 {
	left := a.log.BudgetSeconds - elapsed
	ranked := byNeed(runs, est, want)
	var fit []int64
	for _, s := range ranked {
		if a.predict(samples, append(slices.Clone(fit), s)) <= left {
			fit = append(fit, s)
		}
	}
	if len(fit) == 0 {
		a.log.NextRoundSeconds = a.predict(samples, ranked[:1])
		return a.stop(StopBudget)
	}
	slices.Sort(fit)
	return fit
}

// byNeed orders sizes by how much another run of each tells: the fewest
// runs first, then the nearest to the knee.
func byNeed(runs []knee.Runs, est knee.Estimate, sizes []int64) []int64 {
	count := map[int64]int{}
	for _, r := range knee.GroupRuns(runs) {
		count[r.Size] = len(r.MiBPerSec)
	}
	far := func(s int64) float64 { return math.Abs(math.Log2(float64(s) / float64(est.WriteSize))) }
	out := slices.Clone(sizes)
	slices.SortStableFunc(out, func(x, y int64) int {
		return cmp.Or(cmp.Compare(count[x], count[y]), cmp.Compare(far(x), far(y)))
	})
	return out
}

// wanted are the sizes of the round after round, the time budget and an
// established knee aside; nil when no knee is found after the first
// MinAutoRounds.
func (a *autoRounds) wanted(runs []knee.Runs, est knee.Estimate, round int) []int64 {
	switch {
	case round == 1, round < MinAutoRounds && !est.Found:
		return a.withReferences(nearKnee(runs, est, a.cfg.Sizes, aroundKnee))
	case !est.Found:
		return nil
	}
	return a.deciding(runs, est)
}

// deciding are the sizes a round after the second runs: those the
// establishment test wants, or, once a look establishes the knee (or the
// test wants none), the sizes that decide it, for the next look to
// confirm it; with the knee while it is not shown safe, and the reference
// sizes short of knee.MinEstablishRuns runs.
func (a *autoRounds) deciding(runs []knee.Runs, est knee.Estimate) []int64 {
	want := knee.RunsWanted(runs, a.cfg.fraction())
	if len(want) == 0 {
		want = slices.Clone(est.Deciding)
	}
	if !est.Established && knee.SafeSize(runs, est.Result).Size != est.WriteSize {
		want = append(want, est.WriteSize)
	}
	want = append(want, a.shortReferences(runs)...)
	slices.Sort(want)
	return slices.Compact(want)
}

// shortReferences are the reference sizes in the sweep with fewer than
// knee.MinEstablishRuns runs: a default's verdict needs that many.
func (a *autoRounds) shortReferences(runs []knee.Runs) []int64 {
	var out []int64
	for _, r := range a.cfg.ReferenceSizes {
		if slices.Contains(a.cfg.Sizes, r) && len(runsOf(runs, r)) < knee.MinEstablishRuns {
			out = append(out, r)
		}
	}
	return out
}

func runsOf(runs []knee.Runs, size int64) []float64 {
	var out []float64
	for _, r := range runs {
		if r.Size == size {
			out = append(out, r.MiBPerSec...)
		}
	}
	return out
}

// Foresee is the sizes an adaptive sweep of c would run after round,
// from the samples so far, were the time budget no bound; nil when the
// rounds would stop for want of a knee. A progress display forecasts the
// rounds with it; the sweep decides in next, by the same rules.
func Foresee(c Config, samples []Sample, round int) []int64 {
	a := &autoRounds{cfg: c}
	runs := a.runs(samples)
	return a.wanted(runs, knee.EstimateKnee(runs, c.fraction()), round)
}

// Foreseer is Foresee for c, as a progress display takes it; nil for a
// plan of fixed rounds.
func (c Config) Foreseer() func([]Sample, int) []int64 {
	if !c.Auto {
		return nil
	}
	return func(samples []Sample, round int) []int64 { return Foresee(c, samples, round) }
}

func (a *autoRounds) stop(why string) []int64 {
	a.log.Stop = why
	return nil
}

// runs are the samples of the direction the knee is for, of the first
// variant: an interleaved sweep's rounds follow the reference's knee, and
// run the sizes it chooses for every variant.
func (a *autoRounds) runs(samples []Sample) []knee.Runs {
	mode := ModeWrite
	if a.cfg.Mode == ModeRead {
		mode = ModeRead
	}
	first := a.cfg.VariantList()[0].Name
	var out []knee.Runs
	for _, s := range samples {
		if s.Mode == mode && s.Variant == first {
			out = append(out, knee.Runs{Size: s.WriteSize, MiBPerSec: []float64{s.MiBPerSec()}})
		}
	}
	return out
}

// nearKnee are the sizes the second round runs: those within around steps of the knee of the runs so far, except sizes that, with
// the next size up, measured below farBelow of the plateau (two in a row,
// so one slow run cannot drop a size near the knee). Every size when
// there is no knee yet.
func nearKnee(runs []knee.Runs, est knee.Estimate, all []int64, around int) []int64 {
	if !est.Found {
		return all
	}
	g := knee.GroupRuns(runs)
	k := slices.IndexFunc(g, func(r knee.Runs) bool { return r.Size == est.WriteSize })
	low := func(i int) bool {
		return i < len(g) && knee.Median(g[i].MiBPerSec) < farBelow*est.PlateauMiBPerSec
	}
	var out []int64
	for i, r := range g {
		if i >= k-around && i <= k+around && !(low(i) && low(i+1)) {
			out = append(out, r.Size)
		}
	}
	return out
}

// withReferences adds the reference sizes that are in the sweep.
func (a *autoRounds) withReferences(sizes []int64) []int64 {
	for _, r := range a.cfg.ReferenceSizes {
		if slices.Contains(a.cfg.Sizes, r) && !slices.Contains(sizes, r) {
			sizes = append(sizes, r)
		}
	}
	slices.Sort(sizes)
	return sizes
}

// predict is the wall time a round of sizes would take: each size's
// longest run so far (erring long, so the budget holds), for each
// variant, plus the mean overhead per run (sync, open, removal) that the
// elapsed time shows beyond the timed runs, padded by predictMargin.
func (a *autoRounds) predict(samples []Sample, sizes []int64) float64 {
	type key struct {
		variant string
		size    int64
	}
	var timed float64
	perSize := map[key][]float64{}
	for _, s := range samples {
		timed += s.Seconds
		k := key{s.Variant, s.WriteSize}
		perSize[k] = append(perSize[k], s.Seconds)
	}
	overhead := 0.0
	if n := len(samples); n > 0 {
		overhead = max(0, a.log.SpentSeconds-timed) / float64(n)
	}
	dirs := float64(len(a.cfg.Mode.Directions()))
	var cost float64
	for _, size := range sizes {
		for _, v := range a.cfg.VariantList() {
			cost += dirs * (longest(perSize[key{v.Name, size}]) + overhead)
		}
	}
	return predictMargin * cost
}

// predictMargin pads a predicted round: on a file system whose runs vary
// by 10%, even each size's longest run so far is sometimes beaten.
const predictMargin = 1.1

func longest(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	return slices.Max(xs)
}

// fraction is the knee fraction the plan was made with.
func (c Config) fraction() float64 {
	if c.KneeFraction > 0 && c.KneeFraction <= 1 {
		return c.KneeFraction
	}
	return knee.DefaultFraction
}
