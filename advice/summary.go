package advice

import (
	"fmt"
	"strings"

	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/units"
)

// summary is one sentence on the buffer size, a note when its knee is not
// established, and a sentence on libgfortran.
func summary(k knee.Estimate, c curve, r *Recommendation) string {
	if r.BufferSize == 0 {
		return noKnee(k.Result)
	}
	s := bufferSentence(k.Result, c)
	if r.Basis == BasisSafe {
		s = safeSentence(k.Result, *r.Safe)
	}
	if note := provisional(k); note != "" {
		s += " " + note
	}
	return s + " " + gfortranSentence(k.Result, r.Gfortran, r.BufferSize)
}

func noKnee(k knee.Result) string {
	why := strings.TrimSuffix(k.Reason, ".")
	switch {
	case why == "":
		why = "no knee was found"
	case k.Shape == knee.ShapeTooFewPoints:
		why += "; measure more sizes"
	case k.Shape == knee.ShapeRising:
		why += "; extend the sweep to larger sizes"
	}
	return "No buffer size recommended: " + why + "."
}

// safeSentence advises the size measured safe when the knee is not
// established: its share of the plateau and its interval's low end.
func safeSentence(k knee.Result, s knee.Safe) string {
	return fmt.Sprintf("Use writes of %s, the smallest size measured not worse than the %.1f MiB/s plateau (%.0f%% of it, at least %.0f%%); the knee, %s, is not established.",
		sizeBytes(s.Size), k.PlateauMiBPerSec, 100*s.Share, 100*s.ShareLow, units.FormatSize(k.WriteSize))
}

func bufferSentence(k knee.Result, c curve) string {
	pct, plateau := 100*fraction(k), k.PlateauMiBPerSec
	switch k.Shape {
	case knee.ShapeFlat:
		_, hi := c.span()
		return fmt.Sprintf("Any write size from %s to %s works: every size reaches %.0f%% of the %.1f MiB/s plateau within noise, so the smallest is recommended.",
			sizeBytes(k.WriteSize), units.FormatSize(hi), pct, plateau)
	case knee.ShapeDeclines:
		return fmt.Sprintf("Use writes of %s, the knee: from there the curve is within noise of %.0f%% of the %.1f MiB/s plateau, which lasts up to %s; larger writes are slower again (best %.1f MiB/s at %s).",
			sizeBytes(k.WriteSize), pct, plateau, units.FormatSize(k.DeclinesAbove), k.BestMiBPerSec, units.FormatSize(k.BestSize))
	default:
		return fmt.Sprintf("Use writes of at least %s: from there the curve is within noise of %.0f%% of the %.1f MiB/s plateau.",
			sizeBytes(k.WriteSize), pct, plateau)
	}
}

// provisional marks advice from a knee that is not established, with the
// interval it may be in; "" for an established knee.
func provisional(k knee.Estimate) string {
	if k.Established || !k.Found {
		return ""
	}
	s := "This knee is not established"
	if k.CILow > 0 && k.CIHigh > k.CILow {
		s += fmt.Sprintf(" (likely between %s and %s)", units.FormatSize(k.CILow), units.FormatSize(k.CIHigh))
	}
	return s + ": " + StatusWords(k) + "."
}

// StatusWords says why an estimate is not established, and what would
// establish it.
func StatusWords(k knee.Estimate) string {
	switch k.Status {
	case knee.StatusEstablished:
		return fmt.Sprintf("established after %s", RoundsWord(k.Rounds))
	case knee.StatusOneRound:
		return "one round cannot establish a knee, there is no run-to-run noise to judge by" + roundsHint(k)
	}
	why := map[string]string{
		knee.StatusFewRuns:    "too few runs of the sizes that decide it",
		knee.StatusWide:       "the sizes around it cannot be told apart",
		knee.StatusUnresolved: "the noise hides the step onto the plateau",
	}[k.Status]
	if why == "" {
		why = k.Status
	}
	return fmt.Sprintf("not established after %s (noise CV %.1f%%): %s%s", RoundsWord(k.Rounds), 100*k.NoiseCV, why, roundsHint(k))
}

func roundsHint(k knee.Estimate) string {
	if k.RoundsNeeded > 0 {
		return fmt.Sprintf("; about %d rounds would establish it", k.RoundsNeeded)
	}
	return ""
}

// RoundsWord is "1 round" or "N rounds".
func RoundsWord(n int) string {
	if n == 1 {
		return "1 round"
	}
	return fmt.Sprintf("%d rounds", n)
}

func gfortranSentence(k knee.Result, g Gfortran, buf int64) string {
	s := "libgfortran's 128 KiB unformatted buffer " + defaultWords(k, g.Verdict, g.UnformattedDefaultMiBPerSec, g.Gain, GfortranUnformattedDefault, buf)
	if g.Export != "" {
		s += ": " + g.Export + " (" + GainWords(g.Gain) + ")"
	}
	switch g.FormattedVerdict {
	case VerdictExport:
		s += fmt.Sprintf("; for formatted files also %s (the 8 KiB buffer reaches %.0f%%; %s)",
			g.FormattedExport, share(k, g.FormattedDefaultMiBPerSec), GainWords(g.FormattedGain))
	case VerdictUndecided, VerdictEnough:
		s += "; the 8 KiB formatted buffer " + defaultWords(k, g.FormattedVerdict, g.FormattedDefaultMiBPerSec, g.FormattedGain, GfortranFormattedDefault, buf)
	}
	return s + "."
}

// defaultWords is the predicate of the sentence on one default buffer of
// size bytes, told from the statistics that decided its verdict.
func defaultWords(k knee.Result, verdict string, v float64, g *knee.Gain, size, buf int64) string {
	pct := share(k, v)
	onPlateau := size >= buf && (k.DeclinesAbove == 0 || size <= k.DeclinesAbove)
	switch {
	case verdict == VerdictExport:
		return fmt.Sprintf("reaches only %.0f%% of the plateau", pct)
	case verdict == VerdictEnough && onPlateau && pct < 100*fraction(k):
		return fmt.Sprintf("is at or above the knee, though it measured %.0f%% of the plateau here (a dip at that size): no change is advised", pct)
	case verdict == VerdictEnough && onPlateau:
		return fmt.Sprintf("is at or above the knee (%.0f%% of the plateau): no change is needed", pct)
	case verdict == VerdictEnough:
		return fmt.Sprintf("measured %.0f%% of the plateau, and its gain's interval (%.2f-%.2fx) lies within the band: no change is needed", pct, g.Low, g.High)
	case verdict == VerdictUndecided:
		return fmt.Sprintf("measured %.0f%% of the plateau, but %s: no change is advised until more rounds tell", pct, undecidedWhy(g))
	}
	return "was not measured"
}

// undecidedWhy says which statistic leaves a default's gain open.
func undecidedWhy(g *knee.Gain) string {
	switch {
	case g.Runs < knee.MinEstablishRuns || g.PlateauRuns < knee.MinEstablishRuns:
		return fmt.Sprintf("the runs are too few to tell (%d of it, %d of the plateau; %d each are needed)", g.Runs, g.PlateauRuns, knee.MinEstablishRuns)
	case g.P >= 0.05:
		return fmt.Sprintf("%s cannot tell that from noise (U test p = %.2f)", runsWord(g.Runs), g.P)
	}
	return fmt.Sprintf("its gain's interval (%.2f-%.2fx) reaches into the band", g.Low, g.High)
}

func runsWord(n int) string {
	if n == 1 {
		return "1 run"
	}
	return fmt.Sprintf("%d runs", n)
}

// GainWords is "about 1.9x faster, 1.6-2.2x".
func GainWords(g *knee.Gain) string {
	if g == nil {
		return ""
	}
	return fmt.Sprintf("about %.1fx faster, %.1f-%.1fx", g.Ratio, g.Low, g.High)
}

// share is v as a percentage of the plateau.
func share(k knee.Result, v float64) float64 {
	if k.PlateauMiBPerSec <= 0 {
		return 0
	}
	return 100 * v / k.PlateauMiBPerSec
}

// sizeBytes is "256 KiB (262144 bytes)": humanized to read, bytes to copy
// into a flag or an environment variable.
func sizeBytes(n int64) string {
	h := units.FormatSize(n)
	if strings.HasSuffix(h, " B") {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%s (%d bytes)", h, n)
}
