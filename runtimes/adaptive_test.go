package runtimes

import (
	"os"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/iobench/iobench/convert"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/knee"
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
		Auto: true, Rounds: iobench.MinAutoRounds, Sweep: NewSweep("test", runs, 128<<10, 128<<10, true, 0.95)}
}

// rounds fakes rounds of cases: case c's throughput in round r is
// mib(c) times noise[r mod len(noise)], each run taking its time.
func rounds(p Plan, cases []Case, from, n int, mib func(Case) float64, noise []float64) []Sample {
	var out []Sample
	for r := from; r < from+n; r++ {
		for _, c := range cases {
			v := mib(c) * noise[r%len(noise)]
			out = append(out, Sample{Step: Step{Case: c, Round: r}, Bytes: p.Bytes(), Nanos: int64(float64(p.Bytes()) / (v * iobench.MiB) * 1e9)})
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
	if a.log.BudgetSeconds != DefaultBudgetRounds*10 || a.log.FirstRoundSeconds != 10 {
		t.Errorf("budget %v of a first round of %v, want %d x 10 s", a.log.BudgetSeconds, a.log.FirstRoundSeconds, DefaultBudgetRounds)
	}
	samples = append(samples, rounds(p, cases, 2, 2, clear, tight)...)
	a.next(samples[:6], 2, len(cases), at(12))
	// Three runs a side cannot pass the U test at 5%: a fourth round of
	// the advised case and its default.
	if got := a.next(samples, 3, len(cases), at(14)); !slices.Equal(got, []Case{def, rec}) {
		t.Errorf("after round 3: %v (stop %q), want the advised case and its default", got, a.log.Stop)
	}
	samples = append(samples, rounds(p, []Case{def, rec}, 4, 1, clear, tight)...)
	if got := a.next(samples, 4, 2, at(16)); got != nil || a.log.Stop != iobench.StopEstablished || len(a.log.Undecided) != 0 {
		t.Errorf("a clear x2 gain that agrees: next %v, stop %q, undecided %v; want to stop, established", got, a.log.Stop, a.log.Undecided)
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
	if len(a.log.Undecided) != 1 || a.log.Undecided[0].Case != rec || !a.log.Undecided[0].Gain {
		t.Errorf("undecided %+v, want the 128 KiB case's gain", a.log.Undecided)
	}
	samples = append(samples, rounds(p, got, 4, 1, near, noisy)...)
	if got := a.next(samples, 4, 2, at(48)); got != nil || a.log.Stop != iobench.StopBudget || a.log.NextRoundSeconds <= 0 {
		t.Errorf("at 48 s of a 50 s budget: next %v, stop %q (next round %v s); want the budget to stop it", got, a.log.Stop, a.log.NextRoundSeconds)
	}
	if diff := cmp.Diff([]int{3, 3, 3, 2}, a.log.CasesPerRound); diff != "" || a.log.Rounds != 4 {
		t.Errorf("%d rounds, cases per round (-want +got):\n%s", a.log.Rounds, diff)
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

// TestMeasureAdaptive runs adaptive rounds through the stdio writer on
// small data: at least MinAutoRounds rounds of every case, later rounds
// of the undecided cases with their defaults, within the budget.
func TestMeasureAdaptive(t *testing.T) {
	if _, err := os.Stat("/proc/self/io"); err != nil {
		t.Skip("no /proc/self/io to count write(2) calls")
	}
	w := writerFor(t, Stdio)
	dir := dataDirs(t)["disk"]
	if d, ok := dataDirs(t)["tmpfs"]; ok {
		dir = d
	}
	p := smallPlan(t, dir)
	p.DefaultBuffer = DefaultBuffer(Stdio, blockSize(t, dir))
	p.Buffers = []int64{p.DefaultBuffer, 64 << 10, 1 << 20}
	p.Auto, p.TimeBudget = true, 2*time.Second
	p.Sweep = NewSweep("test", []knee.Runs{{Size: p.DefaultBuffer, MiBPerSec: []float64{500, 510, 490}},
		{Size: 64 << 10, MiBPerSec: []float64{1000, 1010, 990}}, {Size: 1 << 20, MiBPerSec: []float64{1000, 1010, 990}}}, 64<<10, 64<<10, true, 0.95)
	var planned [][]Step
	obs := &recorder{round: func(_ int, s []Step) { planned = append(planned, s) }}
	begin := time.Now()
	res, err := w.Measure(t.Context(), p, obs)
	if err != nil {
		t.Fatal(err)
	}
	a := res.Adaptive
	if a == nil || a.Rounds < iobench.MinAutoRounds || a.Rounds != len(planned) || len(a.CasesPerRound) != a.Rounds {
		t.Fatalf("adaptive %+v after %d rounds planned", a, len(planned))
	}
	if !slices.Contains([]string{iobench.StopEstablished, iobench.StopBudget, iobench.StopMaxRounds}, a.Stop) {
		t.Errorf("stop %q", a.Stop)
	}
	t.Logf("%d rounds of %v cases, stopped: %s; undecided %v; %.2f s", a.Rounds, a.CasesPerRound, a.Stop, a.Undecided, time.Since(begin).Seconds())
	seq := 0
	for r, steps := range planned {
		var got []Case
		for _, s := range steps {
			seq++
			if s.Round != r+1 || s.Seq != seq || res.Samples[seq-1].Step != s {
				t.Fatalf("step %+v: want round %d, seq %d, as measured", s, r+1, seq)
			}
			got = append(got, s.Case)
		}
		if r < iobench.MinAutoRounds {
			if len(got) != len(p.Cases()) {
				t.Errorf("round %d ran %d cases, want all %d", r+1, len(got), len(p.Cases()))
			}
			continue
		}
		for _, c := range got { // every gain run beside its default
			def := Case{Layout: c.Layout, Convert: c.Convert, BufferBytes: p.DefaultBuffer, Default: true}
			if !slices.Contains(got, def) {
				t.Errorf("round %d runs %+v without its default", r+1, c)
			}
		}
	}
	if seq != len(res.Samples) {
		t.Errorf("%d samples of %d steps planned", len(res.Samples), seq)
	}
	if a.SpentSeconds > 1.5*a.BudgetSeconds && a.Rounds > iobench.MinAutoRounds {
		t.Errorf("spent %.2f s of a %.2f s budget", a.SpentSeconds, a.BudgetSeconds)
	}
	if left := dataFiles(t, dir); len(left) != 0 {
		t.Errorf("data files left: %v", left)
	}
}

// recorder is an Observer that keeps the rounds planned.
type recorder struct{ round func(int, []Step) }

func (*recorder) WarmupStarted(Case)                 {}
func (r *recorder) RoundPlanned(n int, steps []Step) { r.round(n, steps) }
func (*recorder) StepStarted(Step, int)              {}
func (*recorder) StepFinished(Sample, int)           {}
