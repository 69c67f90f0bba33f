//go:build !linux

package iobench

import (
	"fmt"
	"runtime"

	"golang.org/x/sys/unix"
)

const directFlag = 0

// canFallocate and canFdatasync: Config.Validate refuses what is missing.
const canFallocate, canFdatasync = false, false

var errUnsupported = fmt.Errorf("not supported on %s", runtime.GOOS)

func fdatasync(int) error        { return errUnsupported }
func fallocate(int, int64) error { return errUnsupported }

// syncFS falls back to sync(2) where syncfs(2) does not exist.
func syncFS(string) error {
	unix.Sync()
	return nil
}

func fadviseDontNeed(int, string) error {
	return fmt.Errorf("dropping a file's cached pages is not supported on %s", runtime.GOOS)
}

// holdTermSignals: elsewhere signals go to a thread that can take them.
func holdTermSignals() (restore func()) { return func() {} }
