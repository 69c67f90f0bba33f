package workload

import (
	"fmt"
	"slices"
	"strings"
)

// Flush modes a program showed, strongest first: the one a curve that
// prices its writes must use.
const (
	FlushODirect   = "O_DIRECT"
	FlushOSync     = "O_SYNC"
	FlushODSync    = "O_DSYNC"
	FlushFsync     = "fsync"
	FlushFdatasync = "fdatasync"
	FlushMsync     = "msync"
	FlushNone      = "none" // the page cache: nothing waits for the device
)

// flushOrder ranks the modes: an open flag governs every write, a sync
// call only the end.
var flushOrder = []string{FlushODirect, FlushOSync, FlushODSync, FlushFsync, FlushFdatasync, FlushMsync, FlushNone}

// Flush is how a program's writes reached the device.
type Flush struct {
	Mode string // one of the Flush constants
	Why  string // the file and the calls that show it
	// Mapped names files written through a shared writable mapping:
	// their writes are not write(2) calls, and no trace sees them.
	Mapped []string
}

// FlushOf is the strongest flush behaviour of the inputs' written files,
// with the file that shows it; FlushNone when none flushed.
func FlushOf(inputs []Input) Flush {
	out := Flush{Mode: FlushNone, Why: "no file was flushed (no fsync, fdatasync, msync, O_SYNC, O_DSYNC or O_DIRECT): the writes landed in the page cache"}
	rank := len(flushOrder) - 1
	for _, in := range inputs {
		for _, f := range slices.Concat(in.Files, in.Mapped) {
			if f.Mapped {
				out.Mapped = append(out.Mapped, f.Path)
			}
			if m, why := f.flush(); slices.Index(flushOrder, m) < rank {
				rank, out.Mode, out.Why = slices.Index(flushOrder, m), m, why
			}
		}
	}
	return out
}

// flush is one file's strongest flush and what shows it.
func (f File) flush() (string, string) {
	for _, flag := range []string{FlushODirect, FlushOSync, FlushODSync} {
		if slices.Contains(f.OpenFlags, flag) {
			return flag, fmt.Sprintf("%s was opened with %s", f.Path, flag)
		}
	}
	for _, call := range []string{FlushFsync, FlushFdatasync, FlushMsync} {
		if n := f.Flushes[call]; n > 0 {
			return call, fmt.Sprintf("%s: %d %s call(s)", f.Path, n, call)
		}
	}
	if n := f.Flushes["sync_file_range"]; n > 0 {
		return FlushFdatasync, fmt.Sprintf("%s: %d sync_file_range call(s), priced as fdatasync", f.Path, n)
	}
	return FlushNone, ""
}

// FlushNames is the flush modes, for messages.
func FlushNames() string { return strings.Join(flushOrder, ", ") }
