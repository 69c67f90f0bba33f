// Package program runs a user's program for `iobench app -- PROG` and
// `iobench tune -- PROG`: in its own process group, with the standard
// streams passed through (and the terminal's foreground group given to it
// and taken back), traced by strace or not, and says how it ended as
// env(1) would: its own exit status, 128+N for a signal.
//
// It owns the process side only: finding the executable, the preflight
// that tells a tracer refused by the system from a failing program,
// stopping the whole process group on cancellation (strace detaches on
// SIGINT and would leave the program running), the wall and CPU time of
// a run, and a captured standard input to replay to every run of tune.
// What the trace says is package workload/strace's; what the libraries
// are, package binary's.
//
// It is a library: no urfave/cli, no printing; every run takes a context.
package program
