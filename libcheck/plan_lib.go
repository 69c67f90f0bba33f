package libcheck

import (
	"fmt"
	"slices"

	"github.com/iobench/iobench/convert"
)

// SettingDefault is a library setting's own default: the value a case
// that leaves it unset runs with (1 for H5Pset_alignment: none).
func SettingDefault(setting string) int64 {
	switch setting {
	case SettingCBBuffer:
		return ROMIOCBBufferDefault
	case SettingIndWrBuffer:
		return ROMIOIndWrDefault
	case SettingBytesPerAgg:
		return OMPIOBytesPerAggDef
	case SettingSieve:
		return HDF5SieveDefault
	case SettingTconv:
		return HDF5TconvDefault
	}
	return 1
}

// settingValues are the values a plan runs for a setting recommended at
// rec: rec and twice it, the default left out (the default case runs it).
func settingValues(setting string, rec int64) []int64 {
	var out []int64
	for _, v := range []int64{rec, 2 * rec} {
		if v > 0 && v != SettingDefault(setting) {
			out = append(out, v)
		}
	}
	return out
}

// MPIIOChoice is what an MPI-IO plan covers.
type MPIIOChoice struct {
	Components []string // OMPIO, ROMIO
	Layouts    []Layout // LayoutPerRank, LayoutShared
	Collective []bool   // false: independent
	Memories   []string // MemoryContiguous, MemoryStrided: each strided group brings its packed twin
	Ranks      int
	// Recommended is the value of each setting that applies the sweep's
	// recommendation; the plan runs it and twice it.
	Recommended map[string]int64
}

// MPIIOCases are the cases of ch in report order, and what was left
// out and why: a setting runs only where its component's rule says it
// can change the write(2) calls.
func MPIIOCases(ch MPIIOChoice) ([]Case, []string) {
	var cases []Case
	for _, comp := range ch.Components {
		for _, l := range ch.Layouts {
			for _, coll := range ch.Collective {
				for _, mem := range memoriesOf(ch.Memories) {
					g := Case{Layout: l, Convert: convert.Native.String(), Component: comp, Collective: coll, Memory: mem}
					cases = append(cases, withDefault(g, mpiioSettings(ch, g))...)
				}
			}
		}
	}
	return cases, mpiioNotes(ch)
}

// memoriesOf puts each strided layout's packed twin beside it.
func memoriesOf(ms []string) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m)
		if m == MemoryStrided {
			out = append(out, MemoryPacked)
		}
	}
	return out
}

// withDefault is the group's default case and its setting cases.
func withDefault(g Case, settings []Case) []Case {
	def := g
	def.Default = true
	return append([]Case{def}, settings...)
}

// mpiioSettings are the setting cases of group g: ROMIO's
// ind_wr_buffer_size for strided memory (R2), romio_cb_write=enable and
// cb_buffer_size under it for collective calls (R5); OMPIO's
// bytes_per_agg where vulcan aggregates (O3). A packed twin runs only
// its default, against which its pack time is set.
func mpiioSettings(ch MPIIOChoice, g Case) []Case {
	if g.Memory == MemoryPacked {
		return nil
	}
	set := func(setting, sw string) []Case {
		return settingCases(g, setting, sw, settingValues(setting, ch.Recommended[setting]))
	}
	var out []Case
	switch {
	case g.Component == OMPIO:
		if g.Collective && g.Layout == LayoutShared && ch.Ranks >= 3 {
			out = set(SettingBytesPerAgg, "")
		}
	default:
		if g.Memory == MemoryStrided {
			out = set(SettingIndWrBuffer, "")
		}
		if g.Collective {
			enable := g
			enable.Switch = SwitchCBWrite
			out = append(append(out, enable), set(SettingCBBuffer, SwitchCBWrite)...)
		}
	}
	return out
}

// mpiioNotes say which settings the plan leaves out, and why.
func mpiioNotes(ch MPIIOChoice) []string {
	var notes []string
	if slices.Contains(ch.Components, ROMIO) {
		notes = append(notes, "ROMIO: cb_buffer_size runs only with romio_cb_write=enable: otherwise a collective call whose ranks' requests do not interleave goes the independent way (R4) and no collective buffer is used; ind_wr_buffer_size only with strided memory (R2)")
	}
	if slices.Contains(ch.Components, OMPIO) {
		notes = append(notes, fmt.Sprintf("OMPIO: bytes_per_agg runs only for collective calls on a shared file of 3 or more ranks (this job: %d), where fcoll vulcan aggregates (O0, O3); fewer ranks take fcoll individual, the independent path", ch.Ranks))
	}
	return notes
}

// HDF5Choice is what an HDF5 plan covers.
type HDF5Choice struct {
	Storages []string // StorageContiguous, StorageChunked
	Layouts  []Layout // LayoutArray (one H5Dwrite), LayoutRecords (hyperslabs of Plan.RecordBytes)
	Orders   []convert.Order
	// Recommended is the value of each setting that applies the sweep's
	// recommendation (SettingAlignment, SettingSieve, SettingTconv).
	Recommended map[string]int64
}

// HDF5Cases are the cases of ch in report order, and what was left out
// and why: H5Pset_alignment runs for the one-H5Dwrite layout, the sieve
// buffer for records into contiguous storage (H1: a chunked dataset has
// none), the type-conversion buffer for one converted H5Dwrite into
// contiguous storage (H2: a record is one pass, a chunk goes through the
// chunk cache).
func HDF5Cases(ch HDF5Choice) ([]Case, []string) {
	var cases []Case
	for _, st := range ch.Storages {
		for _, l := range ch.Layouts {
			for _, o := range ch.Orders {
				g := Case{Layout: l, Convert: o.String(), Storage: st}
				cases = append(cases, withDefault(g, hdf5Settings(ch, g))...)
			}
		}
	}
	notes := []string{"H5Pset_alignment runs for one H5Dwrite of the whole dataset, the sieve buffer for records into contiguous storage (a chunked dataset has none, H1), H5Pset_buffer for one converted H5Dwrite into contiguous storage (H2: a record is one conversion pass; a chunk goes through the chunk cache, H3, H4)"}
	return cases, notes
}

func hdf5Settings(ch HDF5Choice, g Case) []Case {
	var settings []string
	contiguous := g.Storage == StorageContiguous
	switch {
	case g.Layout == LayoutArray:
		settings = append(settings, SettingAlignment)
		if contiguous && g.Swap() {
			settings = append(settings, SettingTconv)
		}
	case contiguous:
		settings = append(settings, SettingSieve)
	}
	var out []Case
	for _, s := range settings {
		vals := settingValues(s, ch.Recommended[s])
		if s != SettingTconv && len(vals) > 1 {
			vals = vals[:1] // the knee against the default
		}
		out = append(out, settingCases(g, s, g.Switch, vals)...)
	}
	return out
}

// settingCases are group g's cases of setting at each of vals, under
// switch sw.
func settingCases(g Case, setting, sw string, vals []int64) []Case {
	var out []Case
	for _, v := range vals {
		c := g
		c.Setting, c.Switch, c.BufferBytes = setting, sw, v
		out = append(out, c)
	}
	return out
}
