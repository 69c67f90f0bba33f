package runtimes

import (
	"context"
	"errors"
	"fmt"

	"github.com/iobench/iobench/abtest"
	"github.com/iobench/iobench/convert"
	"github.com/iobench/iobench/iobench"
)

// PriceRounds is how many runs of each buffer a price takes: 7 gives
// the median a 98% distribution-free interval from the runs' 1st and
// 7th values, and the 95% one PriceLevel asks for.
const PriceRounds = 7

// PriceLevel is the coverage of a price's intervals.
const PriceLevel = 0.95

// PriceSpec prices a program's writes through the runtime that made
// them: the runtime's own writer, writing records through a buffer that
// gives the program's call size now and one that gives the advised call
// size, in interleaved runs. A write(2) curve prices the calls alone;
// this prices what the runtime does around them too.
type PriceSpec struct {
	Dir, Prefix string // where the data files go; Prefix from iobench.UniquePrefix
	Bytes       int64  // each run's data, a multiple of ElementBytes
	RecordBytes int64  // bytes per fwrite or write statement
	// Now and Advised are the writer's buffers; Default is the
	// runtime's own for the file, which a buffer equal to it runs as
	// (no setvbuf, no environment variable), as an untuned program does.
	Now, Advised, Default int64
	Fsync                 bool // fsync before close, inside the timing, as the program does
	Rounds                int  // runs of each buffer; 0: PriceRounds
	Seed                  uint64
}

// Timing is one buffer's runs: the median seconds with its interval,
// and the write(2) calls of a run.
type Timing struct {
	Buffer             int64
	Seconds, Low, High float64
	Runs               int
	Calls              int64 // of the last run; -1 when not counted
}

// Price is what the two buffers measured.
type Price struct {
	Now, Advised Timing
}

// Saving is the seconds one run saves with the advised buffer: the
// difference of the medians, and its interval from the medians'
// intervals (conservative: they are not paired).
func (p Price) Saving() (est, low, high float64) {
	return p.Now.Seconds - p.Advised.Seconds, p.Now.Low - p.Advised.High, p.Now.High - p.Advised.Low
}

// Price runs the spec's runs: an untimed warm-up, then rounds of both
// buffers in shuffled order, the file system synced before each run
// outside the timing, every data file removed.
func (w *Writer) Price(ctx context.Context, s PriceSpec) (Price, error) {
	if s.Now <= 0 || s.Advised <= 0 || s.Now == s.Advised {
		return Price{}, fmt.Errorf("price: buffers of %d and %d bytes: want two different positive ones", s.Now, s.Advised)
	}
	rounds := s.Rounds
	if rounds == 0 {
		rounds = PriceRounds
	}
	p := Plan{Dir: s.Dir, Prefix: s.Prefix, Elements: s.Bytes / ElementBytes, RecordBytes: s.RecordBytes,
		Layouts: []Layout{LayoutRecords}, Orders: []convert.Order{convert.Native},
		Buffers: []int64{s.Now, s.Advised}, DefaultBuffer: s.Default, Rounds: rounds,
		Seed: s.Seed, Fsync: s.Fsync, Sync: iobench.SyncFS, Warmup: true}
	res, err := w.Measure(ctx, p, nil)
	if err != nil {
		return Price{}, err
	}
	now, errNow := timingOf(res.Samples, s.Now)
	adv, errAdv := timingOf(res.Samples, s.Advised)
	return Price{Now: now, Advised: adv}, errors.Join(errNow, errAdv)
}

// timingOf summarises the samples of one buffer.
func timingOf(samples []Sample, buffer int64) (Timing, error) {
	t := Timing{Buffer: buffer, Calls: -1}
	var secs []float64
	for _, sm := range samples {
		if sm.BufferBytes == buffer {
			secs = append(secs, float64(sm.Nanos)/1e9)
			t.Calls = sm.DataCalls()
		}
	}
	t.Runs = len(secs)
	var ok bool
	if t.Seconds, t.Low, t.High, ok = abtest.MedianInterval(secs, PriceLevel); !ok {
		return t, fmt.Errorf("price: %d runs of the %d-byte buffer are too few for a %.0f%% interval", t.Runs, buffer, 100*PriceLevel)
	}
	return t, nil
}
