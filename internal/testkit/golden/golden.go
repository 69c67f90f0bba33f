package golden

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// maxDiff is the longest diff shown; a binary file (a PNG) differs in
// lines no one can read.
const maxDiff = 20000

// Check compares got with the golden file at path, line by line, or with
// -update rewrites the file. pkg is the package's directory, for the
// command that updates it.
func Check(t *testing.T, pkg, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./%s -update to create it)", err, pkg)
	}
	if bytes.Equal(want, got) {
		return
	}
	diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(string(got), "\n"))
	if len(diff) > maxDiff {
		diff = diff[:maxDiff] + "\n..."
	}
	t.Errorf("%s mismatch (-want +got):\n%s\nIf the change is intended: go test ./%s -update", path, diff, pkg)
}
