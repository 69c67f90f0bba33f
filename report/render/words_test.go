package render

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/internal/fixture"
	"github.com/iobench/iobench/units"
)

// randomReport is a sweep of a random curve: a rise to a knee, sometimes a
// decline after it, with noise and an occasional slow run.
func randomReport(rng *rand.Rand) *report.Report {
	r := fixture.Ext4()
	r.Config.Repeat = 1 + rng.IntN(5)
	r.Config.TotalBytes = 64 << 20
	r.Warnings = nil
	r.SetResult(&record.Result{Samples: randomSamples(rng, r.Config)})
	return r
}

// randomSamples are c's rounds over a random curve.
func randomSamples(rng *rand.Rand, c report.Config) []record.Sample {
	kneeAt := float64(int64(2<<10) << rng.IntN(14))
	decline := 1e18
	if rng.IntN(3) == 0 {
		decline = kneeAt * float64(int(1)<<rng.IntN(6))
	}
	exp, noise := 0.3+0.7*rng.Float64(), []float64{0.01, 0.03, 0.08, 0.15}[rng.IntN(4)]
	var samples []record.Sample
	for round := 1; round <= c.Repeat; round++ {
		for _, size := range c.Sizes {
			s := float64(size)
			y := 1500 * math.Pow(min(1, s/kneeAt), exp)
			if s > decline {
				y *= math.Pow(decline/s, 0.5)
			}
			y *= math.Exp(noise * rng.NormFloat64())
			if rng.Float64() < 0.03 {
				y *= 0.5
			}
			secs := float64(c.TotalBytes) / (y * record.MiB)
			samples = append(samples, record.Sample{
				Run:     record.Run{Mode: record.ModeWrite, WriteSize: size, Round: round, Seq: len(samples) + 1},
				Seconds: secs, Bytes: c.TotalBytes, Calls: c.TotalBytes / size, Start: fixture.Start,
			})
		}
	}
	return samples
}

var (
	quotedShare = regexp.MustCompile(`(\d+ (?:[KMG]i)?B) at (\d+(?:\.\d)?%)`)
	tableRow    = regexp.MustCompile(`^\s+(\d+ (?:[KMG]i)?B)\s+(\d+)\s.*\s(\d+(?:\.\d)?%) [#.]+( <- knee)?$`)
)

// TestWordsAgreeWithTable renders many random sweeps and checks every claim
// the knee line and the recommendation make against the table above them.
func TestWordsAgreeWithTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for n := range 400 {
		r := randomReport(rng)
		var out bytes.Buffer
		if err := Text(&out, r); err != nil {
			t.Fatal(err)
		}
		if err := checkWords(r, out.String()); err != nil {
			t.Fatalf("sweep %d: %v\n%s", n, err, out.String())
		}
	}
}

func checkWords(r *report.Report, text string) error {
	cell, kneeRow := map[string]string{}, ""
	for _, line := range strings.Split(text, "\n") {
		if m := tableRow.FindStringSubmatch(line); m != nil {
			cell[m[1]] = m[3]
			if m[4] != "" {
				kneeRow = m[1]
			}
		}
	}
	if len(cell) != len(r.Results) {
		return fmt.Errorf("read %d table rows, the report has %d", len(cell), len(r.Results))
	}
	k := r.Knee
	var kneeLine, rec string
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		switch {
		case strings.HasPrefix(line, "knee: "):
			kneeLine = paragraph(lines, i)
		case strings.HasPrefix(line, "verdict: "):
			rec = strings.Join(verdictBlock(lines[i-2:]), " ")
		}
	}
	for _, m := range quotedShare.FindAllStringSubmatch(kneeLine+" "+rec, -1) {
		if cell[m[1]] != m[2] {
			return fmt.Errorf("the text says %s at %s, the table %s", m[1], m[2], cell[m[1]])
		}
	}
	if !KneeShown(k.Result) {
		return nil
	}
	name := units.FormatSize(k.WriteSize)
	if kneeRow != name || !strings.Contains(kneeLine, fmt.Sprintf("(%s of the", cell[name])) {
		return fmt.Errorf("knee %s: marked row %q, table share %s", name, kneeRow, cell[name])
	}
	if below := strings.Contains(kneeLine, "plateau, within noise of"); below != (r.Knee.MiBPerSec < k.Fraction*k.PlateauMiBPerSec) {
		return fmt.Errorf("knee %s at %s: the text says below the band %v", name, cell[name], below)
	}
	return checkBand(r, kneeLine, rec, cell)
}

// checkBand: the sizes named as below the band are exactly the band's
// sizes whose share is below it; past a decline, "every larger size
// measures below it" holds; the best size is the table's fastest; the
// defaults' shares in the recommendation are the table's.
func checkBand(r *report.Report, kneeLine, rec string, cell map[string]string) error {
	k := r.Knee
	f := tableFacts(k.Result, r.Results)
	for _, s := range f.sizes {
		named := strings.Contains(kneeLine, units.FormatSize(s)+" at ")
		low := f.inBand(s) && s != k.WriteSize && f.share[s] < k.Fraction
		if low && !named {
			return fmt.Errorf("%s is in the band at %s, below %.0f%%, and the text does not say so", units.FormatSize(s), cell[units.FormatSize(s)], 100*k.Fraction)
		}
		if s > k.DeclinesAbove && k.DeclinesAbove > 0 && f.share[s] >= k.Fraction && strings.Contains(kneeLine, "every larger size measures below") {
			return fmt.Errorf("%s past the decline reaches the band, yet the text says every larger size is below", units.FormatSize(s))
		}
	}
	if k.Shape == knee.ShapeDeclines {
		best := slices.MaxFunc(r.Results, func(a, b record.SizeResult) int { return cmpFloat(a.MiBPerSec, b.MiBPerSec) })
		if strings.Contains(kneeLine, "best") && !strings.Contains(kneeLine, fmt.Sprintf("(best %.1f MiB/s)", best.MiBPerSec)) {
			return fmt.Errorf("the table's best is %.1f MiB/s at %s", best.MiBPerSec, units.FormatSize(best.WriteSize))
		}
	}
	for size, phrase := range map[string]string{"128 KiB": ": 128 KiB measured ", "8 KiB": ": 8 KiB measured "} {
		if i := strings.Index(rec, phrase); i >= 0 {
			got := strings.SplitN(rec[i+len(phrase):], " ", 2)[0]
			if got != cell[size] {
				return fmt.Errorf("the verdict gives %s %s, the table %s", size, got, cell[size])
			}
		}
	}
	return nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// paragraph is line i and the lines wrapped from it, joined.
func paragraph(lines []string, i int) string {
	s := lines[i]
	for _, l := range lines[i+1:] {
		if !strings.HasPrefix(l, "  ") {
			break
		}
		s += " " + strings.TrimSpace(l)
	}
	return s
}
