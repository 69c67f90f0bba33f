package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/runtimes"
	"github.com/iobench/iobench/workload"
)

func TestPricedBehaviourIsTheBiggestFilesKind(t *testing.T) {
	in := workload.Input{Files: []workload.File{{Path: "a", Bytes: 10}, {Path: "b", Bytes: 300}, {Path: "c", Bytes: 50}, {Path: "d", Bytes: 7}}}
	bs := []advice.Behaviour{
		{Path: "a", Runtime: advice.RuntimeStdio, Call: 4096},
		{Path: "b", Runtime: advice.RuntimeStdio, Call: 4096},
		{Path: "c", Runtime: advice.RuntimeLibgfortran, Call: 65592},
		{Path: "d", Runtime: advice.RuntimeStdio, Call: 8192},
	}
	b, files, ok := pricedBehaviour(bs, in)
	if !ok || b.Path != "b" || len(files) != 2 || files[0] != "a" || files[1] != "b" {
		t.Fatalf("got %+v %v %v: want b's stdio 4096, standing for a and b", b, files, ok)
	}
	if n := bytesOf(in, files); n != 310 {
		t.Errorf("bytes %d, want 310", n)
	}
	if _, _, ok := pricedBehaviour(nil, in); ok {
		t.Error("no behaviour priced something")
	}
}

// A run of a quarter of the program's bytes saving 0.1 s saves 0.4 s on
// the program.
func TestSetPriceScalesToTheProgramsBytes(t *testing.T) {
	rp := &report.AppRuntimePrice{Bytes: 1 << 30, RunBytes: 1 << 28}
	p := runtimes.Price{Now: runtimes.Timing{Buffer: 4096, Seconds: 0.3, Low: 0.28, High: 0.35, Runs: 7},
		Advised: runtimes.Timing{Buffer: 65536, Seconds: 0.2, Low: 0.19, High: 0.22, Runs: 7}}
	setPrice(rp, p)
	near := func(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }
	if !near(rp.SavingSeconds, 0.4) || !near(rp.SavingLow, 0.24) || !near(rp.SavingHigh, 0.64) {
		t.Errorf("saving %g (%g-%g), want 0.4 (0.24-0.64)", rp.SavingSeconds, rp.SavingLow, rp.SavingHigh)
	}
	if rp.Now.BufferBytes != 4096 || rp.Advised.Runs != 7 {
		t.Errorf("timings not kept: %+v %+v", rp.Now, rp.Advised)
	}
}

func TestMPIIOCollectiveFromTheEnvironment(t *testing.T) {
	hints := filepath.Join(t.TempDir(), "hints")
	if err := os.WriteFile(hints, []byte("romio_cb_write enable\ncb_buffer_size 4194304\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{advice.SettingBytesPerAgg: "8388608", "ROMIO_HINTS": hints}
	get := func(k string) string { return env[k] }
	none := func(string) string { return "" }
	for _, tt := range []struct {
		rt     string
		getenv func(string) string
		want   int64
	}{
		{advice.RuntimeOMPIO, get, 8 << 20},
		{advice.RuntimeROMIO, get, 4 << 20},
		{advice.RuntimeOMPIO, none, 32 << 20},
		{advice.RuntimeROMIO, none, 16 << 20},
	} {
		if got := mpiioCollective(tt.rt, tt.getenv); got != tt.want {
			t.Errorf("%s: %d, want %d", tt.rt, got, tt.want)
		}
	}
}

// TestUnsettledPriceIsNotTheEstimate: tune holds a price through the
// runtime against its measurement only when the price tells a saving;
// one whose interval holds no change leaves the curve's estimate, and
// says so (on tmpfs a Fortran price of 0.029 s, -0.25 to 0.20 s, stood
// for a saving tune measured at 0.164 s).
func TestUnsettledPriceIsNotTheEstimate(t *testing.T) {
	app := &report.AppReport{Estimate: &report.AppEstimate{SavingSeconds: 0.116},
		Program: &report.AppProgram{UntracedSeconds: 1.07, Curve: &report.AppProgramCurve{Comparable: true, Source: "quick sweep"}}}
	for _, tt := range []struct {
		low, high float64
		want      float64
		basis     string
	}{{0.02, 0.2, 0.1, "own writer"}, {-0.25, 0.2, 0.116, "is not settled"}} {
		app.Program.RuntimePrice = &report.AppRuntimePrice{Runtime: advice.RuntimeLibgfortran, SavingSeconds: 0.1, SavingLow: tt.low, SavingHigh: tt.high}
		e := estimateFor(app, candidate{advised: true})
		if e == nil || e.SavingSeconds != tt.want || !strings.Contains(e.Basis, tt.basis) {
			t.Errorf("price %g to %g: estimate %+v, want %g s with %q", tt.low, tt.high, e, tt.want, tt.basis)
		}
	}
}

// Formatted output is not priced through libgfortran's writer, which
// writes unformatted records through the other buffer; nor a flush the
// writer cannot make.
func TestWriterMismatch(t *testing.T) {
	for _, tt := range []struct {
		b     advice.Behaviour
		flush string
		want  string
	}{
		{advice.Behaviour{Runtime: advice.RuntimeLibgfortran, Knob: advice.KnobUnformatted}, workload.FlushNone, ""},
		{advice.Behaviour{Runtime: advice.RuntimeLibgfortran, Knob: advice.KnobFormatted}, workload.FlushNone, "formatted output"},
		{advice.Behaviour{Runtime: advice.RuntimeStdio}, workload.FlushFsync, ""},
		{advice.Behaviour{Runtime: advice.RuntimeStdio}, "O_DIRECT", "cannot flush"},
	} {
		if got := writerMismatch(tt.b, tt.flush); (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%+v, %s: %q, want ~%q", tt.b, tt.flush, got, tt.want)
		}
	}
}
