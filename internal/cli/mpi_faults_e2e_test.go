//go:build mpi && linux

package cli

import (
	"encoding/json"
	"strings"
	"syscall"
	"testing"

	"github.com/iobench/iobench/internal/testkit/faultfs"
	"github.com/iobench/iobench/internal/testkit/testwait"
)

// faultAfter makes every write on f fail with errno once n writes went
// through: past the warm-up, into the timed runs.
func faultAfter(t *testing.T, f *faultfs.FS, n int, errno syscall.Errno) {
	t.Helper()
	testwait.Until(t, "writes before the fault", func() bool { return f.Hits(faultfs.Write) >= n })
	f.Set(faultfs.Write, faultfs.Fault{Err: errno})
}

// An EIO in the middle of an MPI-IO sweep fails the run on every rank,
// named with the rank and the cause, and the report says the sweep is
// incomplete: in a collective write to the shared file too, where Open
// MPI's OMPIO loses the aggregating rank's failed pwritev(2) and every
// rank's call returns success (the sweep exited 0 with a result), and
// where the kernel cut a write short before the failing part, which
// OMPIO took for the end of its write.
func TestMPIIOWriteEIOFailsTheRun(t *testing.T) {
	bin := mpiBinary(t)
	for _, layout := range [][]string{{"--shared-file", "--collective"}, {"--collective"}, nil} {
		f := faultfs.Mount(t)
		args := append([]string{"-np", "3", bin, "sweep", "--api", "mpiio", "--dir", f.Dir, "--size", "32MiB", "--sizes", "64KiB,1MiB",
			"--repeat", "3", "--sync", "none", "--no-progress", "--profile", "generic", "--force", "--format", "json"}, layout...)
		done := make(chan result, 1)
		go func() { done <- mpirun(t, args...) }()
		// The warm-up writes 3 x 32 MiB, in FUSE requests of at most 128 KiB.
		faultAfter(t, f, 3*32<<20/(128<<10)+64, syscall.EIO)
		r := testwait.Recv(t, "end of mpirun", done)
		f.Set(faultfs.Write, faultfs.Fault{})
		var doc struct {
			Incomplete bool   `json:"incomplete"`
			Error      string `json:"error"`
		}
		_ = json.Unmarshal([]byte(r.stdout), &doc)
		if r.code == 0 || !strings.Contains(r.stderr, "iobench: rank") || !strings.Contains(r.stderr, "(EIO)") {
			t.Errorf("%v: exit %d; want a failure naming a rank and EIO:\n%s", layout, r.code, r.stderr)
		}
		if !doc.Incomplete || !strings.Contains(doc.Error, "(EIO)") {
			t.Errorf("%v: report incomplete=%v error=%q; want an incomplete report with the EIO", layout, doc.Incomplete, doc.Error)
		}
		if left := dirEntries(t, f.Dir); len(left) != 0 {
			t.Errorf("%v: files left: %v", layout, left)
		}
	}
}
