package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/fsinfo"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/libcheck"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/runtimes"
	"github.com/iobench/iobench/workload"
)

// priceRecordBytes is the record the runtime's writer writes: a trace
// shows a buffered runtime's write(2) calls, not the program's fwrite or
// write statements, and a small record is what makes a buffer matter.
// Each record costs the same with either buffer, so the saving hardly
// depends on it.
const priceRecordBytes = 64

// runtimeWriters are the runtimes app can price through their writer.
var runtimeWriters = map[string]libcheck.Runtime{
	advice.RuntimeStdio:       libcheck.Stdio,
	advice.RuntimeLibgfortran: libcheck.Gfortran,
}

// priceThroughRuntime prices the files whose calls a recognised runtime
// made through that runtime's own writer, at the call size the program
// makes now and at the recommended one, when the advice changes it.
// What it cannot price it says in a note; it fails only when cancelled.
func (r *programRun) priceThroughRuntime(ctx context.Context, in workload.Input, pc *pricedCurve, p *report.AppProgram) error {
	rec := pc.rep.Recommendation
	b, files, ok := pricedBehaviour(p.Behaviours, in)
	rt, known := runtimeWriters[b.Runtime]
	if !ok || !known || rec == nil || rec.BufferSize <= b.Call {
		return nil
	}
	if why := writerMismatch(b, p.Flush); why != "" {
		p.Notes = append(p.Notes, fmt.Sprintf("not priced through %s's writer: %s", advice.RuntimeTitle(b.Runtime), why))
		return nil
	}
	rp := &report.AppRuntimePrice{Runtime: b.Runtime, Files: files, Bytes: bytesOf(in, files), RecordBytes: priceRecordBytes, Flush: p.Flush,
		RecordNote: "assumed: the trace shows the runtime's calls, not the program's records"}
	rp.RunBytes = clampBytes(rp.Bytes)
	spec := runtimes.PriceSpec{Bytes: rp.RunBytes, RecordBytes: priceRecordBytes, Now: b.Call, Advised: rec.BufferSize,
		Default: libcheck.DefaultBuffer(rt, blockSizeOf(files[0])), Fsync: p.Flush == workload.FlushFsync, Seed: 1}
	fmt.Fprintf(r.stderr, "iobench: pricing through %s's writer: %d runs each of %s and %s buffers, %s per run, more within %v while the saving is unclear\n",
		advice.RuntimeTitle(b.Runtime), runtimes.PriceRounds, humanBytes(spec.Now), humanBytes(spec.Advised), humanBytes(spec.Bytes), runtimes.PriceBudget)
	price, err := r.runPrice(ctx, rt, files[0], spec)
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		p.Notes = append(p.Notes, fmt.Sprintf("not priced through %s's writer: %v", advice.RuntimeTitle(b.Runtime), err))
		return nil
	}
	setPrice(rp, price)
	p.RuntimePrice = rp
	return nil
}

// writerMismatch says why the runtime's writer would not write as the
// program did: another flush mode, or formatted records (libgfortran's
// writer writes unformatted ones, through the other buffer).
func writerMismatch(b advice.Behaviour, flush string) string {
	switch {
	case flush != workload.FlushNone && flush != workload.FlushFsync:
		return fmt.Sprintf("it cannot flush as the program does (%s)", flush)
	case b.Knob == advice.KnobFormatted:
		return "the program's calls are formatted output, through " + advice.KnobFormatted + ", and the writer writes unformatted records; the curve's estimate stands alone"
	}
	return ""
}

// runPrice builds rt's writer and prices spec in a scratch directory
// beside the program's file, removed afterwards.
func (r *programRun) runPrice(ctx context.Context, rt libcheck.Runtime, file string, spec runtimes.PriceSpec) (runtimes.Price, error) {
	w, err := runtimes.Build(ctx, rt, r.tmp)
	var nc *runtimes.NoCompilerError
	if errors.As(err, &nc) {
		return runtimes.Price{}, fmt.Errorf("no compiler to build it: %w", err)
	}
	if err != nil {
		return runtimes.Price{}, err
	}
	defer w.Close()
	dir, done, err := r.scratchBeside(file, ".iobench-price-", "the price")
	if err != nil {
		return runtimes.Price{}, err
	}
	defer done()
	info, err := fsinfo.Stat(dir)
	if err != nil {
		return runtimes.Price{}, err
	}
	if why := noRoom(info, "the price", spec.Bytes); why != "" {
		return runtimes.Price{}, errors.New(why)
	}
	if spec.Prefix, err = iobench.UniquePrefix(); err != nil {
		return runtimes.Price{}, err
	}
	spec.Dir = dir
	return w.Price(ctx, spec)
}

// pricedBehaviour is the behaviour of the file the program wrote most
// to, and every file whose calls the same runtime made in the same size,
// which one price stands for.
func pricedBehaviour(bs []advice.Behaviour, in workload.Input) (advice.Behaviour, []string, bool) {
	if len(bs) == 0 {
		return advice.Behaviour{}, nil, false
	}
	b := slices.MaxFunc(bs, func(x, y advice.Behaviour) int {
		return cmp.Compare(bytesOf(in, []string{x.Path}), bytesOf(in, []string{y.Path}))
	})
	var files []string
	for _, o := range bs {
		if o.Runtime == b.Runtime && o.Call == b.Call {
			files = append(files, o.Path)
		}
	}
	return b, files, true
}

// bytesOf is the bytes the program wrote to the files.
func bytesOf(in workload.Input, files []string) int64 {
	var n int64
	for _, f := range in.Files {
		if slices.Contains(files, f.Path) {
			n += f.Bytes
		}
	}
	return n
}

// setPrice fills the record from the runs, the saving scaled from a
// run's bytes to the program's.
func setPrice(rp *report.AppRuntimePrice, p runtimes.Price) {
	timing := func(t runtimes.Timing) report.AppPriceTiming {
		return report.AppPriceTiming{BufferBytes: t.Buffer, Seconds: t.Seconds, Low: t.Low, High: t.High, Runs: t.Runs, Calls: t.Calls}
	}
	rp.Now, rp.Advised = timing(p.Now), timing(p.Advised)
	scale := float64(rp.Bytes) / float64(rp.RunBytes)
	est, low, high := p.Saving()
	rp.SavingSeconds, rp.SavingLow, rp.SavingHigh = est*scale, low*scale, high*scale
}
