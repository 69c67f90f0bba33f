package strace

import (
	"maps"
	"slices"
	"strings"
)

// Part is one trace of a Merge: a rank's, parsed on its own, named.
type Part struct {
	Name  string // the trace file's name, which tells its host
	Trace *Trace
}

// Merge is the traces of separate process trees, such as the ranks of
// an MPI job each traced by its own strace, as one trace: the files by
// path, the counts summed. Pids of different parts may be equal (other
// hosts), so each process keeps its part's name in Proc.Trace and is
// known by the pair.
func Merge(parts ...Part) *Trace {
	m := &Trace{}
	at := map[string]int{}
	for _, p := range parts {
		mergeCounts(m, p.Trace)
		for _, f := range p.Trace.Files {
			i, ok := at[f.Path]
			if !ok {
				i, at[f.Path] = len(m.Files), len(m.Files)
				m.Files = append(m.Files, File{Path: f.Path})
			}
			mergeFile(&m.Files[i], f)
		}
		for _, pr := range p.Trace.Procs {
			pr.Trace = p.Name
			m.Procs = append(m.Procs, pr)
		}
	}
	m.Mapped = mergeMapped(parts)
	return m
}

// mergeCounts adds a part's whole-trace counts.
func mergeCounts(m, t *Trace) {
	m.PIDs += t.PIDs
	m.Lines += t.Lines
	m.Skipped += t.Skipped
	m.Long += t.Long
	m.Timed = m.Timed || t.Timed
	for _, at := range t.SkippedAt {
		if len(m.SkippedAt) < MaxSkippedAt {
			m.SkippedAt = append(m.SkippedAt, at)
		}
	}
	for name, n := range t.Async {
		if m.Async == nil {
			m.Async = map[string]int64{}
		}
		m.Async[name] += n
	}
}

// mergeFile adds one part's calls to a file to the merged ones.
func mergeFile(m *File, f File) {
	m.Writes += f.Writes
	m.Bytes += f.Bytes
	m.Errors += f.Errors
	m.Short += f.Short
	m.Unknown += f.Unknown
	m.Seconds += f.Seconds
	m.Mapped = m.Mapped || f.Mapped
	m.Opened = m.Opened || f.Opened
	m.Errnos = addCounts(m.Errnos, f.Errnos)
	m.Syscalls = addCounts(m.Syscalls, f.Syscalls)
	m.Flushes = addCounts(m.Flushes, f.Flushes)
	m.Sizes = addCounts(m.Sizes, f.Sizes)
	m.OpenFlags = appendNew(m.OpenFlags, f.OpenFlags...)
}

// addCounts adds b's counts to a's, a new map when a is nil.
func addCounts[K comparable](a, b map[K]int64) map[K]int64 {
	if len(b) == 0 {
		return a
	}
	if a == nil {
		a = make(map[K]int64, len(b))
	}
	for k, n := range b {
		a[k] += n
	}
	return a
}

// mergeMapped is the parts' shared writable mappings by path.
func mergeMapped(parts []Part) []Mapping {
	msyncs := map[string]int64{}
	for _, p := range parts {
		for _, mp := range p.Trace.Mapped {
			msyncs[mp.Path] += mp.Msyncs
		}
	}
	var out []Mapping
	for _, path := range slices.SortedFunc(maps.Keys(msyncs), strings.Compare) {
		out = append(out, Mapping{Path: path, Msyncs: msyncs[path]})
	}
	return out
}
