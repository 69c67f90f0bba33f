package advice

import (
	"fmt"
	"strings"

	"github.com/iobench/iobench/knee"
)

// summary is one sentence on the buffer size and, when there is one, a
// second on libgfortran.
func summary(k knee.Result, c curve, r *Recommendation) string {
	if r.BufferSize == 0 {
		return noKnee(k)
	}
	return bufferSentence(k, c) + " " + gfortranSentence(k, r.Gfortran)
}

func noKnee(k knee.Result) string {
	why := strings.TrimSuffix(k.Reason, ".")
	switch {
	case why == "":
		why = "no knee was found"
	case k.Shape == knee.ShapeTooFewPoints:
		why += "; measure more sizes (--min/--max or --sizes)"
	}
	return "No buffer size recommended: " + why + "."
}

func bufferSentence(k knee.Result, c curve) string {
	pct, plateau := 100*fraction(k), k.PlateauMiBPerSec
	switch k.Shape {
	case knee.ShapeFlat:
		_, hi := c.span()
		return fmt.Sprintf("Any write size from %s to %s works: every size reaches %.0f%% of the %.1f MiB/s plateau, so the smallest is recommended.",
			sizeBytes(k.WriteSize), knee.FormatSize(hi), pct, plateau)
	case knee.ShapeDeclines:
		return fmt.Sprintf("Use writes of %s, the knee: they reach %.0f%% of the %.1f MiB/s plateau, which lasts up to %s; larger writes are slower again (best %.1f MiB/s at %s).",
			sizeBytes(k.WriteSize), pct, plateau, knee.FormatSize(k.DeclinesAbove), k.BestMiBPerSec, knee.FormatSize(k.BestSize))
	default:
		return fmt.Sprintf("Use writes of at least %s: they reach %.0f%% of the %.1f MiB/s plateau.",
			sizeBytes(k.WriteSize), pct, plateau)
	}
}

func gfortranSentence(k knee.Result, g Gfortran) string {
	const unf = "libgfortran's 128 KiB unformatted buffer"
	var s string
	switch {
	case g.Export != "":
		s = fmt.Sprintf("%s reaches only %.0f%% of the plateau: %s", unf, share(k, g.UnformattedDefaultMiBPerSec), g.Export)
		if g.ExpectedGain > 0 {
			s += fmt.Sprintf(" (about %.1fx faster)", g.ExpectedGain)
		}
	case g.DefaultIsEnough:
		s = fmt.Sprintf("%s is enough (%.0f%% of the plateau)", unf, share(k, g.UnformattedDefaultMiBPerSec))
	default:
		s = unf + " was not measured"
	}
	if g.FormattedExport != "" {
		s += fmt.Sprintf("; for formatted files also %s (the 8 KiB buffer reaches %.0f%%)",
			g.FormattedExport, share(k, g.FormattedDefaultMiBPerSec))
	}
	return s + "."
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
	h := knee.FormatSize(n)
	if strings.HasSuffix(h, " B") {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%s (%d bytes)", h, n)
}
