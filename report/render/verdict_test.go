package render

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/internal/testkit/testenv"
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/internal/fixture"
	"github.com/iobench/iobench/units"
	"github.com/iobench/iobench/verdict"
)

var verdictSweeps = flag.Int("verdict.sweeps", 0, "synthetic sweeps TestVerdictAgreesWithNumbers renders (0: 10000 in the full layer without -race, else 1000)")

// verdictSweep is a random sweep for the verdict: randomReport's curves
// over a random span of sizes, with rounds that skip sizes as adaptive
// rounds do, a random block size, sometimes --for, and sometimes cut
// short by an interruption.
func verdictSweep(rng *rand.Rand, base *report.Report) *report.Report {
	r := new(report.Report)
	*r = *base
	r.Config.Repeat, r.Config.TotalBytes, r.Warnings = 1+rng.IntN(5), 64<<20, nil
	r.Config.Sizes = units.PowersOfTwo(int64(1<<10)<<rng.IntN(5), int64(1<<20)<<rng.IntN(7))
	r.FS.IOBlockSize = []int64{4096, 512, 65536, 0}[rng.IntN(4)]
	r.Config.KneeFraction = []float64{0.95, 0.95, 0.9}[rng.IntN(3)]
	r.ApplyFor = [][]string{nil, nil, nil, {advice.RuntimeStdio}, {advice.RuntimeLibgfortran, advice.RuntimeROMIO}}[rng.IntN(5)]
	res := &record.Result{}
	all := randomSamples(rng, r.Config)
	rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	for _, s := range all {
		if s.Round == 1 || rng.IntN(3) > 0 {
			res.Samples = append(res.Samples, s)
		}
	}
	if rng.IntN(6) == 0 {
		res.Samples, res.Incomplete = res.Samples[:rng.IntN(len(res.Samples)+1)], true
		r.Error = "interrupted (signal: interrupt)"
	}
	r.Incomplete = res.Incomplete
	r.SetResult(res)
	return r
}

// TestVerdictAgreesWithNumbers renders many random sweeps and checks
// every claim of the verdict against numbers the test derives itself from
// the runs: what it sets and keeps, each gain and interval, p-value and
// run count it quotes, what it calls established, each share of the
// plateau against the table; that the how-to-apply block sets what the
// verdict sets; that an incomplete run says so first and advises nothing
// its sizes do not support; and that the verdict comes within the first
// 15 lines, and no line but a table row is wider than 100 columns.
func TestVerdictAgreesWithNumbers(t *testing.T) {
	n := *verdictSweeps
	if n == 0 {
		n = 1000 // 2 s; 20 under -race
		if testenv.IsFull() && !testenv.Race {
			n = 10000 // every kind of verdict shows up
		}
	}
	rng := rand.New(rand.NewPCG(11, 13))
	seen, base := map[string]int{}, fixture.Ext4()
	for i := range n {
		r := verdictSweep(rng, base)
		var out bytes.Buffer
		if err := Text(&out, r); err != nil {
			t.Fatal(err)
		}
		if err := checkVerdict(r, out.String()); err != nil {
			t.Fatalf("sweep %d: %v\n%s", i, err, out.String())
		}
		countKinds(seen, r)
	}
	t.Logf("%d synthetic sweeps: no verdict contradicts its numbers; verdicts by kind: %v", n, seen)
	for _, kind := range verdictKinds {
		if seen[kind] == 0 && n >= 10000 {
			t.Errorf("no sweep gave a verdict of kind %s: the sweeps do not try it", kind)
		}
	}
}

// verdictKinds are the kinds of verdict the random sweeps must each give.
// BasisBand is rare in a sweep (a default below the knee is mostly
// measurably below the band too) and BasisSlower rarer still: they are
// counted, not required.
var verdictKinds = []string{verdict.BasisGain, verdict.BasisAboveKnee, verdict.BasisAboveSafe, verdict.BasisFewRuns, verdict.BasisPValue,
	verdict.BasisInterval, verdict.BasisDip, verdict.BasisNotRun, "incomplete", "defaults_enough", verdict.NoAdviceSizesMissing, verdict.NoAdviceNoKnee}

func countKinds(seen map[string]int, r *report.Report) {
	v := r.Verdict
	if v.Incomplete {
		seen["incomplete"]++
	}
	if v.NoAdvice != "" {
		seen[v.NoAdvice]++
	}
	if v.DefaultsEnough {
		seen["defaults_enough"]++
	}
	for _, d := range v.Defaults {
		seen[d.Basis]++
	}
}

func checkVerdict(r *report.Report, text string) error {
	lines := strings.Split(text, "\n")
	if err := checkLayout(lines); err != nil {
		return err
	}
	v := verdictBlock(lines)
	if r.Incomplete != strings.HasPrefix(v[0], "INCOMPLETE: ") {
		return fmt.Errorf("incomplete %v, yet the verdict opens with %q", r.Incomplete, v[0])
	}
	if missing := r.Incomplete && measuredSizes(r) < len(r.Config.Sizes); missing {
		return checkNoAdvice(text)
	}
	if !r.Knee.Found {
		return checkNoAdvice(text)
	}
	cells := tableCells(lines)
	if err := checkEnough(r, v); err != nil || r.Verdict.DefaultsEnough {
		return err
	}
	if err := checkWritesLine(r, v, cells); err != nil {
		return err
	}
	for _, l := range v {
		if item, ok := strings.CutPrefix(l, "  "); ok {
			if err := checkDefaultLine(r, item, cells, text); err != nil {
				return fmt.Errorf("%w\nin %q", err, item)
			}
		}
	}
	return nil
}

// checkLayout: the verdict starts within the first 15 lines; no line
// but a table's is over 100 columns.
func checkLayout(lines []string) error {
	at := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "verdict: ") || strings.HasPrefix(l, "INCOMPLETE: ") {
			at = i
			break
		}
	}
	if at < 0 || at >= 15 {
		return fmt.Errorf("the verdict starts at line %d, want within the first 15", at+1)
	}
	for _, l := range lines {
		if w := utf8.RuneCountInString(l); w > textWidth && !tableRow.MatchString(l) && !strings.HasPrefix(strings.TrimSpace(l), "size ") {
			return fmt.Errorf("a line of %d columns outside a table: %q", w, l)
		}
	}
	return nil
}

// verdictBlock is the verdict's lines, wrapped ones joined.
func verdictBlock(lines []string) []string {
	var out []string
	for _, l := range lines[2:] {
		switch {
		case l == "" && len(out) > 0:
			return out
		case l == "":
		case strings.HasPrefix(l, "    ") || strings.HasPrefix(l, "         ") || len(out) > 0 && strings.HasPrefix(l, "  ") && !strings.HasPrefix(out[len(out)-1], "  ") && !strings.Contains(l, ": "):
			out[len(out)-1] += " " + strings.TrimSpace(l)
		default:
			out = append(out, l)
		}
	}
	return out
}

func measuredSizes(r *report.Report) int {
	return len(verdict.ModeRows(r.Results, r.Config.PrimaryMode()))
}

// checkNoAdvice: nothing is set and there is no how-to-apply block.
func checkNoAdvice(text string) error {
	for _, bad := range []string{"export GFORTRAN", "setvbuf(", "how to apply it", "use writes"} {
		if strings.Contains(text, bad) {
			return fmt.Errorf("advice (%q) the data do not support", bad)
		}
	}
	return nil
}

// tableCells are the table's "% plateau" cells by size name.
func tableCells(lines []string) map[string]string {
	cells := map[string]string{}
	for _, l := range lines {
		if m := tableRow.FindStringSubmatch(l); m != nil {
			cells[m[1]] = m[3]
		}
	}
	return cells
}

var writesLine = regexp.MustCompile(`^verdict: write\(2\) calls of (?:at least )?(\d+ [KMG]?i?B) \((\d+) bytes\)(?: up to [^:]+)?: (\d+(?:\.\d)?%) of the ([0-9.]+) MiB/s plateau`)

// checkEnough: the verdict is the one line that the defaults are enough
// exactly when nothing can be told apart: with the noise measured, no
// size measurably below the band (the knee's interval starts at the
// smallest), no decline, and no default measurably slower than the
// plateau.
func checkEnough(r *report.Report, v []string) error {
	k := r.Knee
	runs := verdict.Runs(r.Results, r.Config.PrimaryMode())
	g := knee.GroupRuns(runs)
	want := len(g) > 0 && k.NoiseCV > 0 && k.Status != knee.StatusOneRound && k.DeclinesAbove == 0 && k.CILow == g[0].Size
	plateau := knee.PlateauRuns(runs, k.Result)
	for _, d := range r.Verdict.Defaults {
		if at := runsOf(runs, func(s int64) bool { return s == d.Default }); len(at) > 0 && knee.CompareGain(plateau, at, k.Fraction).Significant {
			want = false
		}
	}
	last := v[len(v)-1]
	said := strings.HasPrefix(last, "verdict: the defaults are enough: no size from ")
	switch {
	case said != want:
		return fmt.Errorf("says the defaults are enough: %v; the numbers: %v (%q)", said, want, last)
	case said && (!strings.Contains(last, fmt.Sprintf("noise CV %.1f%%", 100*k.NoiseCV)) || len(v) > 1+btoi(r.Incomplete)):
		return fmt.Errorf("the defaults-are-enough verdict is not one line with the noise: %q", v)
	}
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// recommendedOf is the size a verdict must aim at: the knee when it is
// established or no size is shown safe, else the safe size.
func recommendedOf(r *report.Report) (size int64, safe bool) {
	k := r.Knee
	if k.Established {
		return r.Recommendation.BufferSize, false
	}
	if s := knee.SafeSize(verdict.Runs(r.Results, r.Config.PrimaryMode()), k.Result); s.Size > 0 {
		return s.Size, true
	}
	return r.Recommendation.BufferSize, false
}

// checkWritesLine: the size is the recommended one, its share the
// table's, and it is called established exactly when the knee is.
func checkWritesLine(r *report.Report, v []string, cells map[string]string) error {
	l := v[0]
	if strings.HasPrefix(l, "INCOMPLETE") {
		l = v[1]
	}
	k := r.Knee
	want, safe := recommendedOf(r)
	if k.Shape == knee.ShapeFlat && !safe {
		return nil
	}
	m := writesLine.FindStringSubmatch(l)
	if m == nil {
		return fmt.Errorf("no write size in %q", l)
	}
	if m[2] != strconv.FormatInt(want, 10) || cells[m[1]] != m[3] {
		return fmt.Errorf("%q: the recommendation is %d bytes, the table says %s at %s", l, want, m[1], cells[m[1]])
	}
	if safe != strings.Contains(l, ", the smallest size measured not worse than it (at least ") {
		return fmt.Errorf("%q: from the safe size %v, yet it does not lead with it, or does without it", l, safe)
	}
	if said := !strings.Contains(l, "not established"); said != k.Established {
		return fmt.Errorf("%q: the knee's established is %v", l, k.Established)
	}
	return nil
}

var (
	setLine   = regexp.MustCompile(`^(?:export GFORTRAN_(?:UN)?FORMATTED_BUFFER_SIZE=|static char b\[)(\d+)`)
	keepLine  = regexp.MustCompile(`^keep the default \((\d+ [KMG]?i?B)\)( for now)?`)
	gainQuote = regexp.MustCompile(`would gain x([0-9.]+)(?: \(([0-9.]+)-([0-9.]+)\))?`)
	pQuote    = regexp.MustCompile(`p (?:= ([0-9.e-]+)|< 0\.001)`)
	fewQuote  = regexp.MustCompile(`(\d+) runs? of [^ ]+ [KMG]?i?B and (\d+) runs? on the plateau are too few`)
	shareSaid = regexp.MustCompile(`: (\d+ [KMG]?i?B) measured (\d+(?:\.\d)?%) of the plateau`)
)

// defaultOf is the default buffer a verdict line is about.
func defaultOf(item string, blksize int64) (rt, kind string, def int64) {
	switch {
	case strings.HasPrefix(item, "libgfortran, unformatted: "):
		return advice.RuntimeLibgfortran, "unformatted", advice.GfortranUnformattedDefault
	case strings.HasPrefix(item, "libgfortran, formatted: "):
		return advice.RuntimeLibgfortran, "formatted", advice.GfortranFormattedDefault
	}
	if blksize > 0 && blksize < advice.StdioBUFSIZ {
		return advice.RuntimeStdio, "", blksize
	}
	return advice.RuntimeStdio, "", advice.StdioBUFSIZ
}

// checkDefaultLine checks one runtime's verdict against the gain the test
// computes from the runs.
func checkDefaultLine(r *report.Report, item string, cells map[string]string, text string) error {
	rt, kind, def := defaultOf(item, r.FS.IOBlockSize)
	_, action, _ := strings.Cut(item, ": ")
	k := r.Knee
	f := k.Fraction
	band := 1 / f
	runs := verdict.Runs(r.Results, record.ModeWrite)
	at, plateau := runsOf(runs, func(s int64) bool { return s == def }), runsOf(runs, func(s int64) bool {
		return s >= k.WriteSize && (k.DeclinesAbove == 0 || s <= k.DeclinesAbove)
	})
	target, safe := recommendedOf(r)
	// A default at or above what the verdict aims at is kept: the
	// knee's band, or, when the knee is not established, from the safe size.
	inBand := def >= k.WriteSize && (k.DeclinesAbove == 0 || def <= k.DeclinesAbove)
	if safe {
		inBand = def >= target && (k.DeclinesAbove == 0 || def <= k.DeclinesAbove)
	}
	var g *knee.Gain
	if len(at) > 0 {
		gg := knee.CompareGain(plateau, at, f)
		g = &gg
	}
	enough := g != nil && g.Runs >= knee.MinEstablishRuns && g.PlateauRuns >= knee.MinEstablishRuns
	real := enough && g.P < knee.GainAlpha && g.Low > band && !inBand
	noGain := enough && !inBand && (g.High <= band || g.P < knee.GainAlpha && g.High < 1)
	kneeKeep := inBand && (k.Established || safe) && (g == nil || !g.Significant)
	if m := setLine.FindStringSubmatch(action); m != nil {
		if !real || m[1] != strconv.FormatInt(target, 10) {
			return fmt.Errorf("sets %s bytes, yet the gain %+v is not a real one over %d (band x%.3f)", m[1], g, def, band)
		}
	} else if m := keepLine.FindStringSubmatch(action); m == nil || m[1] != units.FormatSize(def) {
		return fmt.Errorf("neither sets nor keeps the default %d", def)
	} else if established := m[2] == ""; established != (noGain || kneeKeep) {
		return fmt.Errorf("keeps the default, established %v; the numbers: gain %+v, in band %v, knee established %v", established, g, inBand, k.Established)
	} else if real {
		return fmt.Errorf("keeps the default, yet the gain %+v is real", g)
	}
	if err := checkQuotes(action, g, inBand, def, cells); err != nil {
		return err
	}
	return checkApplyRow(text, rt, kind, def, setLine.FindStringSubmatch(action))
}

// checkQuotes: the gain, interval, p-value, run counts and share a line
// quotes are those of the runs.
func checkQuotes(action string, g *knee.Gain, inBand bool, def int64, cells map[string]string) error {
	if m := shareSaid.FindStringSubmatch(action); m != nil && cells[m[1]] != m[2] {
		return fmt.Errorf("says %s at %s, the table %s", m[1], m[2], cells[m[1]])
	}
	if g == nil {
		if strings.Contains(action, "would gain") || !strings.Contains(action, "was not measured") {
			return fmt.Errorf("quotes a gain of a default the sweep did not run, or does not say it did not")
		}
		return nil
	}
	if m := gainQuote.FindStringSubmatch(action); inBand && m != nil {
		return fmt.Errorf("quotes the gain of %d over itself or a smaller size: %q", def, m[0])
	} else if !inBand && (m == nil || m[1] != fmt.Sprintf("%.2f", g.Ratio) ||
		m[2] != "" && (m[2] != fmt.Sprintf("%.2f", g.Low) || m[3] != fmt.Sprintf("%.2f", g.High))) {
		return fmt.Errorf("quotes %q, the runs give x%.2f (%.2f-%.2f)", m, g.Ratio, g.Low, g.High)
	}
	if m := pQuote.FindStringSubmatch(action); m != nil && m[1] != "" && m[1] != fmt.Sprintf("%.3g", g.P) || m != nil && m[1] == "" && g.P >= 0.001 {
		return fmt.Errorf("quotes %q, the U test gives p = %v", m[0], g.P)
	}
	if least := strings.Contains(action, "runs can give"); least && minUTestP(g.Runs, g.PlateauRuns) < knee.GainAlpha {
		return fmt.Errorf("says %d and %d runs cannot give p below %v; they can", g.Runs, g.PlateauRuns, knee.GainAlpha)
	}
	m := fewQuote.FindStringSubmatch(action)
	few := g.Runs < knee.MinEstablishRuns || g.PlateauRuns < knee.MinEstablishRuns
	if (m != nil) != (few && !inBand) || m != nil && (m[1] != strconv.Itoa(g.Runs) || m[2] != strconv.Itoa(g.PlateauRuns)) {
		return fmt.Errorf("says too few runs: %q; the runs: %d of %d, %d on the plateau", m, g.Runs, def, g.PlateauRuns)
	}
	return nil
}

// checkApplyRow: the how-to-apply block sets what the verdict sets, and
// keeps the default where the verdict keeps it.
func checkApplyRow(text, rt, kind string, def int64, set []string) error {
	want := strconv.FormatInt(def, 10)
	if set != nil {
		want = set[1]
	}
	row := unformattedRow
	switch {
	case rt == advice.RuntimeStdio:
		return nil // a comment in the block, the verdict's words in it
	case kind == "formatted":
		row = formattedRow
	}
	if m := row.FindStringSubmatch(text); m != nil && m[1] != want {
		return fmt.Errorf("the how-to-apply block sets %s to %s, the verdict %s", kind, m[1], want)
	}
	return nil
}

var (
	formattedRow   = regexp.MustCompile(`(?m)^export GFORTRAN_FORMATTED_BUFFER_SIZE=(\d+)`)
	unformattedRow = regexp.MustCompile(`(?m)^export GFORTRAN_UNFORMATTED_BUFFER_SIZE=(\d+)`)
)

// runsOf are all runs of the sizes ok accepts.
func runsOf(runs []knee.Runs, ok func(int64) bool) []float64 {
	var out []float64
	for _, r := range knee.GroupRuns(runs) {
		if ok(r.Size) {
			out = append(out, r.MiBPerSec...)
		}
	}
	return out
}
