package libcheck

import (
	"math/rand/v2"
	"slices"
	"time"

	"github.com/iobench/iobench/record"
)

// Schedule hands out a plan's rounds: the first, then each next one from
// the samples so far (every case until Rounds for a fixed plan, what the
// adaptive rounds choose for an adaptive one), each shuffled from Seed.
type Schedule struct {
	p     Plan
	rng   *rand.Rand
	auto  *autoRounds
	round int
	cases int // steps of the round handed out last
}

// Schedule starts the rounds of p for rt at start.
func (p Plan) Schedule(rt Runtime, start time.Time) *Schedule {
	s := &Schedule{p: p, rng: record.ShuffleRand(p.Seed)}
	if p.Auto {
		s.auto = newAutoRounds(rt, p, start)
	}
	return s
}

// First is the first round.
func (s *Schedule) First() []Step { return s.steps(s.p.Cases(), 0) }

// Next is the round after the last one handed out, from every sample so
// far, finished at now; none ends the plan.
func (s *Schedule) Next(samples []Sample, now time.Time) []Step {
	var next []Case
	switch {
	case s.auto != nil:
		next = s.auto.next(samples, s.round, s.cases, now)
	case s.round < s.p.Rounds:
		next = s.p.Cases()
	}
	return s.steps(next, len(samples))
}

// Total is about how many steps the plan will have run, after done, with
// the round handed out last still to run: the fixed rounds left count in
// full.
func (s *Schedule) Total(done int) int {
	return done + s.cases + max(0, s.fixedRounds()-s.round)*len(s.p.Cases())
}

// Adaptive is the adaptive rounds' log; nil for a fixed plan.
func (s *Schedule) Adaptive() *Adaptive {
	if s.auto == nil {
		return nil
	}
	return &s.auto.Log
}

// fixedRounds are the rounds of every case: Rounds, or the first
// record.MinAutoRounds of adaptive rounds.
func (s *Schedule) fixedRounds() int {
	if s.p.Auto {
		return record.MinAutoRounds
	}
	return s.p.Rounds
}

func (s *Schedule) steps(cases []Case, done int) []Step {
	s.round++
	s.cases = len(cases)
	return roundSteps(s.rng, s.round, cases, done)
}

// roundSteps is one round of cases, shuffled, numbered after done steps.
func roundSteps(rng *rand.Rand, round int, cases []Case, done int) []Step {
	order := slices.Clone(cases)
	rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	steps := make([]Step, len(order))
	for i, c := range order {
		steps[i] = Step{Case: c, Round: round, Seq: done + i + 1}
	}
	return steps
}
