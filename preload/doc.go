// Package preload tries a bigger stdio buffer on a user's C program
// without recompiling it, for `iobench tune -- PROG`.
//
// It builds a small LD_PRELOAD shim with the system C compiler: src/shim.c,
// embedded (Go allows no .c file beside the sources of a package without
// cgo). The shim wraps fopen, fopen64, fdopen, freopen and freopen64 and
// gives each stream opened for writing, not on a terminal, a buffer of its
// own of IOBENCH_STDIO_BUFFER bytes: glibc ignores the size in
// setvbuf(f, NULL, _IOFBF, N), so passing NULL would not do. Each process
// that loads it appends to the IOBENCH_PRELOAD_REPORT file, so a caller can
// tell whether the shim was reached at all (ReadReport).
//
// Applicable and Limits say which programs it cannot act on.
package preload
