//go:build mpi && cgo

package mpi

/*
#cgo pkg-config: mpi
#include <stdlib.h>
#include <mpi.h>

// One spawned job at a time: its intercommunicator stays on this side, as
// every MPI handle does.
static MPI_Comm iob_child = MPI_COMM_NULL;

static int iob_spawn(char *command, char **argv, int n) {
	int rc = MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
	if (rc != MPI_SUCCESS)
		return rc;
	rc = MPI_Comm_spawn(command, argv, n, MPI_INFO_NULL, 0, MPI_COMM_SELF, &iob_child, MPI_ERRCODES_IGNORE);
	if (rc == MPI_SUCCESS)
		rc = MPI_Comm_set_errhandler(iob_child, MPI_ERRORS_RETURN);
	return rc;
}

// iob_child_probe says whether the child's rank 0 has sent its text (tag
// 0), and how long it is.
static int iob_child_probe(int *ready, int *len) {
	MPI_Status st;
	int rc = MPI_Iprobe(0, 0, iob_child, ready, &st);
	if (rc == MPI_SUCCESS && *ready)
		rc = MPI_Get_count(&st, MPI_CHAR, len);
	return rc;
}

static int iob_child_recv(char *buf, int len) {
	return MPI_Recv(buf, len, MPI_CHAR, 0, 0, iob_child, MPI_STATUS_IGNORE);
}

static int iob_child_disconnect(void) { return MPI_Comm_disconnect(&iob_child); }

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

// Spawn starts command with args as an MPI job of its own of n ranks
// (MPI_Comm_spawn from this rank alone, on MPI_COMM_SELF) and returns the
// text the job's rank 0 sends back (MPI_Send of chars, tag 0, to the
// parent's rank 0) before it disconnects. It waits without spinning,
// looking every poll, so the job's ranks get the CPUs; it cannot stop
// the job early.
func (w *World) Spawn(command string, args []string, n int, poll time.Duration) ([]byte, error) {
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
	if err := mpiErr("MPI_Comm_spawn", C.iob_spawn(ccmd, &argv[0], C.int(n))); err != nil {
		return nil, err
	}
	out, err := childText(poll)
	return out, errors.Join(err, mpiErr("MPI_Comm_disconnect", C.iob_child_disconnect()))
}

// childText waits for the spawned job's text and receives it.
func childText(poll time.Duration) ([]byte, error) {
	var ready, n C.int
	for {
		if err := mpiErr("MPI_Iprobe", C.iob_child_probe(&ready, &n)); err != nil {
			return nil, err
		}
		if ready != 0 {
			break
		}
		time.Sleep(poll)
	}
	buf := make([]byte, max(int(n), 1))
	if err := mpiErr("MPI_Recv", C.iob_child_recv((*C.char)(unsafe.Pointer(&buf[0])), n)); err != nil {
		return nil, err
	}
	return trimNUL(buf[:n]), nil
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
