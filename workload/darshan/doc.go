// Package darshan reads Darshan logs: the binary per-file I/O counters that
// the Darshan runtime writes for HPC jobs.
//
// It owns the log format, written from Darshan's format description: the
// header of every format from 3.00 to 3.41 in either byte order, the job
// record with its exe line, metadata and mount table, the name records,
// and the records of the POSIX (v1..v4), MPI-IO (v1..v3) and STDIO
// (v1..v2) modules. Older record versions are upgraded to today's counter
// layout as darshan-logutils does, so a counter that an old version did
// not have reads -1 ("not monitored"), and -1 is kept wherever the log
// has it. Every other module (DXT, HDF5, PnetCDF, Lustre, heatmap, ...)
// is listed with its version, size and partial flag, and not decoded.
//
// Logs are untrusted input: every offset, length and count is checked
// before use, decompression stops at Limits, and a corrupt log gives a
// *FormatError naming the region, never a panic.
//
// Two facts help reading the counters: a size histogram bin includes its
// upper bound (a 1 MiB write counts in *_100K_1M), and the F_*_TIME
// counters of a shared record (rank -1) are summed over the ranks.
//
// Parse is pure; ReadFile is the only function that touches the file
// system. The package must not import other iobench packages, urfave/cli,
// or write to os.Stdout.
package darshan
