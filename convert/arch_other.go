//go:build !amd64 || purego

package convert

// archKernel has no faster loops to offer here: the portable ones serve.
func archKernel(Type, bool, int) kernel { return nil }

// archEnabled reports whether archKernel may return a kernel.
var archEnabled = false
