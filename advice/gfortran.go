package advice

import (
	"fmt"
	"strings"

	"github.com/iobench/iobench/knee"
)

// gfortran reads the curve at libgfortran's two default buffer sizes and
// says what to export. The value exported is buf, the recommended size, in
// plain decimal bytes: libgfortran parses a plain integer and treats a
// suffix such as "16M" as junk, falling back to its default.
func gfortran(k knee.Result, c curve, buf int64) Gfortran {
	g := Gfortran{UnformattedDefault: GfortranUnformattedDefault, FormattedDefault: GfortranFormattedDefault}
	unf, unfOK := c.at(GfortranUnformattedDefault)
	form, formOK := c.at(GfortranFormattedDefault)
	g.UnformattedDefaultMiBPerSec, g.FormattedDefaultMiBPerSec = unf, form
	var notes []string
	if !unfOK {
		notes = append(notes, notMeasured("unformatted", GfortranUnformattedDefault, c))
	}
	if !formOK {
		notes = append(notes, notMeasured("formatted", GfortranFormattedDefault, c))
	}
	for _, d := range []struct {
		kind string
		size int64
		ok   bool
	}{{"unformatted", GfortranUnformattedDefault, unfOK}, {"formatted", GfortranFormattedDefault, formOK}} {
		if d.ok && !c.measured(d.size) {
			notes = append(notes, fmt.Sprintf("the %s default (%s) was not measured; its figure is interpolated between the neighbouring sizes", d.kind, knee.FormatSize(d.size)))
		}
	}
	if !k.Found {
		notes = append(notes, "no knee was found, so there is no buffer size to compare the defaults with")
		g.Note = strings.Join(notes, "; ")
		return g
	}
	g.DefaultIsEnough = unfOK && reaches(k, GfortranUnformattedDefault, unf)
	if unfOK && !g.DefaultIsEnough {
		g.Export = export("GFORTRAN_UNFORMATTED_BUFFER_SIZE", buf)
		if unf > 0 {
			g.ExpectedGain = k.PlateauMiBPerSec / unf
		}
	}
	if formOK && !reaches(k, GfortranFormattedDefault, form) {
		g.FormattedExport = export("GFORTRAN_FORMATTED_BUFFER_SIZE", buf)
	}
	g.Note = strings.Join(notes, "; ")
	return g
}

func export(name string, bytes int64) string {
	return fmt.Sprintf("export %s=%d", name, bytes)
}

func notMeasured(kind string, size int64, c curve) string {
	lo, hi := c.span()
	if hi == 0 {
		return fmt.Sprintf("the %s default (%s) was not measured: the curve is empty", kind, knee.FormatSize(size))
	}
	return fmt.Sprintf("the %s default (%s) is outside the measured range %s .. %s; include it (--min/--max or --sizes) to compare",
		kind, knee.FormatSize(size), knee.FormatSize(lo), knee.FormatSize(hi))
}
