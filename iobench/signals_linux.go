package iobench

import (
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// holdTermSignals keeps SIGINT, SIGTERM and SIGHUP off the calling
// goroutine's thread until the returned function runs. The kernel gives a
// process's signal to one thread; given to a thread stuck in a write(2)
// that a hung file system never answers (FUSE, NFS and GPFS wait there
// killably only), it would wait with it, and a second Ctrl-C would be
// dropped as already pending. Threads doing file I/O refuse them, so one
// that is free takes them.
func holdTermSignals() (restore func()) {
	runtime.LockOSThread()
	var set, old unix.Sigset_t
	bits := uint(unsafe.Sizeof(set.Val[0]) * 8)
	for _, s := range []unix.Signal{unix.SIGINT, unix.SIGTERM, unix.SIGHUP} {
		n := uint(s) - 1
		set.Val[n/bits] |= 1 << (n % bits)
	}
	if unix.PthreadSigmask(unix.SIG_BLOCK, &set, &old) != nil {
		runtime.UnlockOSThread()
		return func() {}
	}
	return func() {
		_ = unix.PthreadSigmask(unix.SIG_SETMASK, &old, nil)
		runtime.UnlockOSThread()
	}
}
