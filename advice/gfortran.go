package advice

import (
	"fmt"
	"strings"

	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/units"
)

// gfortran tests the runs at libgfortran's two default buffer sizes against
// the plateau runs and says what to export. An export line needs a
// significant gain (knee.CompareGain) of at least MinEstablishRuns runs of
// the default: a slower median alone may be noise. The value exported is
// buf, the recommended size, in plain decimal bytes: libgfortran parses a
// plain integer and treats a suffix such as "16M" as junk, falling back to
// its default.
func gfortran(k knee.Result, c curve, buf int64) Gfortran {
	g := Gfortran{UnformattedDefault: GfortranUnformattedDefault, FormattedDefault: GfortranFormattedDefault}
	var notes []string
	g.UnformattedDefaultMiBPerSec, notes = defaultFigure(c, "unformatted", GfortranUnformattedDefault, notes)
	g.FormattedDefaultMiBPerSec, notes = defaultFigure(c, "formatted", GfortranFormattedDefault, notes)
	if !k.Found {
		notes = append(notes, "no knee was found, so there is no buffer size to compare the defaults with")
		g.Verdict, g.FormattedVerdict = VerdictNoKnee, VerdictNoKnee
		g.Note = strings.Join(notes, "; ")
		return g
	}
	plateau := c.plateauRuns(k)
	g.Verdict, g.Gain = judgeDefault(k, plateau, c.runsAt(GfortranUnformattedDefault), GfortranUnformattedDefault, buf)
	g.FormattedVerdict, g.FormattedGain = judgeDefault(k, plateau, c.runsAt(GfortranFormattedDefault), GfortranFormattedDefault, buf)
	g.DefaultIsEnough = g.Verdict == VerdictEnough
	if g.Verdict == VerdictExport {
		g.Export = export("GFORTRAN_UNFORMATTED_BUFFER_SIZE", buf)
		g.ExpectedGain = g.Gain.Ratio
	}
	if g.FormattedVerdict == VerdictExport {
		g.FormattedExport = export("GFORTRAN_FORMATTED_BUFFER_SIZE", buf)
	}
	g.Note = strings.Join(notes, "; ")
	return g
}

// defaultFigure is the throughput at a default size for the table and the
// text, with a note when it was not measured (interpolated, or outside the
// sweep: then 0).
func defaultFigure(c curve, kind string, size int64, notes []string) (float64, []string) {
	v, ok := c.at(size)
	switch {
	case !ok:
		return 0, append(notes, notMeasured(kind, size, c))
	case !c.measured(size):
		return v, append(notes, fmt.Sprintf("the %s default (%s) was not measured; its figure is interpolated between the neighbouring sizes, and only a measured size is tested against the plateau (add it to the sizes measured)", kind, units.FormatSize(size)))
	}
	return v, notes
}

// judgeDefault gives the verdict on one default size from its runs. The
// gain is returned whenever the size was measured.
func judgeDefault(k knee.Result, plateau, at []float64, size, buf int64) (string, *knee.Gain) {
	if len(at) == 0 {
		return VerdictNotMeasured, nil
	}
	g := knee.CompareGain(plateau, at, fraction(k))
	g.Significant = g.Significant && g.Runs >= knee.MinEstablishRuns && g.PlateauRuns >= knee.MinEstablishRuns
	onPlateau := size >= buf && (k.DeclinesAbove == 0 || size <= k.DeclinesAbove)
	switch {
	case onPlateau || !g.Significant && g.Ratio <= 1/fraction(k):
		g.Significant = false
		return VerdictEnough, &g
	case g.Significant:
		return VerdictExport, &g
	}
	return VerdictUndecided, &g
}

func export(name string, bytes int64) string {
	return fmt.Sprintf("export %s=%d", name, bytes)
}

func notMeasured(kind string, size int64, c curve) string {
	lo, hi := c.span()
	if hi == 0 {
		return fmt.Sprintf("the %s default (%s) was not measured: the curve is empty", kind, units.FormatSize(size))
	}
	return fmt.Sprintf("the %s default (%s) is outside the measured range %s .. %s; include it in the sizes measured to compare",
		kind, units.FormatSize(size), units.FormatSize(lo), units.FormatSize(hi))
}
