package advice_test

import (
	"math"
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

func TestRecommend(t *testing.T) {
	gpfs := fsinfo.Info{Magic: fsinfo.MagicGPFS, BlockSize: 16 * mib, IOBlockSize: 4 * mib}
	ext4 := fsinfo.Info{Magic: fsinfo.MagicExt4, BlockSize: 4096, IOBlockSize: 4096}
	tests := []struct {
		name  string
		curve []knee.Point
		fs    fsinfo.Info
		want  advice.Recommendation
	}{
		{
			name: "gpfs: default far below the plateau", curve: gpfsCurve(), fs: gpfs,
			want: advice.Recommendation{
				BufferSize: 16 * mib, Basis: advice.BasisKnee, Shape: knee.ShapePlateau,
				Summary: "Use writes of at least 16 MiB (16777216 bytes): they reach 95% of the 1000.0 MiB/s plateau. " +
					"libgfortran's 128 KiB unformatted buffer reaches only 30% of the plateau: " +
					"export GFORTRAN_UNFORMATTED_BUFFER_SIZE=16777216 (about 3.3x faster); " +
					"for formatted files also export GFORTRAN_FORMATTED_BUFFER_SIZE=16777216 (the 8 KiB buffer reaches 11%).",
				Gfortran: advice.Gfortran{
					UnformattedDefault: 131072, UnformattedDefaultMiBPerSec: 300,
					FormattedDefault: 8192, FormattedDefaultMiBPerSec: 110,
					Export:          "export GFORTRAN_UNFORMATTED_BUFFER_SIZE=16777216",
					ExpectedGain:    1000.0 / 300,
					FormattedExport: "export GFORTRAN_FORMATTED_BUFFER_SIZE=16777216",
				},
				BlockSizes: advice.BlockSizes{
					FBsize: 16 * mib, StBlksize: 4 * mib, AgreesWith: "f_bsize",
					Note: "knee 16 MiB matches f_bsize 16 MiB; st_blksize 4 MiB is below it",
				},
			},
		},
		{
			name: "ext4: the unformatted default is enough", curve: ext4Curve(), fs: ext4,
			want: advice.Recommendation{
				BufferSize: 64 * kib, Basis: advice.BasisKnee, Shape: knee.ShapePlateau,
				Summary: "Use writes of at least 64 KiB (65536 bytes): they reach 95% of the 1000.0 MiB/s plateau. " +
					"libgfortran's 128 KiB unformatted buffer is enough (100% of the plateau); " +
					"for formatted files also export GFORTRAN_FORMATTED_BUFFER_SIZE=65536 (the 8 KiB buffer reaches 39%).",
				Gfortran: advice.Gfortran{
					UnformattedDefault: 131072, UnformattedDefaultMiBPerSec: 1000 * (1 - math.Exp(-8)),
					FormattedDefault: 8192, FormattedDefaultMiBPerSec: 1000 * (1 - math.Exp(-0.5)),
					DefaultIsEnough: true,
					FormattedExport: "export GFORTRAN_FORMATTED_BUFFER_SIZE=65536",
				},
				BlockSizes: advice.BlockSizes{
					FBsize: 4096, StBlksize: 4096, AgreesWith: "neither",
					Note: "knee 64 KiB matches neither block size; f_bsize 4 KiB is below it; st_blksize 4 KiB is below it",
				},
			},
		},
		{
			name: "flat: any size works", curve: sweep(kib, 64*mib, func(int64) float64 { return 1000 }), fs: ext4,
			want: advice.Recommendation{
				BufferSize: kib, Basis: advice.BasisSmallest, Shape: knee.ShapeFlat,
				Summary: "Any write size from 1 KiB (1024 bytes) to 64 MiB works: every size reaches 95% of the 1000.0 MiB/s plateau, so the smallest is recommended. " +
					"libgfortran's 128 KiB unformatted buffer is enough (100% of the plateau).",
				Gfortran: advice.Gfortran{
					UnformattedDefault: 131072, UnformattedDefaultMiBPerSec: 1000,
					FormattedDefault: 8192, FormattedDefaultMiBPerSec: 1000,
					DefaultIsEnough: true,
				},
				BlockSizes: advice.BlockSizes{
					FBsize: 4096, StBlksize: 4096,
					Note: "the curve is flat: its knee is only the smallest size measured and says nothing about the block sizes",
				},
			},
		},
		{
			name: "rising: no buffer size, and why",
			// 100 MiB/s per power of two, still climbing at 64 MiB.
			curve: sweep(kib, 64*mib, func(s int64) float64 { return 100 * (1 + math.Log2(float64(s)/kib)) }), fs: gpfs,
			want: advice.Recommendation{
				Basis: advice.BasisNone, Shape: knee.ShapeRising,
				Summary: "No buffer size recommended: no plateau reached: throughput still rising at 64 MiB (1700.0 MiB/s, 1600.0 at 32 MiB); extend --max.",
				Gfortran: advice.Gfortran{
					UnformattedDefault: 131072, UnformattedDefaultMiBPerSec: 800,
					FormattedDefault: 8192, FormattedDefaultMiBPerSec: 400,
					Note: "no knee was found, so there is no buffer size to compare the defaults with",
				},
				BlockSizes: advice.BlockSizes{FBsize: 16 * mib, StBlksize: 4 * mib, Note: "no knee to compare with the block sizes"},
			},
		},
		{
			name: "too few points", curve: points(mib, 500, 900), fs: gpfs,
			want: advice.Recommendation{
				Basis: advice.BasisNone, Shape: knee.ShapeTooFewPoints,
				Summary: "No buffer size recommended: need at least 3 write sizes to find a knee, got 2; measure more sizes (--min/--max or --sizes).",
				Gfortran: advice.Gfortran{
					UnformattedDefault: 131072, FormattedDefault: 8192,
					Note: "the unformatted default (128 KiB) is outside the measured range 1 MiB .. 2 MiB; include it (--min/--max or --sizes) to compare; " +
						"the formatted default (8 KiB) is outside the measured range 1 MiB .. 2 MiB; include it (--min/--max or --sizes) to compare; " +
						"no knee was found, so there is no buffer size to compare the defaults with",
				},
				BlockSizes: advice.BlockSizes{FBsize: 16 * mib, StBlksize: 4 * mib, Note: "no knee to compare with the block sizes"},
			},
		},
		{
			name: "declines past the default: export a smaller buffer",
			// In cache up to 64 KiB, slower from 128 KiB on.
			curve: points(kib, 300, 500, 700, 850, 960, 1000, 1000, 600, 550, 520, 500, 500, 500, 500, 500, 500, 500),
			fs:    fsinfo.Info{Magic: fsinfo.MagicTmpfs, BlockSize: 4096, IOBlockSize: 4096},
			want: advice.Recommendation{
				BufferSize: 16 * kib, Basis: advice.BasisKnee, Shape: knee.ShapeDeclines,
				Summary: "Use writes of 16 KiB (16384 bytes), the knee: they reach 95% of the 1000.0 MiB/s plateau, which lasts up to 64 KiB; larger writes are slower again (best 1000.0 MiB/s at 32 KiB). " +
					"libgfortran's 128 KiB unformatted buffer reaches only 60% of the plateau: export GFORTRAN_UNFORMATTED_BUFFER_SIZE=16384 (about 1.7x faster); " +
					"for formatted files also export GFORTRAN_FORMATTED_BUFFER_SIZE=16384 (the 8 KiB buffer reaches 85%).",
				Gfortran: advice.Gfortran{
					UnformattedDefault: 131072, UnformattedDefaultMiBPerSec: 600,
					FormattedDefault: 8192, FormattedDefaultMiBPerSec: 850,
					Export:          "export GFORTRAN_UNFORMATTED_BUFFER_SIZE=16384",
					ExpectedGain:    1000.0 / 600,
					FormattedExport: "export GFORTRAN_FORMATTED_BUFFER_SIZE=16384",
				},
				BlockSizes: advice.BlockSizes{
					FBsize: 4096, StBlksize: 4096, AgreesWith: "neither",
					Note: "knee 16 KiB matches neither block size; f_bsize 4 KiB is below it; st_blksize 4 KiB is below it",
				},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := knee.Find(tt.curve, 0)
			got := advice.Recommend(k, tt.curve, tt.fs)
			if got == nil {
				t.Fatal("Recommend returned nil")
			}
			if diff := cmp.Diff(tt.want, *got, approx); diff != "" {
				t.Errorf("Recommend mismatch (-want +got):\n%s\nknee: %+v", diff, k)
			}
		})
	}
}

// TestInterpolation reads the defaults off a sweep in steps of 4x, which
// measures neither 8 KiB nor 128 KiB.
func TestInterpolation(t *testing.T) {
	var curve []knee.Point
	for i, y := range []float64{100, 200, 400, 600, 800, 1000, 1000, 1000} {
		curve = append(curve, knee.Point{Size: kib << (2 * i), MiBPerSec: y}) // 1 KiB, 4 KiB, ... 16 MiB
	}
	tests := []struct {
		name       string
		curve      []knee.Point
		unf, form  float64
		wantExport bool
		wantNote   string
	}{
		// 128 KiB is halfway (in log2) from 64 KiB (600) to 256 KiB (800);
		// 8 KiB halfway from 4 KiB (200) to 16 KiB (400).
		{"between neighbours", curve, 700, 300, true, interpolatedNote},
		{"unsorted input", []knee.Point{curve[5], curve[2], curve[7], curve[0], curve[3], curve[1], curve[6], curve[4]}, 700, 300, true, interpolatedNote},
		{"defaults below the sweep", curve[4:], 0, 0, false,
			"the unformatted default (128 KiB) is outside the measured range 256 KiB .. 16 MiB; include it (--min/--max or --sizes) to compare; " +
				"the formatted default (8 KiB) is outside the measured range 256 KiB .. 16 MiB; include it (--min/--max or --sizes) to compare"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := knee.Find(tt.curve, 0)
			g := advice.Recommend(k, tt.curve, fsinfo.Info{}).Gfortran
			got := []float64{g.UnformattedDefaultMiBPerSec, g.FormattedDefaultMiBPerSec}
			if diff := cmp.Diff([]float64{tt.unf, tt.form}, got, approx); diff != "" {
				t.Errorf("throughput at 128 KiB and 8 KiB mismatch (-want +got):\n%s", diff)
			}
			if (g.Export != "") != tt.wantExport || g.Note != tt.wantNote {
				t.Errorf("Export = %q, Note = %q; want export %v, note %q", g.Export, g.Note, tt.wantExport, tt.wantNote)
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
			k := knee.Result{Found: true, Shape: knee.ShapePlateau, WriteSize: tt.knee, PlateauMiBPerSec: 1000, Fraction: 0.95}
			got := advice.Recommend(k, nil, fsinfo.Info{BlockSize: tt.fBsize, IOBlockSize: tt.stBlksize}).BlockSizes
			want := advice.BlockSizes{FBsize: tt.fBsize, StBlksize: tt.stBlksize, AgreesWith: tt.wantAgrees, Note: tt.wantNote}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("BlockSizes mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestZeroResult: a caller that never ran Find still gets advice, not nil.
func TestZeroResult(t *testing.T) {
	r := advice.Recommend(knee.Result{}, nil, fsinfo.Info{})
	if r == nil || r.BufferSize != 0 || r.Summary != "No buffer size recommended: no knee was found." {
		t.Errorf("Recommend(zero) = %+v", r)
	}
}

// TestForgivenOutlier: one bad run at 128 KiB inside the knee's band does
// not make advice contradict the knee by exporting a size below it.
func TestForgivenOutlier(t *testing.T) {
	curve := ext4Curve()
	for i := range curve {
		if curve[i].Size == 128*kib {
			curve[i].MiBPerSec = 500
		}
	}
	k := knee.Find(curve, 0)
	if k.WriteSize != 64*kib {
		t.Fatalf("knee = %d, want the outlier forgiven and the knee at 64 KiB: %+v", k.WriteSize, k)
	}
	g := advice.Recommend(k, curve, fsinfo.Info{}).Gfortran
	if !g.DefaultIsEnough || g.Export != "" {
		t.Errorf("DefaultIsEnough = %v, Export = %q; want true and none", g.DefaultIsEnough, g.Export)
	}
}

const interpolatedNote = "the unformatted default (128 KiB) was not measured; its figure is interpolated between the neighbouring sizes; " +
	"the formatted default (8 KiB) was not measured; its figure is interpolated between the neighbouring sizes"
