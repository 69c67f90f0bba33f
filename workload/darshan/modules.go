package darshan

import "slices"

// Module ids, in today's numbering (3.41).
const (
	idNull = iota
	idPOSIX
	idMPIIO
	idH5F
	idH5D
	idPnetcdfFile
	idPnetcdfVar
	idBGQ
	idLustre
	idSTDIO
	idDXTPOSIX
	idDXTMPIIO
	idMDHIM
	idAPXC
	idAPMPI
	idHeatmap
	idDFS
	idDAOS
)

var moduleNames = []string{
	"NULL", "POSIX", "MPI-IO", "H5F", "H5D", "PNETCDF_FILE", "PNETCDF_VAR", "BG/Q",
	"LUSTRE", "STDIO", "DXT_POSIX", "DXT_MPIIO", "MDHIM", "APXC", "APMPI", "HEATMAP",
	"DFS", "DAOS",
}

// unknownModule names a module id past the ones darshan knows today.
const unknownModule = "<UNKNOWN>"

func moduleName(id int) string {
	if id >= 0 && id < len(moduleNames) {
		return moduleNames[id]
	}
	return unknownModule
}

// moduleKind is a module whose records this package decodes.
type moduleKind struct {
	counters, fcounters []string       // today's
	layouts             map[int]layout // by record version
}

// layout is one record version as stored: base record (id, rank), then
// its integer counters, then its floating-point ones.
type layout struct {
	intAt, floatAt []int     // today's index of each stored counter; -1: not kept
	ints           []int64   // today's counters before the stored ones are filled in
	floats         []float64 //
	dropIfPositive int       // stored counter that, when > 0, leaves the record out; -1: none
}

func (l *layout) size() int { return 16 + 8*(len(l.intAt)+len(l.floatAt)) }

var decodedKinds = map[int]*moduleKind{
	idPOSIX: posixKind(),
	idMPIIO: mpiioKind(),
	idSTDIO: stdioKind(),
}

// posixKind: v3 had no dup, fileno or rename counters; v2 no close-start
// or open-end timestamps; v1 carried four stdio counters after MMAPS.
func posixKind() *moduleKind {
	v3 := without(posixCounters, "POSIX_FILENOS", "POSIX_DUPS",
		"POSIX_RENAME_SOURCES", "POSIX_RENAME_TARGETS", "POSIX_RENAMED_FROM")
	v2f := without(posixFCounters, "POSIX_F_CLOSE_START_TIMESTAMP", "POSIX_F_OPEN_END_TIMESTAMP")
	mmaps := slices.Index(v3, "POSIX_MMAPS") + 1
	v1 := slices.Insert(slices.Clone(v3), mmaps, "POSIX_FOPENS", "POSIX_FREADS", "POSIX_FWRITES", "POSIX_FSEEKS")
	k := &moduleKind{counters: posixCounters, fcounters: posixFCounters}
	// darshan sets RENAMED_FROM, a record id, to 0 rather than -1.
	absent := map[string]int64{"POSIX_RENAMED_FROM": 0}
	k.layouts = map[int]layout{
		1: k.layout(v1, v2f, absent, "POSIX_FOPENS"),
		2: k.layout(v3, v2f, absent, ""),
		3: k.layout(v3, posixFCounters, absent, ""),
		4: k.layout(posixCounters, posixFCounters, nil, ""),
	}
	return k
}

// mpiioKind: v1 and v2 share a layout without close-start and open-end
// timestamps.
func mpiioKind() *moduleKind {
	v2f := without(mpiioFCounters, "MPIIO_F_CLOSE_START_TIMESTAMP", "MPIIO_F_OPEN_END_TIMESTAMP")
	k := &moduleKind{counters: mpiioCounters, fcounters: mpiioFCounters}
	k.layouts = map[int]layout{
		1: k.layout(mpiioCounters, v2f, nil, ""),
		2: k.layout(mpiioCounters, v2f, nil, ""),
		3: k.layout(mpiioCounters, mpiioFCounters, nil, ""),
	}
	return k
}

// stdioKind: v1 had no FDOPENS.
func stdioKind() *moduleKind {
	k := &moduleKind{counters: stdioCounters, fcounters: stdioFCounters}
	k.layouts = map[int]layout{
		1: k.layout(without(stdioCounters, "STDIO_FDOPENS"), stdioFCounters, nil, ""),
		2: k.layout(stdioCounters, stdioFCounters, nil, ""),
	}
	return k
}

// layout maps a stored version's counters onto today's; today's counters
// it lacks read -1 unless absent says otherwise.
func (k *moduleKind) layout(stored, storedF []string, absent map[string]int64, dropName string) layout {
	l := layout{
		intAt:          positions(stored, k.counters),
		floatAt:        positions(storedF, k.fcounters),
		ints:           make([]int64, len(k.counters)),
		floats:         make([]float64, len(k.fcounters)),
		dropIfPositive: slices.Index(stored, dropName),
	}
	for i, name := range k.counters {
		l.ints[i] = -1
		if v, ok := absent[name]; ok {
			l.ints[i] = v
		}
	}
	for i := range l.floats {
		l.floats[i] = -1
	}
	return l
}

func positions(stored, today []string) []int {
	at := make([]int, len(stored))
	for i, name := range stored {
		at[i] = slices.Index(today, name)
	}
	return at
}

func without(names []string, drop ...string) []string {
	return slices.DeleteFunc(slices.Clone(names), func(n string) bool {
		return slices.Contains(drop, n)
	})
}
