// Package report is what a sweep, a runtime run or an app estimate
// produced: the header every report begins with, the plan as reported
// (record.Config), the records (package record, package libcheck for a
// runtime check) with what package verdict says of them, the spread
// across MPI ranks or jobs, and the JSON document all of this is, field
// names fixed. Anonymize makes a copy fit for posting in public; files
// are published atomically and never overwritten (WriteNewFile,
// WriteNew).
//
// Renderers only read a report: one function per output format lives in
// report/render (with the table of which command offers which), plots in
// report/plot.
// Throughput is MiB/s (2^20 bytes per second) throughout.
//
// report imports no engine (iobench), no runner (runtimes) and nothing
// of the command line (layers_test.go holds it to that), nor gonum
// (report/plot does, and it is 5 MB of the binary): its errors name
// files and values, never flags, and it writes only to the io.Writer or
// the path it is given, never to os.Stdout or os.Stderr.
package report
