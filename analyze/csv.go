package analyze

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/iobench/iobench/convert"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/verdict"
)

// isCSVHeader reports whether s names write_size among comma-separated
// columns, as render.CSV's header does; column order does not matter.
func isCSVHeader(s string) bool {
	for f := range strings.SplitSeq(s, ",") {
		if strings.Trim(strings.TrimSpace(f), `"`) == "write_size" {
			return true
		}
	}
	return false
}

// metaColumns repeat, on every row, facts about the whole sweep.
var metaColumns = []string{"fs_type", "block_size", "element_type", "convert", "fsync", "source", "incomplete"}

// csvParser rebuilds samples from render.CSV's rows. Columns are found by
// header name, so a table that was reordered or trimmed in a spreadsheet
// still reads, as long as it has write_size and a throughput.
type csvParser struct {
	name    string
	cr      *csv.Reader
	cols    map[string]int
	samples []record.Sample
	meta    map[string]string // first row's metaColumns
	// variants are the variants of an interleaved sweep's rows (the
	// variant column), in the order they first appear
	variants []report.ConfigVariant
	metaRow  int // line of the first row
	notes    []string
	noted    map[string]bool
}

func parseCSV(name string, data []byte) (*Input, error) {
	if err := checkColumns(name, data); err != nil {
		return nil, err
	}
	cr := csv.NewReader(bytes.NewReader(data))
	cr.TrimLeadingSpace = true
	cr.ReuseRecord = true
	p := &csvParser{name: name, cr: cr, noted: map[string]bool{}}
	if err := p.header(); err != nil {
		return nil, err
	}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, p.csvError(err)
		}
		if len(p.samples) == MaxRuns {
			line, _ := cr.FieldPos(0)
			return nil, tooManyRuns(name, line)
		}
		if err := p.row(rec); err != nil {
			return nil, err
		}
	}
	return p.finish()
}

// checkColumns refuses a header of more than maxCSVColumns columns
// before the CSV reader splits it: a field per comma at the most.
func checkColumns(name string, data []byte) error {
	rest := bytes.TrimLeft(data, "\r\n")
	header, _, _ := bytes.Cut(rest, []byte("\n"))
	if n := bytes.Count(header, []byte(",")) + 1; n > maxCSVColumns {
		return &ParseError{File: name, Line: lineAt(data, int64(len(data)-len(rest))),
			Msg: fmt.Sprintf("a header of more than %d columns: not an iobench CSV", maxCSVColumns)}
	}
	return nil
}

func (p *csvParser) csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &ParseError{File: p.name, Line: pe.Line, Msg: pe.Err.Error()}
	}
	return &ParseError{File: p.name, Msg: err.Error()}
}

func (p *csvParser) header() error {
	rec, err := p.cr.Read()
	if err != nil {
		return p.csvError(err)
	}
	p.cols = map[string]int{}
	for i, name := range rec {
		name = strings.TrimSpace(name)
		if _, dup := p.cols[name]; dup {
			return &ParseError{File: p.name, Line: 1, Msg: fmt.Sprintf("column %q appears twice", clip(name))}
		}
		p.cols[name] = i
	}
	return p.requireColumns()
}

func (p *csvParser) requireColumns() error {
	has := func(c string) bool { _, ok := p.cols[c]; return ok }
	switch {
	case !has("write_size"):
		return &ParseError{File: p.name, Line: 1, Msg: "no write_size column"}
	case !has("mib_per_s") && !(has("seconds") && has("bytes")):
		return &ParseError{File: p.name, Line: 1, Msg: "no throughput: need a mib_per_s column, or seconds and bytes"}
	}
	return nil
}

// field is one cell of a row, with the line it came from for errors.
type field struct {
	text    string
	present bool
	line    int
}

func (p *csvParser) field(rec []string, col string) field {
	i, ok := p.cols[col]
	if !ok {
		return field{}
	}
	line, _ := p.cr.FieldPos(i)
	return field{text: strings.TrimSpace(rec[i]), present: true, line: line}
}

// set reports whether the column exists and the cell is not empty.
func (f field) set() bool { return f.present && f.text != "" }

func (p *csvParser) fail(f field, col string, err error) error {
	line := f.line
	if line == 0 {
		line, _ = p.cr.FieldPos(0)
	}
	return &ParseError{File: p.name, Line: line, Msg: fmt.Sprintf("%s: %v", col, err)}
}

// int reads a non-negative whole number, def when the cell is absent.
func (p *csvParser) int(rec []string, col string, def int64) (int64, error) {
	f := p.field(rec, col)
	if !f.set() {
		return def, nil
	}
	v, err := strconv.ParseInt(f.text, 10, 64)
	if err != nil || v < 0 {
		return 0, p.fail(f, col, fmt.Errorf("%q is not a whole number", clip(f.text)))
	}
	return v, nil
}

// float reads a non-negative finite number; ok is false when absent.
func (p *csvParser) float(rec []string, col string) (v float64, ok bool, err error) {
	f := p.field(rec, col)
	if !f.set() {
		return 0, false, nil
	}
	v, err = strconv.ParseFloat(f.text, 64)
	if err != nil || !(v >= 0) || math.IsInf(v, 0) {
		return 0, false, p.fail(f, col, fmt.Errorf("%q is not a finite number of at least 0", clip(f.text)))
	}
	return v, true, nil
}

func (p *csvParser) row(rec []string) error {
	s, err := p.run(rec)
	if err != nil {
		return err
	}
	if err := p.throughput(rec, &s); err != nil {
		return err
	}
	if err := p.counters(rec, &s); err != nil {
		return err
	}
	p.samples = append(p.samples, s)
	return p.rowMeta(rec)
}

// run reads the Run: mode, size, round and position in the sweep.
func (p *csvParser) run(rec []string) (record.Sample, error) {
	var s record.Sample
	s.Mode = record.ModeWrite
	if f := p.field(rec, "mode"); f.set() {
		s.Mode = record.Mode(f.text)
		if s.Mode != record.ModeWrite && s.Mode != record.ModeRead {
			return s, p.fail(f, "mode", fmt.Errorf("%q is not write or read", clip(f.text)))
		}
	}
	size, err := p.int(rec, "write_size", 0)
	if err != nil {
		return s, err
	}
	if size <= 0 {
		return s, p.fail(p.field(rec, "write_size"), "write_size", errors.New("must be a positive number of bytes"))
	}
	round, err := p.int(rec, "round", 1)
	if err != nil {
		return s, err
	}
	seq, err := p.int(rec, "seq", int64(len(p.samples)+1))
	if err != nil {
		return s, err
	}
	s.WriteSize, s.Round, s.Seq = size, int(min(round, math.MaxInt32)), int(min(seq, math.MaxInt32))
	s.Variant = p.field(rec, "variant").text
	return s, nil
}

// counters reads the per-run counts and the start time, all optional.
func (p *csvParser) counters(rec []string, s *record.Sample) error {
	var err error
	for _, c := range []struct {
		col string
		dst *int64
	}{{"calls", &s.Calls}, {"short_writes", &s.ShortWrites}, {"eintr_retries", &s.EINTR}} {
		if *c.dst, err = p.int(rec, c.col, 0); err != nil {
			return err
		}
	}
	if f := p.field(rec, "start"); f.set() {
		if s.Start, err = time.Parse(time.RFC3339Nano, f.text); err != nil {
			return p.fail(f, "start", fmt.Errorf("%q is not an RFC 3339 time", clip(f.text)))
		}
	}
	return nil
}

// throughput fills Seconds and Bytes. They are the raw figures; mib_per_s
// is derived from them and, with 9 digits, less precise, so it is used
// only to stand in for whichever of the two is missing.
func (p *csvParser) throughput(rec []string, s *record.Sample) error {
	sec, hasSec, err := p.float(rec, "seconds")
	if err != nil {
		return err
	}
	rate, hasRate, err := p.float(rec, "mib_per_s")
	if err != nil {
		return err
	}
	bytes, err := p.int(rec, "bytes", -1)
	if err != nil {
		return err
	}
	if err := p.fillThroughput(s, sec, hasSec, rate, hasRate, bytes); err != nil {
		line, _ := p.cr.FieldPos(0)
		return &ParseError{File: p.name, Line: line, Msg: err.Error()}
	}
	return nil
}

func (p *csvParser) fillThroughput(s *record.Sample, sec float64, hasSec bool, rate float64, hasRate bool, bytes int64) error {
	hasBytes := bytes >= 0
	switch {
	case hasSec && sec <= 0:
		return fmt.Errorf("seconds: %g is not a positive duration: no run takes no time", sec)
	case hasBytes && bytes == 0:
		return errors.New("bytes: 0: a run that wrote nothing has no throughput")
	case hasSec && hasBytes:
		s.Seconds, s.Bytes = sec, bytes
		if hasRate && !agree(s.MiBPerSec(), rate) {
			p.note("mib_per_s disagrees with bytes/seconds on some rows; bytes/seconds are used")
		}
	case !hasRate:
		return errors.New("no throughput in this row: need mib_per_s, or seconds and bytes")
	case hasBytes:
		s.Bytes = bytes
		if rate > 0 {
			s.Seconds = float64(bytes) / (rate * record.MiB)
		}
	case hasSec:
		b := rate * record.MiB * sec
		if !(b < math.MaxInt64/2) {
			return fmt.Errorf("mib_per_s %g over %g seconds is more bytes than a run can write", rate, sec)
		}
		s.Seconds, s.Bytes = sec, int64(math.Round(b))
	default:
		// Only the rate is known; one MiB in 1/rate seconds reproduces it.
		s.Bytes = record.MiB
		if rate > 0 {
			s.Seconds = 1 / rate
		}
		p.note("no seconds or bytes: samples rebuilt from mib_per_s alone, as 1 MiB each")
	}
	return checkRate(s.MiBPerSec())
}

// agree reports whether two throughputs agree to the 9 digits render.CSV
// writes, with room for rounding.
func agree(a, b float64) bool {
	return math.Abs(a-b) <= 1e-6*max(math.Abs(a), math.Abs(b))
}

func (p *csvParser) note(n string) {
	if !p.noted[n] {
		p.noted[n] = true
		p.notes = append(p.notes, n)
	}
}

// rowMeta checks the sweep-wide columns: the first row's values are kept,
// a later row that differs gets a note.
func (p *csvParser) rowMeta(rec []string) error {
	if p.meta == nil {
		p.addVariant(rec, p.field(rec, "variant").text)
		p.metaRow, _ = p.cr.FieldPos(0)
		p.meta = map[string]string{}
		for _, col := range metaColumns {
			p.meta[col] = p.field(rec, col).text
		}
		return p.checkMeta(rec)
	}
	variant := p.field(rec, "variant").text
	p.addVariant(rec, variant)
	for _, col := range metaColumns {
		if variant != "" && (col == "element_type" || col == "convert") {
			continue // the variant's own, as addVariant keeps them
		}
		if p.field(rec, col).text != p.meta[col] {
			p.note(fmt.Sprintf("column %s differs between rows; the report keeps the first row's %q", col, clip(p.meta[col])))
		}
	}
	return nil
}

// checkMeta validates the first row's sweep-wide values, which go into
// the report's Config and FS.
func (p *csvParser) checkMeta(rec []string) error {
	if _, err := p.int(rec, "block_size", 0); err != nil {
		return err
	}
	checks := []struct {
		col   string
		check func(string) error
	}{
		{"element_type", func(s string) error { _, err := convert.ParseType(s); return err }},
		{"convert", func(s string) error { _, err := convert.ParseOrder(s); return err }},
		{"fsync", checkBool},
		{"source", checkSource},
		{"incomplete", checkBool},
	}
	for _, c := range checks {
		if f := p.field(rec, c.col); f.set() {
			if err := c.check(f.text); err != nil {
				return p.fail(f, c.col, err)
			}
		}
	}
	return nil
}

// addVariant records the variant of a row the first time it appears,
// with the element type and byte order of that row.
func (p *csvParser) addVariant(rec []string, name string) {
	if name == "" || slices.ContainsFunc(p.variants, func(v report.ConfigVariant) bool { return v.Name == name }) {
		return
	}
	v := report.ConfigVariant{Name: name, ElementType: p.field(rec, "element_type").text, Convert: p.field(rec, "convert").text}
	if t, err := convert.ParseType(v.ElementType); err == nil {
		v.ElementSize = int64(t.Size())
	}
	p.variants = append(p.variants, v)
}

func checkBool(s string) error {
	if _, err := strconv.ParseBool(s); err != nil {
		return fmt.Errorf("%q is not true or false", clip(s))
	}
	return nil
}

func checkSource(s string) error {
	switch record.SourceKind(s) {
	case record.SourceArray, record.SourceWindow:
		return nil
	}
	return fmt.Errorf("unknown value %q (valid: array, window)", clip(s))
}

func (p *csvParser) finish() (*Input, error) {
	if len(p.samples) == 0 {
		return nil, &ParseError{File: p.name, Msg: "no rows after the header: nothing was measured"}
	}
	var names []string
	for _, v := range p.variants {
		names = append(names, v.Name)
	}
	rows, err := summarize(p.name, p.samples, names)
	if err != nil {
		return nil, err
	}
	rep := &report.Report{Header: report.Header{Tool: report.Tool{Name: "iobench"}, StartTime: p.start()}, Summary: verdict.Summary{Results: rows}}
	rep.FS.Type = p.meta["fs_type"]
	rep.FS.BlockSize, _ = strconv.ParseInt(p.meta["block_size"], 10, 64)
	rep.Config = p.config(rows)
	rep.Config.Variants = p.variants
	for i, v := range rep.Config.Variants {
		if v.ElementSize > 0 && rep.Config.TotalBytes%v.ElementSize == 0 {
			rep.Config.Variants[i].Count = rep.Config.TotalBytes / v.ElementSize
		}
	}
	rep.Incomplete, _ = strconv.ParseBool(p.meta["incomplete"])
	return &Input{Report: rep, Notes: p.notes}, nil
}

// config fills what the rows tell about the plan.
func (p *csvParser) config(rows []record.SizeResult) report.Config {
	c := report.Config{
		Settings:    record.Settings{Source: record.SourceKind(p.meta["source"]), Sizes: sizesOf(rows), Mode: p.mode(), Stride: 1},
		ElementType: p.meta["element_type"], Convert: p.meta["convert"],
	}
	c.Fsync, _ = strconv.ParseBool(p.meta["fsync"])
	for _, s := range p.samples {
		c.Repeat = max(c.Repeat, s.Round)
	}
	if t, err := convert.ParseType(c.ElementType); err == nil {
		c.ElementSize = int64(t.Size())
	}
	c.TotalBytes = p.totalBytes()
	if c.ElementSize > 0 && c.TotalBytes%c.ElementSize == 0 {
		c.Count = c.TotalBytes / c.ElementSize
	}
	return c
}

// totalBytes is the bytes every run wrote, or 0 if runs differ.
func (p *csvParser) totalBytes() int64 {
	b := p.samples[0].Bytes
	for _, s := range p.samples {
		if s.Bytes != b {
			return 0
		}
	}
	return b
}

func (p *csvParser) mode() record.Mode {
	hasRead := slices.ContainsFunc(p.samples, func(s record.Sample) bool { return s.Mode == record.ModeRead })
	hasWrite := slices.ContainsFunc(p.samples, func(s record.Sample) bool { return s.Mode == record.ModeWrite })
	switch {
	case hasRead && hasWrite:
		return record.ModeBoth
	case hasRead:
		return record.ModeRead
	}
	return record.ModeWrite
}

// start is the earliest start time of any run, zero if none was given.
func (p *csvParser) start() time.Time {
	var t time.Time
	for _, s := range p.samples {
		if !s.Start.IsZero() && (t.IsZero() || s.Start.Before(t)) {
			t = s.Start
		}
	}
	return t
}
