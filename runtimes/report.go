package runtimes

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// Report is what a writer printed about its run, raw numbers only.
type Report struct {
	// Nanos is elapsed_ns: open to close, monotonic clock; for the
	// MPI-IO writer the earliest rank's open to the latest's close.
	Nanos    int64
	Calls    int64  // syscw: write(2) calls in that span; -1 when not counted
	Written  int64  // wchar: bytes those calls wrote; -1 when not counted
	Bytes    int64  // data bytes the program wrote
	Elements int64  // elements written
	Convert  string // the unit's byte order as the runtime names it: BIG_ENDIAN, NATIVE, SWAP
	// The libraries' writers add: the calls and bytes outside the data
	// path (overhead_syscw, overhead_wchar), the time spent packing
	// (pack_ns), the longest of the ranks' own spans (slowest_ns), and
	// each rank's calls (rank_syscw); 0 or nil when absent.
	OverheadCalls int64
	OverheadBytes int64
	PackNanos     int64
	SlowestNanos  int64
	RankCalls     []int64
}

// reportKeys are the fields every report line has, in the order the
// writers print them.
var reportKeys = []string{"elapsed_ns", "syscw", "wchar", "bytes", "elements", "convert"}

// ParseReport reads a writer's output: the last line that starts with
// "elapsed_ns=" holds space-separated key=value fields. Other lines (a
// runtime's warnings) are skipped and unknown keys ignored, so a newer
// writer can add fields; a missing or malformed field is an error.
func ParseReport(out []byte) (Report, error) {
	line, ok := reportLine(out)
	if !ok {
		return Report{}, fmt.Errorf("no report line (elapsed_ns=...) in the writer's output %q", bounded(out))
	}
	fields := map[string]string{}
	for _, f := range strings.Fields(line) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			return Report{}, fmt.Errorf("report field %q is not key=value", f)
		}
		if _, dup := fields[k]; dup {
			return Report{}, fmt.Errorf("report field %q appears twice in %q", k, line)
		}
		fields[k] = v
	}
	for _, k := range reportKeys {
		if _, ok := fields[k]; !ok {
			return Report{}, fmt.Errorf("report line %q has no %s", line, k)
		}
	}
	return reportFrom(fields, line)
}

func reportLine(out []byte) (string, bool) {
	lines := bytes.Split(out, []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(string(lines[i]))
		if strings.HasPrefix(l, "elapsed_ns=") {
			return l, true
		}
	}
	return "", false
}

func reportFrom(fields map[string]string, line string) (Report, error) {
	r := Report{Convert: fields["convert"]}
	ints := []struct {
		key      string
		dst      *int64
		counted  bool // -1 means "not counted"
		positive bool
	}{
		{"elapsed_ns", &r.Nanos, false, false},
		{"syscw", &r.Calls, true, false},
		{"wchar", &r.Written, true, false},
		{"bytes", &r.Bytes, false, true},
		{"elements", &r.Elements, false, true},
	}
	for _, f := range ints {
		v, err := strconv.ParseInt(fields[f.key], 10, 64)
		switch {
		case err != nil:
			return Report{}, fmt.Errorf("report field %s=%q is not an integer", f.key, fields[f.key])
		case v < 0 && !(f.counted && v == -1), v == 0 && f.positive:
			return Report{}, fmt.Errorf("report field %s=%d is out of range in %q", f.key, v, line)
		}
		*f.dst = v
	}
	if r.Convert == "" {
		return Report{}, fmt.Errorf("report line %q has an empty convert", line)
	}
	return r, r.libraryFields(fields, line)
}

// libraryFields reads the optional fields of the libraries' writers.
func (r *Report) libraryFields(fields map[string]string, line string) error {
	// The counts may be -1 (not counted); the times may not.
	for key, f := range map[string]struct {
		dst *int64
		min int64
	}{"overhead_syscw": {&r.OverheadCalls, -1}, "overhead_wchar": {&r.OverheadBytes, -1}, "pack_ns": {&r.PackNanos, 0}, "slowest_ns": {&r.SlowestNanos, 0}} {
		v, ok := fields[key]
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < f.min {
			return fmt.Errorf("report field %s=%q is out of range in %q", key, v, line)
		}
		*f.dst = n
	}
	list, ok := fields["rank_syscw"]
	if !ok {
		return nil
	}
	for _, v := range strings.Split(list, ",") {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < -1 {
			return fmt.Errorf("report field rank_syscw=%q is not a list of counts in %q", list, line)
		}
		r.RankCalls = append(r.RankCalls, n)
	}
	return nil
}

// maxQuoted bounds the output quoted in an error: a writer gone wrong
// may print a lot.
const maxQuoted = 2048

// bounded is b, cut to maxQuoted bytes.
func bounded(b []byte) string {
	if len(b) <= maxQuoted {
		return string(b)
	}
	return string(b[:maxQuoted]) + "..."
}
