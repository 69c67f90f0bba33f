package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/dustin/go-humanize"
	"golang.org/x/sys/unix"

	"github.com/iobench/iobench/fsinfo"
)

// maxCopiedFiles caps how many files the tree copy holds: beyond it a
// file the program updates in place is refused as one over --max-saved.
const maxCopiedFiles = 10000

// treeCopy is the working tree's writable files as they were before the
// program's first run, copied to the scratch directory, smallest first
// up to a byte budget: tune puts a file the program updates in place
// back as it was before any run, which only a copy made before the
// first run can do (the trace tells which files those are only after).
type treeCopy struct {
	copies map[string]string // path: its copy
	sizes  map[string]int64  // path: its size when copied
	// failed, when set, keeps a copy whose restore failed and says where.
	failed  func(copyPath string, err error) error
	bytes   int64
	skipped int // writable files over the budget, not copied
	// room is what the scratch directory could spare, the budget when
	// roomBound (less than --max-saved).
	room      int64
	roomBound bool
	inMemory  string // the scratch's mount point when it is held in memory (tmpfs, ramfs)
}

// scratchReserve is the share of the scratch's free space (at least
// minScratchReserve) left for the trace and the writers iobench builds.
const (
	scratchReserve    = 10
	minScratchReserve = 16 << 20
)

// scratchRoom is what tune may copy into dir: its file system's free
// space less the reserve, and the mount point when that file system is
// held in memory (a copy there takes RAM from the program's runs); a
// file system it cannot ask does not limit the copy.
func scratchRoom(dir string) (room int64, inMemory string) {
	info, err := fsinfo.Stat(dir)
	if info.InMemory() {
		inMemory = info.MountPoint
	}
	if err != nil || info.TotalBytes == 0 { // ramfs tells no size
		return math.MaxInt64, inMemory
	}
	free := int64(min(info.AvailBytes, math.MaxInt64))
	return max(0, free-max(free/scratchReserve, minScratchReserve)), inMemory
}

// copyTree copies the listed files of the tree that this user can
// write (those the program could update), smallest first, until budget
// bytes or maxCopiedFiles.
func copyTree(ctx context.Context, listed map[string]bool, budget int64, scratch string) (*treeCopy, error) {
	type entry struct {
		path string
		size int64
	}
	var files []entry
	for p := range listed {
		st, err := os.Lstat(p)
		if err != nil || !st.Mode().IsRegular() || unix.Access(p, unix.W_OK) != nil {
			continue
		}
		files = append(files, entry{p, st.Size()})
	}
	slices.SortFunc(files, func(a, b entry) int { return cmp.Or(cmp.Compare(a.size, b.size), cmp.Compare(a.path, b.path)) })
	s := &treeCopy{copies: map[string]string{}, sizes: map[string]int64{}}
	if budget <= 0 {
		s.skipped = len(files)
		return s, nil
	}
	for i, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if s.bytes+f.size > budget || len(s.copies) == maxCopiedFiles {
			s.skipped = len(files) - i
			break
		}
		dst := filepath.Join(scratch, fmt.Sprintf("before-%d", i))
		if err := cloneFile(f.path, dst); err != nil {
			return nil, fmt.Errorf("saving %s before the first run: %w", f.path, err)
		}
		s.copies[f.path], s.sizes[f.path] = dst, f.size
		s.bytes += f.size
	}
	return s, nil
}

// words says what the copy holds, for the user before the first run.
func (s *treeCopy) words() string {
	what, other := "saved none of the working directory's files", ""
	if len(s.copies) > 0 {
		what, other = fmt.Sprintf("saved %d file(s) of the working directory, %s,", len(s.copies), humanize.IBytes(uint64(s.bytes))), "larger "
	}
	w := what + " before the first run, so that a file the program updates in place is put back as it was"
	if s.skipped > 0 && s.roomBound {
		w += fmt.Sprintf("; %d %sfile(s) were not: over the %s the scratch directory can spare (--scratch chooses another), or beyond %d files", s.skipped, other, humanize.IBytes(uint64(s.room)), maxCopiedFiles)
	} else if s.skipped > 0 {
		w += fmt.Sprintf("; %d %sfile(s) were not (over --max-saved, or beyond %d files)", s.skipped, other, maxCopiedFiles)
	}
	if s.inMemory != "" && s.bytes > 0 {
		w += fmt.Sprintf("; the copy is held in memory (%s is a tmpfs or ramfs), and takes that RAM from the program's runs: --scratch chooses a directory on disk", s.inMemory)
	}
	return w
}

// restore puts a file back as it was before the first run; false when
// the copy has none of it.
func (s *treeCopy) restore(path string) (bool, error) {
	c, ok := s.copyOf(path)
	if !ok {
		return false, nil
	}
	if err := copyFile(c, path); err != nil {
		if s.failed != nil {
			err = s.failed(c, err)
		}
		return true, err
	}
	return true, nil
}

func (s *treeCopy) copyOf(path string) (string, bool) {
	if s == nil {
		return "", false
	}
	c, ok := s.copies[path]
	return c, ok
}

// restoreChanged puts back every copied file whose size or time of
// change moved since the copy: after an interruption before the trace
// told which files the program wrote.
func (s *treeCopy) restoreChanged() error {
	if s == nil {
		return nil
	}
	var errs []error
	for p, c := range s.copies {
		now, err1 := os.Stat(p)
		was, err2 := os.Stat(c)
		if err1 != nil || err2 != nil || now.Size() != was.Size() || now.ModTime().After(was.ModTime()) {
			if _, err := s.restore(p); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// sizeOf is a copied file's size.
func (s *treeCopy) sizeOf(path string) int64 {
	if s == nil {
		return 0
	}
	return s.sizes[path]
}

// keepOnly removes the copies of files not in keep: the program did
// not write them.
// keptBytes are the bytes of the copies s still holds.
func (s *treeCopy) keptBytes() int64 {
	if s == nil {
		return 0
	}
	var n int64
	for p := range s.copies {
		n += s.sizes[p]
	}
	return n
}

func (s *treeCopy) keepOnly(keep map[string]string) {
	if s == nil {
		return
	}
	for p, c := range s.copies {
		if _, ok := keep[p]; !ok {
			os.Remove(c)
			delete(s.copies, p)
		}
	}
}

// cloneFile makes dst, a new file, a copy of src: a reflink where the
// file system shares blocks (XFS, Btrfs), else the bytes.
func cloneFile(src, dst string) error {
	return writeCopy(src, dst, os.O_EXCL, true)
}
