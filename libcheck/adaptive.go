package libcheck

import (
	"slices"
	"time"

	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/record"
)

// Adaptive rounds (Plan.Auto), the runtime's form of the sweep's
// --repeat auto: the first record.MinAutoRounds rounds run every case;
// each later round runs only the cases that decide a recommendation and
// are still undecided (Undecided), each with the default case of its
// layout and byte order so that every gain stays paired in time. The
// rounds stop when every recommended case is decided, after
// record.MaxAutoRounds rounds, or before a round that would overrun the
// time budget (Plan.TimeBudget, else DefaultBudgetRounds times the first
// round). The budget governs only the rounds after the first
// MinAutoRounds, as in the sweep.

// DefaultBudgetRounds sets the default time budget: this many times the
// first round's wall time, the first round included. The sweep's
// record.DefaultBudgetRounds (3) would not do here: a sweep's rounds 2
// and 3 run only the sizes near its knee, but the runtime's run every
// case, so 3 rounds would spend all of it before one adaptive round could
// run. DefaultRounds rounds' worth costs what the fixed default costs, and
// spends the last two rounds' worth on the cases still undecided.
const DefaultBudgetRounds = DefaultRounds

// Adaptive is what adaptive rounds did, for the report: the sweep's
// record.Adaptive, counted in cases. Stop is record.StopEstablished
// (every recommended case is decided), record.StopBudget or
// record.StopMaxRounds; empty when the rounds were interrupted.
type Adaptive struct {
	Rounds            int     `json:"rounds"`              // rounds run
	CasesPerRound     []int   `json:"cases_per_round"`     // cases each round ran
	FirstRoundSeconds float64 `json:"first_round_seconds"` // wall time of round 1, flushes included
	BudgetSeconds     float64 `json:"budget_seconds"`      // Plan.TimeBudget, or DefaultBudgetRounds x round 1
	BudgetFromFlag    bool    `json:"budget_from_flag"`    // Plan.TimeBudget was set
	SpentSeconds      float64 `json:"spent_seconds"`       // wall time of all rounds
	Stop              string  `json:"stop"`
	NextRoundSeconds  float64 `json:"next_round_seconds"` // predicted cost of the round not run (StopBudget)
	// Undecided are the recommended cases still undecided at the last
	// look, the ones a next round would run: none when Stop is
	// record.StopEstablished.
	Undecided []UndecidedCase `json:"undecided"`
}

// UndecidedCase is a recommended case whose verdict more runs could
// still change.
type UndecidedCase struct {
	Case
	// Gain: the gain's interval straddles the band of the default
	// (1/fraction), so it is neither a real gain nor within noise yet.
	Gain bool `json:"gain"`
	// Agreement: the interval holds gains that agree with the write(2)
	// sweep's prediction (within AgreeTolerance) and gains that do not.
	Agreement bool `json:"agreement"`
}

// autoRounds plans adaptive rounds from what has been measured.
type autoRounds struct {
	rt    Runtime
	p     Plan
	start time.Time
	Log   Adaptive
}

// newAutoRounds starts the adaptive rounds of plan p for rt at start.
func newAutoRounds(rt Runtime, p Plan, start time.Time) *autoRounds {
	a := &autoRounds{rt: rt, p: p, start: start}
	a.Log.BudgetSeconds = p.TimeBudget.Seconds()
	a.Log.BudgetFromFlag = p.TimeBudget > 0
	a.Log.Undecided = []UndecidedCase{}
	return a
}

// next chooses the cases of round round+1 after round, which ran ran
// cases, has finished at now, from every sample so far; nil stops, with
// the reason in the log.
func (a *autoRounds) next(samples []Sample, round, ran int, now time.Time) []Case {
	a.Log.Rounds = round
	a.Log.CasesPerRound = append(a.Log.CasesPerRound, ran)
	elapsed := now.Sub(a.start).Seconds()
	a.Log.SpentSeconds = elapsed
	if round == 1 {
		a.Log.FirstRoundSeconds = elapsed
		if !a.Log.BudgetFromFlag {
			a.Log.BudgetSeconds = DefaultBudgetRounds * elapsed
		}
	}
	if round < record.MinAutoRounds {
		return a.p.Cases()
	}
	a.Log.Undecided = Undecided(a.rt, a.p, samples)
	switch {
	case len(a.Log.Undecided) == 0:
		return a.stop(record.StopEstablished)
	case round >= record.MaxAutoRounds:
		return a.stop(record.StopMaxRounds)
	}
	want := a.withDefaults(a.Log.Undecided)
	if cost := a.predict(samples, want); elapsed+cost > a.Log.BudgetSeconds {
		a.Log.NextRoundSeconds = cost
		return a.stop(record.StopBudget)
	}
	return want
}

func (a *autoRounds) stop(why string) []Case {
	a.Log.Stop = why
	return nil
}

// withDefaults is the undecided cases and the default case of each one's
// layout and byte order, in report order.
func (a *autoRounds) withDefaults(und []UndecidedCase) []Case {
	return slices.DeleteFunc(a.p.Cases(), func(c Case) bool {
		return !slices.ContainsFunc(und, func(u UndecidedCase) bool {
			return u.Case == c || c.Default && u.Group() == c.Group()
		})
	})
}

// predict is the wall time a round of cases would take: each case's
// longest run so far (erring long, so the budget holds) plus the mean
// overhead per run (flush, start of the writer, removal) that the elapsed
// time shows beyond the timed runs, padded by predictMargin.
func (a *autoRounds) predict(samples []Sample, cases []Case) float64 {
	var timed float64
	longest := map[Case]float64{}
	for _, s := range samples {
		sec := float64(s.Nanos) / 1e9
		timed += sec
		longest[s.Case] = max(longest[s.Case], sec)
	}
	overhead := 0.0
	if n := len(samples); n > 0 {
		overhead = max(0, a.Log.SpentSeconds-timed) / float64(n)
	}
	var cost float64
	for _, c := range cases {
		cost += longest[c] + overhead
	}
	return predictMargin * cost
}

// predictMargin pads a predicted round, as the sweep's does: on a file
// system whose runs vary by 10%, even each case's longest run so far is
// sometimes beaten.
const predictMargin = 1.1

// Undecided are the cases behind the recommendations of what samples
// measured (plan p, runtime rt, held against p.Sweep) whose verdict more
// runs could change: the advised buffer's gain over the default neither
// significant nor wholly within the band, or its agreement with the
// write(2) sweep's prediction open. Advice that ran no buffer of its own
// (any buffer, no knee, keep the default at exactly its size, not
// measured) has nothing to decide.
func Undecided(rt Runtime, p Plan, samples []Sample) []UndecidedCase {
	sum := Summarize(rt, p, &Result{Samples: samples}, p.Sweep)
	band := 1 / fraction(p.Sweep)
	out := []UndecidedCase{}
	for _, a := range sum.Advice {
		if !a.Measured || a.Gain == nil {
			continue
		}
		u := UndecidedCase{Case: Case{Layout: a.Layout, Convert: a.Convert, BufferBytes: a.BufferBytes}}
		if a.Case != nil {
			u.Case = *a.Case
		}
		u.Gain = !gainDecided(*a.Gain, band)
		u.Agreement = a.Sweep != nil && a.Sweep.Agreement != "" && !agreementDecided(*a.Gain, a.Sweep.Gain)
		if u.Gain || u.Agreement {
			out = append(out, u)
		}
	}
	return out
}

// gainDecided: the gain is a real one (Significant), or its whole
// interval lies within band of the default, so no more runs can make it
// one.
func gainDecided(g knee.Gain, band float64) bool {
	return g.Significant || g.High <= band
}

// agreementDecided: the measured gain's whole interval agrees with the
// predicted gain (within AgreeTolerance of it), or none of it does.
func agreementDecided(g knee.Gain, predicted float64) bool {
	lo, hi := predicted*(1-AgreeTolerance), predicted*(1+AgreeTolerance)
	return g.Low >= lo && g.High <= hi || g.High < lo || g.Low > hi
}
