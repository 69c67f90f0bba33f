package analyze_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/iobench/iobench/analyze"
	"github.com/iobench/iobench/fsinfo"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/render"
	"github.com/iobench/iobench/verdict"
)

// sweepReport is a two-round write-and-read sweep as render.CSV sees it.
func sweepReport() *report.Report {
	start := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	var samples []record.Sample
	for round := 1; round <= 2; round++ {
		for _, size := range []int64{4096, 65536} {
			for _, mode := range []record.Mode{record.ModeWrite, record.ModeRead} {
				seq := len(samples) + 1
				samples = append(samples, record.Sample{
					Run:     record.Run{Mode: mode, WriteSize: size, Round: round, Seq: seq},
					Seconds: 0.25 * float64(seq), Bytes: 64 * mib, Calls: 64 * mib / size,
					ShortWrites: int64(round - 1), EINTR: 1, Start: start.Add(time.Duration(seq) * time.Second),
				})
			}
		}
	}
	return &report.Report{
		Header:  report.Header{FS: fsinfo.Info{Type: "ext4", BlockSize: 4096}},
		Config:  report.Config{ElementType: "int32", Convert: "big-endian", Fsync: true, Settings: record.Settings{Source: "window"}},
		Summary: verdict.Summary{Results: record.Summarize(&record.Result{Samples: samples})},
	}
}

func TestCSVRoundTrip(t *testing.T) {
	want := sweepReport()
	var buf bytes.Buffer
	if err := render.CSV(&buf, want); err != nil {
		t.Fatal(err)
	}
	in := parse(t, "sweep.csv", buf.String())
	if in.Format != analyze.FormatCSV {
		t.Fatalf("Format = %q", in.Format)
	}
	if diff := cmp.Diff(want.Results, in.Report.Results, approx); diff != "" {
		t.Errorf("Results (-want +got):\n%s", diff)
	}
	wantConfig := report.Config{
		Settings:    record.Settings{Count: 16 * mib, Sizes: []int64{4096, 65536}, Source: "window", Repeat: 2, Mode: "both", Stride: 1},
		ElementType: "int32", ElementSize: 4, TotalBytes: 64 * mib, Convert: "big-endian", Fsync: true,
	}
	if diff := cmp.Diff(wantConfig, in.Report.Config); diff != "" {
		t.Errorf("Config (-want +got):\n%s", diff)
	}
	got := []any{in.Report.FS.Type, in.Report.FS.BlockSize, in.Report.StartTime, in.Notes}
	wantMeta := []any{"ext4", int64(4096), time.Date(2025, 6, 1, 12, 0, 1, 0, time.UTC), []string(nil)}
	if diff := cmp.Diff(wantMeta, got); diff != "" {
		t.Errorf("FS type, block size, start, notes (-want +got):\n%s", diff)
	}
}

func TestCSV(t *testing.T) {
	tests := []struct {
		name, text string
		want       []record.Sample
		notes      []string
	}{{
		name: "columns in any order, mib_per_s with bytes",
		text: "mib_per_s,bytes,write_size\n100,1048576,8192\n",
		want: []record.Sample{{Run: record.Run{Mode: "write", WriteSize: 8192, Round: 1, Seq: 1}, Seconds: 0.01, Bytes: mib}},
	}, {
		name: "mib_per_s with seconds",
		text: "write_size,seconds,mib_per_s,mode\n8192,2,100,read\n",
		want: []record.Sample{{Run: record.Run{Mode: "read", WriteSize: 8192, Round: 1, Seq: 1}, Seconds: 2, Bytes: 200 * mib}},
	}, {
		name:  "mib_per_s alone",
		text:  "write_size,mib_per_s\n8192,50\n8192,0\n",
		want:  []record.Sample{{Run: record.Run{Mode: "write", WriteSize: 8192, Round: 1, Seq: 1}, Seconds: 0.02, Bytes: mib}, {Run: record.Run{Mode: "write", WriteSize: 8192, Round: 1, Seq: 2}, Bytes: mib}},
		notes: []string{"no seconds or bytes: samples rebuilt from mib_per_s alone, as 1 MiB each"},
	}, {
		name:  "bytes/seconds win over a disagreeing mib_per_s; meta differs",
		text:  "write_size,seconds,bytes,mib_per_s,fs_type\n8192,1,1048576,2,ext4\n8192,1,1048576,1,xfs\n",
		want:  []record.Sample{{Run: record.Run{Mode: "write", WriteSize: 8192, Round: 1, Seq: 1}, Seconds: 1, Bytes: mib}, {Run: record.Run{Mode: "write", WriteSize: 8192, Round: 1, Seq: 2}, Seconds: 1, Bytes: mib}},
		notes: []string{"mib_per_s disagrees with bytes/seconds on some rows; bytes/seconds are used", `column fs_type differs between rows; the report keeps the first row's "ext4"`},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := parse(t, "t.csv", tt.text)
			var got []record.Sample
			for _, r := range in.Report.Results {
				got = append(got, r.Samples...)
			}
			if diff := cmp.Diff(tt.want, got, approx); diff != "" {
				t.Errorf("samples (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.notes, in.Notes); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCSVErrors(t *testing.T) {
	const h = "mode,write_size,round,seconds,bytes\n"
	tests := []struct{ name, text, want string }{
		{"no throughput columns", "mode,write_size\nwrite,8\n",
			"analyze: r.csv:1: no throughput: need a mib_per_s column, or seconds and bytes"},
		{"no write_size", "mib_per_s,write_size_bytes\n", ""}, // not even detected
		{"duplicate column", "write_size,mib_per_s,write_size\n",
			`analyze: r.csv:1: column "write_size" appears twice`},
		{"header only", h, "analyze: r.csv: no rows after the header: nothing was measured"},
		{"bad size", h + "write,8192,1,1,8\nwrite,8k,1,1,8\n",
			`analyze: r.csv:3: write_size: "8k" is not a whole number`},
		{"zero size", h + "write,0,1,1,8\n",
			"analyze: r.csv:2: write_size: must be a positive number of bytes"},
		{"bad mode", h + "append,8,1,1,8\n",
			`analyze: r.csv:2: mode: "append" is not write or read`},
		{"NaN seconds", h + "write,8,1,NaN,8\n",
			`analyze: r.csv:2: seconds: "NaN" is not a finite number of at least 0`},
		{"zero seconds", h + "write,8,1,0,8\n",
			"analyze: r.csv:2: seconds: 0 is not a positive duration: no run takes no time"},
		{"zero bytes", h + "write,8,1,1,0\n",
			"analyze: r.csv:2: bytes: 0: a run that wrote nothing has no throughput"},
		{"negative bytes", h + "write,8,1,1,-8\n",
			`analyze: r.csv:2: bytes: "-8" is not a whole number`},
		{"empty throughput cells", h + "write,8,1,,\n",
			"analyze: r.csv:2: no throughput in this row: need mib_per_s, or seconds and bytes"},
		{"implausible", h + "write,8,1,1e-300,8\n",
			"analyze: r.csv:2: 7.629e+294 MiB/s is not a throughput between 0 and 1e+09"},
		{"wrong field count", h + "write,8,1,1\n",
			"analyze: r.csv:2: wrong number of fields"},
		{"bad quote", h + "write,\"8,1,1,8\n",
			"analyze: r.csv:2: extraneous or missing \" in quoted-field"},
		{"bad start", "write_size,mib_per_s,start\n8,1,yesterday\n",
			`analyze: r.csv:2: start: "yesterday" is not an RFC 3339 time`},
		{"bad element type", "write_size,mib_per_s,element_type\n8,1,float16\n",
			`analyze: r.csv:2: element_type: unknown value "float16" (valid: int32, int64, float32, float64, complex64, complex128)`},
		{"bad fsync", "write_size,mib_per_s,fsync\n8,1,maybe\n",
			`analyze: r.csv:2: fsync: "maybe" is not true or false`},
		{"bad source", "write_size,mib_per_s,source\n8,1,disk\n",
			`analyze: r.csv:2: source: unknown value "disk" (valid: array, window)`},
		{"bad block size", "write_size,mib_per_s,block_size\n8,1,4k\n",
			`analyze: r.csv:2: block_size: "4k" is not a whole number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.want == "" {
				tt.want = `analyze: r.csv: not iobench JSON, iobench CSV or pr91030 output (it starts with "` + tt.text[:len(tt.text)-1] + `")`
			}
			checkError(t, "r.csv", tt.text, tt.want)
		})
	}
}

// The incomplete marker survives a trip through CSV.
func TestCSVKeepsTheIncompleteMarker(t *testing.T) {
	for _, incomplete := range []bool{false, true} {
		r := sweepReport()
		r.Incomplete = incomplete
		var b bytes.Buffer
		if err := render.CSV(&b, r); err != nil {
			t.Fatal(err)
		}
		in, err := analyze.Parse("r.csv", &b)
		if err != nil {
			t.Fatal(err)
		}
		if in.Report.Incomplete != incomplete || in.Result().Incomplete != incomplete {
			t.Errorf("incomplete %v came back as %v", incomplete, in.Report.Incomplete)
		}
	}
}
