package runtimes

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/iobench/iobench/abtest"
	"github.com/iobench/iobench/convert"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/libcheck"
)

// PriceRounds is how many runs of each buffer a price takes at least: 7
// gives the median a 98% distribution-free interval from the runs' 1st
// and 7th values, and the 95% one PriceLevel asks for.
const PriceRounds = 7

// PriceBudget is how long a price's runs may go on when its first
// rounds leave the saving unclear (PriceSpec.Budget).
const PriceBudget = 30 * time.Second

// priceClear is the half-width of the saving's interval, as a share of
// the saving, at which a price stops adding rounds.
const priceClear = 0.25

// PriceLevel is the coverage of a price's intervals.
const PriceLevel = 0.95

// PriceSpec prices a program's writes through the runtime that made
// them: the runtime's own writer, writing records from one record's
// memory through a buffer that gives the program's call size now and
// one that gives the advised call size, in interleaved runs. A write(2)
// curve prices the calls alone; this prices what the runtime does
// around them too.
type PriceSpec struct {
	Dir, Prefix string // where the data files go; Prefix from iobench.UniquePrefix
	Bytes       int64  // each run's data, a multiple of libcheck.ElementBytes
	RecordBytes int64  // bytes per fwrite or write statement
	// Now and Advised are the writer's buffers; Default is the
	// runtime's own for the file, which a buffer equal to it runs as
	// (no setvbuf, no environment variable), as an untuned program does.
	Now, Advised, Default int64
	Fsync                 bool // fsync before close, inside the timing, as the program does
	Rounds                int  // runs of each buffer at first; 0: PriceRounds
	// Budget is how long more rounds may take while the saving's
	// interval is wider than a quarter of it; 0: PriceBudget, <0: none.
	Budget time.Duration
	Seed   uint64
}

// Timing is one buffer's runs: the median seconds with its interval,
// and the write(2) calls of a run.
type Timing struct {
	Buffer             int64
	Seconds, Low, High float64
	Runs               int
	Calls              int64 // of the last run; -1 when not counted
}

// Price is what the two buffers measured, and the per-round differences
// of their runs (now less advised), which drift between rounds leaves
// out.
type Price struct {
	Now, Advised Timing
	Diffs        []float64
}

// Saving is the seconds one run saves with the advised buffer: the
// median of the rounds' paired differences with its interval; from the
// medians when too few rounds pair (conservative: they are not paired).
func (p Price) Saving() (est, low, high float64) {
	if m, lo, hi, ok := abtest.MedianInterval(p.Diffs, PriceLevel); ok {
		return m, lo, hi
	}
	return p.Now.Seconds - p.Advised.Seconds, p.Now.Low - p.Advised.High, p.Now.High - p.Advised.Low
}

// clear says whether the saving is known well enough to stop: its
// interval within a quarter of it.
func (p Price) clear() bool {
	est, low, high := p.Saving()
	return high-low <= 2*priceClear*math.Abs(est)
}

// Price runs the spec's runs: an untimed warm-up, then rounds of both
// buffers in shuffled order, the file system synced before each run
// outside the timing, every data file removed; more rounds, within the
// budget, while the saving is unclear.
func (w *Writer) Price(ctx context.Context, s PriceSpec) (Price, error) {
	if s.Now <= 0 || s.Advised <= 0 || s.Now == s.Advised {
		return Price{}, fmt.Errorf("price: buffers of %d and %d bytes: want two different positive ones", s.Now, s.Advised)
	}
	rounds := cmp.Or(s.Rounds, PriceRounds)
	budget := cmp.Or(s.Budget, PriceBudget)
	start := time.Now()
	samples, err := w.priceRounds(ctx, s, rounds, true, 0)
	if err != nil {
		return Price{}, err
	}
	p, err := priceOf(samples, s)
	for err == nil && !p.clear() && budget > 0 {
		perRound := time.Since(start) / time.Duration(rounds)
		more := min(int((budget-time.Since(start))/max(perRound, time.Millisecond)), 4*PriceRounds)
		if more < 2 {
			break
		}
		var next []libcheck.Sample
		if next, err = w.priceRounds(ctx, s, more, false, rounds); err != nil {
			return Price{}, err
		}
		samples, rounds = append(samples, next...), rounds+more
		p, err = priceOf(samples, s)
	}
	return p, err
}

// priceRounds runs n rounds of both buffers, numbered after the first
// `after`, the warm-up first when asked.
func (w *Writer) priceRounds(ctx context.Context, s PriceSpec, n int, warmup bool, after int) ([]libcheck.Sample, error) {
	res, err := w.Measure(ctx, pricePlan(s, n, warmup, after), nil)
	if err != nil {
		return nil, err
	}
	for i := range res.Samples {
		res.Samples[i].Round += after
	}
	return res.Samples, nil
}

// pricePlan is n rounds of both buffers. The records come from one
// record's memory (SameRecord), as a program's fwrite of a record
// variable does: on ext4 a writer holding the run's 256 MiB in an array
// ran a 4 MiB buffer's calls at the slow of two speeds in 5 of 16 runs,
// the program in none, and priced its saving at 0.078 and 0.215 s where
// the program saved 0.271 s (docs/measurements.md).
func pricePlan(s PriceSpec, n int, warmup bool, after int) libcheck.Plan {
	return libcheck.Plan{Dir: s.Dir, Prefix: s.Prefix, Elements: s.Bytes / libcheck.ElementBytes, RecordBytes: s.RecordBytes, SameRecord: true,
		Layouts: []libcheck.Layout{libcheck.LayoutRecords}, Orders: []convert.Order{convert.Native},
		Buffers: []int64{s.Now, s.Advised}, DefaultBuffer: s.Default, Rounds: n,
		Seed: s.Seed + uint64(after), Fsync: s.Fsync, Sync: iobench.SyncFS, Warmup: warmup}
}

// priceOf summarises the samples of both buffers and pairs them by round.
func priceOf(samples []libcheck.Sample, s PriceSpec) (Price, error) {
	now, errNow := timingOf(samples, s.Now)
	adv, errAdv := timingOf(samples, s.Advised)
	return Price{Now: now, Advised: adv, Diffs: pairedDiffs(samples, s.Now, s.Advised)}, errors.Join(errNow, errAdv)
}

// pairedDiffs are, per round that ran both, a's seconds less b's.
func pairedDiffs(samples []libcheck.Sample, a, b int64) []float64 {
	secs := map[int]map[int64]float64{}
	for _, sm := range samples {
		if secs[sm.Round] == nil {
			secs[sm.Round] = map[int64]float64{}
		}
		secs[sm.Round][sm.BufferBytes] = float64(sm.Nanos) / 1e9
	}
	var out []float64
	for _, r := range slices.Sorted(maps.Keys(secs)) {
		x, okA := secs[r][a]
		y, okB := secs[r][b]
		if okA && okB {
			out = append(out, x-y)
		}
	}
	return out
}

// timingOf summarises the samples of one buffer.
func timingOf(samples []libcheck.Sample, buffer int64) (Timing, error) {
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
