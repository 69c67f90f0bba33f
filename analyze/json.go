package analyze

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
)

func parseJSON(name string, data []byte) (*Input, error) {
	doc, err := scanJSON(data)
	if err != nil {
		return nil, scanError(name, data, err)
	}
	// A second document in the file would go silently unread.
	if rest := bytes.TrimLeft(data[doc.end:], jsonSpace); len(rest) > 0 {
		return nil, &ParseError{File: name, Line: lineAt(data, int64(len(data)-len(rest))), Msg: "data after the JSON document; analyze reads one report per file"}
	}
	if err := checkIobenchJSON(name, doc); err != nil {
		return nil, err
	}
	var rep report.Report
	if err := rep.UnmarshalJSON(data[doc.start:doc.end]); err != nil {
		return nil, jsonError(name, data, doc.start, err)
	}
	if err := checkRows(name, &rep); err != nil {
		return nil, err
	}
	return &Input{Report: &rep, Notes: jsonNotes(&rep)}, nil
}

// scanError turns what scanJSON refused into a ParseError. For malformed
// JSON the decoder finds the place and the words.
func scanError(name string, data []byte, err error) error {
	var be *boundsError
	if errors.As(err, &be) {
		return &ParseError{File: name, Line: lineAt(data, int64(be.off)), Msg: be.msg}
	}
	var doc json.RawMessage
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		return jsonError(name, data, 0, err)
	}
	return &ParseError{File: name, Msg: "malformed JSON"}
}

// checkIobenchJSON tells an iobench document from any other JSON before
// decoding it as one, so that foreign JSON gets "not iobench JSON" rather
// than a type error about some field. A "tool" that is not JSON is left
// to the decoder, which says where.
func checkIobenchJSON(name string, doc scannedDoc) error {
	var tool struct {
		Name string `json:"name"`
	}
	notOurs := func(why string) error {
		return &ParseError{File: name, Msg: "not iobench JSON: " + why}
	}
	switch {
	case doc.tool != nil && !json.Valid(doc.tool):
		return nil
	case doc.tool == nil || json.Unmarshal(doc.tool, &tool) != nil:
		return notOurs("no \"tool\" object")
	case !report.KnownTool(tool.Name):
		return notOurs(fmt.Sprintf("\"tool\": {\"name\": %q}, want \"iobench\"", clip(tool.Name)))
	case doc.results == nil || string(doc.results) == "null":
		return notOurs("no \"results\" list")
	}
	return nil
}

// jsonSpace is the white space JSON allows between tokens.
const jsonSpace = " \t\r\n"

// jsonError turns an error decoding data[base:] into a ParseError at the
// line where the decoder stopped. Its offsets count the bytes read, so the
// offending byte is the one before.
func jsonError(name string, data []byte, base int, err error) error {
	line := 0
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		line = lineAt(data, int64(base)+se.Offset-1)
	case errors.As(err, &te):
		line = lineAt(data, int64(base)+te.Offset-1)
	case errors.Is(err, io.ErrUnexpectedEOF):
		last := len(bytes.TrimRight(data, jsonSpace)) - 1
		return &ParseError{File: name, Line: lineAt(data, int64(last)), Msg: "the JSON document is cut short"}
	}
	return &ParseError{File: name, Line: line, Msg: strings.TrimPrefix(err.Error(), "json: ")}
}

// lineAt is the 1-based line holding data[off].
func lineAt(data []byte, off int64) int {
	off = max(0, min(off, int64(len(data))))
	return 1 + bytes.Count(data[:off], []byte("\n"))
}

// checkRows rejects rows no sweep could have produced, which knee finding
// would otherwise ignore or mistake for measurements.
func checkRows(name string, rep *report.Report) error {
	if len(rep.Results) == 0 {
		msg := "no results: the sweep measured nothing"
		if rep.Error != "" {
			msg += fmt.Sprintf(" (it failed: %s)", rep.Error)
		}
		return &ParseError{File: name, Msg: msg}
	}
	type key struct {
		variant string
		mode    record.Mode
		size    int64
	}
	seen := map[key]bool{}
	for i, r := range rep.Results {
		err := checkRow(r)
		if err == nil && seen[key{r.Variant, r.Mode, r.WriteSize}] {
			err = fmt.Errorf("a second %s row of %d bytes", r.Mode, r.WriteSize)
		}
		if err != nil {
			return &ParseError{File: name, Msg: fmt.Sprintf("results[%d]: %v", i, err)}
		}
		seen[key{r.Variant, r.Mode, r.WriteSize}] = true
	}
	return nil
}

func checkRow(r record.SizeResult) error {
	if r.Mode != record.ModeWrite && r.Mode != record.ModeRead {
		return fmt.Errorf("mode: %q is not write or read", clip(string(r.Mode)))
	}
	if r.WriteSize <= 0 {
		return fmt.Errorf("write_size: %d is not positive", r.WriteSize)
	}
	for _, v := range []float64{r.MiBPerSec, r.MinMiBPerSec, r.MaxMiBPerSec} {
		if err := checkRate(v); err != nil {
			return fmt.Errorf("write_size %d: %w", r.WriteSize, err)
		}
	}
	return checkSamples(r)
}

// checkSamples makes sure the row's samples are its own runs, so that
// summarizing them again (Input.Result) gives back the same row.
func checkSamples(r record.SizeResult) error {
	if len(r.Samples) == 0 {
		return fmt.Errorf("write_size %d: no samples", r.WriteSize)
	}
	rates := make([]float64, len(r.Samples))
	for j, s := range r.Samples {
		if s.Variant != r.Variant {
			return fmt.Errorf("samples[%d]: a run of variant %q in the row of variant %q", j, clip(s.Variant), clip(r.Variant))
		}
		if s.Mode != r.Mode || s.WriteSize != r.WriteSize {
			return fmt.Errorf("samples[%d]: a %s run of %d bytes in the %s row of %d bytes", j, clip(string(s.Mode)), s.WriteSize, r.Mode, r.WriteSize)
		}
		if err := checkRate(s.MiBPerSec()); err != nil {
			return fmt.Errorf("samples[%d]: %w", j, err)
		}
		rates[j] = s.MiBPerSec()
	}
	if m := knee.Median(rates); !agree(m, r.MiBPerSec) {
		return fmt.Errorf("write_size %d: mib_per_s %g is not the median of its samples, %g", r.WriteSize, r.MiBPerSec, m)
	}
	return nil
}

func jsonNotes(rep *report.Report) []string {
	var notes []string
	if rep.Incomplete {
		notes = append(notes, "the sweep was cut short: some sizes or rounds are missing")
	}
	if rep.Error != "" {
		notes = append(notes, "the sweep ended with an error: "+rep.Error)
	}
	return notes
}
