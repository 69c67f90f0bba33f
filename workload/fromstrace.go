package workload

import (
	"fmt"
	"maps"
	"slices"

	"github.com/iobench/iobench/workload/strace"
)

// FromStrace is what an strace trace says the program wrote: every file
// with its exact write sizes, placed on mounts (this machine's table,
// since a trace has none; nil leaves them unknown).
func FromStrace(path string, tr *strace.Trace, mounts []Mount) Input {
	in := Input{Path: path, Kind: KindStrace, NProcs: int64(tr.PIDs)}
	files := make([]File, 0, len(tr.Files))
	for _, sf := range tr.Files {
		f := File{Path: sf.Path, Module: ModuleStrace, Records: 1, Writes: sf.Writes, Bytes: sf.Bytes,
			Histogram: true, WriteSeconds: sf.Seconds, Flushes: sf.Flushes, OpenFlags: sf.OpenFlags, Opened: sf.Opened, Mapped: sf.Mapped, Syscalls: sf.Syscalls}
		for _, size := range slices.Sorted(maps.Keys(sf.Sizes)) {
			f.Sizes = append(f.Sizes, SizeClass{Low: size, High: size, Calls: sf.Sizes[size]})
		}
		if mt, ok := MountOf(sf.Path, mounts); ok {
			f.Mount, f.FSType = mt.Path, mt.FSType
		}
		files = append(files, f)
		in.Notes = append(in.Notes, callNotes(sf)...)
	}
	in.Modules = []Module{totals(ModuleStrace, files, len(files))}
	in.Files = written(files)
	in.Mapped, in.Notes = unseen(tr, in.Notes)
	if p := tr.Program(); p != nil {
		in.Libraries = p.Libs
	}
	if tr.Skipped > 0 {
		in.Notes = append(in.Notes, fmt.Sprintf("%d of %d lines were not strace output and were skipped (first at %v)", tr.Skipped, tr.Lines, tr.SkippedAt[0]))
	}
	if !tr.Timed {
		in.Notes = append(in.Notes, "the trace has no call times (record with strace -T to measure the write time)")
	}
	return in
}

// callNotes says what of a file's calls is not in its sizes.
func callNotes(f strace.File) []string {
	var out []string
	if f.Errors > 0 {
		out = append(out, fmt.Sprintf("%s: %d write calls failed (%v)", f.Path, f.Errors, f.Errnos))
	}
	if f.Unknown > 0 {
		out = append(out, fmt.Sprintf("%s: %d write calls have no result in the trace", f.Path, f.Unknown))
	}
	if f.Short > 0 {
		out = append(out, fmt.Sprintf("%s: %d write calls wrote less than they asked", f.Path, f.Short))
	}
	return out
}

// unseen is what a trace shows was written without write calls: files
// mapped shared and writable, and asynchronous submits.
func unseen(tr *strace.Trace, notes []string) ([]File, []string) {
	var mapped []File
	for _, m := range tr.Mapped {
		mapped = append(mapped, File{Path: m.Path, Module: ModuleStrace, Mapped: true, Flushes: map[string]int64{"msync": m.Msyncs}})
	}
	switch n := len(tr.Mapped); {
	case n == 1:
		notes = append(notes, fmt.Sprintf("%s was mapped shared and writable: what the program stored there is not in the trace", tr.Mapped[0].Path))
	case n > 1:
		notes = append(notes, fmt.Sprintf("%d files were mapped shared and writable (%s, ...): what the program stored there is not in the trace", n, tr.Mapped[0].Path))
	}
	for _, name := range slices.Sorted(maps.Keys(tr.Async)) {
		if name == "io_submit" || name == "io_uring_enter" {
			notes = append(notes, fmt.Sprintf("%d %s calls: asynchronous I/O, whose writes the trace does not size", tr.Async[name], name))
		}
	}
	return mapped, notes
}
