package libcheck

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/iobench/iobench/convert"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/record"
)

func smallPlan(t *testing.T, dir string) Plan {
	t.Helper()
	prefix, err := iobench.UniquePrefix()
	if err != nil {
		t.Fatal(err)
	}
	return Plan{
		Dir: dir, Prefix: prefix, Elements: 1 << 18, RecordBytes: DefaultRecordBytes, // 2 MiB
		Layouts: Layouts(), Orders: []convert.Order{convert.Native, convert.BigEndian},
		Buffers: []int64{8 << 10, GfortranDefaultBuffer, 1 << 20}, DefaultBuffer: GfortranDefaultBuffer,
		Rounds: 2, Seed: 7, Sync: record.SyncNone,
	}
}

func TestStepsAreShuffledRounds(t *testing.T) {
	p := smallPlan(t, "/nonexistent")
	steps := p.Steps()
	cases := p.Cases()
	if len(cases) != 12 || len(steps) != 24 {
		t.Fatalf("%d cases, %d steps; want 12 and 24", len(cases), len(steps))
	}
	for round := 1; round <= 2; round++ {
		var got []Case
		for _, s := range steps[(round-1)*12 : round*12] {
			if s.Round != round {
				t.Fatalf("step %d in round %d, want %d", s.Seq, s.Round, round)
			}
			got = append(got, s.Case)
		}
		if slices.Equal(got, cases) {
			t.Errorf("round %d runs in report order: not shuffled", round)
		}
		sorted := slices.Clone(got)
		slices.SortFunc(sorted, func(a, b Case) int { return slices.Index(cases, a) - slices.Index(cases, b) })
		if diff := cmp.Diff(cases, sorted); diff != "" {
			t.Errorf("round %d does not run every case once (-want +got):\n%s", round, diff)
		}
	}
	if diff := cmp.Diff(steps, p.Steps()); diff != "" {
		t.Errorf("the same seed gives another plan (-first +second):\n%s", diff)
	}
	var defaults int
	for _, c := range cases {
		if c.Default {
			defaults++
			if c.BufferBytes != GfortranDefaultBuffer {
				t.Errorf("default case %+v", c)
			}
			if j := p.JobFor(c, 1, Gfortran); j.BufferBytes != 0 {
				t.Errorf("the default case sets a buffer of %d; it must run as the runtime's default", j.BufferBytes)
			}
		}
	}
	if defaults != 4 {
		t.Errorf("%d default cases, want one per layout and order (4)", defaults)
	}
}

func TestPlanValidate(t *testing.T) {
	good := smallPlan(t, "/tmp")
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(*Plan){
		"no prefix":  func(p *Plan) { p.Prefix = "" },
		"no rounds":  func(p *Plan) { p.Rounds = 0 },
		"odd record": func(p *Plan) { p.RecordBytes = 12 },
		"no buffers": func(p *Plan) { p.Buffers = nil },
		"zero buf":   func(p *Plan) { p.Buffers = []int64{0} },
	} {
		p := good
		edit(&p)
		if err := p.Validate(); err == nil {
			t.Errorf("%s: Validate passed", name)
		}
	}
}

// TestSummarizeAgainstSweep: synthetic samples of a curve that rises to
// 128 KiB: the converted case's gain agrees with the sweep's, the
// native array's is 1 by construction, and the advice follows each rule.
func TestSummarizeAgainstSweep(t *testing.T) {
	p := Plan{Dir: "/x", Prefix: "p", Elements: 1 << 22, RecordBytes: 1024, Layouts: Layouts(),
		Orders: []convert.Order{convert.Native, convert.BigEndian}, Buffers: []int64{8 << 10, 128 << 10, 256 << 10},
		DefaultBuffer: 8 << 10, Rounds: 6}
	curve := map[int64]float64{8 << 10: 500, 128 << 10: 1000, 256 << 10: 1000, 32 << 20: 1000}
	noise := []float64{0.98, 1.01, 0.99, 1.02, 1.0, 0.97}
	var res Result
	var sweepRuns []knee.Runs
	for size, mib := range curve {
		r := knee.Runs{Size: size}
		for _, f := range noise {
			r.MiBPerSec = append(r.MiBPerSec, mib*f)
		}
		sweepRuns = append(sweepRuns, r)
	}
	for _, s := range p.Steps() {
		calls := predict(Stdio, p, s.Case)
		mib := curve[min(meanCall(p.Bytes(), calls), 32<<20)] * 0.9 * noise[s.Round-1]
		if mib == 0 {
			mib = 900
		}
		nanos := int64(float64(p.Bytes()) / (mib * record.MiB) * 1e9)
		res.Samples = append(res.Samples, Sample{Step: s, Nanos: nanos, Bytes: p.Bytes(), WriteCalls: calls.Count, WrittenBytes: p.Bytes()})
	}
	sw := NewSweep("test", sweepRuns, 128<<10, 128<<10, true, 0.95)
	sum := Summarize(Stdio, p, &res, sw)
	if !sum.CallsAsPredicted || len(sum.Cases) != 12 {
		t.Fatalf("calls as predicted %v, %d cases", sum.CallsAsPredicted, len(sum.Cases))
	}
	for _, c := range sum.Cases {
		switch {
		case c.Default:
			if c.Gain != nil {
				t.Errorf("%+v: the default has a gain over itself", c.Case)
			}
		case c.Layout == LayoutArray && !c.Swap():
			if !c.Sweep.SameCalls || c.Sweep.Gain != 1 {
				t.Errorf("%+v: native array: sweep gain %+v, want 1 by the same calls", c.Case, c.Sweep)
			}
		case c.Swap() && c.BufferBytes == 128<<10:
			if c.Sweep.Agreement != AgreeInterval || c.Gain.Ratio < 1.8 || c.Gain.Ratio > 2.2 {
				t.Errorf("%+v: gain %.2f, sweep %.2f, agreement %s", c.Case, c.Gain.Ratio, c.Sweep.Gain, c.Sweep.Agreement)
			}
		}
	}
	want := map[string]struct {
		buf     int64
		verdict string
	}{
		"array/native":       {0, VerdictAny},
		"array/big-endian":   {128 << 10, VerdictSet},
		"records/native":     {128 << 10, VerdictSet}, // stdio: full buffers, B = K
		"records/big-endian": {128 << 10, VerdictSet},
	}
	for _, a := range sum.Advice {
		w := want[string(a.Layout)+"/"+a.Convert]
		if a.BufferBytes != w.buf || a.Verdict != w.verdict {
			t.Errorf("%s %s: advice %d bytes, %s; want %d, %s (%s)", a.Layout, a.Convert, a.BufferBytes, a.Verdict, w.buf, w.verdict, a.Rule)
		}
	}
	g := Summarize(Gfortran, p, &res, sw).Advice
	if g[2].Layout != LayoutRecords || g[2].Convert != "native" || g[2].BufferBytes != 256<<10 {
		t.Errorf("gfortran native records: advice %+v, want 2K = 256 KiB", g[2])
	}
}

func TestAgreement(t *testing.T) {
	tests := []struct {
		ratio, low, high, predicted float64
		want                        string
	}{
		{2, 1.8, 2.2, 2.1, AgreeInterval},
		{2, 1.95, 2.05, 2.2, AgreeClose},
		{1, 0.95, 1.05, 2, Differ},
	}
	for _, tt := range tests {
		got, _ := agreement(knee.Gain{Ratio: tt.ratio, Low: tt.low, High: tt.high}, tt.predicted)
		if got != tt.want {
			t.Errorf("measured %.2f [%.2f, %.2f] against %.2f: %s, want %s", tt.ratio, tt.low, tt.high, tt.predicted, got, tt.want)
		}
	}
}
