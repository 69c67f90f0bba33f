//go:build mpi && cgo

package mpi

/*
#cgo pkg-config: mpi
#include <stdlib.h>
#include <mpi.h>

// The spawned jobs' intercommunicators stay on this side, as every MPI
// handle does; Go holds their slots.
#define IOB_MAX_CHILDREN 64
static MPI_Comm iob_children[IOB_MAX_CHILDREN];
static int iob_nchildren;

static int iob_spawn(char *command, char **argv, int n, int *slot) {
	if (iob_nchildren == IOB_MAX_CHILDREN)
		return MPI_ERR_NO_MEM;
	int rc = MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
	if (rc != MPI_SUCCESS)
		return rc;
	MPI_Comm child;
	rc = MPI_Comm_spawn(command, argv, n, MPI_INFO_NULL, 0, MPI_COMM_SELF, &child, MPI_ERRCODES_IGNORE);
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_set_errhandler(child, MPI_ERRORS_RETURN);
	if (rc == MPI_SUCCESS) {
		*slot = iob_nchildren;
		iob_children[iob_nchildren++] = child;
	}
	return rc;
}

static int iob_child_send(int slot, char *buf, int len) {
	return MPI_Send(buf, len, MPI_CHAR, 0, 1, iob_children[slot]);
}

// iob_child_probe says whether the child's rank 0 has answered (tag 0),
// and how long the answer is.
static int iob_child_probe(int slot, int *ready, int *len) {
	MPI_Status st;
	int rc = MPI_Iprobe(0, 0, iob_children[slot], ready, &st);
	if (rc == MPI_SUCCESS && *ready)
		rc = MPI_Get_count(&st, MPI_CHAR, len);
	return rc;
}

static int iob_child_recv(int slot, char *buf, int len) {
	return MPI_Recv(buf, len, MPI_CHAR, 0, 0, iob_children[slot], MPI_STATUS_IGNORE);
}

static int iob_child_disconnect(int slot) { return MPI_Comm_disconnect(&iob_children[slot]); }

static int iob_ibarrier(MPI_Request *req) { return MPI_Ibarrier(MPI_COMM_WORLD, req); }
static int iob_test(MPI_Request *req, int *done) { return MPI_Test(req, done, MPI_STATUS_IGNORE); }
*/
import "C"

import (
	"bytes"
	"errors"
	"time"
	"unsafe"
)

// Child is an MPI program started by SpawnChild as a job of its own, which
// answers requests until it is closed.
type Child struct {
	w    *World
	slot C.int
	done bool
}

// SpawnChild starts command with args as an MPI job of n ranks of its own
// (MPI_Comm_spawn from this rank alone, on MPI_COMM_SELF). The program
// takes requests from its parent's rank 0 (tag 1) at its rank 0 and
// answers each (tag 0); an empty request asks it to end (Close).
func (w *World) SpawnChild(command string, args []string, n int) (*Child, error) {
	if err := w.check("MPI_Comm_spawn"); err != nil {
		return nil, err
	}
	ccmd := C.CString(command)
	defer C.free(unsafe.Pointer(ccmd))
	argv := make([]*C.char, len(args)+1) // NULL-terminated
	for i, a := range args {
		argv[i] = C.CString(a)
		defer C.free(unsafe.Pointer(argv[i]))
	}
	var slot C.int
	if err := mpiErr("MPI_Comm_spawn", C.iob_spawn(ccmd, &argv[0], C.int(n), &slot)); err != nil {
		return nil, err
	}
	return &Child{w: w, slot: slot}, nil
}

// Request sends msg to the child's rank 0 and returns its answer,
// waiting without spinning (a look every poll) so that the child's ranks
// have the CPUs.
func (c *Child) Request(msg []byte, poll time.Duration) ([]byte, error) {
	if err := c.usable("MPI_Send"); err != nil {
		return nil, err
	}
	if err := mpiErr("MPI_Send", C.iob_child_send(c.slot, (*C.char)(bufPtr(msg)), C.int(len(msg)))); err != nil {
		return nil, err
	}
	var ready, n C.int
	for {
		if err := mpiErr("MPI_Iprobe", C.iob_child_probe(c.slot, &ready, &n)); err != nil {
			return nil, err
		}
		if ready != 0 {
			break
		}
		time.Sleep(poll)
	}
	buf := make([]byte, max(int(n), 1))
	if err := mpiErr("MPI_Recv", C.iob_child_recv(c.slot, (*C.char)(unsafe.Pointer(&buf[0])), n)); err != nil {
		return nil, err
	}
	return trimNUL(buf[:n]), nil
}

// Close asks the child to end (an empty request) and disconnects from it.
func (c *Child) Close() error {
	if err := c.usable("MPI_Comm_disconnect"); err != nil {
		return err
	}
	c.done = true
	err := mpiErr("MPI_Send", C.iob_child_send(c.slot, nil, 0))
	return errors.Join(err, mpiErr("MPI_Comm_disconnect", C.iob_child_disconnect(c.slot)))
}

func (c *Child) usable(fn string) error {
	if c.done {
		return errors.New("mpi: " + fn + ": the child job is closed")
	}
	return c.w.check(fn)
}

// IdleBarrier is Barrier without spinning: MPI_Ibarrier, then a look
// every poll, so that ranks that wait long for another leave it the
// CPUs.
func (w *World) IdleBarrier(poll time.Duration) error {
	if err := w.check("MPI_Ibarrier"); err != nil {
		return err
	}
	var req C.MPI_Request
	if err := mpiErr("MPI_Ibarrier", C.iob_ibarrier(&req)); err != nil {
		return err
	}
	for {
		var done C.int
		if err := mpiErr("MPI_Test", C.iob_test(&req, &done)); err != nil || done != 0 {
			return err
		}
		time.Sleep(poll)
	}
}

// trimNUL drops a C string's terminating NUL and what follows it.
func trimNUL(b []byte) []byte {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return b[:i]
	}
	return b
}
