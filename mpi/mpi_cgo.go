//go:build mpi && cgo

package mpi

/*
#cgo pkg-config: mpi
#include <stdint.h>
#include <stddef.h>
#include <mpi.h>

// MPI_COMM_WORLD, the datatypes and the ops are macros that cgo cannot use
// (in Open MPI they take addresses of globals, in MPICH they are ints), so
// every call goes through a wrapper here and Go never sees an MPI handle.
// That is also what lets one Go file build against either MPI.

static int iob_init(int required, int *provided) {
	return MPI_Init_thread(NULL, NULL, required, provided);
}

// Errors return instead of aborting, so Go can report them.
static int iob_errors_return(void) {
	return MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

static int iob_rank(int *r) { return MPI_Comm_rank(MPI_COMM_WORLD, r); }
static int iob_size(int *n) { return MPI_Comm_size(MPI_COMM_WORLD, n); }
static int iob_barrier(void) { return MPI_Barrier(MPI_COMM_WORLD); }
static double iob_wtime(void) { return MPI_Wtime(); }
static int iob_abort(int code) { return MPI_Abort(MPI_COMM_WORLD, code); }

// op follows the Go constants: 0 Min, 1 Max, 2 Sum; Go has validated it.
static MPI_Op iob_op(int op) {
	switch (op) {
	case 0: return MPI_MIN;
	case 1: return MPI_MAX;
	default: return MPI_SUM;
	}
}

static int iob_allreduce_double(double in, double *out, int op) {
	return MPI_Allreduce(&in, out, 1, MPI_DOUBLE, iob_op(op), MPI_COMM_WORLD);
}

static int iob_allreduce_int64(int64_t in, int64_t *out, int op) {
	return MPI_Allreduce(&in, out, 1, MPI_INT64_T, iob_op(op), MPI_COMM_WORLD);
}

static int iob_allgather_int64(int64_t in, int64_t *all) {
	return MPI_Allgather(&in, 1, MPI_INT64_T, all, 1, MPI_INT64_T, MPI_COMM_WORLD);
}

// counts and displs matter only at the root, rank 0.
static int iob_gatherv(void *send, int n, void *recv, int *counts, int *displs) {
	return MPI_Gatherv(send, n, MPI_BYTE, recv, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
}

static int iob_bcast_int64(int64_t *v) {
	return MPI_Bcast(v, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
}

static int iob_bcast(void *buf, int n) {
	return MPI_Bcast(buf, n, MPI_BYTE, 0, MPI_COMM_WORLD);
}

static int iob_error_string(int code, char *buf, int *len) {
	return MPI_Error_string(code, buf, len);
}
*/
import "C"

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// initialized guards Init: MPI may be initialised once per process.
var initialized atomic.Bool

// errWrongThread is a World method called on another OS thread than the
// one that called Init.
var errWrongThread = errors.New("not on the thread that called Init")

// start backs Wtime after Finalize, when MPI_Wtime may no longer be called.
var start = time.Now()

// World is the job's set of ranks, MPI_COMM_WORLD.
type World struct {
	rank, size int
	tid        int // the OS thread that called MPI_Init_thread
	finalized  bool
}

// needLevel is the thread support Init asks for and requires. Go always
// runs threads of its own beside the caller's, so MPI_THREAD_SINGLE is
// not enough; since every call comes from the thread that called Init
// (World.check), MPI_THREAD_FUNNELED is.
const needLevel = C.MPI_THREAD_FUNNELED

// Thread levels as Go ints, for threadLevelErr and its tests.
var (
	levelSingle     = int(C.MPI_THREAD_SINGLE)
	levelFunneled   = int(C.MPI_THREAD_FUNNELED)
	levelSerialized = int(C.MPI_THREAD_SERIALIZED)
	levelMultiple   = int(C.MPI_THREAD_MULTIPLE)
)

// Enabled reports whether this binary was built with MPI (-tags mpi).
func Enabled() bool { return true }

// Init starts MPI (MPI_Init_thread asking for MPI_THREAD_FUNNELED), makes
// MPI errors return rather than abort, and returns the world communicator.
// It locks the calling goroutine to its OS thread until Finalize: make every
// MPI call from this goroutine (see the package doc). It fails if called
// twice, or if the MPI library grants less than MPI_THREAD_FUNNELED.
func Init() (*World, error) {
	if !initialized.CompareAndSwap(false, true) {
		return nil, errInitTwice
	}
	runtime.LockOSThread()
	var provided C.int
	if err := mpiErr("MPI_Init_thread", C.iob_init(needLevel, &provided)); err != nil {
		runtime.UnlockOSThread()
		return nil, err
	}
	if err := threadLevelErr(int(provided)); err != nil {
		C.MPI_Finalize()
		runtime.UnlockOSThread()
		return nil, err
	}
	if err := mpiErr("MPI_Comm_set_errhandler", C.iob_errors_return()); err != nil {
		return nil, err
	}
	var rank, size C.int
	if err := mpiErr("MPI_Comm_rank", C.iob_rank(&rank)); err != nil {
		return nil, err
	}
	if err := mpiErr("MPI_Comm_size", C.iob_size(&size)); err != nil {
		return nil, err
	}
	return &World{rank: int(rank), size: int(size), tid: unix.Gettid()}, nil
}

// threadLevelErr fails when the provided thread level is below needLevel.
func threadLevelErr(provided int) error {
	if provided >= int(needLevel) {
		return nil
	}
	return fmt.Errorf("mpi: MPI_Init_thread: the MPI library provides thread level %s, iobench needs %s (Go runs threads of its own beside the one that calls MPI); use an MPI built with thread support",
		levelName(provided), levelName(int(needLevel)))
}

func levelName(level int) string {
	switch level {
	case levelSingle:
		return "MPI_THREAD_SINGLE"
	case levelFunneled:
		return "MPI_THREAD_FUNNELED"
	case levelSerialized:
		return "MPI_THREAD_SERIALIZED"
	case levelMultiple:
		return "MPI_THREAD_MULTIPLE"
	}
	return fmt.Sprintf("%d", level)
}

// Rank returns this process's rank, 0 to Size()-1.
func (w *World) Rank() int { return w.rank }

// Size returns the number of ranks in the job.
func (w *World) Size() int { return w.size }

// Barrier waits until every rank has reached it.
func (w *World) Barrier() error {
	if err := w.check("MPI_Barrier"); err != nil {
		return err
	}
	return mpiErr("MPI_Barrier", C.iob_barrier())
}

// AllreduceFloat64 combines v across ranks with op and returns the result
// on every rank.
func (w *World) AllreduceFloat64(v float64, op Op) (float64, error) {
	if err := w.checkOp("MPI_Allreduce", op); err != nil {
		return 0, err
	}
	var out C.double
	if err := mpiErr("MPI_Allreduce", C.iob_allreduce_double(C.double(v), &out, C.int(op))); err != nil {
		return 0, err
	}
	return float64(out), nil
}

// AllreduceInt64 combines v across ranks with op and returns the result on
// every rank. Sum can overflow like any int64 sum.
func (w *World) AllreduceInt64(v int64, op Op) (int64, error) {
	if err := w.checkOp("MPI_Allreduce", op); err != nil {
		return 0, err
	}
	var out C.int64_t
	if err := mpiErr("MPI_Allreduce", C.iob_allreduce_int64(C.int64_t(v), &out, C.int(op))); err != nil {
		return 0, err
	}
	return int64(out), nil
}

// Gather collects every rank's b, which may differ in length, at rank 0,
// which gets Size() slices in rank order; other ranks get nil. The lengths
// travel first with an allgather rather than a gather so that every rank
// can check them against MPI's int counts and fail alike, rather than
// leave the others waiting in MPI_Gatherv.
func (w *World) Gather(b []byte) ([][]byte, error) {
	if err := w.check("MPI_Gatherv"); err != nil {
		return nil, err
	}
	counts := make([]int64, w.size)
	if err := mpiErr("MPI_Allgather", C.iob_allgather_int64(C.int64_t(len(b)), (*C.int64_t)(&counts[0]))); err != nil {
		return nil, err
	}
	offs, err := gatherLayout(counts)
	if err != nil {
		return nil, err
	}
	if w.rank != 0 {
		return nil, mpiErr("MPI_Gatherv", C.iob_gatherv(bufPtr(b), C.int(len(b)), nil, nil, nil))
	}
	all := make([]byte, offs[w.size])
	ccounts, cdispls := make([]C.int, w.size), make([]C.int, w.size)
	for i := range w.size {
		ccounts[i], cdispls[i] = C.int(counts[i]), C.int(offs[i])
	}
	if err := mpiErr("MPI_Gatherv", C.iob_gatherv(bufPtr(b), C.int(len(b)), bufPtr(all), &ccounts[0], &cdispls[0])); err != nil {
		return nil, err
	}
	out := make([][]byte, w.size)
	for i := range out {
		// The full slice expression keeps an append to one rank's bytes
		// from overwriting the next rank's.
		out[i] = all[offs[i]:offs[i+1]:offs[i+1]]
	}
	return out, nil
}

// Bcast sends rank 0's b to every rank and returns each rank's copy; other
// ranks' b is ignored. The length goes first, as an int64, so that every
// rank can size its buffer and all fail alike if it exceeds MPI's int
// count.
func (w *World) Bcast(b []byte) ([]byte, error) {
	if err := w.check("MPI_Bcast"); err != nil {
		return nil, err
	}
	n := C.int64_t(len(b))
	if err := mpiErr("MPI_Bcast", C.iob_bcast_int64(&n)); err != nil {
		return nil, err
	}
	if n > maxCount {
		return nil, fmt.Errorf("mpi: Bcast: rank 0 sends %d bytes; the limit is %d", n, maxCount)
	}
	buf := make([]byte, n)
	if w.rank == 0 {
		copy(buf, b)
	}
	if err := mpiErr("MPI_Bcast", C.iob_bcast(bufPtr(buf), C.int(n))); err != nil {
		return nil, err
	}
	return buf, nil
}

// Wtime returns MPI_Wtime, seconds on a clock local to each rank; only
// differences mean anything. After Finalize, or called from another thread
// than Init's (it has no error to return), it falls back to Go's monotonic
// clock, whose readings must not be compared with MPI_Wtime's.
func (w *World) Wtime() float64 {
	if w.check("MPI_Wtime") != nil {
		return time.Since(start).Seconds()
	}
	return float64(C.iob_wtime())
}

// Abort ends every rank of the job with exit status code, as far as the
// launcher allows (MPI_Abort on MPI_COMM_WORLD). It does not return. Called
// from another thread than Init's, it only exits: the launcher then ends
// the job, as it does for any rank that exits without MPI_Finalize.
func (w *World) Abort(code int) {
	if w.check("MPI_Abort") == nil {
		C.iob_abort(C.int(code))
	}
	os.Exit(code)
}

// Finalize shuts MPI down and unlocks the OS thread that Init locked. No
// World method but Rank, Size, Wtime and Abort may be called after it.
func (w *World) Finalize() error {
	if err := w.check("MPI_Finalize"); err != nil {
		return err
	}
	// Marked first: after a failed MPI_Finalize, MPI is in no state to be
	// called again either.
	w.finalized = true
	err := mpiErr("MPI_Finalize", C.MPI_Finalize())
	runtime.UnlockOSThread()
	return err
}

// check fails, before MPI function fn is called, once the World is
// finalized (MPI calls after MPI_Finalize are erroneous and may crash
// rather than return an error) and on a thread other than Init's (which
// MPI_THREAD_FUNNELED forbids: the call could corrupt MPI's state or hang).
func (w *World) check(fn string) error {
	if w.finalized {
		return errFinalized
	}
	if tid := unix.Gettid(); tid != w.tid {
		return fmt.Errorf("mpi: %s: %w (OS thread %d, Init's %d); make every MPI call from the goroutine that called Init", fn, errWrongThread, tid, w.tid)
	}
	return nil
}

// checkOp is check plus validation of op, which the C side trusts.
func (w *World) checkOp(fn string, op Op) error {
	if err := w.check(fn); err != nil {
		return err
	}
	if !op.valid() {
		return errOp(op)
	}
	return nil
}

// bufPtr returns the address of b's first byte, or nil when b is empty,
// since &b[0] would panic and MPI ignores the buffer of a zero count.
func bufPtr(b []byte) unsafe.Pointer {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Pointer(&b[0])
}

// mpiErr turns an MPI return code into nil or an error naming the function
// and carrying MPI_Error_string's text.
func mpiErr(fn string, rc C.int) error {
	if rc == C.MPI_SUCCESS {
		return nil
	}
	var buf [C.MPI_MAX_ERROR_STRING]C.char
	var n C.int
	if C.iob_error_string(rc, &buf[0], &n) != C.MPI_SUCCESS {
		return fmt.Errorf("mpi: %s: error code %d", fn, int(rc))
	}
	return fmt.Errorf("mpi: %s: %s", fn, C.GoStringN(&buf[0], n))
}
