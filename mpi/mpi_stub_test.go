//go:build !mpi

package mpi

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// newWorld resets the once-only guard, which tests of this build may do,
// and returns a fresh single-rank World.
func newWorld(t *testing.T) *World {
	t.Helper()
	initialized.Store(false)
	w, err := Init()
	if err != nil {
		t.Fatalf("Init() error = %v", err)
	}
	return w
}

func TestStubWorld(t *testing.T) {
	w := newWorld(t)
	if Enabled() {
		t.Error("Enabled() = true in the build without the mpi tag")
	}
	if w.Rank() != 0 || w.Size() != 1 {
		t.Errorf("Rank(), Size() = %d, %d, want 0, 1", w.Rank(), w.Size())
	}
	if err := w.Barrier(); err != nil {
		t.Errorf("Barrier() error = %v", err)
	}
}

func TestStubInitTwice(t *testing.T) {
	newWorld(t)
	if _, err := Init(); !errors.Is(err, errInitTwice) {
		t.Errorf("second Init() error = %v, want %v", err, errInitTwice)
	}
}

func TestStubAllreduceIdentity(t *testing.T) {
	w := newWorld(t)
	for _, op := range []Op{Min, Max, Sum} {
		f, err := w.AllreduceFloat64(2.5, op)
		if err != nil || f != 2.5 {
			t.Errorf("AllreduceFloat64(2.5, %d) = %v, %v, want 2.5, nil", op, f, err)
		}
		i, err := w.AllreduceInt64(-7, op)
		if err != nil || i != -7 {
			t.Errorf("AllreduceInt64(-7, %d) = %v, %v, want -7, nil", op, i, err)
		}
	}
	if _, err := w.AllreduceInt64(1, Op(9)); err == nil {
		t.Error("AllreduceInt64 with Op(9): no error")
	}
	if _, err := w.AllreduceFloat64(1, Op(-1)); err == nil {
		t.Error("AllreduceFloat64 with Op(-1): no error")
	}
}

func TestStubGatherBcastCopy(t *testing.T) {
	w := newWorld(t)
	for _, in := range [][]byte{nil, {}, []byte("payload")} {
		g, err := w.Gather(in)
		if err != nil {
			t.Fatalf("Gather(%q) error = %v", in, err)
		}
		if diff := cmp.Diff([][]byte{append([]byte{}, in...)}, g); diff != "" {
			t.Errorf("Gather(%q) (-want +got):\n%s", in, diff)
		}
		b, err := w.Bcast(in)
		if err != nil {
			t.Fatalf("Bcast(%q) error = %v", in, err)
		}
		if diff := cmp.Diff(append([]byte{}, in...), b); diff != "" {
			t.Errorf("Bcast(%q) (-want +got):\n%s", in, diff)
		}
	}
	// The results are copies: the caller may reuse its buffer.
	in := []byte("abc")
	g, _ := w.Gather(in)
	b, _ := w.Bcast(in)
	in[0] = 'X'
	if string(g[0]) != "abc" || string(b) != "abc" {
		t.Errorf("after changing the input, Gather gave %q and Bcast %q, want copies of %q", g[0], b, "abc")
	}
}

func TestStubWtime(t *testing.T) {
	w := newWorld(t)
	t0 := w.Wtime()
	time.Sleep(5 * time.Millisecond)
	if d := w.Wtime() - t0; d < 0.004 {
		t.Errorf("Wtime advanced %v s over a 5 ms sleep", d)
	}
}

func TestStubFinalize(t *testing.T) {
	w := newWorld(t)
	if err := w.Finalize(); err != nil {
		t.Fatalf("Finalize() error = %v", err)
	}
	if err := w.Finalize(); !errors.Is(err, errFinalized) {
		t.Errorf("second Finalize() error = %v, want %v", err, errFinalized)
	}
	if err := w.Barrier(); !errors.Is(err, errFinalized) {
		t.Errorf("Barrier() after Finalize error = %v, want %v", err, errFinalized)
	}
	if _, err := w.Gather(nil); !errors.Is(err, errFinalized) {
		t.Errorf("Gather() after Finalize error = %v, want %v", err, errFinalized)
	}
	if w.Size() != 1 {
		t.Errorf("Size() after Finalize = %d, want 1", w.Size())
	}
}
