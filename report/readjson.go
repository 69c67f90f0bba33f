package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// ReferenceTool names results that analyze read from the output of the
// GCC PR91030 benchmark program; its JSON is an iobench report too.
const ReferenceTool = "pr91030-bench.c"

// KnownTool reports whether a JSON report's tool.name is one iobench
// writes: its own sweeps, and analyze's conversion of the reference's output.
func KnownTool(name string) bool { return name == "iobench" || name == ReferenceTool }

// ReadJSONFile loads a report written by --format json. Errors name the
// file, and for malformed JSON the line, so a user can find the damage
// in a file that went through a mail client or a bug tracker.
func ReadJSONFile(path string) (*Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err // *PathError: names the file
	}
	if trimmed := bytes.TrimSpace(data); len(trimmed) > 0 && trimmed[0] != '{' {
		return nil, fmt.Errorf("%s:1: not an iobench JSON report; plot and compare read reports written with --format json (analyze reads CSV and text too)", path)
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s:%w", path, jsonError(data, err))
	}
	switch {
	case !KnownTool(r.Tool.Name):
		return nil, fmt.Errorf("%s: not an iobench JSON report (tool.name is %q, want \"iobench\"); write one with --format json", path, r.Tool.Name)
	case len(r.Results) == 0:
		return nil, fmt.Errorf("%s: iobench report without results: the sweep measured nothing", path)
	}
	return &r, nil
}

// jsonError adds the line to a syntax or type error: encoding/json gives
// only a byte offset.
func jsonError(data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Errorf("%d: malformed JSON: %w", lineAt(data, syn.Offset), err)
	case errors.As(err, &typ):
		return fmt.Errorf("%d: %w", lineAt(data, typ.Offset), err)
	}
	return fmt.Errorf(" malformed JSON: %w", err)
}

// lineAt is the 1-based line of byte offset off. encoding/json's offset
// points just past the offending byte, hence off-1.
func lineAt(data []byte, off int64) int {
	off = min(max(off-1, 0), int64(len(data)))
	return 1 + bytes.Count(data[:off], []byte("\n"))
}
