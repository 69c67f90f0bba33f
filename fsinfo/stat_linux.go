package fsinfo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// Stat describes the file system holding dir, reading mount facts from
// /proc. A missing dir is an error that satisfies errors.Is(err,
// fs.ErrNotExist); a dir that is not a directory satisfies errors.Is(err,
// unix.ENOTDIR).
func Stat(dir string) (Info, error) {
	return StatWithProc(dir, "/proc")
}

// StatWithProc is Stat with mountinfo read under procRoot. An unreadable or
// malformed mountinfo is an error; a directory under no listed mount point
// leaves the mount fields empty and Type falls back to MagicName.
func StatWithProc(dir, procRoot string) (Info, error) {
	info := Info{Dir: dir}
	// Lstat follows a symlink named with a trailing slash, as shell
	// completion writes it; trim the slashes so "link/" still counts.
	lfi, err := os.Lstat(trimTrailingSlashes(dir))
	if err != nil {
		return Info{}, dirError(dir, err)
	}
	info.DirIsSymlink = lfi.Mode()&fs.ModeSymlink != 0
	// Resolve before Abs: Abs cleans "link/.." lexically, which is wrong
	// when link is a symlink.
	resolved, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return Info{}, dirError(dir, err)
	}
	if info.ResolvedDir, err = filepath.Abs(resolved); err != nil {
		return Info{}, dirError(dir, err)
	}
	if err := statDir(&info); err != nil {
		return Info{}, dirError(dir, err)
	}
	mounts, err := ReadMountInfo(procRoot)
	if err != nil {
		return Info{}, err
	}
	applyMount(&info, mounts)
	return info, nil
}

// statDir fills the stat(2) and statfs(2) facts of info.ResolvedDir.
func statDir(info *Info) error {
	var st unix.Stat_t
	if err := unix.Stat(info.ResolvedDir, &st); err != nil {
		return &fs.PathError{Op: "stat", Path: info.ResolvedDir, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return unix.ENOTDIR
	}
	var sfs unix.Statfs_t
	if err := unix.Statfs(info.ResolvedDir, &sfs); err != nil {
		return &fs.PathError{Op: "statfs", Path: info.ResolvedDir, Err: err}
	}
	info.IOBlockSize = int64(st.Blksize)
	// Magics are 32-bit; f_type is a signed 32-bit word on some 32-bit
	// platforms, where btrfs's 0x9123683E would come back negative.
	info.Magic = int64(uint32(sfs.Type))
	info.MagicName = MagicName(info.Magic)
	info.MagicHex = fmt.Sprintf("%#x", info.Magic)
	info.Type = info.MagicName
	info.BlockSize = int64(sfs.Bsize)
	info.FragmentSize = int64(sfs.Frsize)
	info.TotalBytes = uint64(sfs.Blocks) * uint64(sfs.Frsize)
	info.FreeBytes = uint64(sfs.Bfree) * uint64(sfs.Frsize)
	info.AvailBytes = uint64(sfs.Bavail) * uint64(sfs.Frsize)
	info.ReadOnly = sfs.Flags&unix.ST_RDONLY != 0
	return nil
}

// applyMount fills the mount facts of the mount holding info.ResolvedDir.
func applyMount(info *Info, mounts []Mount) {
	m, ok := FindMount(mounts, info.ResolvedDir)
	if !ok {
		return
	}
	if m.FSType != "" {
		info.Type = m.FSType // more precise than the magic: "ext4", not "ext2/3/4"
	}
	info.MountPoint = m.MountPoint
	info.Device = m.Source
	info.MountOptions = m.MountOptions
	info.SuperOptions = m.SuperOptions
	if _, ro := OptionValue(m.MountOptions, "ro"); ro {
		info.ReadOnly = true
	}
}

// trimTrailingSlashes turns "dir//" into "dir" but leaves "/" alone.
func trimTrailingSlashes(path string) string {
	if trimmed := strings.TrimRight(path, "/"); trimmed != "" {
		return trimmed
	}
	return path
}

// dirError names dir once: when err is a *fs.PathError about dir itself, only
// its cause is kept. errors.Is still sees the cause.
func dirError(dir string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == dir {
		err = pe.Err
	}
	return fmt.Errorf("directory %q: %w", dir, err)
}
