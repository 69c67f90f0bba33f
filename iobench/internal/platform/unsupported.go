//go:build !unix

package platform

// The build stops here, naming the reason in the compiler's error.
var _ int = "iobench builds on Linux and other Unix systems only (it measures POSIX write(2)/fsync(2)); this GOOS is not supported"
