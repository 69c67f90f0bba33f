package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/iobench/iobench/analyze"
)

// TestInputBeyondTheLimitsIsRefusedByEveryReader: every command that
// reads saved results refuses a document with more than a report holds in
// one line naming the file, before decoding it.
func TestInputBeyondTheLimitsIsRefusedByEveryReader(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	doc := `{"tool":{"name":"iobench"},"results":[` + strings.Repeat("1,", analyze.MaxRuns) + "1]}"
	if err := os.WriteFile(big, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	trace := filepath.Join(moduleRoot, "workload", "strace", "testdata", "plain.txt")
	want := "big.json:1: a list of more than"
	for _, args := range [][]string{
		{"analyze", big},
		{"compare", big, big},
		{"plot", "-o", filepath.Join(dir, "p.svg"), big},
		{"runtime", "gfortran", "--dir", dir, "--from", big},
		{"app", trace, "--curve", big},
	} {
		_, errOut, code := runCLI(t, args...)
		if code == 0 || !strings.Contains(errOut, want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want one line with %q", args, code, errOut, want)
		}
	}
}

// TestCompareReadsStandardInputOnce: "-" twice cannot both be read.
func TestCompareReadsStandardInputOnce(t *testing.T) {
	_, errOut, code := runCLI(t, "compare", "-", "-")
	if code != 2 || !strings.Contains(errOut, "standard input can be read once") {
		t.Errorf("exit %d, stderr %q; want 2 and a usage error", code, errOut)
	}
}
