//go:build linux

package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/iobench/iobench/internal/testkit/faultfs"
	"github.com/iobench/iobench/internal/testkit/testwait"
)

// swapWhileACloseHangs starts iobench with args, waits until it closes
// its first data file (held there by a hung close, which unlike a hung
// write holds no lock a rename needs), lets swap replace what it likes,
// then lets the close go on; the exit code and stderr.
func swapWhileACloseHangs(t *testing.T, f *faultfs.FS, swap func(), args ...string) (int, string) {
	t.Helper()
	f.Set(faultfs.Close, faultfs.Fault{Hang: true})
	cmd, stderr, exited := startHung(t, f, faultfs.Close, args...)
	swap()
	f.Set(faultfs.Close, faultfs.Fault{})
	f.Release()
	testwait.Exit(t, "exit after the swap", cmd.Process, exited, stderr.String)
	return cmd.ProcessState.ExitCode(), stderr.String()
}

// A watcher swaps a FIFO in for the data file iobench has written: the
// next open for reading (--mode read's cache drop, --verify) refuses it
// without waiting for a writer, the run exits 1 naming the name it
// could not remove, and the FIFO, which iobench did not create, stays.
func TestFIFOSwappedInIsRefusedAndNamed(t *testing.T) {
	for _, extra := range [][]string{{"--mode", "read"}, {"--verify"}} {
		t.Run(strings.Join(extra, " "), func(t *testing.T) {
			f := faultfs.Mount(t)
			var path string
			swap := func() {
				held := dirEntries(t, f.Dir)
				if len(held) != 1 {
					t.Fatalf("files while the close hangs: %v, want 1", held)
				}
				path = filepath.Join(f.Dir, held[0])
				if err := errors.Join(os.Rename(path, path+".moved"), unix.Mkfifo(path, 0o600)); err != nil {
					t.Fatal(err)
				}
			}
			code, out := swapWhileACloseHangs(t, f, swap, faultSweep(f, append(extra, "--warmup=false")...)...)
			if code != 1 || !strings.Contains(out, path+" is no longer the data file iobench created") || !strings.Contains(out, "it is now a FIFO (named pipe)") {
				t.Errorf("exit %d, want 1 and the FIFO refused:\n%s", code, out)
			}
			if !strings.Contains(out, "could not be removed") || !strings.Contains(out, "\n  "+path+": ") {
				t.Errorf("want %s named as not removed:\n%s", path, out)
			}
			var st unix.Stat_t
			if err := unix.Lstat(path, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFIFO {
				t.Errorf("the watcher's FIFO: %v, mode %o; want it kept", err, st.Mode)
			}
		})
	}
}

// --dir swapped for a symlink to another directory while a file is
// held: the sweep stops with the directory named as replaced, names the
// read runs' file left in the moved directory, and creates nothing in
// the symlink's target.
func TestDirSwappedForASymlinkIsNamed(t *testing.T) {
	f := faultfs.Mount(t)
	dir, moved, target := filepath.Join(f.Dir, "data"), filepath.Join(f.Dir, "moved"), filepath.Join(f.Dir, "target")
	for _, d := range []string{dir, target} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var name string
	swap := func() {
		held := dirEntries(t, dir)
		if len(held) != 1 {
			t.Fatalf("files while the close hangs: %v, want 1", held)
		}
		name = held[0]
		if err := errors.Join(os.Rename(dir, moved), os.Symlink(target, dir)); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"sweep", "--dir", dir, "--size", "4MiB", "--sizes", "64KiB,1MiB", "--mode", "both", "--warmup=false",
		"--sync", "none", "--no-progress", "--profile", "generic", "--force"}
	code, out := swapWhileACloseHangs(t, f, swap, args...)
	if code != 1 || !strings.Contains(out, dir+" is no longer the directory iobench made its data files in") {
		t.Errorf("exit %d, want 1 and the directory named as replaced:\n%s", code, out)
	}
	if !strings.Contains(out, "could not be removed") || !strings.Contains(out, "\n  "+filepath.Join(dir, name)+": ") {
		t.Errorf("want %s named as not removed:\n%s", name, out)
	}
	if _, err := os.Lstat(filepath.Join(moved, name)); err != nil {
		t.Errorf("the file named is not in the moved directory: %v", err)
	}
	if left := dirEntries(t, target); len(left) != 0 {
		t.Errorf("left in the symlink's target: %v", left)
	}
}
