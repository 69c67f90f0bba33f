package iobench

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestAggregateIsAllBytesOverTheWholeSpan(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	run := Run{Mode: ModeWrite, WriteSize: 4096, Round: 1, Seq: 1}
	perRank := [][]Sample{
		{{Run: run, Bytes: MiB, Seconds: 0.5, Start: at(100), End: at(600), Calls: 256}},
		{{Run: run, Bytes: MiB, Seconds: 1.0, Start: at(0), End: at(1000), Calls: 256}},
		{{Run: run, Bytes: MiB, Seconds: 0.25, Start: at(200), End: at(450), Calls: 256}},
	}
	agg, spread := Aggregate(perRank)
	want := Sample{Run: run, Bytes: 3 * MiB, Seconds: 1.0, Start: at(0), End: at(1000), Calls: 768}
	if diff := cmp.Diff([]Sample{want}, agg); diff != "" {
		t.Errorf("aggregate (-want +got):\n%s", diff)
	}
	if got := agg[0].MiBPerSec(); got != 3 {
		t.Errorf("aggregate = %v MiB/s, want 3 (3 MiB over 1 s)", got)
	}
	wantSpread := RankSpread{Run: run, MinMiBPerSec: 1, MedianMiBPerSec: 2, MaxMiBPerSec: 4, SlowestRank: 1}
	if diff := cmp.Diff([]RankSpread{wantSpread}, spread); diff != "" {
		t.Errorf("spread (-want +got):\n%s", diff)
	}
}

func TestAggregateKeepsOnlyRunsEveryRankFinished(t *testing.T) {
	s := Sample{Bytes: 1, Seconds: 1}
	agg, _ := Aggregate([][]Sample{{s, s}, {s}})
	if len(agg) != 1 {
		t.Errorf("%d runs aggregated, want 1", len(agg))
	}
}
