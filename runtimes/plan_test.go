package runtimes

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/iobench/iobench/convert"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/libcheck"
)

func smallPlan(t *testing.T, dir string) libcheck.Plan {
	t.Helper()
	prefix, err := iobench.UniquePrefix()
	if err != nil {
		t.Fatal(err)
	}
	return libcheck.Plan{
		Dir: dir, Prefix: prefix, Elements: 1 << 18, RecordBytes: libcheck.DefaultRecordBytes, // 2 MiB
		Layouts: libcheck.Layouts(), Orders: []convert.Order{convert.Native, convert.BigEndian},
		Buffers: []int64{8 << 10, libcheck.GfortranDefaultBuffer, 1 << 20}, DefaultBuffer: libcheck.GfortranDefaultBuffer,
		Rounds: 2, Seed: 7, Sync: iobench.SyncNone,
	}
}

// TestMeasureSmall runs a whole small plan through each runtime on the
// disk with fsync and on tmpfs: every case measured, the calls as
// Predict gives them, no data file left.
func TestMeasureSmall(t *testing.T) {
	if _, err := os.Stat("/proc/self/io"); err != nil {
		t.Skip("no /proc/self/io to count write(2) calls")
	}
	for _, rt := range libcheck.Runtimes() {
		w := writerFor(t, rt)
		for fs, dir := range dataDirs(t) {
			t.Run(string(rt)+"/"+fs, func(t *testing.T) {
				p := smallPlan(t, dir)
				p.Fsync, p.Warmup = fs == "disk", true
				p.DefaultBuffer = libcheck.DefaultBuffer(rt, blockSize(t, dir))
				p.Buffers = []int64{8 << 10, p.DefaultBuffer, 1 << 20}
				var seen []int
				res, err := w.Measure(t.Context(), p, observerFunc(func(s libcheck.Sample) { seen = append(seen, s.Seq) }))
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Samples) != len(p.Steps()) || len(seen) != len(res.Samples) || res.Incomplete || !res.WarmupRan {
					t.Fatalf("%d samples, %d observed of %d steps; incomplete %v", len(res.Samples), len(seen), len(p.Steps()), res.Incomplete)
				}
				sum := libcheck.Summarize(rt, p, res, nil)
				if !sum.CallsAsPredicted {
					for _, c := range sum.Cases {
						t.Logf("%+v: %d calls, predicted %d", c.Case, c.WriteCalls, c.Predicted.Count)
					}
					t.Error("write(2) calls differ from libcheck.Predict's")
				}
				for _, c := range sum.Cases {
					if c.Swap() && c.WriteCalls != p.Bytes()/c.BufferBytes {
						t.Errorf("%+v: %d calls, want bytes/buffer = %d", c.Case, c.WriteCalls, p.Bytes()/c.BufferBytes)
					}
				}
				if left := dataFiles(t, dir); len(left) != 0 {
					t.Errorf("data files left: %v", left)
				}
			})
		}
	}
}

// TestMeasureCancelled: cancelling after the first step stops the plan
// with ErrInterrupted, keeps the sample and leaves no file.
func TestMeasureCancelled(t *testing.T) {
	w := writerFor(t, libcheck.Stdio)
	dir := t.TempDir()
	p := smallPlan(t, dir)
	p.DefaultBuffer = libcheck.DefaultBuffer(libcheck.Stdio, blockSize(t, dir))
	p.Buffers = []int64{p.DefaultBuffer, 1 << 20}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	res, err := w.Measure(ctx, p, observerFunc(func(libcheck.Sample) { cancel() }))
	if !errors.Is(err, iobench.ErrInterrupted) || !errors.Is(err, context.Canceled) {
		t.Errorf("Measure = %v, want ErrInterrupted and context.Canceled", err)
	}
	if len(res.Samples) != 1 || !res.Incomplete {
		t.Errorf("%d samples, incomplete %v; want 1 and true", len(res.Samples), res.Incomplete)
	}
	if left := dataFiles(t, dir); len(left) != 0 {
		t.Errorf("data files left: %v", left)
	}
}

type observerFunc func(libcheck.Sample)

func (observerFunc) WarmupStarted(libcheck.Case)                 {}
func (observerFunc) RoundPlanned(int, []libcheck.Step)           {}
func (observerFunc) StepStarted(libcheck.Step, int)              {}
func (f observerFunc) StepFinished(s libcheck.Sample, total int) { f(s) }

func dataFiles(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}
