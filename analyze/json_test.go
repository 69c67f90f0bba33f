package analyze_test

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/iobench/iobench/analyze"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/render"
)

func TestJSONRoundTrip(t *testing.T) {
	want := sweepReport()
	want.Tool = report.Tool{Name: "iobench", Version: "v1.2.3"}
	want.Incomplete = true
	want.Error = "interrupted"
	var buf bytes.Buffer
	if err := render.JSON(&buf, want); err != nil {
		t.Fatal(err)
	}
	in := parse(t, "r.json", buf.String())
	want.Warnings = []string{}
	if diff := cmp.Diff(want, in.Report); diff != "" {
		t.Errorf("Report (-want +got):\n%s", diff)
	}
	wantNotes := []string{"the sweep was cut short: some sizes or rounds are missing", "the sweep ended with an error: interrupted"}
	if diff := cmp.Diff(wantNotes, in.Notes); diff != "" {
		t.Errorf("Notes (-want +got):\n%s", diff)
	}
	if in.Format != analyze.FormatJSON || in.Original != nil {
		t.Errorf("Format %q, Original %v", in.Format, in.Original)
	}
}

func TestJSONErrors(t *testing.T) {
	const tool = `"tool": {"name": "iobench"}`
	const row8 = `{"mode": "write", "write_size": 8, "mib_per_s": 1, "samples": [{"mode": "write", "write_size": 8, "seconds": 1, "bytes": 1048576}]}`
	tests := []struct{ name, text, want string }{
		{"syntax error", "{\n  " + tool + ",\n  \"results\": [\n    {\"write_size\": 8,}\n  ]\n}\n",
			`analyze: r.json:4: invalid character '}' looking for beginning of object key string`},
		{"type error", "{\n  " + tool + ",\n  \"results\": [\n    {\"write_size\": \"8\"}\n  ]\n}\n",
			`analyze: r.json:4: cannot unmarshal string into Go struct field SizeResult.results.write_size of type int64`},
		{"truncated", "{" + tool + `, "results": [`,
			"analyze: r.json:1: the JSON document is cut short"},
		{"other JSON", `{"name": "package.json", "version": "1.0.0"}`,
			`analyze: r.json: not iobench JSON: no "tool" object`},
		{"other tool", `{"tool": {"name": "fio"}, "results": []}`,
			`analyze: r.json: not iobench JSON: "tool": {"name": "fio"}, want "iobench"`},
		{"no results", "{" + tool + "}",
			`analyze: r.json: not iobench JSON: no "results" list`},
		{"empty results, failed sweep", "{" + tool + `, "results": [], "error": "--dir: no space left"}`,
			"analyze: r.json: no results: the sweep measured nothing (it failed: --dir: no space left)"},
		{"two documents", "{" + tool + `, "results": []}` + "\n\n {}\n",
			"analyze: r.json:3: data after the JSON document; analyze reads one report per file"},
		{"bad mode", "{" + tool + `, "results": [{"mode": "append", "write_size": 8}]}`,
			`analyze: r.json: results[0]: mode: "append" is not write or read`},
		{"bad size", "{" + tool + `, "results": [{"mode": "write", "write_size": 0}]}`,
			"analyze: r.json: results[0]: write_size: 0 is not positive"},
		{"negative rate", "{" + tool + `, "results": [{"mode": "write", "write_size": 8, "mib_per_s": -1}]}`,
			"analyze: r.json: results[0]: write_size 8: -1 MiB/s is not a throughput between 0 and 1e+09"},
		{"no samples", "{" + tool + `, "results": [{"mode": "write", "write_size": 8, "mib_per_s": 1}]}`,
			"analyze: r.json: results[0]: write_size 8: no samples"},
		{"foreign sample", "{" + tool + `, "results": [{"mode": "write", "write_size": 8, "mib_per_s": 1, "samples": [{"mode": "read", "write_size": 8}]}]}`,
			"analyze: r.json: results[0]: samples[0]: a read run of 8 bytes in the write row of 8 bytes"},
		{"bad sample", "{" + tool + `, "results": [{"mode": "write", "write_size": 8, "mib_per_s": 1, "samples": [{"mode": "write", "write_size": 8, "seconds": 1, "bytes": -1}]}]}`,
			"analyze: r.json: results[0]: samples[0]: -9.537e-07 MiB/s is not a throughput between 0 and 1e+09"},
		{"edited median", "{" + tool + `, "results": [{"mode": "write", "write_size": 8, "mib_per_s": 2, "samples": [{"mode": "write", "write_size": 8, "seconds": 1, "bytes": 1048576}]}]}`,
			"analyze: r.json: results[0]: write_size 8: mib_per_s 2 is not the median of its samples, 1"},
		{"duplicate row", "{" + tool + `, "results": [` + row8 + "," + row8 + "]}",
			"analyze: r.json: results[1]: a second write row of 8 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkError(t, "r.json", tt.text, tt.want) })
	}
}
