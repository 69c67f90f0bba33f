package cli

import (
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"golang.org/x/sys/unix"

	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/workload"
)

// maxListed is how many entries of the working directory's tree tune
// lists before the first run; beyond it, a file the program writes is
// taken as one that existed, and never removed.
const maxListed = 200000

// listTree is the regular files under dir before the program ran, by
// absolute path; complete is false when the tree had more than maxListed
// entries.
func listTree(dir string) (map[string]bool, bool) {
	seen := map[string]bool{}
	n := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: its files count as existing
		}
		if n++; n > maxListed {
			return filepath.SkipAll
		}
		if d.Type().IsRegular() {
			seen[path] = true
		}
		return nil
	})
	return seen, err == nil && n <= maxListed
}

// fileGuard puts the program's files back before every run, so that
// each run starts from the same state, and checksums its outputs.
type fileGuard struct {
	files    report.TuneFiles
	dir      string           // the listed tree
	complete bool             // the listing held the whole tree
	cut      map[string]int64 // appended files: the size to cut back to
	saved    map[string]string
	seed     maphash.Seed
}

// newFileGuard sorts the files the first run wrote: created (not in the
// listing before it), appended (cut back), existing ones in the tree
// (put back from the copy made before the first run; one over
// --max-saved is refused), existing ones outside it (saved now, after
// app's runs), and those written only through a descriptor the program
// inherited (a shell's > out: left alone).
func newFileGuard(dir string, r *programRun, written []workload.File, maxSaved int64) (*fileGuard, error) {
	before, snap := r.before, r.snap
	g := &fileGuard{dir: dir, complete: r.complete, cut: map[string]int64{}, saved: map[string]string{}, seed: maphash.MakeSeed()}
	var unsaved []string
	savedBytes := snap.total()
	for _, f := range written {
		st, err := os.Stat(f.Path)
		if err != nil || !st.Mode().IsRegular() || !filepath.IsAbs(f.Path) {
			continue
		}
		if !f.Opened {
			g.files.Inherited = append(g.files.Inherited, f.Path)
			continue
		}
		g.files.Checked = append(g.files.Checked, f.Path)
		switch c, saved := snap.copyOf(f.Path); {
		case g.created(f.Path, before):
			g.files.Created = append(g.files.Created, f.Path)
		case slices.Contains(f.OpenFlags, "O_APPEND") && !slices.Contains(f.OpenFlags, "O_TRUNC") && st.Size() >= f.Bytes:
			g.files.Appended = append(g.files.Appended, f.Path)
			g.cut[f.Path] = st.Size() - f.Bytes
		case saved:
			g.saved[f.Path] = c
			g.files.Restored = append(g.files.Restored, f.Path)
		case g.inTree(f.Path):
			unsaved = append(unsaved, f.Path)
		case slices.Contains(f.OpenFlags, "O_TRUNC"):
			g.files.Rewritten = append(g.files.Rewritten, f.Path)
		default:
			if savedBytes += st.Size(); savedBytes > maxSaved {
				unsaved = append(unsaved, f.Path)
				continue
			}
			if err := g.saveLate(f.Path, r.tmp); err != nil {
				return nil, err
			}
		}
	}
	if len(unsaved) > 0 {
		return nil, fmt.Errorf("the program updates files that existed before it ran, and they were not saved within --max-saved %d bytes: %v; copy them aside and run tune on the copies, or raise --max-saved", maxSaved, unsaved)
	}
	snap.keepOnly(g.saved)
	return g, nil
}

// created says whether the program made path: absent from a complete
// listing of the tree that holds it.
func (g *fileGuard) created(path string, before map[string]bool) bool {
	return g.inTree(path) && g.complete && !before[path]
}

// inTree says whether path is under the listed working directory.
func (g *fileGuard) inTree(path string) bool {
	rel, err := filepath.Rel(g.dir, path)
	return err == nil && filepath.IsLocal(rel)
}

// saveLate saves a file outside the tree, which no copy made before the
// first run holds: it is put back as app's runs left it.
func (g *fileGuard) saveLate(path, scratch string) error {
	copyPath := filepath.Join(scratch, fmt.Sprintf("saved-%d", len(g.saved)))
	if err := copyFile(path, copyPath); err != nil {
		return fmt.Errorf("saving %s before tune's runs: %w", path, err)
	}
	g.saved[path] = copyPath
	g.files.SavedLate = append(g.files.SavedLate, path)
	return nil
}

// reset puts every file back as it was before the first timed run.
func (g *fileGuard) reset() error {
	var errs []error
	for _, p := range g.files.Created {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	for p, size := range g.cut {
		errs = append(errs, os.Truncate(p, size))
	}
	for p, saved := range g.saved {
		errs = append(errs, copyFile(saved, p))
	}
	return errors.Join(errs...)
}

// sums is a checksum of each output as the last run left it (0 for a
// file it did not write).
func (g *fileGuard) sums() (map[string]uint64, error) {
	out := map[string]uint64{}
	for _, p := range g.files.Checked {
		f, err := os.Open(p)
		if errors.Is(err, fs.ErrNotExist) {
			out[p] = 0
			continue
		}
		if err != nil {
			return nil, err
		}
		var h maphash.Hash
		h.SetSeed(g.seed)
		_, err = io.Copy(&h, f)
		f.Close()
		if err != nil {
			return nil, err
		}
		out[p] = h.Sum64()
	}
	return out, nil
}

// syncOutputs flushes the file systems of the outputs, outside the
// timing, so that one run's writeback does not land in the next's.
func (g *fileGuard) syncOutputs() error {
	dirs := []string{g.dir}
	for _, p := range g.files.Checked {
		if d := filepath.Dir(p); !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	var errs []error
	for _, dir := range dirs {
		fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			continue // a directory the run removed: nothing of it to flush
		}
		errs = append(errs, unix.Syncfs(fd))
		unix.Close(fd)
	}
	return errors.Join(errs...)
}

// copyFile writes src's bytes over dst, keeping dst's inode when it
// exists (a program may hold it open, or it may be a hard link).
func copyFile(src, dst string) error {
	return writeCopy(src, dst, os.O_TRUNC, false)
}

// writeCopy copies src to dst opened with flag (O_TRUNC over one, O_EXCL
// for a new one), as a reflink when clone and the file system can.
func writeCopy(src, dst string, flag int, clone bool) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|flag, 0o600)
	if err != nil {
		return err
	}
	if clone && unix.IoctlFileClone(int(out.Fd()), int(in.Fd())) == nil {
		return out.Close()
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
