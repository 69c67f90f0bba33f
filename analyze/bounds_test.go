package analyze_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/iobench/iobench/analyze"
)

// bigReport is an iobench JSON document of n write rows of one run each,
// with only the fields analyze needs, so that many rows fit
// MaxInputBytes. seed varies the throughputs between documents.
func bigReport(n, seed int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"tool":{"name":"iobench"},"config":{"mode":"write","knee_fraction":0.95},"results":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		size, sec := 8*(i+1), 1/float64(10+(i+seed)%97)
		rate := float64(8*mib) / sec / mib
		fmt.Fprintf(&b, `{"mode":"write","write_size":%[1]d,"mib_per_s":%[2]v,"min_mib_per_s":%[2]v,"max_mib_per_s":%[2]v,`+
			`"samples":[{"mode":"write","write_size":%[1]d,"round":1,"seq":%[3]d,"seconds":%[4]v,"bytes":%[5]d}]}`, size, rate, i+1, sec, 8*mib)
	}
	b.WriteString("]}\n")
	return b.Bytes()
}

// bigCSV is the CSV of n write runs of one round.
func bigCSV(n int) []byte {
	var b bytes.Buffer
	b.WriteString("mode,write_size,round,seq,seconds,bytes\n")
	for i := range n {
		fmt.Fprintf(&b, "write,%d,1,%d,%v,%d\n", 8*(i+1), i+1, 1/float64(10+i%97), 8*mib)
	}
	return b.Bytes()
}

// TestReadsAReportOfManyRows: a report of this many rows is one iobench
// can write, and reads in full.
func TestReadsAReportOfManyRows(t *testing.T) {
	in, err := analyze.Parse("big.json", bytes.NewReader(bigReport(20000, 0)))
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Report.Results) != 20000 {
		t.Errorf("%d rows, want 20000", len(in.Report.Results))
	}
}

// TestRefusesMoreThanAReportHolds: lists, nesting and runs beyond what
// iobench writes are refused in one line naming the file and where, not
// decoded.
func TestRefusesMoreThanAReportHolds(t *testing.T) {
	const head = `{"tool":{"name":"iobench"},"results":`
	numbers := func(n int) string { return "[" + strings.Repeat("1,", n-1) + "1]" }
	tests := []struct{ name, text, want string }{
		{"a long list", head + numbers(analyze.MaxRuns+1) + "}",
			fmt.Sprintf("analyze: in:1: a list of more than %d entries", analyze.MaxRuns)},
		{"many lists", head + "[" + strings.Repeat(`{"samples":`+numbers(analyze.MaxRuns/2)+"},", 9) + "{}]}",
			"list entries: not an iobench report"},
		{"deep", head + "[]," + `"x":` + strings.Repeat("[", 9) + strings.Repeat("]", 9) + "}",
			"analyze: in:1: nested more than 8 deep"},
		{"deep and cut short", head + strings.Repeat("[", 1<<20),
			"analyze: in:1: nested more than 8 deep"},
		{"CSV columns", "write_size,mib_per_s" + strings.Repeat(",x", 300) + "\n8,1\n",
			"analyze: in:1: a header of more than 256 columns"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := analyze.Parse("in", strings.NewReader(tt.text))
			if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %v, want one line with %q", err, tt.want)
			}
		})
	}
}

// TestRefusesMoreRunsThanAReportHolds: a CSV or the reference program's
// output of more runs than a report holds is refused at the first run too
// many.
func TestRefusesMoreRunsThanAReportHolds(t *testing.T) {
	if raceEnabled {
		t.Skip("a million rows take minutes under the race detector")
	}
	for name, text := range map[string]string{
		"in.csv": "write_size,mib_per_s\n" + strings.Repeat("8,1\n", analyze.MaxRuns+1),
		"in.txt": "Test using 8 doubles\n" + strings.Repeat("bs = 1, 1.00 MiB/s\n", analyze.MaxRuns+1),
	} {
		_, err := analyze.Parse(name, strings.NewReader(text))
		want := fmt.Sprintf("analyze: %s:%d: more than %d runs", name, analyze.MaxRuns+2, analyze.MaxRuns)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("error %v, want %q...", err, want)
		}
	}
}

// TestLimitsHoldEveryReportIobenchWrites: the JSON reports of the golden
// files, MPI, jobs, variants, latency and adaptive rounds among them,
// are within the limits.
func TestLimitsHoldEveryReportIobenchWrites(t *testing.T) {
	files, err := filepath.Glob("../report/render/testdata/sweep-json*.golden")
	if err != nil || len(files) < 5 {
		t.Fatalf("golden JSON reports: %v, %v", files, err)
	}
	for _, f := range files {
		if _, err := analyze.ParseFile(f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	for _, n := range []int{20000, 200000} {
		for _, f := range []struct {
			name string
			data []byte
		}{{"json", bigReport(n, 0)}, {"csv", bigCSV(n)}} {
			b.Run(fmt.Sprintf("%s-%d", f.name, n), func(b *testing.B) {
				b.SetBytes(int64(len(f.data)))
				for b.Loop() {
					if _, err := analyze.Parse("big", bytes.NewReader(f.data)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkLoad reads a report as analyze, plot and compare do: parsed,
// then summarized again from its samples.
func BenchmarkLoad(b *testing.B) {
	for _, n := range []int{20000, 200000} {
		data := bigReport(n, 0)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				in, err := analyze.Parse("big.json", bytes.NewReader(data))
				if err != nil {
					b.Fatal(err)
				}
				in.Report.SetResult(in.Result())
			}
		})
	}
}
