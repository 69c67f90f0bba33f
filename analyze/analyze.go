package analyze

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"syscall"

	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
)

// Format names an input format, as Parse detected it.
type Format string

// The formats Parse knows.
const (
	// FormatJSON is the document render.JSON writes.
	FormatJSON Format = "iobench-json"
	// FormatCSV is the one-row-per-run table render.CSV writes.
	FormatCSV Format = "iobench-csv"
	// FormatPR91030 is the standard output of the reference program,
	// pr91030-bench.c.
	FormatPR91030 Format = "pr91030-text"
)

// Input is one parsed file.
type Input struct {
	// Name is the file name as given, or "stdin".
	Name string
	// Format is what Parse detected.
	Format Format
	// Report holds the results in bytes and true MiB/s, with Config, FS
	// and Tool filled as far as the format tells. For iobench JSON it is
	// the document as written, including the knee it holds; for the other
	// formats Knee is zero and Config.KneeFraction is 0. Either way the
	// caller computes the knee it reports.
	Report *report.Report
	// Original holds, for FormatPR91030 only, every figure as printed, in
	// file order, beside its conversion.
	Original []OriginalRow
	// Notes say what Parse converted or assumed, for people to read.
	Notes []string
}

// Result returns the samples behind Report.Results as a sweep's result,
// so that the caller can compute every knee the way a sweep does:
//
//	in.Report.Config.KneeFraction = fraction
//	in.Report.SetResult(in.Result())
//
// Parse makes sure every row holds its own samples, so Results come back
// unchanged.
func (in *Input) Result() *record.Result {
	rep := in.Report
	res := &record.Result{WarmupRan: rep.WarmupRan, KeptFile: rep.KeptFile, Incomplete: rep.Incomplete, Adaptive: rep.Adaptive}
	for _, v := range rep.Config.Variants {
		res.Variants = append(res.Variants, v.Name)
	}
	for _, r := range rep.Results {
		res.Samples = append(res.Samples, r.Samples...)
		if r.Variant != "" && r.Mode == record.ModeWrite && r.ConvertMiBPerSec != 0 {
			if res.VariantConvertMiBPerSec == nil {
				res.VariantConvertMiBPerSec = map[string]map[int64]float64{}
			}
			if res.VariantConvertMiBPerSec[r.Variant] == nil {
				res.VariantConvertMiBPerSec[r.Variant] = map[int64]float64{}
			}
			res.VariantConvertMiBPerSec[r.Variant][r.WriteSize] = r.ConvertMiBPerSec
			continue
		}
		if r.Mode == record.ModeWrite && r.ConvertMiBPerSec != 0 {
			if res.ConvertMiBPerSec == nil {
				res.ConvertMiBPerSec = map[int64]float64{}
			}
			res.ConvertMiBPerSec[r.WriteSize] = r.ConvertMiBPerSec
		}
	}
	return res
}

// OriginalRow is one "bs = ..., ... MiB/s" line of the reference program,
// as printed and converted.
type OriginalRow struct {
	BS            int64   // write size in doubles, as printed
	MiBPerSec     float64 // Mi-doubles per second, as printed
	WriteSize     int64   // BS*8: bytes per write(2)
	TrueMiBPerSec float64 // MiBPerSec*8: 2^20 bytes per second
	Round         int     // 1-based run of the program within the file
}

// ParseError is input that Parse cannot read: a malformed line, a missing
// column, a file of unknown format. Line is 1-based; 0 means the problem
// belongs to the file as a whole.
type ParseError struct {
	File string
	Line int
	Msg  string
}

// Error formats the error as "analyze: FILE:LINE: MSG", without the line
// when it is 0.
func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("analyze: %s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("analyze: %s: %s", e.File, e.Msg)
}

// maxMiBPerSec bounds a plausible throughput (about 1 PiB/s). Anything
// above it is a corrupt figure, and rejecting it keeps the sums behind
// medians and CVs finite, so every parsed report can be written as JSON.
const maxMiBPerSec = 1e9

// utf8BOM is skipped at the start: spreadsheets and Windows editors add it
// to CSV and text files.
var utf8BOM = []byte("\xef\xbb\xbf")

// ParseFile parses the file at path; "-" reads standard input. Only a
// regular file is read: a FIFO could block for ever and a device
// (/dev/zero) never ends. The file is opened without blocking, so a FIFO
// with no writer is refused rather than waited for.
func ParseFile(path string) (*Input, error) {
	if path == "-" {
		return Parse("stdin", os.Stdin)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("analyze: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("analyze: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, &ParseError{File: path, Msg: fmt.Sprintf("not a regular file (%s); give a report file, or - to read standard input", kindOf(st.Mode()))}
	}
	if st.Size() > MaxInputBytes { // refused before reading it
		return nil, tooLarge(path)
	}
	return Parse(path, f)
}

func tooLarge(name string) error {
	return &ParseError{File: name, Msg: fmt.Sprintf("larger than %d MiB: not an iobench report (JSON or CSV) or the reference program's output", MaxInputBytes>>20)}
}

func tooManyRuns(name string, line int) error {
	return &ParseError{File: name, Line: line, Msg: fmt.Sprintf("more than %d runs: not an iobench report (JSON or CSV) or the reference program's output", MaxRuns)}
}

func kindOf(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return m.Type().String()
}

// Parse reads one file, detects its format from the content and converts
// it. name is used in errors and Input.Name. Errors about the content are
// *ParseError; a failing reader's error is wrapped. At most MaxInputBytes
// are read.
func Parse(name string, r io.Reader) (*Input, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxInputBytes+1))
	if err != nil {
		return nil, fmt.Errorf("analyze: %s: %w", name, err)
	}
	if len(data) > MaxInputBytes {
		return nil, tooLarge(name)
	}
	data = bytes.TrimPrefix(data, utf8BOM)
	format, err := detect(name, data)
	if err != nil {
		return nil, err
	}
	var in *Input
	switch format {
	case FormatJSON:
		in, err = parseJSON(name, data)
	case FormatCSV:
		in, err = parseCSV(name, data)
	default:
		in, err = parsePR91030(name, data)
	}
	if err != nil {
		return nil, err
	}
	in.Name, in.Format = name, format
	return in, nil
}

// detect looks at the first non-blank line only: each format announces
// itself there (a JSON object, a CSV header naming write_size, or one of
// the reference program's lines).
func detect(name string, data []byte) (Format, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return "", &ParseError{File: name, Msg: "empty input"}
	}
	if trimmed[0] == '{' {
		return FormatJSON, nil
	}
	first := firstContentLine(string(trimmed))
	switch {
	case isPR91030Line(first):
		return FormatPR91030, nil
	case isCSVHeader(first):
		return FormatCSV, nil
	}
	return "", &ParseError{File: name,
		Msg: fmt.Sprintf("not iobench JSON, iobench CSV or pr91030 output (it starts with %q)", clip(first))}
}

// firstContentLine is the first line that is neither blank nor a pasted
// shell prompt ("$ ./a.out").
func firstContentLine(s string) string {
	for l := range strings.Lines(s) {
		if l = strings.TrimSpace(l); l != "" && !(isShellPrompt(l) && !isPR91030Line(l)) {
			return l
		}
	}
	first, _, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(first)
}

// clip shortens s for quoting in an error message.
func clip(s string) string {
	const max = 60
	if len(s) <= max {
		return s
	}
	return s[:max] + "..."
}

// summarize turns samples into rows and checks that every figure can be
// reported; the per-sample bound makes the check a formality, kept so that
// a gap in it shows up as an error rather than as a JSON encoding failure.
func summarize(name string, samples []record.Sample, variants []string) ([]record.SizeResult, error) {
	rows := record.Summarize(&record.Result{Samples: samples, Variants: variants})
	for _, r := range rows {
		for _, v := range []float64{r.MiBPerSec, r.MinMiBPerSec, r.MaxMiBPerSec, r.CV} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, &ParseError{File: name, Msg: fmt.Sprintf("throughput at %d bytes is out of range", r.WriteSize)}
			}
		}
	}
	return rows, nil
}

// checkRate rejects a throughput that is negative, not finite or
// implausibly large.
func checkRate(mibPerSec float64) error {
	if !(mibPerSec >= 0 && mibPerSec <= maxMiBPerSec) {
		return fmt.Errorf("%.4g MiB/s is not a throughput between 0 and %g", mibPerSec, float64(maxMiBPerSec))
	}
	return nil
}

// sizesOf lists the distinct write sizes of rows, ascending.
func sizesOf(rows []record.SizeResult) []int64 {
	var sizes []int64
	for _, r := range rows {
		sizes = append(sizes, r.WriteSize)
	}
	slices.Sort(sizes)
	return slices.Compact(sizes)
}
