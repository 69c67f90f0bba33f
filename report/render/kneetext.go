package render

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/units"
)

// KneeLine says where the curve levels off, in words that fit its shape,
// never as a bare number: a knee is only advice when the curve has a
// plateau after it. Every share it quotes is read off rows, the table it
// sits beside, and formatted as the table formats it.
func KneeLine(k knee.Estimate, rows []record.SizeResult) string {
	return "knee: " + kneeSentence(k, rows) + kneedleNote(k.Result)
}

func kneeSentence(k knee.Estimate, rows []record.SizeResult) string {
	t := tableFacts(k.Result, rows)
	switch kneeShape(k.Result) {
	case knee.ShapePlateau:
		return fmt.Sprintf("%s at %.1f MiB/s (%s); no larger size is measurably below %s of it%s",
			kneeAt(k), k.MiBPerSec, t.kneeShare(), t.bandPct(), t.lowWords())
	case knee.ShapeDeclines:
		return fmt.Sprintf("%s at %.1f MiB/s (%s), but throughput %s: %s within noise of %s of the plateau%s, and %s",
			kneeAt(k), k.MiBPerSec, t.kneeShare(), declineWords(k.Result), bandWords(k.Result), t.bandPct(), t.lowWords(), t.declineClaim())
	case knee.ShapeFlat:
		return fmt.Sprintf("none, write size does not matter in this range: no size from %s up (%.1f MiB/s) is measurably below %s of the %.1f MiB/s plateau%s; try a smaller --min",
			units.FormatSize(k.WriteSize), k.MiBPerSec, t.bandPct(), k.PlateauMiBPerSec, t.lowWords())
	case knee.ShapeRising:
		return "none, " + cmp.Or(k.Reason, "throughput is still rising at the largest size") + "; extend --max"
	}
	return "none (" + cmp.Or(k.Reason, "no plateau found") + ")"
}

// kneeAt is the knee's size in words and bytes, with the interval it may
// be in when that is wider than the knee.
func kneeAt(k knee.Estimate) string {
	s := fmt.Sprintf("%s (%d bytes", units.FormatSize(k.WriteSize), k.WriteSize)
	if k.CILow > 0 && k.CIHigh > 0 && (k.CILow != k.WriteSize || k.CIHigh != k.WriteSize) {
		s += fmt.Sprintf("; likely between %s and %s", units.FormatSize(k.CILow), units.FormatSize(k.CIHigh))
	}
	return s + ")"
}

// facts are the table's numbers the knee sentence quotes.
type facts struct {
	k     knee.Result
	share map[int64]float64 // each size's median over the plateau
	sizes []int64           // ascending
}

func tableFacts(k knee.Result, rows []record.SizeResult) facts {
	t := facts{k: k, share: map[int64]float64{}}
	for _, row := range rows {
		t.share[row.WriteSize] = plateauShare(row, k)
		t.sizes = append(t.sizes, row.WriteSize)
	}
	slices.Sort(t.sizes)
	return t
}

func (t facts) pct(size int64) string { return sharePct(t.share[size], t.k.Fraction) }

// kneeShare is the knee's share of the plateau, noting when it is below
// the band's edge, as a knee the tests cannot tell from it may be.
func (t facts) kneeShare() string {
	s := fmt.Sprintf("%s of the %.1f MiB/s plateau", t.pct(t.k.WriteSize), t.k.PlateauMiBPerSec)
	if t.share[t.k.WriteSize] < t.k.Fraction {
		s += fmt.Sprintf(", within noise of %s", t.bandPct())
	}
	return s
}

func (t facts) bandPct() string { return fmt.Sprintf("%.0f%%", 100*t.k.Fraction) }

// inBand is whether size is in the knee's band, from the knee to where
// a declining curve ends.
func (t facts) inBand(size int64) bool {
	return size >= t.k.WriteSize && (t.k.DeclinesAbove == 0 || size <= t.k.DeclinesAbove)
}

// lowWords names the sizes in the band, above the knee, whose median
// measured below the band's edge, so that "not measurably below" never
// hides a visible dip.
func (t facts) lowWords() string {
	var low []string
	for _, s := range t.sizes {
		if t.inBand(s) && s != t.k.WriteSize && t.share[s] < t.k.Fraction {
			low = append(low, fmt.Sprintf("%s at %s", units.FormatSize(s), t.pct(s)))
		}
	}
	if len(low) == 0 {
		return ""
	}
	return " (" + someOf(low) + ": below it, but within noise)"
}

// namedAtMost is how many sizes a knee sentence names before it counts
// the rest: a curve of thousands of sizes would otherwise make one line
// of megabytes.
const namedAtMost = 8

// someOf joins names, the first namedAtMost of them and a count of the
// rest.
func someOf(names []string) string {
	if len(names) <= namedAtMost {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:namedAtMost], ", "), len(names)-namedAtMost)
}

// declineClaim says how the sizes past a decline measure.
func (t facts) declineClaim() string {
	var above, reach []string
	for _, s := range t.sizes {
		if s <= t.k.DeclinesAbove {
			continue
		}
		above = append(above, fmt.Sprintf("%s at %s", units.FormatSize(s), t.pct(s)))
		if t.share[s] >= t.k.Fraction {
			reach = append(reach, units.FormatSize(s))
		}
	}
	if len(reach) > 0 {
		return "larger sizes fall below it as a whole, though " + someOf(reach) + " reached it"
	}
	if len(above) > 3 {
		above = append(above[:2], "...", above[len(above)-1])
	}
	return "every larger size measures below it (" + strings.Join(above, ", ") + ")"
}

// sharePct is a share of the plateau as the table prints it: a whole
// percentage, or one decimal where rounding would put it on the wrong
// side of the band's edge (94.6% is not "95%").
func sharePct(share, fraction float64) string {
	whole := fmt.Sprintf("%.0f%%", 100*share)
	if f := 100 * fraction; (share < fraction) != (math.Round(100*share) < f) {
		return fmt.Sprintf("%.1f%%", 100*share)
	}
	return whole
}

// declineWords says where a declining curve peaks (its fastest measured
// size) and where it falls.
func declineWords(k knee.Result) string {
	if k.BestSize > 0 && k.BestSize <= k.DeclinesAbove {
		return fmt.Sprintf("peaks around %s (best %.1f MiB/s) and declines above %s", units.FormatSize(k.BestSize), k.BestMiBPerSec, units.FormatSize(k.DeclinesAbove))
	}
	return "declines above " + units.FormatSize(k.DeclinesAbove)
}

// bandWords names the sizes within the plateau band of a declining curve.
func bandWords(k knee.Result) string {
	if k.WriteSize == k.DeclinesAbove {
		return "only " + units.FormatSize(k.WriteSize) + " is"
	}
	return fmt.Sprintf("sizes from %s to %s are", units.FormatSize(k.WriteSize), units.FormatSize(k.DeclinesAbove))
}

// KneeShown reports whether k has a knee worth marking on a table or a
// plot: a flat curve's "knee" is merely its smallest size.
func KneeShown(k knee.Result) bool { return k.Found && kneeShape(k) != knee.ShapeFlat }

// kneeShape is k.Shape, or for a report written before shapes existed the
// best guess from Found.
func kneeShape(k knee.Result) string {
	if k.Shape == "" && k.Found {
		return knee.ShapePlateau
	}
	return k.Shape
}

// kneedleNote gives the Kneedle method's knee beside the plateau rule's:
// the two answer different questions (where the curve bends most, where
// it is good enough), and a reader comparing with other tools may know
// only the first.
func kneedleNote(k knee.Result) string {
	switch {
	case !k.KneedleFound:
		return ""
	case k.Found && k.KneedleSize == k.WriteSize:
		return "; the Kneedle method agrees"
	case k.Found:
		return fmt.Sprintf("; the Kneedle method, which finds the sharpest bend, puts the knee at %s", units.FormatSize(k.KneedleSize))
	}
	return fmt.Sprintf("; the Kneedle method finds the sharpest bend at %s", units.FormatSize(k.KneedleSize))
}

// StabilityLine says how far the knee moves between rounds, with each
// round's knee.
func StabilityLine(sp knee.Spread) string {
	per := make([]string, len(sp.Knees))
	for i, k := range sp.Knees {
		per[i] = "none"
		if k > 0 {
			per[i] = units.FormatSize(k)
		}
	}
	s := "knee stability: " + sp.Note
	if len(per) > 1 {
		s += "; by round: " + strings.Join(per, ", ")
	}
	if sp.Min != sp.Max {
		s += "; the knee moves with the machine's noise, so read the recommendation as this range"
	}
	return s
}

// recommendationNotes are what the verdict leaves out: what could not be
// compared with libgfortran's defaults, how the knee sits against the
// block sizes, which variant the advice is from.
func recommendationNotes(r *report.Report) [][2]string {
	rec := r.Recommendation
	var out [][2]string
	if rec == nil {
		return nil
	}
	if rec.Gfortran.Note != "" && r.Verdict.Advice {
		out = append(out, [2]string{"gfortran", rec.Gfortran.Note})
	}
	if rec.BlockSizes.Note != "" {
		out = append(out, [2]string{"block sizes", rec.BlockSizes.Note})
	}
	if b := recommendationBasis(r); b != "" {
		out = append(out, [2]string{"variants", b})
	}
	return out
}

func (p *printer) textRecommendation(r *report.Report) {
	if notes := recommendationNotes(r); len(notes) > 0 {
		p.F("\n")
		for _, n := range notes {
			p.F("%s: %s\n", n[0], n[1])
		}
	}
	p.textApply(r)
}

// establishedLine says whether the knee is established, after how many
// rounds and at what noise, and how to establish one that is not; "" when
// there is no knee.
func establishedLine(r *report.Report, k knee.Estimate) string {
	if !k.Found || k.Status == "" {
		return ""
	}
	if k.Established {
		return fmt.Sprintf("knee %s (noise CV %.1f%%)", advice.StatusWords(k), 100*k.NoiseCV)
	}
	s := "knee " + advice.StatusWords(k)
	if hint := budgetHint(r, k); hint != "" {
		s += "; run with " + hint
	}
	return s
}

// budgetHint is the flags that would give the knee the rounds it needs,
// with a time budget from how long the first round took; "" when no
// number of rounds would.
func budgetHint(r *report.Report, k knee.Estimate) string {
	if k.RoundsNeeded == 0 {
		if k.Status == knee.StatusOneRound {
			return "--repeat auto"
		}
		return ""
	}
	round := firstRoundDuration(r)
	if r.Adaptive != nil {
		round = time.Duration(r.Adaptive.FirstRoundSeconds * float64(time.Second))
	}
	if round <= 0 {
		return fmt.Sprintf("--repeat %d", k.RoundsNeeded)
	}
	auto := "--repeat auto "
	if r.Config.Auto {
		auto = ""
	}
	budget := (time.Duration(k.RoundsNeeded) * round).Round(time.Minute) + time.Minute
	return fmt.Sprintf("%s--time-budget %s (at most %d rounds of %s)", auto, shortDuration(budget), k.RoundsNeeded, shortDuration(round.Round(time.Second)))
}

// firstRoundDuration is the wall time of the first round, from its first
// run's start to its last run's end; 0 when the samples have no times.
func firstRoundDuration(r *report.Report) time.Duration {
	var first, last time.Time
	round := -1
	for _, row := range r.Results {
		for _, s := range row.Samples {
			if s.Start.IsZero() || round >= 0 && s.Round > round {
				continue
			}
			if s.Round < round || round < 0 {
				round, first, last = s.Round, time.Time{}, time.Time{}
			}
			end := s.Start.Add(time.Duration(s.Seconds * float64(time.Second)))
			if first.IsZero() || s.Start.Before(first) {
				first = s.Start
			}
			if end.After(last) {
				last = end
			}
		}
	}
	return last.Sub(first)
}

// shortDuration is "12m", "1h30m", "45s": what --time-budget reads.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// budgetWords is the time budget of an adaptive sweep as planned.
func budgetWords(c report.Config) string {
	if c.TimeBudget > 0 {
		return "--time-budget " + shortDuration(time.Duration(c.TimeBudget*float64(time.Second)).Round(time.Second))
	}
	return fmt.Sprintf("a time budget of %d x the first round", record.DefaultBudgetRounds)
}

// AdaptiveLine says what an adaptive sweep did and why it stopped.
func AdaptiveLine(a *record.Adaptive) string {
	per := make([]string, len(a.SizesPerRound))
	for i, n := range a.SizesPerRound {
		per[i] = fmt.Sprint(n)
	}
	return adaptiveLine(a, adaptiveWords{what: strings.Join(per, ", ") + " sizes", established: "the knee was established",
		interrupted: "the sweep was interrupted", budgetRounds: record.DefaultBudgetRounds,
		secs: func(s float64) string {
			return shortDuration(time.Duration(s * float64(time.Second)).Round(time.Second))
		}})
}

// adaptiveWords are what differs between the lines of adaptive rounds.
type adaptiveWords struct {
	what         string // what the rounds ran: "17, 9, 9 sizes"
	established  string // why record.StopEstablished stopped them
	interrupted  string // why, without a Stop
	budgetRounds int    // the default budget is this many first rounds
	secs         func(float64) string
}

// adaptiveLine says what adaptive rounds did and why they stopped.
func adaptiveLine(a *record.Adaptive, w adaptiveWords) string {
	secs := w.secs
	why := map[string]string{
		record.StopEstablished: w.established,
		record.StopNoKnee:      "no knee to establish (see below)",
		record.StopBudget:      fmt.Sprintf("the next round (about %s) would overrun the budget", secs(a.NextRoundSeconds)),
		record.StopMaxRounds:   fmt.Sprintf("%d rounds, the most iobench runs", record.MaxAutoRounds),
	}[a.Stop]
	if why == "" {
		why = w.interrupted
	}
	budget := fmt.Sprintf("%s budget (%d x the first round's %s)", secs(a.BudgetSeconds), w.budgetRounds, secs(a.FirstRoundSeconds))
	if a.BudgetFromFlag {
		budget = secs(a.BudgetSeconds) + " budget (--time-budget)"
	}
	return fmt.Sprintf("%d adaptive rounds of %s; stopped because %s; %s of a %s", a.Rounds, w.what, why, secs(a.SpentSeconds), budget)
}
