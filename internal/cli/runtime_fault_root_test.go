package cli

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/iobench/iobench/internal/testkit/faultfs"
	"github.com/iobench/iobench/internal/testkit/testenv"
)

// A runtime writer that hits ENOSPC or EIO in its child names the cause
// (the errno's text and the path), as the sweep does, not a data file
// of the wrong size.
func TestRuntimeChildErrorIsNamed(t *testing.T) {
	testenv.Full(t, "root, FUSE and a C compiler")
	curve := filepath.Join(t.TempDir(), "curve.json")
	if r := runBinary(t, "sweep", "--dir", t.TempDir(), "--size", "1MiB", "--max", "64KiB", "--repeat", "1", "--sync", "none", "--no-progress", "--format", "json", "-o", curve); r.code != 0 {
		t.Fatalf("the curve: exit %d\n%s", r.code, r.stderr)
	}
	for _, c := range []struct {
		rt    string
		errno syscall.Errno
		want  string
	}{
		{"stdio", syscall.ENOSPC, "No space left on device"},
		{"stdio", syscall.EIO, "input/output error"},
		{"gfortran", syscall.ENOSPC, "No space left on device"},
	} {
		t.Run(c.rt+" "+c.errno.Error(), func(t *testing.T) {
			testenv.Command(t, map[string]string{"stdio": "cc", "gfortran": "gfortran"}[c.rt])
			f := faultfs.Mount(t)
			f.Set(faultfs.Write, faultfs.Fault{Err: c.errno})
			r := runBinary(t, "runtime", c.rt, "--dir", f.Dir, "--size", "1MiB", "--buffers", "64KiB", "--convert", "native", "--repeat", "1", "--no-progress", "--from", curve)
			all := r.stdout + r.stderr
			if r.code != 1 || !strings.Contains(strings.ToLower(all), strings.ToLower(c.want)) || !strings.Contains(all, f.Dir) || strings.Contains(all, "does not hold what was asked for") || !strings.Contains(all, "its data file was removed") {
				t.Errorf("exit %d, want 1 naming %q, the path and that the file was removed:\n%s", r.code, c.want, all)
			}
			f.Set(faultfs.Write, faultfs.Fault{})
			if left := dirEntries(t, f.Dir); len(left) != 0 {
				t.Errorf("files left: %v", left)
			}
		})
	}
}
