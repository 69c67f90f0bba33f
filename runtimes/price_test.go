package runtimes

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/iobench/iobench/convert"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/libcheck"
)

// TestPriceRunsBothBuffers prices 1 MiB of 64-byte records through
// stdio at a 4 KiB and a 64 KiB buffer: each buffer runs its rounds,
// gives its own call count, and leaves no data file (no budget: the
// first rounds alone).
func TestPriceRunsBothBuffers(t *testing.T) {
	w := writerFor(t, libcheck.Stdio)
	dir := t.TempDir()
	prefix, err := iobench.UniquePrefix()
	if err != nil {
		t.Fatal(err)
	}
	spec := PriceSpec{Dir: dir, Prefix: prefix, Bytes: 1 << 20, RecordBytes: 64, Now: 4096, Advised: 65536, Default: 4096, Rounds: 6, Budget: -1, Seed: 1}
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
	w := &Writer{rt: libcheck.Stdio}
	if _, err := w.Price(t.Context(), PriceSpec{Now: 4096, Advised: 4096}); err == nil {
		t.Fatal("equal buffers priced: want an error")
	}
}

func TestPriceWantsEnoughRuns(t *testing.T) {
	if _, err := timingOf([]libcheck.Sample{{Step: libcheck.Step{Case: libcheck.Case{BufferBytes: 8}}, Nanos: 1}}, 8); err == nil {
		t.Fatal("one run gave an interval: want an error")
	}
}

// TestPairedDiffsCancelDrift: the saving is the median of the rounds'
// differences, so a drift that moves both buffers' runs alike leaves it
// as it is, where the medians' difference would carry the drift's
// spread into its interval; a round missing a buffer pairs nothing.
func TestPairedDiffsCancelDrift(t *testing.T) {
	var samples []libcheck.Sample
	for r := 1; r <= 9; r++ {
		drift := int64(r%3) * 400e6 // 0, 0.4 or 0.8 s on both
		samples = append(samples, priceSample(r, 4096, 1e9+drift), priceSample(r, 65536, 0.9e9+drift))
	}
	samples = append(samples, priceSample(10, 4096, 5e9)) // no partner
	p, err := priceOf(samples, PriceSpec{Now: 4096, Advised: 65536})
	if err != nil {
		t.Fatal(err)
	}
	est, low, high := p.Saving()
	if len(p.Diffs) != 9 || math.Abs(est-0.1) > 1e-9 || math.Abs(high-low) > 1e-9 || !p.clear() {
		t.Errorf("%d pairs, saving %.3f (%.3f-%.3f), clear %v: want 9 pairs of 0.1 s exactly", len(p.Diffs), est, low, high, p.clear())
	}
	if unpaired := (Price{Now: p.Now, Advised: p.Advised}); unpaired.clear() {
		t.Errorf("the medians' difference alone should be unclear under this drift: %+v", unpaired)
	}
}

func priceSample(round int, buffer, nanos int64) libcheck.Sample {
	s := libcheck.Sample{Nanos: nanos}
	s.Round, s.BufferBytes = round, buffer
	return s
}

// TestPriceWritesFromOneRecord: a price's records come from one
// record's memory, as a program's fwrite of a record variable does: a
// writer holding the run's 256 MiB in an array priced a 4 MiB buffer on
// ext4 at 0.078 and 0.215 s, the one-record writer at 0.291 and 0.251 s,
// the program's own saving 0.271 s (docs/measurements.md).
func TestPriceWritesFromOneRecord(t *testing.T) {
	s := PriceSpec{Bytes: 1 << 20, RecordBytes: 64, Now: 4096, Advised: 4 << 20, Default: 4096}
	j := pricePlan(s, 1, false, 0).JobFor(libcheck.Case{Layout: libcheck.LayoutRecords, BufferBytes: s.Advised}, 1, libcheck.Stdio)
	if !j.SameRecord || j.RecordBytes != 64 {
		t.Errorf("price job %+v: want 64-byte records from one record's memory", j)
	}
}

// TestWritersWriteFromOneRecord: with SameRecord each writer writes every
// record from the first: the file holds it over and over, the last one
// short, which checkFile reads back.
func TestWritersWriteFromOneRecord(t *testing.T) {
	for _, rt := range libcheck.Runtimes() {
		w := writerFor(t, rt)
		j := libcheck.Job{Dir: t.TempDir(), Name: "same.dat", Elements: 1000, RecordBytes: 24, SameRecord: true, Convert: convert.BigEndian}
		path := filepath.Join(j.Dir, j.Name)
		if _, _, err := w.exec(t.Context(), j, path); err != nil {
			t.Fatalf("%s: %v", rt, err)
		}
		if err := checkFile(rt, path, j); err != nil {
			t.Errorf("%s: %v", rt, err)
		}
		slices := j
		slices.SameRecord = false
		if err := checkFile(rt, path, slices); err == nil {
			t.Errorf("%s: the file holds the array's slices: want the first record repeated", rt)
		}
	}
}
