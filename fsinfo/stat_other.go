//go:build !linux

package fsinfo

import (
	"errors"
	"fmt"
	"runtime"
)

// Stat describes the file system holding dir. It needs Linux; elsewhere it
// returns an error that satisfies errors.Is(err, errors.ErrUnsupported).
func Stat(dir string) (Info, error) {
	return StatWithProc(dir, "/proc")
}

// StatWithProc is Stat with mountinfo read under procRoot. It needs Linux.
func StatWithProc(dir, procRoot string) (Info, error) {
	return Info{}, fmt.Errorf("directory %q: file system facts need Linux, not %s: %w",
		dir, runtime.GOOS, errors.ErrUnsupported)
}
