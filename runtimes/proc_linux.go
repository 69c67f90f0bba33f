package runtimes

import (
	"os/exec"
	"runtime"
	"syscall"
)

// dieWithParent has the kernel kill the writer if iobench dies (SIGKILL,
// a crash): otherwise it would go on writing a file that no one removes.
// The signal follows the thread that started the child, not the process,
// so the goroutine keeps its thread until the writer is waited for: call
// the function returned after Wait.
func dieWithParent(cmd *exec.Cmd) (release func()) {
	runtime.LockOSThread()
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	return runtime.UnlockOSThread
}
