package strace

import (
	"fmt"
	"sort"
)

// fileAcc gathers one file's calls. Every opened path gets one, so that a
// descriptor table entry is a pointer; only those written are listed.
type fileAcc struct {
	path   string
	listed bool
	f      File
	nanos  int64
	// flushes, openFlags and mapped are kept for every path: a file is
	// often opened, or mapped, before its first write.
	flushes   map[string]int64
	openFlags []string
	mapped    bool
	opened    bool // an open in the trace named it
}

// intern returns the accumulator of a path.
func (p *parser) intern(path []byte) *fileAcc {
	if f, ok := p.paths[string(path)]; ok {
		return f
	}
	f := &fileAcc{path: string(path)}
	p.paths[f.path] = f
	return f
}

// unopened returns the accumulator of a descriptor that no open in the
// trace names: one open before the trace, or one the pid closed.
func (p *parser) unopened(fd int64, closed bool) *fileAcc {
	key := unopenedKey{fd, closed && fd > 2}
	if f, ok := p.unopenedFiles[key]; ok {
		return f
	}
	f := p.intern([]byte(unopenedName(key)))
	p.unopenedFiles[key] = f
	return f
}

type unopenedKey struct {
	fd     int64
	closed bool
}

func unopenedName(k unopenedKey) string {
	switch {
	case k.fd == 0:
		return "<stdin>"
	case k.fd == 1:
		return "<stdout>"
	case k.fd == 2:
		return "<stderr>"
	case k.fd < 0:
		return fmt.Sprintf("fd %d (invalid)", k.fd)
	case k.closed:
		return fmt.Sprintf("fd %d (closed)", k.fd)
	}
	return fmt.Sprintf("fd %d (opened before the trace)", k.fd)
}

// record counts one write-family call: want is the size it asked for,
// -1 if unknown.
func (p *parser) record(acc *fileAcc, name string, want int64, r result) {
	f := p.list(acc)
	f.Syscalls[name]++
	if r.timed {
		acc.nanos += r.nanos
		p.trace.Timed = true
	}
	switch {
	case r.unknown:
		f.Unknown++
	case r.ret < 0:
		f.Errors++
		f.Errnos[errnoKey(r.errno)]++
	default:
		f.Writes++
		f.Bytes += r.ret
		f.Sizes[r.ret]++
		if want >= 0 && r.ret < want {
			f.Short++
		}
	}
}

func errnoKey(errno []byte) string {
	if len(errno) == 0 {
		return "unknown"
	}
	return string(errno)
}

// list makes a file one of the trace's files at its first call.
func (p *parser) list(acc *fileAcc) *File {
	if !acc.listed {
		acc.listed = true
		acc.f = File{
			Path:     acc.path,
			Errnos:   map[string]int64{},
			Sizes:    map[int64]int64{},
			Syscalls: map[string]int64{},
		}
		p.order = append(p.order, acc)
	}
	return &acc.f
}

// files returns the listed files in the order of their first call.
func (p *parser) files() []File {
	files := make([]File, 0, len(p.order))
	for _, acc := range p.order {
		f := acc.f
		f.Seconds = float64(acc.nanos) / 1e9
		f.Flushes, f.OpenFlags, f.Mapped, f.Opened = acc.flushes, acc.openFlags, acc.mapped, acc.opened
		files = append(files, f)
	}
	return files
}

// pidCount is how many processes made the lines. Without -o, strace -f
// prefixes lines with a pid only once a second process exists, so the
// first process's earlier lines carry none: they belong to one of the
// pids seen.
func (p *parser) pidCount() int {
	n := len(p.pids)
	if _, unnamed := p.pids[0]; unnamed && n > 1 {
		n--
	}
	return n
}

// sortedPIDs returns the keys of a pid map in order.
func sortedPIDs[V any](m map[int]V) []int {
	pids := make([]int, 0, len(m))
	for pid := range m {
		pids = append(pids, pid)
	}
	sort.Ints(pids)
	return pids
}
