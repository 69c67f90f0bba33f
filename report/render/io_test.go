package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/internal/fixture"
)

func TestTimeLimitedRunsAreMarked(t *testing.T) {
	r := fixture.IO()
	var text, md, js bytes.Buffer
	for _, f := range []struct {
		w   *bytes.Buffer
		rep Reporter
	}{{&text, Text}, {&md, Markdown}, {&js, JSON}} {
		if err := f.rep(f.w, r); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{
		"time limit 2s cut runs short at 1 KiB (3 of 3 runs, which moved",
		"data random (incompressible; seed 42)",
		"fdatasync inside the timing; opened with O_DSYNC; each file fallocated to its full size before its run (untimed)",
		"each run stops after 2s (--time-limit)",
		"latency per write(2) call, µs",
	} {
		if !strings.Contains(oneLine(text.String()), want) {
			t.Errorf("text lacks %q", want)
		}
	}
	if strings.Contains(text.String(), "64 KiB (") {
		t.Error("text names 64 KiB as cut short; its runs took under 2 s")
	}
	for _, want := range []string{"Time limit 2s cut runs short at 1 KiB", "|  p50 µs |  p90 µs |  p99 µs |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
	for _, want := range []string{`"time_limited": true`, `"time_limited_runs": 3`, `"p99_us":`, `"time_limit_seconds": 2`, `"data": "random"`, `"flush": "fdatasync"`, `"open_sync": "dsync"`, `"preallocate": true`} {
		if !strings.Contains(js.String(), want) {
			t.Errorf("json lacks %s", want)
		}
	}
}

func TestOlderReportsSayNothingOfTheNewOptions(t *testing.T) {
	r := fixture.Ext4() // no Data, no Flush: as a report of an older version reads back
	var text bytes.Buffer
	if err := Text(&text, r); err != nil {
		t.Fatal(err)
	}
	for _, absent := range []string{"; data ", "latency per", "time limit"} {
		if strings.Contains(text.String(), absent) {
			t.Errorf("text of an older report says %q", absent)
		}
	}
	if !strings.Contains(text.String(), "no fsync") {
		t.Error("text lost the fsync word of older reports")
	}
}

// Under MPI and --jobs a run is an aggregate: the time-limit line says how
// much of all writers' bytes it moved, not of one writer's.
func TestTimeLimitLineCountsEveryWriter(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(r *report.Report)
		want string
	}{
		{"one writer", func(*report.Report) {}, " of 256 MiB)"},
		{"3 jobs", func(r *report.Report) { r.Jobs = &report.Jobs{Jobs: 3} }, " of 768 MiB)"},
		{"3 ranks, --total split", func(r *report.Report) { r.MPI = &report.MPI{Ranks: 3, RunBytes: 256 << 20} }, " of 256 MiB)"},
		{"3 ranks each", func(r *report.Report) { r.MPI = &report.MPI{Ranks: 3, CountPerRank: true} }, " of 768 MiB)"},
		{"old split report", func(r *report.Report) { r.MPI = &report.MPI{Ranks: 3} }, "moved"},
		{"1 rank, 2 jobs", func(r *report.Report) {
			r.MPI, r.Jobs = &report.MPI{Ranks: 1, RunBytes: 256 << 20}, &report.Jobs{Jobs: 2}
		}, " of 512 MiB)"},
	} {
		r := fixture.IO()
		tc.set(r)
		line := TimeLimitLine(r.Config, runBytes(r), r.Results)
		if !strings.Contains(line, tc.want) || tc.want == "moved" && strings.Contains(line, " of 2") {
			t.Errorf("%s: %q, want %q in it", tc.name, line, tc.want)
		}
	}
}
