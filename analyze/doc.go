// Package analyze reads the results of an earlier sweep so that the knee
// and the recommendation can be computed again without measuring: what
// `iobench analyze FILE...` needs.
//
// Parse detects the format from the content, never from the file name:
// the JSON document of render.JSON, the CSV of render.CSV, or the text
// printed by the reference program of GCC PR libfortran/91030. Every format
// ends up as a report.Report whose Results use iobench's units, sizes in
// bytes and throughput in MiB/s of 2^20 bytes per second. The reference
// program counts both in doubles, so its figures are converted (x8), and
// the figures as printed are kept beside them in Input.Original.
//
// Parsing is pure: Parse takes an io.Reader, and ParseFile is the thin
// layer that opens a file or standard input. Parse never computes a knee;
// that is the caller's, with the fraction the user asked for.
//
// Parse is bounded: input beyond what the largest report iobench writes
// holds (more bytes, runs, list entries or nesting; limits.go) is refused
// before it is decoded, so a hostile file costs a scan, not the memory its
// contents would claim, and reading takes time in proportion to the rows.
//
// analyze imports report for its types, never report/plot (gonum), and
// neither urfave/cli nor os.Stdout: its errors (*ParseError) name the file,
// line and field, never a flag.
package analyze
