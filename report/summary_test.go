package report_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/internal/fixture"
	"github.com/iobench/iobench/verdict"
)

func TestKneeWithUnequalBytesPerRun(t *testing.T) {
	r := fixture.IO()
	if !r.Knee.Found || r.Knee.WriteSize != 2<<20 {
		t.Errorf("knee %+v; want the fixture's 2 MiB knee whatever bytes each run moved", r.Knee.Result)
	}
}

func TestSummarizeStability(t *testing.T) {
	r := fixture.Ext4()
	if r.KneeStability == nil {
		t.Fatal("KneeStability is nil after 3 rounds")
	}
	if diff := cmp.Diff([]int64{1 << 20, 2 << 20, 2 << 20}, r.KneeStability.Knees); diff != "" {
		t.Errorf("knees by round (-want +got):\n%s", diff)
	}
	r.Config.Repeat = 2
	r.SetResult(&record.Result{Samples: fixture.Samples(r.Config, []record.Mode{record.ModeWrite},
		func(record.Mode, int64) float64 { return 100 })})
	if r.KneeStability != nil {
		t.Errorf("KneeStability = %+v after 2 rounds, want nil", r.KneeStability)
	}
}

// TestFullRoundCurves: only rounds that measured every size count; a
// partial round (adaptive, or interrupted) and other directions do not.
func TestFullRoundCurves(t *testing.T) {
	s := func(round int, size int64) record.Sample {
		return record.Sample{Run: record.Run{Mode: record.ModeWrite, WriteSize: size, Round: round}, Seconds: 1, Bytes: record.MiB}
	}
	got := verdict.FullRoundCurves([]record.Sample{s(3, 1024), s(1, 1024), s(1, 2048), s(2, 2048), s(2, 1024), {Run: record.Run{Mode: record.ModeRead, Round: 4}}}, record.ModeWrite)
	full := []knee.Point{{Size: 1024, MiBPerSec: 1}, {Size: 2048, MiBPerSec: 1}}
	want := [][]knee.Point{full, {full[1], full[0]}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("FullRoundCurves (-want +got):\n%s", diff)
	}
}

// TestSummaryWarningsOnceAfterAnalyze: a sweep's JSON read back and
// summarized again, as analyze does, carries each derived warning once,
// after the run's own.
func TestSummaryWarningsOnceAfterAnalyze(t *testing.T) {
	r := fixture.Ext4()
	r.Config.Repeat = 1
	r.Warnings = append(r.Warnings, "launcher: something")
	res := &record.Result{Samples: fixture.Samples(r.Config, []record.Mode{record.ModeWrite},
		func(_ record.Mode, size int64) float64 { return float64(min(size, 1<<20)) / 1000 })}
	r.SetResult(res)
	if len(r.Summary.Warnings) != 1 || r.Summary.Warnings[0].Kind != verdict.WarnKneeNotEstablished {
		t.Fatalf("one round: summary warnings %+v, want the knee not established", r.Summary.Warnings)
	}
	doc, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back report.Report
	if err := json.Unmarshal(doc, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(r.Warnings, back.Warnings); diff != "" {
		t.Errorf("the run's warnings read back (-want +got):\n%s", diff)
	}
	back.SetResult(res)
	if diff := cmp.Diff(r.AllWarnings(), back.AllWarnings()); diff != "" {
		t.Errorf("warnings summarized again (-sweep +analyze):\n%s", diff)
	}
}
