//go:build mpi

package mpi

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// These tests pass alone (one rank) and under
// mpirun --allow-run-as-root --oversubscribe -np 3 ./mpi.test.
// Every rank runs every test and makes the same collective calls in the
// same order; checks come after the calls, so a failing check on one rank
// never leaves the others waiting in a collective.

var (
	// world is the World that TestMain initialised.
	world *World
	// calls carries functions to the main goroutine, the one that called
	// Init, because the package contract is that only it calls MPI, and
	// testing runs each Test in a goroutine of its own.
	calls = make(chan func())
)

func TestMain(m *testing.M) {
	w, err := Init()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	world = w
	done := make(chan int)
	go func() { done <- m.Run() }()
	code := serveCalls(done)
	if err := checkFinalize(w); err != nil {
		fmt.Fprintf(os.Stderr, "rank %d: %v\n", w.Rank(), err)
		code = 1
	}
	os.Exit(code)
}

// serveCalls runs the functions sent on calls until the tests are done and
// returns their exit code.
func serveCalls(done <-chan int) int {
	for {
		select {
		case f := <-calls:
			f()
		case code := <-done:
			return code
		}
	}
}

// onMain runs f on the main goroutine and waits for it. f must not call
// t.Fatal and the like, which would end the main goroutine.
func onMain(f func()) {
	finished := make(chan struct{})
	calls <- func() { defer close(finished); f() }
	<-finished
}

// checkFinalize finalizes w and checks that the World then refuses
// collectives and a second Finalize, rather than calling into MPI.
func checkFinalize(w *World) error {
	if err := w.Finalize(); err != nil {
		return fmt.Errorf("Finalize() error = %w", err)
	}
	if err := w.Finalize(); !errors.Is(err, errFinalized) {
		return fmt.Errorf("second Finalize() error = %v, want %v", err, errFinalized)
	}
	if err := w.Barrier(); !errors.Is(err, errFinalized) {
		return fmt.Errorf("Barrier() after Finalize error = %v, want %v", err, errFinalized)
	}
	return nil
}

// bytesEqual compares byte slices whole: cmp's element-wise reflection
// takes seconds on the megabyte payloads.
var bytesEqual = cmp.Comparer(bytes.Equal)

func TestEnabled(t *testing.T) {
	if !Enabled() {
		t.Error("Enabled() = false in the build with the mpi tag")
	}
}

func TestInitTwice(t *testing.T) {
	var err error
	onMain(func() { _, err = Init() })
	if !errors.Is(err, errInitTwice) {
		t.Errorf("second Init() error = %v, want %v", err, errInitTwice)
	}
}

func TestRankSize(t *testing.T) {
	rank, size := world.Rank(), world.Size()
	t.Logf("rank %d of %d", rank, size)
	if rank < 0 || rank >= size {
		t.Errorf("Rank() = %d, outside 0..Size()-1 = 0..%d", rank, size-1)
	}
	// Under mpirun the launcher's variables must agree with MPI; run alone
	// (singleton MPI) there are none and the job is one rank.
	if n := LauncherSize(os.Getenv); n != 0 && n != size {
		t.Errorf("Size() = %d, but the launcher announced %d tasks", size, n)
	} else if n == 0 && size != 1 {
		t.Errorf("Size() = %d without a launcher, want 1", size)
	}
	if r := LauncherRank(os.Getenv); r != rank {
		t.Errorf("Rank() = %d, but the launcher announced rank %d", rank, r)
	}
}

func TestAllreduce(t *testing.T) {
	r, n := world.Rank(), world.Size()
	var (
		sumI, minI, maxI int64
		sumF, minF, maxF float64
		errs             = make([]error, 6)
		badErr           error
	)
	onMain(func() {
		sumI, errs[0] = world.AllreduceInt64(int64(r+1), Sum)
		minI, errs[1] = world.AllreduceInt64(int64(r+1), Min)
		maxI, errs[2] = world.AllreduceInt64(int64(r+1), Max)
		sumF, errs[3] = world.AllreduceFloat64(float64(r)+0.5, Sum)
		minF, errs[4] = world.AllreduceFloat64(-float64(r)-0.25, Min)
		maxF, errs[5] = world.AllreduceFloat64(-float64(r)-0.25, Max)
		// Rejected before MPI is called, on every rank alike.
		_, badErr = world.AllreduceInt64(1, Op(7))
	})
	for i, err := range errs {
		if err != nil {
			t.Errorf("call %d: %v", i, err)
		}
	}
	if want := int64(n * (n + 1) / 2); sumI != want {
		t.Errorf("AllreduceInt64(rank+1, Sum) = %d, want %d", sumI, want)
	}
	if minI != 1 || maxI != int64(n) {
		t.Errorf("AllreduceInt64(rank+1, Min/Max) = %d/%d, want 1/%d", minI, maxI, n)
	}
	if want := float64(n*(n-1))/2 + 0.5*float64(n); sumF != want {
		t.Errorf("AllreduceFloat64(rank+0.5, Sum) = %v, want %v", sumF, want)
	}
	if wantMin, wantMax := -float64(n-1)-0.25, -0.25; minF != wantMin || maxF != wantMax {
		t.Errorf("AllreduceFloat64(-rank-0.25, Min/Max) = %v/%v, want %v/%v", minF, maxF, wantMin, wantMax)
	}
	if badErr == nil {
		t.Error("AllreduceInt64 with Op(7): no error")
	}
}

func TestGather(t *testing.T) {
	r, n := world.Rank(), world.Size()
	tests := []struct {
		name    string
		payload func(rank int) []byte
	}{
		// Rank 0 sends nothing, rank i sends i bytes.
		{"variable", func(rank int) []byte { return []byte(strings.Repeat("x", rank)) }},
		{"all empty", func(int) []byte { return nil }},
		// Large enough for MPI's rendezvous protocol, not just eager sends.
		{"large", func(rank int) []byte { return bytes.Repeat([]byte{byte('a' + rank)}, 1<<20+rank) }},
	}
	for _, tt := range tests {
		var got [][]byte
		var err error
		onMain(func() { got, err = world.Gather(tt.payload(r)) })
		if err != nil {
			t.Errorf("%s: Gather() error = %v", tt.name, err)
			continue
		}
		var want [][]byte
		if r == 0 {
			for i := range n {
				want = append(want, append([]byte{}, tt.payload(i)...))
			}
		}
		if diff := cmp.Diff(want, got, bytesEqual); diff != "" {
			t.Errorf("%s: Gather() on rank %d (-want +got):\n%.2000s", tt.name, r, diff)
		}
	}
}

func TestBcast(t *testing.T) {
	r := world.Rank()
	tests := []struct {
		name string
		root []byte
	}{
		{"short", []byte("hello from rank 0")},
		{"empty", nil},
		{"large", bytes.Repeat([]byte("0123456789"), 200_000)},
	}
	for _, tt := range tests {
		// Other ranks pass bytes of their own, which Bcast must ignore.
		in := tt.root
		if r != 0 {
			in = []byte(fmt.Sprintf("ignored %d", r))
		}
		var got []byte
		var err error
		onMain(func() { got, err = world.Bcast(in) })
		if err != nil {
			t.Errorf("%s: Bcast() error = %v", tt.name, err)
			continue
		}
		if diff := cmp.Diff(append([]byte{}, tt.root...), got, bytesEqual); diff != "" {
			t.Errorf("%s: Bcast() on rank %d (-want +got):\n%.2000s", tt.name, r, diff)
		}
	}
}

func TestBarrier(t *testing.T) {
	var err error
	onMain(func() {
		for range 3 {
			if err = world.Barrier(); err != nil {
				return
			}
		}
	})
	if err != nil {
		t.Errorf("Barrier() error = %v", err)
	}
}

func TestWtime(t *testing.T) {
	var t0, t1 float64
	onMain(func() {
		t0 = world.Wtime()
		time.Sleep(5 * time.Millisecond)
		t1 = world.Wtime()
	})
	if d := t1 - t0; d < 0.004 || d > 5 {
		t.Errorf("Wtime advanced %v s over a 5 ms sleep", d)
	}
}

// nilStringer panics in String when nil, as fmt expects some Stringers to.
type nilStringer struct{ s string }

func (n *nilStringer) String() string { return n.s }

// TestGoSignalsSurviveInit checks that MPI_Init left Go's SIGSEGV handler
// in place: Go turns nil dereferences into panics that fmt and callers
// recover from, and an MPI that installed its own handler would kill the
// process instead. Open MPI leaves installed handlers alone.
func TestGoSignalsSurviveInit(t *testing.T) {
	var p *nilStringer
	if got := fmt.Sprint(p); got != "<nil>" {
		t.Errorf("fmt.Sprint(nil Stringer) = %q, want %q", got, "<nil>")
	}
	defer func() {
		if recover() == nil {
			t.Error("nil dereference did not panic")
		}
	}()
	_ = p.s
}

// TestWrongThread calls each World method from the test's goroutine, which
// runs on another OS thread than Init's (Init locked its thread to the
// main goroutine). Each must refuse without calling MPI, naming the
// function, so every rank returns at once and no collective is left half
// made; the World stays usable from Init's thread.
func TestWrongThread(t *testing.T) {
	calls := []struct {
		fn   string
		call func() error
	}{
		{"MPI_Barrier", world.Barrier},
		{"MPI_Allreduce", func() error { _, err := world.AllreduceInt64(1, Sum); return err }},
		{"MPI_Allreduce", func() error { _, err := world.AllreduceFloat64(1, Sum); return err }},
		{"MPI_Gatherv", func() error { _, err := world.Gather([]byte("x")); return err }},
		{"MPI_Bcast", func() error { _, err := world.Bcast([]byte("x")); return err }},
		{"MPI_Finalize", world.Finalize},
	}
	for _, c := range calls {
		err := c.call()
		if !errors.Is(err, errWrongThread) || !strings.Contains(err.Error(), "mpi: "+c.fn+": ") {
			t.Errorf("%s off Init's thread: error = %v, want %v naming %s", c.fn, err, errWrongThread, c.fn)
		}
	}
	// The refused Finalize must not have finalized the World.
	var err error
	onMain(func() { err = world.Barrier() })
	if err != nil {
		t.Errorf("Barrier() on Init's thread after the refused calls: %v", err)
	}
}

// Wtime has no error to return: off Init's thread it must still advance,
// on Go's clock.
func TestWtimeWrongThread(t *testing.T) {
	t0 := world.Wtime()
	time.Sleep(5 * time.Millisecond)
	if d := world.Wtime() - t0; d < 0.004 || d > 5 {
		t.Errorf("Wtime off Init's thread advanced %v s over a 5 ms sleep", d)
	}
}

func TestThreadLevelErr(t *testing.T) {
	for _, tc := range []struct {
		provided int
		ok       bool
	}{
		{levelSingle, false},
		{levelFunneled, true},
		{levelSerialized, true},
		{levelMultiple, true},
	} {
		err := threadLevelErr(tc.provided)
		if (err == nil) != tc.ok {
			t.Errorf("threadLevelErr(%s) = %v, want ok %v", levelName(tc.provided), err, tc.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "provides thread level MPI_THREAD_SINGLE, iobench needs MPI_THREAD_FUNNELED") {
			t.Errorf("threadLevelErr(%s) = %q, want the levels named", levelName(tc.provided), err)
		}
	}
}
