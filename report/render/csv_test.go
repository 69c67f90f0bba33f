package render

import (
	"slices"
	"strings"
	"testing"

	"github.com/iobench/iobench/report/internal/fixture"
)

// A failed run's CSV and gobench reports say so, as text and JSON do.
func TestCSVAndGobenchMarkAnIncompleteRun(t *testing.T) {
	r := fixture.Ext4()
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
