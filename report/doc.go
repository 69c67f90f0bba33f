// Package report turns a sweep's results into what people read and attach
// to bug reports: one function per output format (Text, JSON, CSV,
// Markdown, Gobench), a side-by-side comparison (Compare) and Anonymize
// for reports posted in public. The one table of formats, which command
// offers which, is here too (Formats, Lookup); plots live in report/plot.
//
// Every reporter renders into memory and writes once, so there is one
// write error to check and it is always returned; files are published
// atomically and never overwritten (WriteNewFile, WriteNew).
// Throughput is MiB/s (2^20 bytes per second) throughout, except where the
// Go benchmark format demands Go's MB/s (see Gobench).
//
// report must not import gonum (report/plot does, and it is 5 MB of the
// binary), urfave/cli or anything of the command line: its errors name
// files and values, never flags, and it writes only to the io.Writer or
// the path it is given, never to os.Stdout or os.Stderr.
package report
