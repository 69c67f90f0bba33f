package report

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// A report file gets the mode a plain create would: 0666 less the umask
// (0644 under the common 022), so colleagues can read a shared report.
func TestWriteNewFileHonoursTheUmask(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	path := filepath.Join(t.TempDir(), "r.json")
	if err := WriteNewFile(path, JSON, fixedReport()); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Mode().Perm(); got != 0o644 {
		t.Errorf("mode %v, want -rw-r--r--", got)
	}
	if err := WriteNewFile(path, JSON, fixedReport()); err == nil {
		t.Error("a second write replaced the report; want a refusal")
	}
}

// A failed run's CSV and gobench reports say so, as text and JSON do.
func TestCSVAndGobenchMarkAnIncompleteRun(t *testing.T) {
	r := fixedReport()
	r.Incomplete, r.Error = true, "write of /x failed:\nno space left (ENOSPC)"
	var csv, gb strings.Builder
	if err := CSV(&csv, r); err != nil {
		t.Fatal(err)
	}
	if err := Gobench(&gb, r); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(csv.String()), "\n")
	head, row := strings.Split(lines[0], ","), strings.Split(lines[1], ",")
	if i := slices.Index(head, "incomplete"); i < 0 || len(row) != len(head) || row[i] != "true" {
		t.Errorf("CSV header %q, first row %q: want an incomplete column, true", lines[0], lines[1])
	}
	if !strings.Contains(gb.String(), "\nincomplete: true (write of /x failed: no space left (ENOSPC))\n") {
		t.Errorf("gobench lacks the one-line incomplete config line:\n%.300s", gb.String())
	}
}
