package report_test

import (
	"strings"
	"testing"

	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/internal/fixture"
)

func TestCheckRuns(t *testing.T) {
	if err := report.CheckRuns(nil); err == nil {
		t.Error("no reports: no error")
	}
	if err := report.CheckRuns([]report.Run{{Name: "a.json", Report: fixture.Ext4()}, {Name: "x.json"}}); err == nil || !strings.Contains(err.Error(), "x.json") {
		t.Errorf("a missing report: error = %v, want it to name x.json", err)
	}
	if err := report.CheckRuns([]report.Run{{Name: "a.json", Report: fixture.Ext4()}}); err != nil {
		t.Errorf("one report: %v", err)
	}
}

func TestKnownTool(t *testing.T) {
	for name, want := range map[string]bool{"iobench": true, report.ReferenceTool: true, "ior": false, "": false} {
		if got := report.KnownTool(name); got != want {
			t.Errorf("KnownTool(%q) = %v, want %v", name, got, want)
		}
	}
}
