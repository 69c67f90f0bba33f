package report

import (
	"fmt"
	"strings"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/knee"
)

// KneeLine says where the curve levels off, in words that fit its shape,
// never as a bare number: a knee is only advice when the curve has a
// plateau after it.
func KneeLine(k knee.Result) string {
	return "knee: " + kneeSentence(k) + kneedleNote(k)
}

func kneeSentence(k knee.Result) string {
	pct := 100 * k.Fraction
	at := func(size int64) string { return fmt.Sprintf("%s (%d bytes)", knee.FormatSize(size), size) }
	switch kneeShape(k) {
	case knee.ShapePlateau:
		return fmt.Sprintf("%s at %.1f MiB/s; from this size up every size reaches %.0f%% of the %.1f MiB/s plateau%s",
			at(k.WriteSize), k.MiBPerSec, pct, k.PlateauMiBPerSec, outlierWords(k))
	case knee.ShapeDeclines:
		return fmt.Sprintf("%s at %.1f MiB/s, but throughput %s: %s %.0f%% of the %.1f MiB/s plateau%s, larger sizes fall below it",
			at(k.WriteSize), k.MiBPerSec, declineWords(k), bandWords(k), pct, k.PlateauMiBPerSec, outlierWords(k))
	case knee.ShapeFlat:
		return fmt.Sprintf("none, write size does not matter in this range: every size from %s up (%.1f MiB/s) reaches %.0f%% of the %.1f MiB/s plateau; try a smaller --min",
			knee.FormatSize(k.WriteSize), k.MiBPerSec, pct, k.PlateauMiBPerSec)
	case knee.ShapeRising:
		return "none, " + orDefault(k.Reason, "throughput is still rising at the largest size; extend --max")
	}
	return "none (" + orDefault(k.Reason, "no plateau found") + ")"
}

// outlierWords names the isolated slow runs the knee rule set aside, so
// "every size reaches" is never said over a visible dip.
func outlierWords(k knee.Result) string {
	if len(k.Outliers) == 0 {
		return ""
	}
	sizes := make([]string, len(k.Outliers))
	for i, s := range k.Outliers {
		sizes[i] = knee.FormatSize(s)
	}
	return fmt.Sprintf(" (except an isolated slow run at %s, taken as a bad run)", strings.Join(sizes, ", "))
}

// declineWords says where a declining curve peaks (its fastest measured
// size) and where it falls.
func declineWords(k knee.Result) string {
	if k.BestSize > 0 && k.BestSize <= k.DeclinesAbove {
		return fmt.Sprintf("peaks around %s and declines above %s", knee.FormatSize(k.BestSize), knee.FormatSize(k.DeclinesAbove))
	}
	return "declines above " + knee.FormatSize(k.DeclinesAbove)
}

// bandWords names the sizes within the plateau band of a declining curve.
func bandWords(k knee.Result) string {
	if k.WriteSize == k.DeclinesAbove {
		return "only " + knee.FormatSize(k.WriteSize) + " reaches"
	}
	return fmt.Sprintf("sizes from %s to %s reach", knee.FormatSize(k.WriteSize), knee.FormatSize(k.DeclinesAbove))
}

// kneeShown reports whether k has a knee worth marking on a table or a
// plot: a flat curve's "knee" is merely its smallest size.
func kneeShown(k knee.Result) bool { return k.Found && kneeShape(k) != knee.ShapeFlat }

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
		return fmt.Sprintf("; the Kneedle method, which finds the sharpest bend, puts the knee at %s", knee.FormatSize(k.KneedleSize))
	}
	return fmt.Sprintf("; the Kneedle method finds the sharpest bend at %s", knee.FormatSize(k.KneedleSize))
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// StabilityLine says how far the knee moves between rounds, with each
// round's knee.
func StabilityLine(sp knee.Spread) string {
	per := make([]string, len(sp.Knees))
	for i, k := range sp.Knees {
		per[i] = "none"
		if k > 0 {
			per[i] = knee.FormatSize(k)
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

// recommendation is the advice as text: the summary, the shell lines to
// export for libgfortran, and notes; all empty without advice.
type recommendation struct {
	summary string
	exports []string
	notes   [][2]string // label, text
}

func recommendationText(rec *advice.Recommendation) recommendation {
	var out recommendation
	if rec == nil {
		return out
	}
	out.summary = rec.Summary
	for _, e := range []string{rec.Gfortran.Export, rec.Gfortran.FormattedExport} {
		if e != "" && !strings.HasPrefix(e, "export ") {
			e = "export " + e
		}
		if e != "" {
			out.exports = append(out.exports, e)
		}
	}
	if rec.Gfortran.Note != "" {
		out.notes = append(out.notes, [2]string{"gfortran", rec.Gfortran.Note})
	}
	if rec.BlockSizes.Note != "" {
		out.notes = append(out.notes, [2]string{"block sizes", rec.BlockSizes.Note})
	}
	return out
}

func (p *printer) textRecommendation(r *Report) {
	if r.Recommendation == nil {
		return
	}
	rec := recommendationText(r.Recommendation)
	p.f("\nrecommendation: %s\n", rec.summary)
	for _, e := range rec.exports {
		p.f("  %s\n", e)
	}
	for _, n := range rec.notes {
		p.f("  %s: %s\n", n[0], n[1])
	}
}
