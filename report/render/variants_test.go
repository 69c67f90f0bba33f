package report

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/iobench/iobench/iobench"
)

// variantsReport is fixedReport as `--convert native,big-endian`: both
// variants at every size of every round, interleaved; big-endian is held
// to about 1200 MiB/s by the byte swap from 256 KiB up.
func variantsReport() *Report {
	r := fixedReport()
	r.Command = []string{"/home/alice/go/bin/iobench", "sweep", "--dir", "/scratch/alice/run1", "--size", "256MiB",
		"--repeat", "3", "--convert", "native,big-endian"}
	r.Config.Sizes, r.Config.Repeat = iobench.PowersOfTwo(4<<10, 16<<20), 5
	r.Config.Variants = []ConfigVariant{
		{Name: "convert=native", ElementType: "float64", ElementSize: 8, Count: 32 << 20, Convert: "native"},
		{Name: "convert=big-endian", ElementType: "float64", ElementSize: 8, Count: 32 << 20, Convert: "big-endian"},
	}
	r.Warnings = nil
	rate := func(variant string, size int64) float64 {
		v := 2000 * float64(size) / float64(size+64<<10)
		if variant == "convert=big-endian" {
			v = math.Min(v*0.97, 1200)
		}
		return v
	}
	res := &iobench.Result{WarmupRan: true, Variants: []string{"convert=native", "convert=big-endian"},
		VariantConvertMiBPerSec: map[string]map[int64]float64{"convert=big-endian": {}}}
	seq := 0
	for round := 1; round <= r.Config.Repeat; round++ {
		for i, size := range r.Config.Sizes {
			for _, v := range res.Variants {
				seq++
				mibps := rate(v, size) * roundFactor(round, i)
				secs := float64(r.Config.TotalBytes) / (mibps * iobench.MiB)
				start := fixtureStart.Add(time.Duration(seq) * time.Second)
				res.Samples = append(res.Samples, iobench.Sample{
					Run:     iobench.Run{Mode: iobench.ModeWrite, WriteSize: size, Round: round, Seq: seq, Variant: v},
					Seconds: secs, Bytes: r.Config.TotalBytes, Calls: r.Config.TotalBytes / size,
					Start: start, End: start.Add(time.Duration(secs * float64(time.Second))),
				})
			}
			res.VariantConvertMiBPerSec["convert=big-endian"][size] = 5200
		}
	}
	r.SetResult(res)
	return r
}

// jobsReport is fixedReport with --jobs 2: each sample an aggregate of two
// writers, job 1 the slower.
func jobsReport() *Report {
	r := fixedReport()
	r.Command = []string{"/home/alice/go/bin/iobench", "sweep", "--dir", "/scratch/alice/run1", "--size", "256MiB", "--repeat", "3", "--jobs", "2"}
	r.Config.Jobs = 2
	r.Config.Sizes = iobench.PowersOfTwo(4<<10, 4<<20)
	r.Warnings = nil
	res := &iobench.Result{WarmupRan: true}
	res.Samples = fixtureSamples(r.Config, []iobench.Mode{iobench.ModeWrite}, func(_ iobench.Mode, size int64) float64 {
		return 3000 * float64(size) / float64(size+64<<10)
	})
	res.Jobs = &iobench.JobsResult{Jobs: 2}
	for _, s := range res.Samples {
		m := s.MiBPerSec()
		res.Jobs.PerJob = append(res.Jobs.PerJob, iobench.RankSpread{Run: s.Run, MinMiBPerSec: 0.45 * m, MedianMiBPerSec: 0.5 * m, MaxMiBPerSec: 0.55 * m, SlowestRank: 1})
	}
	r.SetResult(res)
	return r
}

// TestVariantsReport: one curve per variant with its own knee, the ratios
// with intervals, and the recommendation from the first variant.
func TestVariantsReport(t *testing.T) {
	r := variantsReport()
	if len(r.Variants) != 2 || r.Variants[0].Name != "convert=native" {
		t.Fatalf("Variants = %+v", r.Variants)
	}
	if r.Knee.WriteSize != r.Variants[0].Knee.WriteSize {
		t.Errorf("Knee %d is not the first variant's %d", r.Knee.WriteSize, r.Variants[0].Knee.WriteSize)
	}
	if len(r.Ratios) != len(r.Config.Sizes) {
		t.Fatalf("%d ratios, want one per size (%d)", len(r.Ratios), len(r.Config.Sizes))
	}
	last := r.Ratios[len(r.Ratios)-1]
	if last.Variant != "convert=big-endian" || last.Ratio > 0.7 || !last.Differs || last.CILow > last.Ratio || last.CIHigh < last.Ratio {
		t.Errorf("ratio at the largest size: %+v, want about 0.6x, measurably different, inside its interval", last)
	}
	if first := r.Ratios[0]; first.Differs {
		t.Errorf("ratio at 4 KiB %+v: 0.97x in 3 noisy rounds should not count as measurably different", first)
	}
	var text strings.Builder
	if err := Text(&text, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\nwrite, convert=native\n", "\nwrite, convert=big-endian\n", "each variant over convert=native",
		"the recommendation is from the first variant, convert=native"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q", want)
		}
	}
	if got := len(ExpandVariants([]Run{{"a.json", r}})); got != 2 {
		t.Errorf("ExpandVariants gave %d runs, want 2", got)
	}
}
