package strace

import (
	"bytes"
	"fmt"
	"io"
)

// kind is what a system call does to the trace's files.
type kind uint8

const (
	kOther      kind = iota
	kWrite           // write, pwrite64: fd, buf, count[, offset]
	kWritev          // writev, pwritev, pwritev2: fd, iov, iovcnt[, ...]
	kOpen            // open, creat: path, ...
	kOpenat          // openat, openat2: dirfd, path, ...
	kClose           // close: fd
	kCloseRange      // close_range: first, last, flags
	kDup             // dup, dup2, dup3: oldfd[, newfd]
	kFcntl           // fcntl: fd, cmd, ...
	kExec            // execve: path, argv, envp
	kExecat          // execveat: dirfd, path, ...
	kClone           // clone, clone3, fork, vfork: the child's pid
	kSync            // fsync, fdatasync, sync_file_range: fd, ...
	kMsync           // msync: addr, length, flags
	kMmap            // mmap: addr, length, prot, flags, fd, offset
	kAsync           // io_submit, io_uring_enter, sync, syncfs: counted
)

func (k kind) writes() bool { return k == kWrite || k == kWritev }

// lookupSyscall returns a call's kind and its name as a constant, so
// that counting by name allocates nothing.
func lookupSyscall(name []byte) (kind, string) {
	switch string(name) {
	case "write":
		return kWrite, "write"
	case "pwrite64":
		return kWrite, "pwrite64"
	case "writev":
		return kWritev, "writev"
	case "pwritev":
		return kWritev, "pwritev"
	case "pwritev2":
		return kWritev, "pwritev2"
	case "open":
		return kOpen, "open"
	case "creat":
		return kOpen, "creat"
	case "openat":
		return kOpenat, "openat"
	case "openat2":
		return kOpenat, "openat2"
	case "close":
		return kClose, "close"
	case "close_range":
		return kCloseRange, "close_range"
	case "dup":
		return kDup, "dup"
	case "dup2":
		return kDup, "dup2"
	case "dup3":
		return kDup, "dup3"
	case "fcntl":
		return kFcntl, "fcntl"
	}
	return lookupMore(name)
}

// lookupMore is lookupSyscall for the calls of processes, flushes and
// mappings.
func lookupMore(name []byte) (kind, string) {
	switch string(name) {
	case "execve":
		return kExec, "execve"
	case "execveat":
		return kExecat, "execveat"
	case "clone", "clone3", "fork", "vfork":
		return kClone, "clone"
	case "fsync":
		return kSync, "fsync"
	case "fdatasync":
		return kSync, "fdatasync"
	case "sync_file_range":
		return kSync, "sync_file_range"
	case "msync":
		return kMsync, "msync"
	case "mmap":
		return kMmap, "mmap"
	case "io_submit":
		return kAsync, "io_submit"
	case "io_uring_enter":
		return kAsync, "io_uring_enter"
	case "sync":
		return kAsync, "sync"
	case "syncfs":
		return kAsync, "syncfs"
	}
	return kOther, ""
}

// verdict is what became of a line.
type verdict uint8

const (
	blank verdict = iota
	recognised
	skipped
)

// pendingCall is a call strace printed as "<unfinished ...>": its
// arguments wait, copied, for the "<... NAME resumed>" line with the
// result.
type pendingCall struct {
	active bool
	kind   kind
	name   string
	args   []byte
}

// parser holds the state of one ParseStreams: the files, each pid's
// descriptors and unfinished call, and buffers reused across lines.
type parser struct {
	maxLine int
	trace   Trace

	paths         map[string]*fileAcc
	unopenedFiles map[unopenedKey]*fileAcc
	order         []*fileAcc

	tables      map[int]*fdTable
	last        map[int64]fdEntry
	seq         uint64
	cachedPID   int
	cachedTable *fdTable

	pending  map[int]*pendingCall
	pids     map[int]struct{}
	procs    map[int]*Proc
	mappings map[uint64]*fileAcc
	seenPID  int
	seenSome bool

	stream Stream
	carry  []byte // a line's start cut by an attach note
	joined []byte
	short  []byte
	// scratch and dirBuf hold decoded paths.
	scratch, dirBuf []byte
}

func newParser(maxLine int) *parser {
	return &parser{
		maxLine:       maxLine,
		paths:         map[string]*fileAcc{},
		unopenedFiles: map[unopenedKey]*fileAcc{},
		tables:        map[int]*fdTable{},
		last:          map[int64]fdEntry{},
		pending:       map[int]*pendingCall{},
		pids:          map[int]struct{}{},
		procs:         map[int]*Proc{},
		mappings:      map[uint64]*fileAcc{},
	}
}

// readStream parses one stream's lines.
func (p *parser) readStream(s Stream) error {
	p.stream, p.carry = s, nil
	lr := newLineReader(s.R, p.maxLine)
	var lines, understood int64
	var first []byte // the first line that is not blank, for errors
	firstAt := 0
	for n := 1; ; n++ {
		line, tail, long, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("strace: reading %s: %w", Position{s.Name, n}, err)
		}
		lines++
		if first == nil && len(trimSpace(line)) > 0 {
			first, firstAt = append([]byte(nil), line[:min(len(line), 80)]...), n
		}
		switch p.line(line, tail, long) {
		case recognised:
			understood++
		case skipped:
			p.skip(Position{s.Name, n})
		}
	}
	p.trace.Lines += lines
	if understood == 0 {
		return notStrace(s, lines, firstAt, first)
	}
	return nil
}

func (p *parser) skip(pos Position) {
	p.trace.Skipped++
	if len(p.trace.SkippedAt) < MaxSkippedAt {
		p.trace.SkippedAt = append(p.trace.SkippedAt, pos)
	}
}

// line handles one line as read: an overlong one by its ends, one cut by
// an attach note joined to the next.
func (p *parser) line(line, tail []byte, long bool) verdict {
	if long {
		p.trace.Long++
		p.carry = nil
		p.short = shortened(p.short, line, tail)
		if p.short == nil {
			return skipped
		}
		return p.parseLine(p.short, true)
	}
	if p.carry != nil {
		p.joined = append(append(p.joined[:0], p.carry...), line...)
		line, p.carry = p.joined, nil
	}
	if before, ok := splitAttachNote(line); ok && bytes.IndexByte(before, '(') >= 0 && len(before) < p.maxLine {
		p.carry = append(p.carry[:0:0], before...)
		return recognised
	}
	return p.parseLine(line, false)
}

// parseLine parses a line: [pid] [timestamps] [-i/-n brackets] body.
// Of a line shortened from an overlong one only a write-family call or
// a call of no interest is taken.
func (p *parser) parseLine(line []byte, short bool) verdict {
	if len(trimSpace(line)) == 0 {
		return blank
	}
	pid, body := splitPrefix(line, p.stream.PID)
	v := p.body(pid, body, short)
	if v == recognised {
		p.seePID(pid)
	}
	return v
}

func (p *parser) seePID(pid int) {
	if p.seenSome && pid == p.seenPID {
		return
	}
	p.pids[pid] = struct{}{}
	p.seenPID, p.seenSome = pid, true
}

// splitPrefix returns the pid a line starts with ("1234 ", "[pid 1234] ",
// "1234<comm> "), or pid if none, and the line past its timestamps (-t,
// -tt, -ttt, -r) and the brackets of -i and -n.
func splitPrefix(b []byte, pid int) (int, []byte) {
	b = trimLeftSpace(b)
	if bytes.HasPrefix(b, []byte("[pid ")) {
		rest := trimLeftSpace(b[len("[pid "):])
		if v, n := pidPrefix(rest); n > 0 && n < len(rest) && rest[n] == ']' {
			pid, b = v, rest[n+1:]
		}
	} else if v, n := pidPrefix(b); n > 0 && n < len(b) && (b[n] == ' ' || b[n] == '<') {
		pid, b = v, b[n:]
		if b[0] == '<' { // --decode-pids=comm
			b = b[skipAnnotation(b, 0):]
		}
	}
	for {
		b = trimLeftSpace(b)
		if n := timestampLen(b); n > 0 {
			b = b[n:]
		} else if n := bracketLen(b); n > 0 {
			b = b[n:]
		} else {
			return pid, b
		}
	}
}

// pidPrefix parses the decimal pid b starts with.
func pidPrefix(b []byte) (int, int) {
	n := 0
	for n < len(b) && n < 10 && isDigit(b[n]) {
		n++
	}
	if n == 0 || n < len(b) && isDigit(b[n]) {
		return 0, 0
	}
	v, _ := parseInt(b[:n])
	return int(v), n
}

// timestampLen is the length of a leading timestamp token and its space:
// "12:34:56", "12:34:56.123456", "1700000000.123456", "0.000123".
func timestampLen(b []byte) int {
	n, digits, separated := 0, false, false
	for ; n < len(b); n++ {
		switch c := b[n]; {
		case isDigit(c):
			digits = true
		case c == ':' || c == '.':
			separated = true
		default:
			if !digits || !separated || c != ' ' {
				return 0
			}
			return n + 1
		}
	}
	return 0
}

// bracketLen is the length of a leading "[   1]" (-n) or
// "[00007f2b8a1b2c3d]" (-i, "[????????????????]" when unknown).
func bracketLen(b []byte) int {
	if len(b) < 3 || b[0] != '[' {
		return 0
	}
	for n := 1; n < len(b); n++ {
		switch c := b[n]; {
		case c == ']':
			if n == 1 {
				return 0
			}
			return n + 1
		case c != ' ' && c != '?' && digitValue(c) >= 16:
			return 0
		}
	}
	return 0
}

// body parses what follows the prefix.
func (p *parser) body(pid int, b []byte, short bool) verdict {
	if len(b) > 0 && 'a' <= b[0] && b[0] <= 'z' && b[0] != 's' {
		return p.call(pid, b, short) // the common case: no note starts so
	}
	switch {
	case bytes.HasPrefix(b, []byte("+++ ")) && bytes.HasSuffix(b, []byte(" +++")):
		p.exitNote(pid, b)
		return recognised
	case bytes.HasPrefix(b, []byte("--- ")) && bytes.HasSuffix(b, []byte(" ---")),
		bytes.HasPrefix(b, []byte("strace: ")),
		bytes.HasPrefix(b, []byte("???")),
		bytes.HasPrefix(b, []byte("[ Process PID=")),
		bytes.HasPrefix(b, []byte("| ")) && bytes.HasSuffix(b, []byte("|")), // -e write=FD dumps
		bytes.HasPrefix(b, []byte("> ")) && bytes.HasSuffix(b, []byte("]")): // -k stack frames
		return recognised
	case bytes.HasPrefix(b, []byte("<... ")):
		return p.resumed(pid, b[len("<... "):], short)
	}
	return p.call(pid, b, short)
}

// exitNote handles "+++ superseded by execve in pid N +++": the thread N
// that ran execve goes on as this pid, with its descriptors.
func (p *parser) exitNote(pid int, b []byte) {
	const note = "+++ superseded by execve in pid "
	if !bytes.HasPrefix(b, []byte(note)) {
		return
	}
	if from, n := pidPrefix(b[len(note):]); n > 0 {
		p.moveTable(from, pid)
		if pc := p.pending[from]; pc != nil && pc.active && from != pid {
			p.pending[pid], p.pending[from] = pc, nil // its execve resumes here
			delete(p.pending, from)
		}
	}
}

// nameLen is the length of the system call name b starts with.
func nameLen(b []byte) int {
	if len(b) == 0 || isDigit(b[0]) || !isWordChar(b[0]) {
		return 0
	}
	n := 1
	for n < len(b) && isWordChar(b[n]) {
		n++
	}
	return n
}

// call parses "NAME(ARGS) = RESULT" or "NAME(ARGS <unfinished ...>".
func (p *parser) call(pid int, b []byte, short bool) verdict {
	n := nameLen(b)
	if n == 0 || n == len(b) || b[n] != '(' {
		return skipped
	}
	k, name := lookupSyscall(b[:n])
	rest := b[n+1:]
	if k == kOther {
		if bytes.Contains(rest, []byte(" = ")) || isUnfinished(rest) {
			return recognised
		}
		return skipped
	}
	if short && !k.writes() {
		return skipped
	}
	if args, ok := unfinishedArgs(rest); ok {
		p.startPending(pid, k, name, args)
		return recognised
	}
	return p.complete(pid, k, name, nil, rest)
}

// complete applies a call whose result is in rest, after its arguments;
// args are those printed before, at an unfinished line.
func (p *parser) complete(pid int, k kind, name string, args, rest []byte) verdict {
	close := argsClose(rest, 0)
	if close < 0 {
		return skipped
	}
	r, ok := parseResult(rest[close+1:])
	if !ok {
		return skipped
	}
	if args == nil {
		args = rest[:close]
	}
	if !p.apply(pid, k, name, args, r) {
		return skipped
	}
	return recognised
}

const unfinishedMark = "<unfinished ...>"

func isUnfinished(b []byte) bool {
	return bytes.HasSuffix(trimSpace(b), []byte(unfinishedMark))
}

// unfinishedArgs returns the arguments before " <unfinished ...>".
func unfinishedArgs(b []byte) ([]byte, bool) {
	b = trimSpace(b)
	if !bytes.HasSuffix(b, []byte(unfinishedMark)) {
		return nil, false
	}
	return trimSpace(b[:len(b)-len(unfinishedMark)]), true
}

func (p *parser) startPending(pid int, k kind, name string, args []byte) {
	pc := p.pending[pid]
	if pc == nil {
		pc = &pendingCall{}
		p.pending[pid] = pc
	}
	if pc.active { // its resumption is lost
		p.abandon(pid, pc)
	}
	pc.active, pc.kind, pc.name = true, k, name
	pc.args = append(pc.args[:0], args...)
}

// resumed parses "NAME resumed>REST) = RESULT" for the pending call of
// the same pid and name.
func (p *parser) resumed(pid int, b []byte, short bool) verdict {
	n := nameLen(b)
	const mark = " resumed>"
	if n == 0 || !bytes.HasPrefix(b[n:], []byte(mark)) {
		return skipped
	}
	k, name := lookupSyscall(b[:n])
	if k == kOther {
		return recognised
	}
	pc := p.pending[pid]
	if pc == nil || !pc.active || pc.name != name || short && !k.writes() {
		return skipped
	}
	rest := b[n+len(mark):]
	if isUnfinished(rest) && argsClose(rest, 0) < 0 {
		return recognised // still pending
	}
	pc.active = false
	return p.complete(pid, k, name, pc.args, rest)
}

// abandon counts a pending write-family call whose result never came.
func (p *parser) abandon(pid int, pc *pendingCall) {
	pc.active = false
	if pc.kind.writes() {
		p.apply(pid, pc.kind, pc.name, pc.args, result{unknown: true})
	}
}

func (p *parser) apply(pid int, k kind, name string, args []byte, r result) bool {
	switch k {
	case kWrite, kWritev:
		return p.applyWrite(pid, k, name, args, r)
	case kOpen, kOpenat:
		return p.applyOpen(pid, k, name, args, r)
	case kClose:
		return p.applyClose(pid, args)
	case kCloseRange:
		return p.applyCloseRange(pid, args, r)
	case kDup, kFcntl:
		return p.applyDup(pid, k, args, r)
	}
	return p.applyMore(pid, k, name, args, r)
}

func (p *parser) applyMore(pid int, k kind, name string, args []byte, r result) bool {
	switch k {
	case kExec, kExecat:
		return p.applyExec(pid, k, args, r)
	case kClone:
		return p.applyClone(pid, args, r)
	case kSync:
		return p.applySync(pid, name, args, r)
	case kMsync:
		return p.applyMsync(args, r)
	case kMmap:
		return p.applyMmap(pid, args, r)
	case kAsync:
		if p.trace.Async == nil {
			p.trace.Async = map[string]int64{}
		}
		p.trace.Async[name]++
	}
	return true
}

// applyWrite counts a write-family call for the file of its descriptor.
func (p *parser) applyWrite(pid int, k kind, name string, args []byte, r result) bool {
	a := argList{s: args}
	fdText, _ := a.next()
	fd, annot, ok := fdArg(fdText)
	if !ok {
		return false
	}
	want := int64(-1)
	if k == kWrite {
		if count, ok := a.nth(1); ok {
			if v, ok := parseInt(count); ok {
				want = v
			}
		}
	} else {
		iov, _ := a.next()
		count, _ := a.next()
		want = iovRequest(iov, count)
	}
	p.record(p.resolve(pid, fd, annot), name, want, r)
	if !r.unknown && r.ret >= 0 {
		pr := p.proc(pid)
		pr.Writes++
		pr.Bytes += r.ret
	}
	return true
}

// iovRequest is the sum of the iov_len of a vectored call's iovecs, or
// -1 if strace did not print them all ("[{...}, ...]") or printed an
// address.
func iovRequest(iov, count []byte) int64 {
	n, ok := parseInt(count)
	if !ok || len(iov) < 2 || iov[0] != '[' || iov[len(iov)-1] != ']' {
		return -1
	}
	elems := argList{s: iov[1 : len(iov)-1]}
	var sum, seen int64
	for e, more := elems.next(); more; e, more = elems.next() {
		if len(e) == 0 && seen == 0 && elems.i > len(elems.s) {
			break // "[]"
		}
		size, ok := iovLen(e)
		if !ok {
			return -1
		}
		sum += size
		seen++
	}
	if seen != n {
		return -1
	}
	return sum
}

// iovLen parses "{iov_base=..., iov_len=N}".
func iovLen(e []byte) (int64, bool) {
	if len(e) < 2 || e[0] != '{' || e[len(e)-1] != '}' {
		return 0, false
	}
	fields := argList{s: e[1 : len(e)-1]}
	for f, more := fields.next(); more; f, more = fields.next() {
		if v, ok := bytes.CutPrefix(f, []byte("iov_len=")); ok {
			return parseInt(v)
		}
	}
	return 0, false
}

// finish counts the calls still unfinished and returns the trace.
func (p *parser) finish() *Trace {
	for _, pid := range sortedPIDs(p.pending) {
		if pc := p.pending[pid]; pc.active {
			p.abandon(pid, pc)
		}
	}
	t := p.trace
	t.Files = p.files()
	t.PIDs = p.pidCount()
	t.Procs = p.procList()
	t.Mapped = p.mappedFiles()
	return &t
}
