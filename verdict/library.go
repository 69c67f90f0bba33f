package verdict

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/libcheck"
	"github.com/iobench/iobench/units"
)

// LibraryCheck is what a library's check (iobench runtime mpiio|hdf5)
// measured: a runtime check whose cases are the library's, its plan, and
// why other libraries' rows were not measured here.
type LibraryCheck struct {
	RuntimeCheck
	Library libcheck.LibraryPlan
	// Unmeasured says, per apply runtime, why this run did not measure
	// it: another check does, or the library is not installed.
	Unmeasured map[string]string
}

// Apply is the library check's how-to-apply block from the sweep's knee:
// every runtime's rows; this library's marked measured where it ran
// their values, with the gain measured there; rows of their own for the
// settings the rules do not cover at the knee but a measured gain shows
// matter (romio_cb_write, H5Pset_buffer, H5Pset_sieve_buf_size); the
// other libraries' rows saying why they were not measured here. None
// without a knee.
func (r LibraryCheck) Apply() []advice.Apply {
	sw := r.Sweep
	if sw == nil || sw.KneeBytes <= 0 || sw.RecommendedBytes <= 0 {
		return nil
	}
	f := advice.ApplyFacts{Knee: sw.KneeBytes, Buffer: sw.RecommendedBytes, FS: r.FS, Measured: r.valuesRun(), Unmeasured: r.Unmeasured}
	values := advice.LibraryValues(f)
	rows := advice.HowToApply(f)
	var out []advice.Apply
	for i, row := range rows {
		if row.Measured {
			r.addGains(&row, values)
		}
		out = append(out, row)
		if i == len(rows)-1 || rows[i+1].Runtime != row.Runtime {
			out = append(out, r.extraRows(row.Runtime)...)
		}
	}
	return out
}

// valuesRun are the values each setting of the plan ran at: those of
// its cases that ran, and its default where a default case of the same
// group ran (not alignment's, 1: none, which no row gives). A setting
// planned but never run is there with none.
func (r LibraryCheck) valuesRun() map[string][]int64 {
	defaults := map[libcheck.Case]bool{}
	for _, c := range r.Summary.Cases {
		if c.Default && c.Runs > 0 {
			defaults[groupOf(c.Case)] = true
		}
	}
	out := map[string][]int64{}
	for _, c := range r.Summary.Cases {
		if c.Setting == "" {
			continue
		}
		vs := out[c.Setting]
		if c.Runs > 0 {
			vs = append(vs, c.BufferBytes)
		}
		if d := libcheck.SettingDefault(c.Setting); d > 1 && defaults[groupOf(c.Case)] {
			vs = append(vs, d)
		}
		slices.Sort(vs)
		out[c.Setting] = slices.Compact(vs)
	}
	return out
}

// groupOf is the group a case belongs to: its default case's fields.
func groupOf(c libcheck.Case) libcheck.Case {
	c.Setting, c.Switch, c.BufferBytes, c.Default = "", "", 0, true
	return c
}

// ran: a case of the MPI-IO component ran.
func (r LibraryCheck) ran(component string) bool {
	return r.Runtime == libcheck.MPIIO && slices.ContainsFunc(r.Summary.Cases, func(c libcheck.CaseSummary) bool { return c.Component == component })
}

// addGains gives a measured row the most telling gain at its values
// (values: LibraryValues) and says what each case measured there, and
// at the setting's other values.
func (r LibraryCheck) addGains(row *advice.Apply, values map[string]int64) {
	var words []string
	var gains []caseGain
	for _, s := range advice.LibrarySettings(row.Runtime) {
		v := values[s]
		g := r.gainsOf(func(c libcheck.Case) bool { return c.Setting == s && c.BufferBytes == v })
		switch {
		case v == libcheck.SettingDefault(s):
			words = append(words, fmt.Sprintf("%s %s is the default, which every case ran", s, units.FormatSize(v)))
		case len(g) == 0:
			words = append(words, fmt.Sprintf("%s %s ran without its default to compare with", s, units.FormatSize(v)))
		default:
			gains = append(gains, g...)
			words = append(words, s+" "+units.FormatSize(v)+": "+gainsIn(g))
		}
		if more := r.gainsOf(func(c libcheck.Case) bool { return c.Setting == s && c.BufferBytes != v }); len(more) > 0 {
			words = append(words, "other values of "+s+": "+gainList(more))
		}
	}
	row.Gain = telling(gains)
	row.Note += " Over each case's default: " + strings.Join(words, "; ") + "."
}

// caseGain is a gain measured in one case.
type caseGain struct {
	c libcheck.Case
	g knee.Gain
}

// gainsOf are the measured gains of the cases match picks.
func (r LibraryCheck) gainsOf(match func(libcheck.Case) bool) []caseGain {
	var out []caseGain
	for _, cs := range r.Summary.Cases {
		if match(cs.Case) && cs.Gain != nil {
			out = append(out, caseGain{cs.Case, *cs.Gain})
		}
	}
	return out
}

// gainList says each gain with its case.
func gainList(gains []caseGain) string {
	var out []string
	for _, g := range gains {
		out = append(out, fmt.Sprintf("x%.2f (%.2f-%.2f%s) in %s, %s", g.g.Ratio, g.g.Low, g.g.High, significantWord(g.g), libcheck.CaseName(g.c), libcheck.SettingName(g.c)))
	}
	return strings.Join(out, ", ")
}

// gainsIn is gainList for gains of one setting's value, named before it.
func gainsIn(gains []caseGain) string {
	var out []string
	for _, g := range gains {
		out = append(out, fmt.Sprintf("x%.2f (%.2f-%.2f%s) in %s", g.g.Ratio, g.g.Low, g.g.High, significantWord(g.g), libcheck.CaseName(g.c)))
	}
	return strings.Join(out, ", ")
}

func significantWord(g knee.Gain) string {
	if g.Significant {
		return ", a real difference"
	}
	return ""
}

// telling is the gain that says most: the largest real one, else the
// one furthest from 1; nil for none.
func telling(gains []caseGain) *advice.MeasuredGain {
	if len(gains) == 0 {
		return nil
	}
	best := slices.MaxFunc(gains, func(a, b caseGain) int {
		if a.g.Significant != b.g.Significant {
			return boolCmp(a.g.Significant, b.g.Significant)
		}
		return cmp.Compare(math.Abs(math.Log(a.g.Ratio)), math.Abs(math.Log(b.g.Ratio)))
	})
	return &advice.MeasuredGain{Ratio: best.g.Ratio, Low: best.g.Low, High: best.g.High, Significant: best.g.Significant, Case: libcheck.CaseName(best.c)}
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// extraRows are the rows measurement adds for runtime rt.
func (r LibraryCheck) extraRows(rt string) []advice.Apply {
	switch {
	case rt == advice.RuntimeROMIO && r.ran(libcheck.ROMIO):
		return r.cbWriteRow()
	case rt == advice.RuntimeHDF5 && r.Runtime == libcheck.HDF5:
		return append(r.tconvRow(), r.sieveRow()...)
	}
	return nil
}

// cbWriteRow: romio_cb_write=enable where its measured gain is real,
// automatic where it is really slower.
func (r LibraryCheck) cbWriteRow() []advice.Apply {
	g := r.gainsOf(func(c libcheck.Case) bool { return c.Switch == libcheck.SwitchCBWrite && c.Setting == "" })
	best := telling(g)
	value, what := "enable", "faster"
	switch {
	case best == nil:
		return nil
	case best.Significant:
	case slowerIn(g, r.fraction()):
		value, what = "automatic", "slower: keep the default, automatic"
	default:
		return nil
	}
	return []advice.Apply{{Runtime: advice.RuntimeROMIO, Setting: "romio_cb_write", Value: value, Measured: true, Gain: best,
		Comment: "an MPI_Info hint, or a line of the ROMIO_HINTS file",
		Note: "Two-phase collective buffering for every collective write, not only for interleaved requests (ROMIO's rule R5: the aggregators write windows of cb_buffer_size). Measured through ROMIO here with it on, " +
			what + ": " + gainList(g) + "."}}
}

// tconvRow: H5Pset_buffer where converting to big-endian is measurably
// slower than writing native data.
func (r LibraryCheck) tconvRow() []advice.Apply {
	slow := r.convertCost()
	if slow == nil {
		return nil
	}
	v := r.tconvValue()
	g := r.gainsOf(func(c libcheck.Case) bool { return c.Setting == libcheck.SettingTconv && c.BufferBytes == v })
	note := fmt.Sprintf("On the dataset transfer property list of each H5Dwrite. Big-endian data measured x%.2f (%.2f-%.2f) of native in %s: HDF5 converts through its type-conversion buffer (1 MiB by default) and writes each pass as one piece (rule H2), so the buffer is the write size of converted contiguous data.",
		slow.g.Ratio, slow.g.Low, slow.g.High, libcheck.CaseName(slow.c))
	row := advice.Apply{Runtime: advice.RuntimeHDF5, Setting: libcheck.SettingTconv, Value: fmt.Sprintf("H5Pset_buffer(dxpl, %d, NULL, NULL);", v),
		Comment: "the type-conversion buffer, for converted data", Measured: slices.Contains(r.valuesRun()[libcheck.SettingTconv], v), Gain: telling(g)}
	if len(g) > 0 {
		note += " Measured through HDF5 here at this size: " + gainList(g) + "."
	}
	row.Note = note
	return []advice.Apply{row}
}

// tconvValue is the type-conversion buffer to advise: the recommended
// size, or the size that measured the largest real gain when that one did
// not (where the recommendation is the default, the gain can only come
// from a larger buffer).
func (r LibraryCheck) tconvValue() int64 {
	v := r.Library.Recommended[libcheck.SettingTconv]
	var best *caseGain
	for _, g := range r.gainsOf(func(c libcheck.Case) bool { return c.Setting == libcheck.SettingTconv }) {
		switch {
		case !g.g.Significant:
		case g.c.BufferBytes == v:
			return v
		case best == nil || g.g.Ratio > best.g.Ratio:
			best = &g
		}
	}
	if best == nil {
		return v
	}
	return best.c.BufferBytes
}

// convertCost is the big-endian default case against the native one of
// the same storage and layout, when it is measurably slower.
func (r LibraryCheck) convertCost() *caseGain {
	fraction := r.fraction()
	byCase := map[libcheck.Case][]float64{}
	for _, s := range r.Samples {
		byCase[s.Case] = append(byCase[s.Case], s.MiBPerSec())
	}
	for c, be := range byCase {
		if !c.Default || c.Convert == "native" || c.Layout != libcheck.LayoutArray || c.Storage != libcheck.StorageContiguous {
			continue
		}
		nat := c
		nat.Convert = "native"
		if n := byCase[nat]; len(n) > 0 {
			if g := knee.CompareGain(be, n, fraction); slower(g, fraction) {
				return &caseGain{c, g}
			}
		}
	}
	return nil
}

// sieveRow: H5Pset_sieve_buf_size where its measured gain is real.
func (r LibraryCheck) sieveRow() []advice.Apply {
	v := r.Library.Recommended[libcheck.SettingSieve]
	g := r.gainsOf(func(c libcheck.Case) bool { return c.Setting == libcheck.SettingSieve && c.BufferBytes == v })
	best := telling(g)
	if best == nil || !best.Significant {
		return nil
	}
	return []advice.Apply{{Runtime: advice.RuntimeHDF5, Setting: libcheck.SettingSieve, Value: fmt.Sprintf("H5Pset_sieve_buf_size(fapl, %d);", v),
		Measured: true, Gain: best, Comment: "for small writes into a contiguous dataset",
		Note: "On the file access property list: writes smaller than the sieve buffer gather in it and go out a buffer at a time (rule H1; a chunked dataset has none). Measured through HDF5 here: " + gainList(g) + "."}}
}

// fraction is the plateau band of the sweep behind the report.
func (r LibraryCheck) fraction() float64 {
	if r.Sweep != nil {
		return bandFraction(r.Sweep.Fraction)
	}
	return knee.DefaultFraction
}

// slower: g (a case over its default) is a real loss, the mirror of
// Gain.Significant, which only a real gain sets: the U test's p below
// GainAlpha and even the high end under the plateau band.
func slower(g knee.Gain, fraction float64) bool {
	return g.P < knee.GainAlpha && g.High > 0 && g.High < fraction
}

// slowerIn: some gain of gains is a real loss.
func slowerIn(gains []caseGain, fraction float64) bool {
	return slices.ContainsFunc(gains, func(g caseGain) bool { return slower(g.g, fraction) })
}
