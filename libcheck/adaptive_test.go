package libcheck

import (
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/iobench/iobench/convert"
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/record"
)

// adaptivePlan is a stdio plan of one layout and byte order whose advice
// is the 128 KiB buffer (the sweep's knee), with an 8 KiB default.
func adaptivePlan() Plan {
	curve := map[int64]float64{8 << 10: 500, 128 << 10: 1000, 1 << 20: 1000}
	var runs []knee.Runs
	for size, mib := range curve {
		runs = append(runs, knee.Runs{Size: size, MiBPerSec: []float64{mib * 0.99, mib, mib * 1.01}})
	}
	return Plan{Dir: "/x", Prefix: "p", Elements: 1 << 20, RecordBytes: 1024, Layouts: []Layout{LayoutRecords},
		Orders: []convert.Order{convert.BigEndian}, Buffers: []int64{8 << 10, 128 << 10, 1 << 20}, DefaultBuffer: 8 << 10,
		Auto: true, Rounds: record.MinAutoRounds, Sweep: NewSweep("test", runs, 128<<10, 128<<10, true, 0.95)}
}

// rounds fakes rounds of cases: case c's throughput in round r is
// mib(c) times noise[r mod len(noise)], each run taking its time.
func rounds(p Plan, cases []Case, from, n int, mib func(Case) float64, noise []float64) []Sample {
	var out []Sample
	for r := from; r < from+n; r++ {
		for _, c := range cases {
			v := mib(c) * noise[r%len(noise)]
			out = append(out, Sample{Step: Step{Case: c, Round: r}, Bytes: p.Bytes(), Nanos: int64(float64(p.Bytes()) / (v * record.MiB) * 1e9)})
		}
	}
	return out
}

// TestAdaptiveDecides drives the adaptive rounds' choice with fake runs:
// every case until MinAutoRounds, then only the undecided recommended
// case with its default; a clear gain that agrees with the sweep stops
// them, and the budget stops a round that would overrun it.
func TestAdaptiveDecides(t *testing.T) {
	p := adaptivePlan()
	cases := p.Cases()
	def, rec := cases[0], cases[1]
	if !def.Default || rec.BufferBytes != 128<<10 {
		t.Fatalf("cases %+v", cases)
	}
	start := time.Unix(1000, 0)
	at := func(sec float64) time.Time { return start.Add(time.Duration(sec * float64(time.Second))) }
	clear := func(c Case) float64 {
		return map[int64]float64{8 << 10: 500, 128 << 10: 1000, 1 << 20: 1000}[c.BufferBytes]
	}
	tight := []float64{0.99, 1.0, 1.01}

	a := newAutoRounds(Stdio, p, start)
	samples := rounds(p, cases, 1, 1, clear, tight)
	if got := a.next(samples, 1, len(cases), at(10)); !slices.Equal(got, cases) {
		t.Errorf("after round 1: %v, want every case", got)
	}
	if a.Log.BudgetSeconds != DefaultBudgetRounds*10 || a.Log.FirstRoundSeconds != 10 {
		t.Errorf("budget %v of a first round of %v, want %d x 10 s", a.Log.BudgetSeconds, a.Log.FirstRoundSeconds, DefaultBudgetRounds)
	}
	samples = append(samples, rounds(p, cases, 2, 2, clear, tight)...)
	a.next(samples[:6], 2, len(cases), at(12))
	// Three runs a side cannot pass the U test at 5%: a fourth round of
	// the advised case and its default.
	if got := a.next(samples, 3, len(cases), at(14)); !slices.Equal(got, []Case{def, rec}) {
		t.Errorf("after round 3: %v (stop %q), want the advised case and its default", got, a.Log.Stop)
	}
	samples = append(samples, rounds(p, []Case{def, rec}, 4, 1, clear, tight)...)
	if got := a.next(samples, 4, 2, at(16)); got != nil || a.Log.Stop != record.StopEstablished || len(a.Log.Undecided) != 0 {
		t.Errorf("a clear x2 gain that agrees: next %v, stop %q, undecided %v; want to stop, established", got, a.Log.Stop, a.Log.Undecided)
	}

	// The 128 KiB buffer is 3% faster, with 10% noise: undecided.
	near := func(c Case) float64 {
		return map[int64]float64{8 << 10: 1000, 128 << 10: 1030, 1 << 20: 1000}[c.BufferBytes]
	}
	noisy := []float64{0.9, 1.1, 1.0, 0.95, 1.05}
	a = newAutoRounds(Stdio, p, start)
	samples = rounds(p, cases, 1, 3, near, noisy)
	a.next(samples[:3], 1, 3, at(10))
	a.next(samples[:6], 2, 3, at(15))
	got := a.next(samples, 3, 3, at(20))
	if diff := cmp.Diff([]Case{def, rec}, got); diff != "" {
		t.Errorf("round 4 (-want +got):\n%s", diff)
	}
	if len(a.Log.Undecided) != 1 || a.Log.Undecided[0].Case != rec || !a.Log.Undecided[0].Gain {
		t.Errorf("undecided %+v, want the 128 KiB case's gain", a.Log.Undecided)
	}
	samples = append(samples, rounds(p, got, 4, 1, near, noisy)...)
	if got := a.next(samples, 4, 2, at(48)); got != nil || a.Log.Stop != record.StopBudget || a.Log.NextRoundSeconds <= 0 {
		t.Errorf("at 48 s of a 50 s budget: next %v, stop %q (next round %v s); want the budget to stop it", got, a.Log.Stop, a.Log.NextRoundSeconds)
	}
	if diff := cmp.Diff([]int{3, 3, 3, 2}, a.Log.CasesPerRound); diff != "" || a.Log.Rounds != 4 {
		t.Errorf("%d rounds, cases per round (-want +got):\n%s", a.Log.Rounds, diff)
	}
}

func TestDecided(t *testing.T) {
	band := 1 / 0.95
	for _, tt := range []struct {
		g                knee.Gain
		predicted        float64
		gain, agreeement bool
	}{
		{knee.Gain{Ratio: 2, Low: 1.9, High: 2.1, Significant: true}, 2, true, true},
		{knee.Gain{Ratio: 1, Low: 0.98, High: 1.03}, 1.5, true, true},   // within the band; differs for sure
		{knee.Gain{Ratio: 1.03, Low: 0.9, High: 1.2}, 1, false, false},  // straddles the band and the tolerance
		{knee.Gain{Ratio: 1.3, Low: 1.1, High: 1.5}, 1.3, false, false}, // above the band, not significant yet
	} {
		if got := gainDecided(tt.g, band); got != tt.gain {
			t.Errorf("%+v: gain decided %v, want %v", tt.g, got, tt.gain)
		}
		if got := agreementDecided(tt.g, tt.predicted); got != tt.agreeement {
			t.Errorf("%+v against %.2f: agreement decided %v, want %v", tt.g, tt.predicted, got, tt.agreeement)
		}
	}
}
