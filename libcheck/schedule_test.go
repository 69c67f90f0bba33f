package libcheck

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestScheduleRunsTheListedSteps: a fixed plan's rounds, handed out one
// by one, are the steps the plan lists (what a dry run shows is what
// runs), and the total it foresees is theirs from the first round on.
func TestScheduleRunsTheListedSteps(t *testing.T) {
	p := smallPlan(t, "/nonexistent")
	want := p.Steps()
	s := p.Schedule(Stdio, time.Now())
	var got []Step
	var samples []Sample
	for steps := s.First(); len(steps) > 0; steps = s.Next(samples, time.Now()) {
		if total := s.Total(len(got)); total != len(want) {
			t.Errorf("round %d: total %d, want %d", steps[0].Round, total, len(want))
		}
		got = append(got, steps...)
		for _, st := range steps {
			samples = append(samples, Sample{Step: st})
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("scheduled steps (-listed +run):\n%s", diff)
	}
	if s.Adaptive() != nil {
		t.Errorf("a fixed plan has an adaptive log: %+v", s.Adaptive())
	}
}
