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

// maxListed is how many entries of the working directory's tree app and
// tune list before the first run; beyond it, a file the program writes
// is taken as one that existed, and never removed.
const maxListed = 200000

// treeListing is the regular files under a directory before the program
// ran, by absolute path.
type treeListing struct {
	dir   string
	files map[string]bool
	// complete: every entry was listed (no more than maxListed);
	// unreadable are the directories whose entries could not be read,
	// whose files count as existing.
	complete   bool
	unreadable []string
}

func listTree(dir string) treeListing {
	l := treeListing{dir: dir, files: map[string]bool{}}
	n := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			l.unreadable = append(l.unreadable, path)
			return nil
		}
		if n++; n > maxListed {
			return filepath.SkipAll
		}
		if d.Type().IsRegular() {
			l.files[path] = true
		}
		return nil
	})
	l.complete = err == nil && n <= maxListed
	return l
}

// inTree says whether path is under the listed directory.
func (l treeListing) inTree(path string) bool {
	rel, err := filepath.Rel(l.dir, path)
	return err == nil && filepath.IsLocal(rel)
}

// created says whether the program made path: under the directory, not
// under one that could not be read, and absent from a complete listing.
func (l treeListing) created(path string) bool {
	if !l.inTree(path) || !l.complete || l.files[path] {
		return false
	}
	return !slices.ContainsFunc(l.unreadable, func(d string) bool {
		rel, err := filepath.Rel(d, path)
		return err == nil && filepath.IsLocal(rel)
	})
}

// workDir is the working directory with its links resolved, as the
// trace's paths are.
func workDir() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(wd)
}

// fileGuard puts the program's files back before every run, so that
// each run starts from the same state, and checksums its outputs.
type fileGuard struct {
	files report.TuneFiles
	tree  treeListing
	// failed keeps a copy whose restore failed, and says where.
	failed func(copyPath string, err error) error
	cut    map[string]int64 // appended files: the size to cut back to
	saved  map[string]string
	seed   maphash.Seed
}

// newFileGuard sorts the files the first run wrote: created (not in the
// listing before it); existing ones in the tree, put back from the copy
// made before the first run (one updated in place that the copy lacks is
// refused); appended ones, cut back; truncated ones the copy lacks,
// rewritten by every run; existing ones outside the tree updated in
// place, saved now (after app's traced run); and those written only
// through a descriptor the program inherited (a shell's > out): left
// alone.
func newFileGuard(r *programRun, written []workload.File, maxSaved int64) (*fileGuard, error) {
	snap := r.snap
	snap.keepOnly(pathsOf(written)) // a file the run did not write needs no copy
	maxSaved = r.saveBudget(maxSaved)
	g := &fileGuard{tree: r.before, failed: r.restoreFailed, cut: map[string]int64{}, saved: map[string]string{}, seed: maphash.MakeSeed()}
	var unsaved []string
	var savedBytes int64
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
		case g.tree.created(f.Path):
			g.files.Created = append(g.files.Created, f.Path)
		case saved: // before the append case: a file also opened without O_APPEND
			g.saved[f.Path] = c
			g.files.Restored = append(g.files.Restored, f.Path)
			savedBytes += snap.sizeOf(f.Path)
		case slices.Contains(f.OpenFlags, "O_APPEND") && !slices.Contains(f.OpenFlags, "O_TRUNC") && st.Size() >= f.Bytes:
			g.files.Appended = append(g.files.Appended, f.Path)
			g.cut[f.Path] = st.Size() - f.Bytes
		case slices.Contains(f.OpenFlags, "O_TRUNC"):
			g.files.Rewritten = append(g.files.Rewritten, f.Path)
		case g.tree.inTree(f.Path):
			unsaved = append(unsaved, f.Path)
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
		return nil, fmt.Errorf("the program updates in place files that existed before it ran, and tune holds no copy of them from before its first run (over the %d bytes it may save: --max-saved, and what the scratch directory %s can spare; beyond the %d files it copies; or in a directory it could not list): %v; copy them aside and run tune on the copies, raise --max-saved, or give a --scratch with room", maxSaved, filepath.Dir(r.tmp), maxCopiedFiles, unsaved)
	}
	snap.keepOnly(g.saved)
	return g, nil
}

// pathsOf are the files' paths, as a set.
func pathsOf(files []workload.File) map[string]string {
	out := map[string]string{}
	for _, f := range files {
		out[f.Path] = ""
	}
	return out
}

// saveLate saves a file outside the tree, which no copy made before the
// first run holds: it is put back as app's traced run left it.
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
		if err := copyFile(saved, p); err != nil {
			errs = append(errs, g.failed(saved, err))
		}
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
	dirs := []string{g.tree.dir}
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
