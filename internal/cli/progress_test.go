package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// --progress rounds is a line per round and none per run; the JSON report
// says how far off the time left was.
func TestProgressRoundsForLogs(t *testing.T) {
	out, errOut, code := runCLI(t, smallSweep(t.TempDir(), "--repeat", "3", "--progress", "rounds", "--format", "json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if n := strings.Count(errOut, "iobench: round "); n != 3 || strings.Contains(errOut, " r1/3 ") {
		t.Errorf("want 3 round lines and no run lines, got %d:\n%s", n, errOut)
	}
	if !strings.Contains(errOut, "iobench: round 1 of 3 done: 11 runs;") || !strings.Contains(errOut, "left (ending about ") {
		t.Errorf("the round line does not say what ran and what is left:\n%s", errOut)
	}
	var doc struct {
		ETAError *struct {
			AtHalf       *float64 `json:"at_half"`
			TimedSeconds float64  `json:"timed_seconds"`
		} `json:"eta_error"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.ETAError == nil || doc.ETAError.AtHalf == nil || doc.ETAError.TimedSeconds <= 0 {
		t.Errorf("JSON eta_error: %+v, %v", doc.ETAError, err)
	}
}

// --brief prints the verdict alone; with another format it is refused.
func TestBriefIsTheVerdict(t *testing.T) {
	out, errOut, code := runCLI(t, smallSweep(t.TempDir(), "--repeat", "2", "--brief")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(out, "verdict: ") || strings.Contains(out, "% plateau") || strings.Count(out, "\n") > 12 {
		t.Errorf("--brief is not the verdict alone:\n%s", out)
	}
	if _, errOut, code := runCLI(t, smallSweep(t.TempDir(), "--brief", "--format", "json")...); code != 2 || !strings.Contains(errOut, "--brief") {
		t.Errorf("--brief --format json: exit %d, %s", code, errOut)
	}
}
