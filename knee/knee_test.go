package knee_test

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/iobench/iobench/knee"
)

const (
	kib = 1 << 10
	mib = 1 << 20

	// s0 of the synthetic saturating curve. y >= 0.95 P needs s >= s0*ln 20
	// (about 168 KiB), so on a power-of-two sweep the knee is 256 KiB, where
	// y = 0.990 P; the size below, 128 KiB, has y = 0.898 P. Both sit clear
	// of the band edge by more than the 3% noise.
	s0       = 56 * kib
	wantKnee = 256 * kib
	plateau  = 1000.0
)

// sweep calls f for each power-of-two size from 1 KiB to 64 MiB, the
// default range of iobench.
func sweep(f func(size int64) float64) []knee.Point {
	var pts []knee.Point
	for s := int64(kib); s <= 64*mib; s *= 2 {
		pts = append(pts, knee.Point{Size: s, MiBPerSec: f(s)})
	}
	return pts
}

// saturating is y = P (1 - exp(-s/s0)), the shape of a fixed per-call cost
// amortised over ever larger writes.
func saturating(scale float64) []knee.Point {
	return sweep(func(s int64) float64 { return plateau * (1 - math.Exp(-float64(s)/scale)) })
}

// noisy multiplies every point by a deterministic factor in [1-amp, 1+amp].
func noisy(pts []knee.Point, amp float64, seed uint64) []knee.Point {
	rng := rand.New(rand.NewPCG(seed, 0x10be4c))
	out := make([]knee.Point, len(pts))
	for i, p := range pts {
		out[i] = knee.Point{Size: p.Size, MiBPerSec: p.MiBPerSec * (1 + amp*(2*rng.Float64()-1))}
	}
	return out
}

// with returns a copy of pts with the throughput at size replaced.
func with(pts []knee.Point, size int64, v float64) []knee.Point {
	out := append([]knee.Point(nil), pts...)
	for i := range out {
		if out[i].Size == size {
			out[i].MiBPerSec = v
		}
	}
	return out
}

// elbow rises linearly in log2(size) from 100 MiB/s at 1 KiB to the plateau
// at 64 KiB, then stays flat: a curve with one unambiguous corner.
func elbow() []knee.Point {
	return sweep(func(s int64) float64 {
		i := math.Log2(float64(s) / kib)
		return 100 + 900*min(i, 6)/6
	})
}

// outcome is the part of a Result that names sizes and shapes; throughputs
// are checked separately, with a tolerance.
type outcome struct {
	Found         bool
	Shape         string
	WriteSize     int64
	DeclinesAbove int64
	KneedleFound  bool
	KneedleSize   int64
}

func outcomeOf(r knee.Result) outcome {
	return outcome{r.Found, r.Shape, r.WriteSize, r.DeclinesAbove, r.KneedleFound, r.KneedleSize}
}

func TestFind(t *testing.T) {
	clean := saturating(s0)
	cleanWant := outcome{true, knee.ShapePlateau, wantKnee, 0, true, wantKnee}
	reversed := append([]knee.Point(nil), clean...)
	for i, j := 0, len(reversed)-1; i < j; i, j = i+1, j-1 {
		reversed[i], reversed[j] = reversed[j], reversed[i]
	}
	shuffled := append([]knee.Point(nil), clean...)
	rand.New(rand.NewPCG(7, 7)).Shuffle(len(shuffled), func(i, j int) {
		shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
	})
	junk := append(append([]knee.Point(nil), shuffled...),
		knee.Point{Size: 0, MiBPerSec: 5000},
		knee.Point{Size: -4096, MiBPerSec: 5000},
		knee.Point{Size: 4 * mib, MiBPerSec: math.NaN()},
		knee.Point{Size: 8 * mib, MiBPerSec: math.Inf(1)},
		knee.Point{Size: 16 * mib, MiBPerSec: -1},
	)

	tests := []struct {
		name    string
		points  []knee.Point
		want    outcome
		plateau float64 // 0: do not check
		reason  string  // substring of Reason
	}{
		{"clean saturating", clean, cleanWant, plateau, "reaches 95% of the 1000.0 MiB/s plateau at 256 KiB"},
		{"3% noise, fixed seed", noisy(clean, 0.03, 1), cleanWant, 0, "at 256 KiB"},
		{"unsorted (reversed)", reversed, cleanWant, plateau, ""},
		{"unsorted (shuffled)", shuffled, cleanWant, plateau, ""},
		{"invalid points ignored", junk, cleanWant, plateau, ""},

		// One bad run must not move the knee.
		{"high outlier on plateau", with(clean, 4*mib, 3*plateau), cleanWant, plateau, ""},
		{"two high outliers on plateau", with(with(clean, 1*mib, 3*plateau), 16*mib, 3*plateau), cleanWant, plateau, ""},
		{"high outlier at largest size", with(clean, 64*mib, 3*plateau), cleanWant, plateau, ""},
		{"high outlier at small size", with(clean, 4*kib, 3*plateau), cleanWant, plateau, ""},
		{"low outlier at large size", with(clean, 16*mib, 0.3*plateau), cleanWant, plateau, ""},
		{"low outlier at largest size", with(clean, 64*mib, 0.3*plateau), cleanWant, plateau, ""},
		{"low outlier with noise", with(noisy(clean, 0.03, 1), 32*mib, 0.5*plateau), cleanWant, 0, ""},
		// Right beside the knee the plateau rule still holds, but Kneedle,
		// which runs on the running median, moves one size.
		{
			"high outlier two sizes below knee", with(clean, wantKnee/4, 3*plateau),
			outcome{true, knee.ShapePlateau, wantKnee, 0, true, wantKnee / 2}, plateau, "",
		},
		{
			"high outlier just below knee", with(clean, wantKnee/2, 3*plateau),
			outcome{true, knee.ShapePlateau, wantKnee, 0, true, wantKnee / 2}, plateau, "",
		},
		{
			"low outlier just above knee", with(clean, 2*wantKnee, 0.3*plateau),
			outcome{true, knee.ShapePlateau, wantKnee, 0, true, 2 * wantKnee}, plateau, "",
		},
		// Documented limits. An outlier at the knee itself cannot be told
		// from a later knee, and the knee moves up one size.
		{
			"low outlier at knee", with(clean, wantKnee, 0.3*plateau),
			outcome{true, knee.ShapePlateau, 2 * wantKnee, 0, true, 2 * wantKnee}, plateau, "",
		},
		{
			"high outlier at knee", with(clean, wantKnee, 3*plateau),
			outcome{true, knee.ShapePlateau, 2 * wantKnee, 0, true, wantKnee}, plateau, "",
		},
		// A run that lands inside the band just below the knee is an
		// earlier knee as far as the data can tell.
		{
			"in-band high outlier just below knee", with(clean, wantKnee/2, plateau),
			outcome{true, knee.ShapePlateau, wantKnee / 2, 0, true, wantKnee / 2}, plateau, "",
		},

		{
			"dip at large sizes",
			with(with(clean, 32*mib, 0.6*plateau), 64*mib, 0.5*plateau),
			outcome{true, knee.ShapeDeclines, wantKnee, 16 * mib, true, wantKnee}, plateau,
			"throughput declines above 16 MiB",
		},
		{
			"decline over the top third",
			sweep(func(s int64) float64 {
				y := plateau * (1 - math.Exp(-float64(s)/s0))
				if s > 2*mib {
					y *= math.Pow(0.9, math.Log2(float64(s)/(2*mib)))
				}
				return y
			}),
			outcome{true, knee.ShapeDeclines, wantKnee, 2 * mib, true, wantKnee}, plateau,
			"590.5 MiB/s at 64 MiB (below 95% of the",
		},
		{
			"flat",
			noisy(sweep(func(int64) float64 { return plateau }), 0.02, 3),
			outcome{true, knee.ShapeFlat, kib, 0, false, 0}, 0,
			"no sensitivity to write size in this range",
		},
		{
			"rising at the largest size",
			saturating(16 * mib),
			outcome{false, knee.ShapeRising, 0, 0, false, 0}, 0,
			"no plateau reached: throughput still rising at 64 MiB",
		},
		{
			"rising linearly in log2 size",
			sweep(func(s int64) float64 { return 10 * math.Log2(float64(s)/512) }),
			outcome{false, knee.ShapeRising, 0, 0, false, 0}, 0,
			"no plateau reached",
		},
		{
			"elbow",
			elbow(),
			outcome{true, knee.ShapePlateau, 64 * kib, 0, true, 64 * kib}, plateau,
			"",
		},
		{"no points", nil, outcome{Shape: knee.ShapeTooFewPoints}, 0, "need at least 3 write sizes to find a knee, got 0"},
		{"one point", clean[:1], outcome{Shape: knee.ShapeTooFewPoints}, 0, "got 1"},
		{"two points", clean[:2], outcome{Shape: knee.ShapeTooFewPoints}, 0, "got 2"},
		{"two usable points", junk[len(junk)-7:], outcome{Shape: knee.ShapeTooFewPoints}, 0, "got 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := knee.Find(tt.points, knee.DefaultFraction)
			if diff := cmp.Diff(tt.want, outcomeOf(got)); diff != "" {
				t.Errorf("Find() mismatch (-want +got):\n%s\nreason: %s", diff, got.Reason)
			}
			if tt.plateau != 0 && math.Abs(got.PlateauMiBPerSec-tt.plateau) > 1e-3*tt.plateau {
				t.Errorf("PlateauMiBPerSec = %v, want %v", got.PlateauMiBPerSec, tt.plateau)
			}
			if !strings.Contains(got.Reason, tt.reason) {
				t.Errorf("Reason = %q, want it to contain %q", got.Reason, tt.reason)
			}
		})
	}
}

// TestFindFullResult pins every field, including the measured (unsmoothed)
// throughputs and the Reason text, on a small hand-checked curve.
//
// Smoothed: 100 300 700 950 980 980 700 600; the top band (>= 931) is
// 950 980 980, so the plateau is 980 and the threshold 931.
func TestFindFullResult(t *testing.T) {
	var pts []knee.Point
	for i, v := range []float64{100, 300, 700, 950, 1000, 980, 700, 600} {
		pts = append(pts, knee.Point{Size: kib << i, MiBPerSec: v})
	}
	want := knee.Result{
		Found:            true,
		WriteSize:        8 * kib,
		MiBPerSec:        950,
		PlateauMiBPerSec: 980,
		Fraction:         0.95,
		Reason: "throughput declines above 32 KiB: best 1000.0 MiB/s at 16 KiB, 600.0 MiB/s at 128 KiB " +
			"(below 95% of the 980.0 MiB/s plateau); knee at 8 KiB",
		Shape:         knee.ShapeDeclines,
		BestSize:      16 * kib,
		BestMiBPerSec: 1000,
		DeclinesAbove: 32 * kib,
		KneedleFound:  true,
		KneedleSize:   8 * kib,
	}
	// A zero fraction means DefaultFraction.
	got := knee.Find(pts, 0)
	if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
		t.Errorf("Find() mismatch (-want +got):\n%s", diff)
	}
}

// TestResultJSON pins the JSON field names the reporters depend on.
func TestResultJSON(t *testing.T) {
	r := knee.Result{
		Found: true, WriteSize: 8192, MiBPerSec: 950, PlateauMiBPerSec: 980, Fraction: 0.95,
		Reason: "r", Shape: knee.ShapeDeclines, BestSize: 16384, BestMiBPerSec: 1000,
		DeclinesAbove: 32768, KneedleFound: true, KneedleSize: 8192,
	}
	got, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"found":true,"write_size":8192,"mib_per_s":950,"plateau_mib_per_s":980,"fraction":0.95,` +
		`"reason":"r","shape":"declines","best_write_size":16384,"best_mib_per_s":1000,` +
		`"declines_above":32768,"kneedle_found":true,"kneedle_write_size":8192}`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("json.Marshal(Result) mismatch (-want +got):\n%s", diff)
	}
	got, err = json.Marshal(knee.Result{Shape: knee.ShapeTooFewPoints})
	if err != nil {
		t.Fatal(err)
	}
	want = `{"found":false,"write_size":0,"mib_per_s":0,"plateau_mib_per_s":0,"fraction":0,` +
		`"shape":"too_few_points","best_write_size":0,"best_mib_per_s":0,"kneedle_found":false}`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("json.Marshal(empty Result) mismatch (-want +got):\n%s", diff)
	}
}

func TestFindFraction(t *testing.T) {
	clean := saturating(s0)
	tests := []struct {
		fraction     float64
		wantFraction float64
		wantSize     int64
	}{
		{0.95, 0.95, wantKnee},
		{0.80, 0.80, 128 * kib}, // y(128 KiB) = 0.898 P
		{0.99, 0.99, 512 * kib}, // y(256 KiB) = 0.990 P, just short
		{0, knee.DefaultFraction, wantKnee},
		{-1, knee.DefaultFraction, wantKnee},
		{1.5, knee.DefaultFraction, wantKnee},
		{math.NaN(), knee.DefaultFraction, wantKnee},
	}
	for _, tt := range tests {
		got := knee.Find(clean, tt.fraction)
		if got.Fraction != tt.wantFraction || got.WriteSize != tt.wantSize {
			t.Errorf("Find(fraction %v) = fraction %v, knee %d; want %v, %d",
				tt.fraction, got.Fraction, got.WriteSize, tt.wantFraction, tt.wantSize)
		}
	}
}

// TestFindNoiseRobust goes beyond the single seed of TestFind: over many
// seeds of 3% noise the knee should almost always stay put and never move by
// more than one size. Noise of +-3% against a 5% band cannot guarantee
// every seed: the knee point itself sits only 4% above the threshold.
func TestFindNoiseRobust(t *testing.T) {
	const seeds = 200
	clean := saturating(s0)
	same := 0
	for seed := range uint64(seeds) {
		got := knee.Find(noisy(clean, 0.03, seed), knee.DefaultFraction)
		if got.WriteSize == wantKnee {
			same++
		}
		if got.WriteSize < wantKnee/2 || got.WriteSize > wantKnee*2 {
			t.Errorf("seed %d: knee %d, more than one size from %d (%s)", seed, got.WriteSize, wantKnee, got.Reason)
		}
	}
	if same < seeds*97/100 {
		t.Errorf("knee unchanged in %d of %d seeds, want at least 97%%", same, seeds)
	}
}
