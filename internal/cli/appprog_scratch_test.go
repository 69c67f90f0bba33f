package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestScratchBesideIsRemovedBySecondSignal: the quick curve's and the
// price's directory is on the program file's file system, removed when
// done, and by the cleanups a second Ctrl-C runs (it exits without
// running defers), which then forget it.
func TestScratchBesideIsRemovedBySecondSignal(t *testing.T) {
	file := filepath.Join(t.TempDir(), "out.dat")
	r := &programRun{e: &env{}}
	dir, done, err := r.scratchBeside(file, ".iobench-curve-", "the quick curve")
	if err != nil || filepath.Dir(dir) != filepath.Dir(file) {
		t.Fatalf("scratch %q, %v: want a directory beside %s", dir, err, file)
	}
	r.e.cleanups.run() // the second signal
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("%s survives the second signal's cleanups: %v", dir, err)
	}
	dir, done, _ = r.scratchBeside(file, ".iobench-price-", "the price")
	done()
	if _, err := os.Stat(dir); !os.IsNotExist(err) || len(r.e.cleanups.fns) != 0 {
		t.Errorf("%s after done: %v; %d cleanups left", dir, err, len(r.e.cleanups.fns))
	}
}
