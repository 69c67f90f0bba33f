package runtimes

import (
	"os"
	"testing"

	"github.com/iobench/iobench/iobench"
)

// TestPriceRunsBothBuffers prices 1 MiB of 64-byte records through
// stdio at a 4 KiB and a 64 KiB buffer: each buffer runs its rounds,
// gives its own call count, and leaves no data file.
func TestPriceRunsBothBuffers(t *testing.T) {
	w := writerFor(t, Stdio)
	dir := t.TempDir()
	prefix, err := iobench.UniquePrefix()
	if err != nil {
		t.Fatal(err)
	}
	spec := PriceSpec{Dir: dir, Prefix: prefix, Bytes: 1 << 20, RecordBytes: 64, Now: 4096, Advised: 65536, Default: 4096, Rounds: 6, Seed: 1}
	p, err := w.Price(t.Context(), spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, tm := range []Timing{p.Now, p.Advised} {
		if tm.Runs != 6 || tm.Seconds <= 0 || tm.Low > tm.Seconds || tm.High < tm.Seconds {
			t.Errorf("buffer %d: %+v: want 6 runs and a median inside its interval", tm.Buffer, tm)
		}
	}
	if p.Now.Calls >= 0 && (p.Now.Calls != 256 || p.Advised.Calls != 16) {
		t.Errorf("calls %d at 4 KiB and %d at 64 KiB: want 256 and 16", p.Now.Calls, p.Advised.Calls)
	}
	if est, low, high := p.Saving(); low > est || high < est {
		t.Errorf("saving %g outside its interval %g..%g", est, low, high)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("left %d files in the data directory", len(left))
	}
}

func TestPriceRefusesEqualBuffers(t *testing.T) {
	w := &Writer{rt: Stdio}
	if _, err := w.Price(t.Context(), PriceSpec{Now: 4096, Advised: 4096}); err == nil {
		t.Fatal("equal buffers priced: want an error")
	}
}

func TestPriceWantsEnoughRuns(t *testing.T) {
	if _, err := timingOf([]Sample{{Step: Step{Case: Case{BufferBytes: 8}}, Nanos: 1}}, 8); err == nil {
		t.Fatal("one run gave an interval: want an error")
	}
}
