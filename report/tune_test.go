package report_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/iobench/iobench/hostinfo"
	"github.com/iobench/iobench/report"
)

// A tune report posted in public names no host, user or directory, and
// keeps its figures.
func TestAnonymizeTune(t *testing.T) {
	r := &report.TuneReport{Host: hostinfo.Host{Hostname: "node17.site.org"}, Dir: "/home/alice/run",
		Argv:  []string{"/home/alice/run/prog", "in.nml"},
		Arms:  []report.TuneArm{{Name: "baseline", Median: 0.99, Seconds: []float64{0.99}}},
		Files: report.TuneFiles{Created: []string{"/home/alice/run/out.dat"}},
		Notes: []string{"ran on node17"}}
	a, err := report.AnonymizeTune(r, "alice")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(a)
	for _, leak := range []string{"alice", "node17", "/home/"} {
		if strings.Contains(string(raw), leak) {
			t.Errorf("anonymized report holds %q: %s", leak, raw)
		}
	}
	if a.Arms[0].Median != 0.99 || a.Files.Created[0] != "<dir>/out.dat" {
		t.Errorf("figures or paths lost: %+v, %v", a.Arms[0], a.Files.Created)
	}
}
