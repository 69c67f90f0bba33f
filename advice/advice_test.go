package advice_test

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/fsinfo"
	"github.com/iobench/iobench/knee"
)

const (
	kib = 1 << 10
	mib = 1 << 20
)

// approx compares throughputs and gains to a relative 1e-9.
var approx = cmpopts.EquateApprox(1e-9, 0)

// sweep calls f for each power-of-two size from lo to hi.
func sweep(lo, hi int64, f func(size int64) float64) []knee.Point {
	var pts []knee.Point
	for s := lo; s <= hi; s *= 2 {
		pts = append(pts, knee.Point{Size: s, MiBPerSec: f(s)})
	}
	return pts
}

// points pairs the power-of-two sizes from lo with ys.
func points(lo int64, ys ...float64) []knee.Point {
	pts := make([]knee.Point, len(ys))
	for i, y := range ys {
		pts[i] = knee.Point{Size: lo << i, MiBPerSec: y}
	}
	return pts
}

// gpfsCurve climbs slowly up to a 16 MiB knee, as PR 91030's GPFS did;
// 128 KiB reaches 30% of the 1000 MiB/s plateau and 8 KiB 11%.
func gpfsCurve() []knee.Point {
	return points(kib, 20, 40, 70, 110, 160, 210, 260, 300, 380, 460, 550, 650, 760, 880, 990, 1000, 1000)
}

// ext4Curve saturates early: y = 1000 (1 - exp(-s/16 KiB)), knee 64 KiB;
// 128 KiB is on the plateau, 8 KiB reaches 39%.
func ext4Curve() []knee.Point {
	return sweep(kib, 64*mib, func(s int64) float64 { return 1000 * (1 - math.Exp(-float64(s)/(16*kib))) })
}

// roundFactors is the run-to-run noise of the synthetic rounds: fixed, so
// tests are deterministic, and about 1.5% CV.
var roundFactors = []float64{1.0, 0.98, 1.02, 0.99, 1.01, 0.985, 1.015}

// noisy repeats a curve for n rounds, each run scaled by a factor that
// depends on the round and the size, as the file system's noise would.
func noisy(curve []knee.Point, n int) []knee.Runs {
	runs := make([]knee.Runs, len(curve))
	for i, p := range curve {
		runs[i].Size = p.Size
		for r := range n {
			runs[i].MiBPerSec = append(runs[i].MiBPerSec, p.MiBPerSec*roundFactors[(r+i)%len(roundFactors)])
		}
	}
	return runs
}

func recommend(runs []knee.Runs, fs fsinfo.Info) (*advice.Recommendation, knee.Estimate) {
	k := knee.EstimateKnee(runs, 0)
	return advice.Recommend(k, runs, fs), k
}

// verdicts is what a test of Recommend checks besides the summary.
type verdicts struct {
	BufferSize                  int64
	Basis, Shape                string
	Established                 bool
	Unformatted, Formatted      string
	Export, FormattedExport     string
	UnformattedPct, FormattedPc int
}

func verdictsOf(r *advice.Recommendation, k knee.Estimate) verdicts {
	g := r.Gfortran
	pct := func(v float64) int { return int(math.Round(100 * v / k.PlateauMiBPerSec)) }
	return verdicts{
		BufferSize: r.BufferSize, Basis: r.Basis, Shape: r.Shape, Established: r.KneeEstablished,
		Unformatted: g.Verdict, Formatted: g.FormattedVerdict, Export: g.Export, FormattedExport: g.FormattedExport,
		UnformattedPct: pct(g.UnformattedDefaultMiBPerSec), FormattedPc: pct(g.FormattedDefaultMiBPerSec),
	}
}

func TestRecommend(t *testing.T) {
	gpfs := fsinfo.Info{Magic: fsinfo.MagicGPFS, BlockSize: 16 * mib, IOBlockSize: 4 * mib}
	ext4 := fsinfo.Info{Magic: fsinfo.MagicExt4, BlockSize: 4096, IOBlockSize: 4096}
	tests := []struct {
		name     string
		curve    []knee.Point
		rounds   int
		fs       fsinfo.Info
		want     verdicts
		summary  string
		blockSay string
	}{
		{
			name: "gpfs: default far below the plateau, 3 rounds", curve: gpfsCurve(), rounds: 3, fs: gpfs,
			want: verdicts{BufferSize: 16 * mib, Basis: advice.BasisKnee, Shape: knee.ShapePlateau, Established: true,
				Unformatted: advice.VerdictExport, Formatted: advice.VerdictExport,
				Export: "export GFORTRAN_UNFORMATTED_BUFFER_SIZE=16777216", FormattedExport: "export GFORTRAN_FORMATTED_BUFFER_SIZE=16777216",
				UnformattedPct: 30, FormattedPc: 11},
			summary: "Use writes of at least 16 MiB (16777216 bytes): from there the curve is within noise of 95% of the 990.0 MiB/s plateau. " +
				"libgfortran's 128 KiB unformatted buffer reaches only 30% of the plateau: export GFORTRAN_UNFORMATTED_BUFFER_SIZE=16777216 (about 3.3x faster, 3.2-3.5x); " +
				"for formatted files also export GFORTRAN_FORMATTED_BUFFER_SIZE=16777216 (the 8 KiB buffer reaches 11%; about 9.1x faster, 8.8-9.4x).",
			blockSay: "knee 16 MiB matches f_bsize 16 MiB; st_blksize 4 MiB is below it",
		},
		{
			name: "gpfs: one round cannot justify an export", curve: gpfsCurve(), rounds: 1, fs: gpfs,
			want: verdicts{BufferSize: 16 * mib, Basis: advice.BasisKnee, Shape: knee.ShapePlateau,
				Unformatted: advice.VerdictUndecided, Formatted: advice.VerdictUndecided, UnformattedPct: 30, FormattedPc: 11},
			summary: "Use writes of at least 16 MiB (16777216 bytes): from there the curve is within noise of 95% of the 990.0 MiB/s plateau. " +
				"This knee is not established (likely between 1 MiB and 64 MiB): one round cannot establish a knee, there is no run-to-run noise to judge by. " +
				"libgfortran's 128 KiB unformatted buffer measured 30% of the plateau, but the runs are too few to tell (1 of it, 3 of the plateau; 3 each are needed): " +
				"no change is advised until more rounds tell; the 8 KiB formatted buffer measured 11% of the plateau, " +
				"but the runs are too few to tell (1 of it, 3 of the plateau; 3 each are needed): no change is advised until more rounds tell.",
			blockSay: "knee 16 MiB matches f_bsize 16 MiB; st_blksize 4 MiB is below it",
		},
		{
			name: "ext4: the unformatted default is within noise of the best", curve: ext4Curve(), rounds: 3, fs: ext4,
			want: verdicts{BufferSize: 64 * kib, Basis: advice.BasisKnee, Shape: knee.ShapePlateau, Established: true,
				Unformatted: advice.VerdictEnough, Formatted: advice.VerdictExport,
				FormattedExport: "export GFORTRAN_FORMATTED_BUFFER_SIZE=65536", UnformattedPct: 100, FormattedPc: 39},
			summary: "Use writes of at least 64 KiB (65536 bytes): from there the curve is within noise of 95% of the 1000.0 MiB/s plateau. " +
				"libgfortran's 128 KiB unformatted buffer is at or above the knee (100% of the plateau): no change is needed; " +
				"for formatted files also export GFORTRAN_FORMATTED_BUFFER_SIZE=65536 (the 8 KiB buffer reaches 39%; about 2.6x faster, 2.5-2.6x).",
			blockSay: "knee 64 KiB matches neither block size; f_bsize 4 KiB is below it; st_blksize 4 KiB is below it",
		},
		{
			name: "flat: any size works", curve: sweep(kib, 64*mib, func(int64) float64 { return 1000 }), rounds: 3, fs: ext4,
			want: verdicts{BufferSize: kib, Basis: advice.BasisSmallest, Shape: knee.ShapeFlat, Established: true,
				Unformatted: advice.VerdictEnough, Formatted: advice.VerdictEnough, UnformattedPct: 100, FormattedPc: 99},
			summary: "Any write size from 1 KiB (1024 bytes) to 64 MiB works: every size reaches 95% of the 1000.0 MiB/s plateau within noise, so the smallest is recommended. " +
				"libgfortran's 128 KiB unformatted buffer is at or above the knee (100% of the plateau): no change is needed; " +
				"the 8 KiB formatted buffer is at or above the knee (99% of the plateau): no change is needed.",
			blockSay: "the curve is flat: its knee is only the smallest size measured and says nothing about the block sizes",
		},
		{
			name: "declines past the default: export a smaller buffer",
			// In cache up to 64 KiB, slower from 128 KiB on.
			curve:  points(kib, 300, 500, 700, 850, 960, 1000, 1000, 600, 550, 520, 500, 500, 500, 500, 500, 500, 500),
			rounds: 3, fs: fsinfo.Info{Magic: fsinfo.MagicTmpfs, BlockSize: 4096, IOBlockSize: 4096},
			want: verdicts{BufferSize: 16 * kib, Basis: advice.BasisKnee, Shape: knee.ShapeDeclines, Established: true,
				Unformatted: advice.VerdictExport, Formatted: advice.VerdictExport,
				Export: "export GFORTRAN_UNFORMATTED_BUFFER_SIZE=16384", FormattedExport: "export GFORTRAN_FORMATTED_BUFFER_SIZE=16384",
				UnformattedPct: 60, FormattedPc: 84},
			summary: "Use writes of 16 KiB (16384 bytes), the knee: from there the curve is within noise of 95% of the 1000.0 MiB/s plateau, which lasts up to 64 KiB; larger writes are slower again (best 1000.0 MiB/s at 32 KiB). " +
				"libgfortran's 128 KiB unformatted buffer reaches only 60% of the plateau: export GFORTRAN_UNFORMATTED_BUFFER_SIZE=16384 (about 1.6x faster, 1.6-1.7x); " +
				"for formatted files also export GFORTRAN_FORMATTED_BUFFER_SIZE=16384 (the 8 KiB buffer reaches 84%; about 1.2x faster, 1.1-1.2x).",
			blockSay: "knee 16 KiB matches neither block size; f_bsize 4 KiB is below it; st_blksize 4 KiB is below it",
		},
		{
			name: "rising: no buffer size, and why",
			// 100 MiB/s per power of two, still climbing at 64 MiB.
			curve:  sweep(kib, 64*mib, func(s int64) float64 { return 100 * (1 + math.Log2(float64(s)/kib)) }),
			rounds: 3, fs: gpfs,
			want: verdicts{Basis: advice.BasisNone, Shape: knee.ShapeRising,
				Unformatted: advice.VerdictNoKnee, Formatted: advice.VerdictNoKnee, UnformattedPct: 47, FormattedPc: 23},
			summary:  "No buffer size recommended: no plateau reached: throughput still rising at 64 MiB (1717.0 MiB/s, 1584.0 at 32 MiB); extend the sweep to larger sizes.",
			blockSay: "no knee to compare with the block sizes",
		},
		{
			name: "too few points", curve: points(mib, 500, 900), rounds: 3, fs: gpfs,
			want: verdicts{Basis: advice.BasisNone, Shape: knee.ShapeTooFewPoints,
				Unformatted: advice.VerdictNoKnee, Formatted: advice.VerdictNoKnee},
			summary:  "No buffer size recommended: need at least 3 write sizes to find a knee, got 2; measure more sizes.",
			blockSay: "no knee to compare with the block sizes",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, k := recommend(noisy(tt.curve, tt.rounds), tt.fs)
			if r == nil {
				t.Fatal("Recommend returned nil")
			}
			got := verdictsOf(r, k)
			if k.PlateauMiBPerSec == 0 {
				got.UnformattedPct, got.FormattedPc = 0, 0
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Recommend mismatch (-want +got):\n%s\nknee: %+v", diff, k)
			}
			if r.Summary != tt.summary {
				t.Errorf("Summary:\n got %q\nwant %q", r.Summary, tt.summary)
			}
			if r.BlockSizes.Note != tt.blockSay {
				t.Errorf("BlockSizes.Note = %q, want %q", r.BlockSizes.Note, tt.blockSay)
			}
		})
	}
}

// TestExportOnlyWithSignificantGain: the same 85% default earns an export
// with enough runs and none with two, where noise could explain it.
func TestExportOnlyWithSignificantGain(t *testing.T) {
	curve := points(kib, 300, 500, 700, 800, 850, 870, 880, 850, 1000, 1000, 1000, 1000, 1000, 1000)
	for _, tt := range []struct {
		rounds int
		want   string
	}{{2, advice.VerdictUndecided}, {5, advice.VerdictExport}} {
		r, _ := recommend(noisy(curve, tt.rounds), fsinfo.Info{})
		g := r.Gfortran
		if g.Verdict != tt.want || (g.Export != "") != (tt.want == advice.VerdictExport) {
			t.Errorf("%d rounds: verdict %q, export %q; want %q", tt.rounds, g.Verdict, g.Export, tt.want)
		}
		if g.Gain == nil || g.Gain.Low > g.Gain.Ratio || g.Gain.Ratio > g.Gain.High {
			t.Errorf("%d rounds: gain %+v: the ratio must lie in its interval", tt.rounds, g.Gain)
		}
	}
}

// TestInterpolation reads the defaults off a sweep in steps of 4x, which
// measures neither 8 KiB nor 128 KiB: the figures are interpolated, and
// an interpolated figure is never tested against the plateau.
func TestInterpolation(t *testing.T) {
	var curve []knee.Point
	for i, y := range []float64{100, 200, 400, 600, 800, 1000, 1000, 1000} {
		curve = append(curve, knee.Point{Size: kib << (2 * i), MiBPerSec: y}) // 1 KiB, 4 KiB, ... 16 MiB
	}
	tests := []struct {
		name      string
		curve     []knee.Point
		unf, form float64
		wantNote  string
	}{
		// 128 KiB is halfway (in log2) from 64 KiB (600) to 256 KiB (800);
		// 8 KiB halfway from 4 KiB (200) to 16 KiB (400).
		{"between neighbours", curve, 700, 300, interpolatedNote},
		{"unsorted input", []knee.Point{curve[5], curve[2], curve[7], curve[0], curve[3], curve[1], curve[6], curve[4]}, 700, 300, interpolatedNote},
		{"defaults below the sweep", curve[4:], 0, 0,
			"the unformatted default (128 KiB) is outside the measured range 256 KiB .. 16 MiB; include it in the sizes measured to compare; " +
				"the formatted default (8 KiB) is outside the measured range 256 KiB .. 16 MiB; include it in the sizes measured to compare"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var runs []knee.Runs
			for _, p := range tt.curve {
				runs = append(runs, knee.Runs{Size: p.Size, MiBPerSec: []float64{p.MiBPerSec, p.MiBPerSec * 0.99, p.MiBPerSec * 1.01}})
			}
			r, _ := recommend(runs, fsinfo.Info{})
			g := r.Gfortran
			got := []float64{g.UnformattedDefaultMiBPerSec, g.FormattedDefaultMiBPerSec}
			if diff := cmp.Diff([]float64{tt.unf, tt.form}, got, approx); diff != "" {
				t.Errorf("throughput at 128 KiB and 8 KiB mismatch (-want +got):\n%s", diff)
			}
			if g.Verdict != advice.VerdictNotMeasured || g.Export != "" || g.Note != tt.wantNote {
				t.Errorf("Verdict = %q, Export = %q, Note = %q; want not measured, no export, note %q", g.Verdict, g.Export, g.Note, tt.wantNote)
			}
		})
	}
}

func TestBlockSizes(t *testing.T) {
	tests := []struct {
		name       string
		knee       int64
		fBsize     int64
		stBlksize  int64
		wantAgrees string
		wantNote   string
	}{
		{"both", 4 * mib, 4 * mib, 4 * mib, "both",
			"knee 4 MiB matches f_bsize 4 MiB and st_blksize 4 MiB"},
		{"f_bsize only", 16 * mib, 16 * mib, 4 * mib, "f_bsize",
			"knee 16 MiB matches f_bsize 16 MiB; st_blksize 4 MiB is below it"},
		{"st_blksize only", 2 * mib, 16 * mib, 2 * mib, "st_blksize",
			"knee 2 MiB matches st_blksize 2 MiB; f_bsize 16 MiB is above it"},
		{"within a factor 2", 16 * mib, 8 * mib, 32 * mib, "both",
			"knee 16 MiB matches f_bsize 8 MiB (within a factor 2) and st_blksize 32 MiB (within a factor 2)"},
		{"neither", 256 * kib, 4 * kib, 4 * mib, "neither",
			"knee 256 KiB matches neither block size; f_bsize 4 KiB is below it; st_blksize 4 MiB is above it"},
		{"unknown", 256 * kib, 0, 0, "neither",
			"knee 256 KiB matches neither block size; f_bsize is unknown; st_blksize is unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := knee.Estimate{Result: knee.Result{Found: true, Shape: knee.ShapePlateau, WriteSize: tt.knee, PlateauMiBPerSec: 1000, Fraction: 0.95}}
			got := advice.Recommend(k, nil, fsinfo.Info{BlockSize: tt.fBsize, IOBlockSize: tt.stBlksize}).BlockSizes
			want := advice.BlockSizes{FBsize: tt.fBsize, StBlksize: tt.stBlksize, AgreesWith: tt.wantAgrees, Note: tt.wantNote}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("BlockSizes mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestZeroResult: a caller that never estimated a knee still gets advice, not nil.
func TestZeroResult(t *testing.T) {
	r := advice.Recommend(knee.Estimate{}, nil, fsinfo.Info{})
	if r == nil || r.BufferSize != 0 || r.Summary != "No buffer size recommended: no knee was found." {
		t.Errorf("Recommend(zero) = %+v", r)
	}
}

// TestForgivenOutlier: one slow run at 128 KiB does not make advice
// contradict the knee by exporting.
func TestForgivenOutlier(t *testing.T) {
	runs := noisy(ext4Curve(), 3)
	for i := range runs {
		if runs[i].Size == 128*kib {
			runs[i].MiBPerSec[1] = 500
		}
	}
	r, k := recommend(runs, fsinfo.Info{})
	if k.WriteSize != 64*kib {
		t.Fatalf("knee = %d, want the slow run forgiven and the knee at 64 KiB: %+v", k.WriteSize, k)
	}
	if g := r.Gfortran; !g.DefaultIsEnough || g.Export != "" {
		t.Errorf("DefaultIsEnough = %v, Export = %q; want true and none", g.DefaultIsEnough, g.Export)
	}
}

// TestProvisional: advice from a knee that is not established says so,
// with the interval.
func TestProvisional(t *testing.T) {
	k := knee.Estimate{
		Result: knee.Result{Found: true, Shape: knee.ShapePlateau, WriteSize: mib, PlateauMiBPerSec: 1000, Fraction: 0.95},
		CILow:  512 * kib, CIHigh: 2 * mib, Rounds: 3, NoiseCV: 0.12, Status: knee.StatusWide, RoundsNeeded: 8,
	}
	r := advice.Recommend(k, nil, fsinfo.Info{})
	want := "This knee is not established (likely between 512 KiB and 2 MiB): not established after 3 rounds (noise CV 12.0%): the sizes around it cannot be told apart; about 8 rounds would establish it."
	if r.KneeEstablished || !strings.Contains(r.Summary, want) {
		t.Errorf("Summary = %q\nwant it to contain %q", r.Summary, want)
	}
}

const interpolatedNote = "the unformatted default (128 KiB) was not measured; its figure is interpolated between the neighbouring sizes, and only a measured size is tested against the plateau (add it to the sizes measured); " +
	"the formatted default (8 KiB) was not measured; its figure is interpolated between the neighbouring sizes, and only a measured size is tested against the plateau (add it to the sizes measured)"
