package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// checkGolden compares got with testdata/<name>.golden line by line, or
// rewrites the file with -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report/ -update to create it)", err)
	}
	if diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(string(got), "\n")); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s\nIf the change is intended: go test ./report/ -update", path, diff)
	}
}

func TestGolden(t *testing.T) {
	compare := func(w *bytes.Buffer, _ *Report) error {
		return Compare(w, []Run{{"ext4.json", fixedReport()}, {"gpfs.json", gpfsReport()}, {"mpi.json", mpiReport()}})
	}
	anonymized := func(r *Report) *Report { return Anonymize(r, fixtureUser) }
	tests := []struct {
		name   string
		format func(*bytes.Buffer, *Report) error
		report *Report
	}{
		{"text", bufReporter(Text), fixedReport()},
		{"json", bufReporter(JSON), fixedReport()},
		{"csv", bufReporter(CSV), fixedReport()},
		{"markdown", bufReporter(Markdown), fixedReport()},
		{"gobench", bufReporter(Gobench), fixedReport()},
		{"text-mpi", bufReporter(Text), mpiReport()},
		{"markdown-mpi", bufReporter(Markdown), mpiReport()},
		{"gobench-mpi", bufReporter(Gobench), mpiReport()},
		{"text-gpfs", bufReporter(Text), gpfsReport()},
		{"text-adaptive", bufReporter(Text), adaptiveReport()},
		{"json-adaptive", bufReporter(JSON), adaptiveReport()},
		{"markdown-anonymized", bufReporter(Markdown), anonymized(fixedReport())},
		{"json-anonymized", bufReporter(JSON), anonymized(mpiReport())},
		{"compare", compare, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tt.format(&b, tt.report); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, tt.name, b.Bytes())
		})
	}
}

func bufReporter(f Reporter) func(*bytes.Buffer, *Report) error {
	return func(b *bytes.Buffer, r *Report) error { return f(b, r) }
}
