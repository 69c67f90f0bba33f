// Package cli is the iobench command: one file per command (sweep,
// runtime, analyze, plot and compare, info, profiles, clean, completion
// and man), the one table of the sweep's settings and the flags that set
// them, the words of its errors (each names its flag), exit codes,
// signals, and the MPI wiring of a sweep; the live display of progress
// is internal/progress's. The root package's main only calls Main.
//
// Every command declares its flags as rows (optRow, options.go; the
// sweep's are the settings table) and reads them once, with readRows,
// into typed options that the rest of the command takes. Flags more than
// one command has are declared once (rows.go). Only options.go looks a
// flag up by name; flagreads_test.go checks that over the syntax tree.
//
// It owns everything a user types or sees on a terminal. Library packages
// (the engine iobench, report, analyze, advice, knee, profile, runtimes,
// fsinfo, mpi and the rest) never import it: they speak in settings and
// values, and this package turns those into flags and lines.
package cli
