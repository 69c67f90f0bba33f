// Package workload is what a program wrote, file by file, whoever
// recorded it: a Darshan log (FromDarshan over workload/darshan) or an
// strace trace (FromStrace over workload/strace), in one model. Per file:
// the module it was seen through, its mount and file system type, the
// bytes and write calls, the calls by size (exact where the log or trace
// gives them, else Darshan's ten bins) and the write time measured; per
// module, the totals darshan-parser would give.
//
// It owns the translation from a log's counters to sizes and calls: which
// counters count writes, what a bin holds, when the four most common
// access sizes make a bin exact. It does no I/O and judges nothing: what
// the writes cost on a measured curve is package advice's. It must not
// import the engine, report, advice or urfave/cli.
package workload
