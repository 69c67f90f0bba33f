package iobench

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/iobench/iobench/internal/testkit/testwait"
	"github.com/iobench/iobench/units"
)

// TestJobsAggregateAsRanksDo: two jobs write their own files at once;
// each run's sample holds both jobs' bytes over the span of both, and
// the spread names the jobs.
func TestJobsAggregateAsRanksDo(t *testing.T) {
	m := newMemFS()
	c := smallConfig()
	c.Jobs, c.Repeat = 3, 2
	res, err := (&Runner{Config: c, FS: m}).Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Samples) != 4 {
		t.Fatalf("%d samples, want 4 (2 sizes x 2 rounds)", len(res.Samples))
	}
	for _, s := range res.Samples {
		if s.Bytes != 3*8000 || s.Seconds <= 0 || s.Seconds != s.End.Sub(s.Start).Seconds() {
			t.Errorf("%+v: %d bytes over %v s, want 24000 over the span", s.Run, s.Bytes, s.Seconds)
		}
	}
	if res.Jobs == nil || res.Jobs.Jobs != 3 || len(res.Jobs.PerJob) != 4 || res.Jobs.SharedFile {
		t.Fatalf("Jobs = %+v", res.Jobs)
	}
	for _, sp := range res.Jobs.PerJob {
		if sp.MinMiBPerSec > sp.MedianMiBPerSec || sp.MedianMiBPerSec > sp.MaxMiBPerSec || sp.SlowestRank < 0 || sp.SlowestRank > 2 {
			t.Errorf("spread %+v", sp)
		}
	}
	if len(m.closed) != 3*4 {
		t.Errorf("%d files written, want 12 (3 jobs x 4 runs)", len(m.closed))
	}
	for name := range m.closed {
		if !strings.Contains(name, "-j0-") && !strings.Contains(name, "-j1-") && !strings.Contains(name, "-j2-") {
			t.Errorf("file %s names no job", name)
		}
	}
	if left := m.names(); len(left) != 0 {
		t.Errorf("files left behind: %v", left)
	}
}

// TestJobsSharedFileWriteDisjointSegments: with a shared file each job
// writes its own segment of one file per run, the whole data in order.
func TestJobsSharedFileWriteDisjointSegments(t *testing.T) {
	m := newMemFS()
	c := smallConfig()
	c.Jobs = 2
	res, err := (&Runner{Config: c, FS: m, Shared: &Shared{Name: "shared.dat", Creator: true}}).Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if !res.Jobs.SharedFile {
		t.Error("Jobs.SharedFile is false")
	}
	data := m.closed["shared.dat"]
	if len(data) != 2*8000 {
		t.Fatalf("shared file of %d bytes, want 16000", len(data))
	}
	got := float64s(data)
	for i, v := range got {
		if want := float64(i % 1000); v != want {
			t.Fatalf("element %d = %v, want %v (each job's segment holds the data)", i, v, want)
		}
	}
	if left := m.names(); len(left) != 0 {
		t.Errorf("files left behind: %v", left)
	}
}

// TestJobFailureStopsEveryJob: ENOSPC on one job stops all of them at the
// same run, names the job, and removes every file.
func TestJobFailureStopsEveryJob(t *testing.T) {
	m := newMemFS()
	m.failAfter, m.failErr = 3*8000+100, unix.ENOSPC
	c := smallConfig()
	c.Jobs, c.Repeat = 2, 3
	res, err := (&Runner{Config: c, FS: m}).Run(t.Context())
	var je *JobsError
	if !errors.As(err, &je) || !errors.Is(err, unix.ENOSPC) || !res.Incomplete {
		t.Fatalf("err = %v (incomplete %v), want a JobsError with ENOSPC", err, res.Incomplete)
	}
	if !strings.Contains(err.Error(), "of 2: ") {
		t.Errorf("error %q does not name the job", err)
	}
	if len(res.Samples) != 1 {
		t.Errorf("%d aggregated samples, want the 1 run both jobs finished", len(res.Samples))
	}
	if left := m.names(); len(left) != 0 {
		t.Errorf("files left behind: %v", left)
	}
}

// TestInterruptedJobsRemoveTheirFiles: a cancel in the middle of a run
// stops every job, reports an interrupt and leaves no file.
func TestInterruptedJobsRemoveTheirFiles(t *testing.T) {
	m := newMemFS()
	ctx, cancel := context.WithCancelCause(t.Context())
	var once atomic.Bool
	m.onWrite = func(total int64) {
		if total > 2*8000+500 && once.CompareAndSwap(false, true) {
			cancel(errors.New("test interrupt"))
		}
	}
	c := smallConfig()
	c.Jobs, c.Repeat = 2, 5
	res, err := (&Runner{Config: c, FS: m}).Run(ctx)
	if !errors.Is(err, ErrInterrupted) || !res.Incomplete || !strings.Contains(err.Error(), "test interrupt") {
		t.Fatalf("err = %v (incomplete %v), want interrupted by the test", err, res.Incomplete)
	}
	if left := m.names(); len(left) != 0 {
		t.Errorf("files left behind: %v", left)
	}
}

// TestRemoveFilesAndAbandonReachEveryJob: a signal handler's RemoveFiles
// and Abandon on the runner it holds reach the jobs' files, and a runner
// closed before it starts runs nothing.
func TestRemoveFilesAndAbandonReachEveryJob(t *testing.T) {
	dir := t.TempDir()
	c := smallConfig()
	c.Dir, c.Jobs, c.Repeat = dir, 2, 50
	r := &Runner{Config: c, FS: OSFS{Dir: dir}}
	started := make(chan struct{})
	var once atomic.Bool
	r.Observer = observerFunc(func(Sample) {
		if once.CompareAndSwap(false, true) {
			close(started)
		}
	})
	done := make(chan error, 1)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go func() {
		_, err := r.Run(ctx)
		done <- err
	}()
	<-started
	if p := r.Phase(); p.Waiting() == "" {
		t.Errorf("Phase() = %v has no words", p)
	}
	if left := r.Abandon(testwait.Hang); len(left) != 0 {
		t.Errorf("Abandon left %v", left)
	}
	cancel()
	if err := <-done; err == nil {
		t.Error("a sweep stopped by Abandon and a cancel returned no error")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Errorf("files left in %s: %v", dir, entries)
	}
	closed := &Runner{Config: c, FS: OSFS{Dir: dir}}
	closed.RemoveFiles()
	if _, err := closed.Run(t.Context()); !errors.Is(err, ErrInterrupted) {
		t.Errorf("a runner closed before Run: %v, want ErrInterrupted", err)
	}
}

// TestJobsRealDirectory runs two jobs on the real file system, adaptive
// rounds included, and leaves nothing.
func TestJobsRealDirectory(t *testing.T) {
	dir := t.TempDir()
	c := smallConfig()
	c.Dir, c.Jobs = dir, 2
	c.Count, c.Sizes = 4096, units.PowersOfTwo(1024, 8192)
	c.Auto, c.Repeat, c.Order, c.TimeBudget = true, MinAutoRounds, Shuffled, 10*time.Second
	res, err := (&Runner{Config: c, FS: OSFS{Dir: dir}}).Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if res.Adaptive == nil || res.Adaptive.Rounds < MinAutoRounds || len(res.Jobs.PerJob) != len(res.Samples) {
		t.Errorf("adaptive %+v, %d spreads for %d samples", res.Adaptive, len(res.Jobs.PerJob), len(res.Samples))
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Errorf("files left in %s: %v", dir, entries)
	}
}

func TestJobsErrorWords(t *testing.T) {
	e := &JobsError{Jobs: 4, Failures: []JobFailure{{0, errors.New("x")}, {1, errors.New("x")}, {3, errors.New("y")}}}
	if got, want := e.Error(), "jobs 0-1 of 4: x; job 3 of 4: y"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

// observerFunc is an Observer that hears only finished runs.
type observerFunc func(Sample)

func (observerFunc) WarmupStarted()          {}
func (observerFunc) RoundPlanned(int, []Run) {}
func (observerFunc) RunStarted(Run)          {}
func (f observerFunc) RunFinished(s Sample)  { f(s) }
