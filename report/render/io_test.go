package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/iobench/iobench/iobench"
)

// ioReport is fixedReport with the run I/O options on: a 2 s time limit
// that cuts the sizes below 64 KiB short, random data, fdatasync, O_DSYNC,
// preallocation and per-call latency.
func ioReport() *Report {
	r := fixedReport()
	r.Command = []string{"iobench", "sweep", "--dir", "/scratch/alice/run1", "--size", "256MiB", "--repeat", "3",
		"--time-limit", "2s", "--data", "random", "--flush", "fdatasync", "--open-sync", "dsync", "--preallocate", "--latency"}
	c := &r.Config
	c.TimeLimit, c.Data, c.Flush, c.OpenSync, c.Preallocate, c.Latency = 2, "random", "fdatasync", "dsync", true, true
	r.Warnings = nil
	res := &iobench.Result{WarmupRan: true}
	res.Samples = fixtureSamples(r.Config, []iobench.Mode{iobench.ModeWrite}, func(_ iobench.Mode, size int64) float64 {
		return 2000 * float64(size) / float64(size+64<<10)
	})
	for i := range res.Samples {
		s := &res.Samples[i]
		if s.Seconds > 2 { // what a 2 s limit leaves: the calls made by then
			s.Bytes = int64(float64(s.Bytes)*2/s.Seconds) / s.WriteSize * s.WriteSize
			s.Calls, s.Seconds, s.TimeLimited = s.Bytes/s.WriteSize, 2, true
		}
		s.Latency = fixtureLatency(s.Calls, s.Seconds/float64(s.Calls))
	}
	r.SetResult(res)
	return r
}

// fixtureLatency is a histogram of calls around mean seconds: a tenth of
// them timed, most near the mean, one in fifty four times slower, and a
// stretch of untimed calls twelve times a call's mean.
func fixtureLatency(calls int64, mean float64) *iobench.Latency {
	ns := int64(mean * 1e9)
	timed := max(calls/10, 1)
	slow := timed / 50
	l := &iobench.Latency{Calls: calls, Timed: timed, MaxNs: 4 * ns, MaxBoundNs: 12 * ns, ClockNs: 118, Buckets: [][2]int64{{ns * 9 / 10, timed - slow}}}
	if slow > 0 {
		l.Buckets = append(l.Buckets, [2]int64{4 * ns, slow})
	}
	return iobench.MergeLatency(l) // snaps the bounds to the histogram's buckets
}

func TestTimeLimitedRunsAreMarked(t *testing.T) {
	r := ioReport()
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
		if !strings.Contains(text.String(), want) {
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

func TestKneeWithUnequalBytesPerRun(t *testing.T) {
	r := ioReport()
	if !r.Knee.Found || r.Knee.WriteSize != 2<<20 {
		t.Errorf("knee %+v; want the fixture's 2 MiB knee whatever bytes each run moved", r.Knee.Result)
	}
}

func TestOlderReportsSayNothingOfTheNewOptions(t *testing.T) {
	r := fixedReport() // no Data, no Flush: as a report of an older version reads back
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
		set  func(r *Report)
		want string
	}{
		{"one writer", func(*Report) {}, " of 256 MiB)"},
		{"3 jobs", func(r *Report) { r.Jobs = &Jobs{Jobs: 3} }, " of 768 MiB)"},
		{"3 ranks, --total split", func(r *Report) { r.MPI = &MPI{Ranks: 3, RunBytes: 256 << 20} }, " of 256 MiB)"},
		{"3 ranks each", func(r *Report) { r.MPI = &MPI{Ranks: 3, CountPerRank: true} }, " of 768 MiB)"},
		{"old split report", func(r *Report) { r.MPI = &MPI{Ranks: 3} }, "moved"},
		{"1 rank, 2 jobs", func(r *Report) { r.MPI, r.Jobs = &MPI{Ranks: 1, RunBytes: 256 << 20}, &Jobs{Jobs: 2} }, " of 512 MiB)"},
	} {
		r := ioReport()
		tc.set(r)
		line := TimeLimitLine(r.Config, r.runBytes(), r.Results)
		if !strings.Contains(line, tc.want) || tc.want == "moved" && strings.Contains(line, " of 2") {
			t.Errorf("%s: %q, want %q in it", tc.name, line, tc.want)
		}
	}
}
