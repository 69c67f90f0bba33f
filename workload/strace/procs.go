package strace

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
)

// RecordCalls is the -e trace= list that iobench records a program with:
// the write family, the calls that name and move descriptors, those
// that make and replace processes, the flushes, shared mappings and the
// asynchronous submits whose writes no write-family line shows.
const RecordCalls = "write,pwrite64,writev,pwritev,pwritev2," +
	"open,openat,openat2,creat,close,close_range,dup,dup2,dup3,fcntl," +
	"execve,execveat,clone,clone3,fork,vfork," +
	"fsync,fdatasync,msync,sync_file_range,sync,syncfs," +
	"mmap,io_submit,io_uring_enter"

// RecordArgs are strace's arguments, before the program, that record
// what this package reads into out: every process (-f), wall-clock
// stamps, call times (-T), descriptor paths (-y), no data (-s 0).
func RecordArgs(out string) []string {
	return append(RecordFlags(), "-o", out)
}

// RecordFlags are RecordArgs without the output file, for a caller that
// names it (one per rank of an MPI job).
func RecordFlags() []string {
	return []string{"-f", "-qq", "-ttt", "-T", "-y", "-s", "0", "-e", "trace=" + RecordCalls}
}

// Proc is one process or thread of a trace.
type Proc struct {
	PID    int
	Parent int  // the pid whose clone or fork made it; 0 if unseen
	Thread bool // made by clone with CLONE_THREAD
	// Execs are the programs it ran, by successful execve, in order.
	Execs []string
	// Libs are the shared objects it opened (lib*.so*, Open MPI's mca_*.so),
	// as -y named them.
	Libs []string
	// Writes and Bytes are its successful write-family calls.
	Writes, Bytes int64
	// Trace is the part of a Merge it came from; "" in a trace of one
	// strace. A process is its (Trace, PID).
	Trace string
}

// Program is the process that wrote most, with its threads' writes and
// libraries counted as its own: the program a launcher or script ran.
// Nil for a trace without processes.
func (t *Trace) Program() *Proc {
	var best *Proc
	var most int64 = -1
	for i := range t.Procs {
		p := t.Procs[i]
		if p.Thread {
			continue
		}
		group := t.group(p)
		if group.Bytes > most || group.Bytes == most && len(group.Execs) > 0 && len(best.Execs) == 0 {
			g := group
			best, most = &g, group.Bytes
		}
	}
	return best
}

// group sums a process and its threads.
func (t *Trace) group(leader Proc) Proc {
	g := leader
	g.Execs = slices.Clone(leader.Execs)
	g.Libs = slices.Clone(leader.Libs)
	for _, p := range t.Procs {
		if p.Thread && p.Parent == leader.PID && p.Trace == leader.Trace {
			g.Writes += p.Writes
			g.Bytes += p.Bytes
			g.Libs = appendNew(g.Libs, p.Libs...)
			g.Execs = append(g.Execs, p.Execs...)
		}
	}
	return g
}

func appendNew(list []string, items ...string) []string {
	for _, s := range items {
		if !slices.Contains(list, s) {
			list = append(list, s)
		}
	}
	return list
}

// proc returns the accumulator of a pid.
func (p *parser) proc(pid int) *Proc {
	pr := p.procs[pid]
	if pr == nil {
		pr = &Proc{PID: pid}
		p.procs[pid] = pr
	}
	return pr
}

// isSharedObject tells a shared library's path: lib*.so or lib*.so.N,
// and Open MPI's components (mca_io_ompio.so): which of them a process
// opened shows which MPI-IO component ran.
func isSharedObject(path []byte) bool { return IsSharedObject(string(path)) }

// IsSharedObject says whether a file's name is a shared object's:
// lib*.so and lib*.so.N, Open MPI's mca_*.so.
func IsSharedObject(path string) bool {
	base := filepath.Base(path)
	if strings.HasPrefix(base, "mca_") {
		return strings.HasSuffix(base, ".so")
	}
	return strings.HasPrefix(base, "lib") && (strings.HasSuffix(base, ".so") || strings.Contains(base, ".so."))
}

// applyExec records a successful execve or execveat's program.
func (p *parser) applyExec(pid int, k kind, args []byte, r result) bool {
	if r.unknown || r.ret != 0 {
		return true
	}
	a := argList{s: args}
	if k == kExecat {
		a.next()
	}
	pathArg, _ := a.next()
	if path, ok := stringArg(nil, pathArg); ok {
		pr := p.proc(pid)
		pr.Execs = append(pr.Execs, string(path))
	}
	return true
}

// applyClone links the process or thread a clone, clone3, fork or vfork
// made to its parent.
func (p *parser) applyClone(pid int, args []byte, r result) bool {
	if r.unknown || r.ret <= 0 {
		return true
	}
	parent, child := p.proc(pid), p.proc(int(r.ret))
	child.Parent = pid
	child.Thread = bytes.Contains(args, []byte("CLONE_THREAD"))
	if child.Thread {
		if parent.Thread && parent.Parent != 0 {
			child.Parent = parent.Parent // all threads belong to the group's leader
		}
	}
	return true
}

// applySync counts fsync, fdatasync and sync_file_range on the file of
// their descriptor.
func (p *parser) applySync(pid int, name string, args []byte, r result) bool {
	if r.unknown || r.ret < 0 {
		return true
	}
	a := argList{s: args}
	fdText, _ := a.next()
	if fd, annot, ok := fdArg(fdText); ok {
		p.resolve(pid, fd, annot).flush(name)
	}
	return true
}

// applyMmap notes a shared writable mapping of a file: its writes are
// stores to memory, which no write-family call shows.
func (p *parser) applyMmap(pid int, args []byte, r result) bool {
	if r.unknown || r.ret < 0 {
		return true
	}
	a := argList{s: args}
	a.next() // addr
	a.next() // length
	prot, _ := a.next()
	flags, _ := a.next()
	fdText, _ := a.next()
	fd, annot, ok := fdArg(fdText)
	if !ok || fd < 0 || !bytes.Contains(prot, []byte("PROT_WRITE")) || !bytes.Contains(flags, []byte("MAP_SHARED")) {
		return true
	}
	acc := p.resolve(pid, fd, annot)
	acc.mapped = true
	p.mappings[uint64(r.ret)] = acc
	return true
}

// applyMsync counts an msync on the file mapped at its address, or on
// the last file mapped when the address is inside a mapping.
func (p *parser) applyMsync(args []byte, r result) bool {
	if r.unknown || r.ret < 0 {
		return true
	}
	a := argList{s: args}
	addrText, _ := a.next()
	addr, _ := parseInt(addrText)
	if acc, ok := p.mappings[uint64(addr)]; ok {
		acc.flush("msync")
	} else if p.lastMapped() != nil {
		p.lastMapped().flush("msync")
	}
	return true
}

func (p *parser) lastMapped() *fileAcc {
	var top uint64
	var acc *fileAcc
	for addr, f := range p.mappings {
		if addr >= top {
			top, acc = addr, f
		}
	}
	return acc
}

// flush counts a flush call on a file.
func (f *fileAcc) flush(name string) {
	if f.flushes == nil {
		f.flushes = map[string]int64{}
	}
	f.flushes[name]++
}

// openFlagNames are the open flags that tell how a file's writes reach
// the device, or what became of what it held.
var openFlagNames = []string{"O_DIRECT", "O_SYNC", "O_DSYNC", "O_APPEND", "O_TRUNC", "O_CREAT", "O_EXCL"}

// noteFlags records the telling flags of an open of a file.
func (f *fileAcc) noteFlags(flags []byte) {
	for _, name := range openFlagNames {
		if hasFlag(flags, name) && !slices.Contains(f.openFlags, name) {
			f.openFlags = append(f.openFlags, name)
		}
	}
}

// hasFlag finds a whole flag name in an "A|B|C" list.
func hasFlag(flags []byte, name string) bool {
	for _, f := range bytes.FieldsFunc(flags, func(r rune) bool { return r == '|' || r == ' ' || r == '=' || r == ',' || r == '{' || r == '}' }) {
		if string(f) == name {
			return true
		}
	}
	return false
}

// procs returns the processes sorted by pid.
func (p *parser) procList() []Proc {
	out := make([]Proc, 0, len(p.procs))
	for _, pid := range sortedPIDs(p.procs) {
		out = append(out, *p.procs[pid])
	}
	return out
}

// mappedFiles lists the files mapped shared and writable.
func (p *parser) mappedFiles() []Mapping {
	var out []Mapping
	for _, acc := range p.paths {
		if acc.mapped {
			out = append(out, Mapping{Path: acc.path, Msyncs: acc.flushes["msync"]})
		}
	}
	slices.SortFunc(out, func(a, b Mapping) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// Mapping is a file a process mapped shared and writable.
type Mapping struct {
	Path   string
	Msyncs int64
}
