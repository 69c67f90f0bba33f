//go:build !linux

package runtimes

import "os/exec"

// dieWithParent: only Linux has a parent-death signal; elsewhere a writer
// outlives a killed iobench, and `iobench clean` removes its file.
func dieWithParent(cmd *exec.Cmd) (release func()) { return func() {} }
