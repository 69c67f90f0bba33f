package cluster

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/iobench/iobench/internal/testkit/testwait"
	"github.com/iobench/iobench/mpi"
)

// fakeWorld is an MPI job of n ranks in one process: each rank is a
// goroutine holding a fakeRank. A collective returns once every rank has
// made it. Ranks that call different collectives, or a rank that returns
// while the others wait, fail every waiting rank with errHang instead of
// hanging the test, as a real job would hang.
type fakeWorld struct {
	mu      sync.Mutex
	cond    *sync.Cond
	n       int
	op      string   // the collective under way, "" between them
	in      [][]byte // each rank's contribution to it
	arrived int
	gen     int      // completed collectives
	out     [][]byte // the contributions of the last completed one
	done    int      // ranks that returned
	failed  error
}

var errHang = errors.New("fake MPI: the job would hang")

func newFakeWorld(n int) *fakeWorld {
	w := &fakeWorld{n: n, in: make([][]byte, n)}
	w.cond = sync.NewCond(&w.mu)
	return w
}

// exchange is every collective: rank's data in, all ranks' data out.
func (w *fakeWorld) exchange(rank int, op string, data []byte) ([][]byte, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.failed != nil {
		return nil, w.failed
	}
	if w.arrived > 0 && w.op != op {
		w.fail(fmt.Errorf("%w: rank %d called %s while others are in %s", errHang, rank, op, w.op))
		return nil, w.failed
	}
	w.op, w.in[rank] = op, slices.Clone(data)
	w.arrived++
	if w.arrived == w.n {
		w.out, w.in, w.arrived, w.op = w.in, make([][]byte, w.n), 0, ""
		w.gen++
		w.cond.Broadcast()
		return w.out, nil
	}
	w.checkStuck()
	for gen := w.gen; w.gen == gen && w.failed == nil; {
		w.cond.Wait()
	}
	if w.failed != nil {
		return nil, w.failed
	}
	// w.out cannot change before this rank joins the next collective.
	return w.out, nil
}

// finish records that a rank returned.
func (w *fakeWorld) finish() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.done++
	w.checkStuck()
}

// checkStuck fails the waiting ranks when every other rank has returned.
func (w *fakeWorld) checkStuck() {
	if w.arrived > 0 && w.arrived+w.done == w.n {
		w.fail(fmt.Errorf("%w: %d rank(s) wait in %s, the others returned", errHang, w.arrived, w.op))
	}
}

func (w *fakeWorld) fail(err error) {
	if w.failed == nil {
		w.failed = err
	}
	w.cond.Broadcast()
}

// fakeRank is one rank's Collective.
type fakeRank struct {
	w    *fakeWorld
	rank int
}

var _ Collective = fakeRank{}

func (r fakeRank) Rank() int { return r.rank }
func (r fakeRank) Size() int { return r.w.n }

func (r fakeRank) Gather(b []byte) ([][]byte, error) {
	all, err := r.w.exchange(r.rank, "Gather", b)
	if err != nil || r.rank != 0 {
		return nil, err
	}
	return cloneAll(all), nil
}

func (r fakeRank) Bcast(b []byte) ([]byte, error) {
	all, err := r.w.exchange(r.rank, "Bcast", b)
	if err != nil {
		return nil, err
	}
	return slices.Clone(all[0]), nil
}

func (r fakeRank) AllreduceInt64(v int64, op mpi.Op) (int64, error) {
	all, err := r.w.exchange(r.rank, fmt.Sprintf("AllreduceInt64(%d)", op), binary.LittleEndian.AppendUint64(nil, uint64(v)))
	if err != nil {
		return 0, err
	}
	vals := make([]int64, len(all))
	for i, b := range all {
		vals[i] = int64(binary.LittleEndian.Uint64(b))
	}
	return reduce(vals, op), nil
}

func reduce(vals []int64, op mpi.Op) int64 {
	switch op {
	case mpi.Min:
		return slices.Min(vals)
	case mpi.Max:
		return slices.Max(vals)
	}
	var sum int64
	for _, v := range vals {
		sum += v
	}
	return sum
}

func cloneAll(all [][]byte) [][]byte {
	out := make([][]byte, len(all))
	for i, b := range all {
		out[i] = slices.Clone(b)
	}
	return out
}

// runRanks runs f as each of n ranks, each in its own goroutine, and
// returns what each rank returned, in rank order.
func runRanks[T any](t testing.TB, n int, f func(c Collective) T) []T {
	t.Helper()
	w := newFakeWorld(n)
	out := make([]T, n)
	var wg sync.WaitGroup
	for rank := range n {
		wg.Go(func() {
			defer w.finish()
			out[rank] = f(fakeRank{w: w, rank: rank})
		})
	}
	// The watchdog catches a hang the fake cannot see, such as a rank
	// blocked outside a collective.
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	testwait.Recv(t, "end of every rank", finished)
	if w.failed != nil {
		t.Errorf("the ranks' collectives do not match: %v", w.failed)
	}
	return out
}

// joinAll is New on every rank, with hosts[rank] as its host name; f then
// runs on each rank's Cluster.
func joinAll[T any](t *testing.T, hosts []string, f func(cl *Cluster) T) []T {
	t.Helper()
	return runRanks(t, len(hosts), func(c Collective) T {
		cl, err := New(c, Member{Host: hosts[c.Rank()], PID: fakePID(c.Rank())})
		if err != nil {
			t.Errorf("rank %d: New: %v", c.Rank(), err)
			var zero T
			return zero
		}
		return f(cl)
	})
}

// fakePID is rank r's process id in a fake job.
func fakePID(r int) int { return 1000 + r }

// The fake must turn a job that would hang into errors, or the tests
// above could not show that a mismatch does not hang.
func TestFakeWorldDetectsHangs(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rank1 func(c Collective) error
	}{
		{"rank returns", func(Collective) error { return nil }},
		{"other collective", func(c Collective) error { _, err := c.Gather(nil); return err }},
	} {
		w := newFakeWorld(2)
		errs := make(chan error, 2)
		go func() { defer w.finish(); _, err := fakeRank{w, 0}.Bcast(nil); errs <- err }()
		go func() { defer w.finish(); errs <- tc.rank1(fakeRank{w, 1}) }()
		var hung int
		for range 2 {
			if err := testwait.Recv(t, tc.name+": error from each rank", errs); errors.Is(err, errHang) {
				hung++
			}
		}
		if hung == 0 {
			t.Errorf("%s: no rank got errHang", tc.name)
		}
	}
}
