package iobench

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// startObserver is an Observer that hears only started runs.
type startObserver func(Run)

func (startObserver) WarmupStarted()          {}
func (startObserver) RoundPlanned(int, []Run) {}
func (f startObserver) RunStarted(r Run)      { f(r) }
func (startObserver) RunFinished(Sample)      {}

// A data directory another process swaps for a symlink to another
// directory mid-sweep: the sweep stops at the next run, names the read
// runs' file it holds (still in the moved directory, out of reach of its
// name) as not removed, and leaves nothing in the symlink's target.
func TestDirectorySwappedForASymlinkNamesTheFilesLeft(t *testing.T) {
	for _, at := range []string{"between runs", "during a write run"} {
		t.Run(at, func(t *testing.T) {
			root := t.TempDir()
			dir, moved, target := filepath.Join(root, "data"), filepath.Join(root, "moved"), filepath.Join(root, "target")
			for _, d := range []string{dir, target} {
				if err := os.Mkdir(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			swap := func() {
				if err := errors.Join(os.Rename(dir, moved), os.Symlink(target, dir)); err != nil {
					t.Error(err)
				}
			}
			c := smallConfig()
			c.Mode, c.Repeat = ModeBoth, 2
			r := &Runner{Config: c, FS: OSFS{Dir: dir}}
			r.Observer = swapAt(at, swap)
			res, err := r.Run(context.Background())
			checkDirSwap(t, dir, moved, target, err, res)
		})
	}
}

// swapAt is an Observer that swaps once: after the first run, or as the
// first write run starts (its file is then made in the new directory).
func swapAt(at string, swap func()) Observer {
	done := false
	once := func() {
		if !done {
			done = true
			swap()
		}
	}
	if at == "between runs" {
		return observerFunc(func(Sample) { once() })
	}
	return startObserver(func(r Run) {
		if r.Mode == ModeWrite {
			once()
		}
	})
}

func checkDirSwap(t *testing.T, dir, moved, target string, err error, res *Result) {
	t.Helper()
	var re *ReplacedError
	if !errors.As(err, &re) || !re.Dir || re.Path != dir || !strings.Contains(re.Now, "a symlink to another directory") {
		t.Fatalf("err = %v, want the directory named as replaced by a symlink", err)
	}
	if len(res.LeftFiles) != 1 || !strings.Contains(res.LeftFiles[0].Err, dir+" is no longer the directory iobench made its data files in") {
		t.Fatalf("left files %+v, want the read runs' file named with the directory's swap", res.LeftFiles)
	}
	name := filepath.Base(res.LeftFiles[0].Path)
	if filepath.Dir(res.LeftFiles[0].Path) != dir || !strings.Contains(name, "-read-") {
		t.Errorf("left %s, want the read runs' file in %s", res.LeftFiles[0].Path, dir)
	}
	if _, err := os.Lstat(filepath.Join(moved, name)); err != nil {
		t.Errorf("the file named as left is not in the moved directory: %v", err)
	}
	if ents, _ := os.ReadDir(target); len(ents) != 0 {
		t.Errorf("left in the symlink's target: %v", ents)
	}
}
