// Package render writes reports for people and programs: one function
// per output format (Text, JSON, CSV, Markdown, Gobench; the runtime
// report's Runtime*, the library reports' Library*, the app estimate's
// App*), a side-by-side comparison (Compare), and the one
// table of formats, which command offers which (Formats, Lookup). It only
// reads the report it is given; what a report says is decided in package
// report (Summarize).
//
// Every renderer writes into memory and then once to its writer, so there
// is one write error to check and it is always returned. Throughput is
// MiB/s (2^20 bytes per second) throughout, except where the Go benchmark
// format demands Go's MB/s (see Gobench).
//
// render must not import gonum or anything of the command line; plots are
// report/plot's.
package render
