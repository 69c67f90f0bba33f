package strace

import (
	"bytes"
	"math"
)

// An fdTable is what one pid's opens, dups and closes made of its
// descriptors: the files of those it opened, and when it closed others,
// for rules 1 and 2 of the package comment.
type fdTable struct {
	live   map[int64]fdEntry
	closed map[int64]uint64 // the sequence number of the pid's close
}

// fdEntry is a descriptor's file and when, in the trace's sequence of
// opens and closes, it got it.
type fdEntry struct {
	f   *fileAcc
	seq uint64
}

func (p *parser) table(pid int) *fdTable {
	if p.cachedTable != nil && p.cachedPID == pid {
		return p.cachedTable
	}
	t := p.tables[pid]
	if t == nil {
		t = &fdTable{live: map[int64]fdEntry{}, closed: map[int64]uint64{}}
		p.tables[pid] = t
	}
	p.cachedPID, p.cachedTable = pid, t
	return t
}

// lookup applies rules 1 and 2: the pid's own open of the number, else
// the latest open of it by any pid unless this pid closed it since. It
// returns nil if neither names the descriptor, and whether the pid
// closed it.
func (p *parser) lookup(pid int, fd int64) (f *fileAcc, closed bool) {
	t := p.table(pid)
	if own, ok := t.live[fd]; ok {
		return own.f, false
	}
	latest, any := p.last[fd]
	closedAt, closed := t.closed[fd]
	if !any || closed && latest.seq < closedAt {
		return nil, closed
	}
	return latest.f, false
}

// resolve names the file of a descriptor: by its -y annotation, else by
// the rules of the package comment.
func (p *parser) resolve(pid int, fd int64, annot []byte) *fileAcc {
	if annot != nil {
		p.scratch = annotPath(p.scratch[:0], annot)
		return p.intern(p.scratch)
	}
	f, closed := p.lookup(pid, fd)
	if f != nil {
		return f
	}
	return p.unopened(fd, closed)
}

func (p *parser) setFD(pid int, fd int64, f *fileAcc) {
	p.seq++
	e := fdEntry{f, p.seq}
	t := p.table(pid)
	t.live[fd] = e
	delete(t.closed, fd)
	p.last[fd] = e
}

func (p *parser) closeFD(t *fdTable, fd int64) {
	p.seq++
	delete(t.live, fd)
	t.closed[fd] = p.seq
}

// moveTable gives the descriptors of a thread that ran execve to the
// pid it goes on as, the leader's: they shared one table, so the later
// of each number's open or close in either stands.
func (p *parser) moveTable(from, to int) {
	src, ok := p.tables[from]
	if !ok || from == to {
		return
	}
	dst := p.table(to)
	for fd, e := range src.live {
		if e.seq > dst.changed(fd) {
			dst.live[fd] = e
			delete(dst.closed, fd)
		}
	}
	for fd, seq := range src.closed {
		if seq > dst.changed(fd) {
			delete(dst.live, fd)
			dst.closed[fd] = seq
		}
	}
	delete(p.tables, from)
	p.cachedTable = nil
}

// changed is when the table last opened or closed a number, 0 if never.
func (t *fdTable) changed(fd int64) uint64 {
	if e, ok := t.live[fd]; ok {
		return e.seq
	}
	return t.closed[fd]
}

// applyOpen maps the descriptor an open, creat, openat or openat2
// returned to its path: the -y annotation of the result, else the path
// argument, joined to the directory of a dirfd the trace opened.
func (p *parser) applyOpen(pid int, k kind, name string, args []byte, r result) bool {
	if r.unknown || r.ret < 0 {
		return true
	}
	a := argList{s: args}
	dir := []byte(nil)
	if k == kOpenat {
		dirArg, _ := a.next()
		dirfd, annot, ok := fdArg(dirArg)
		if !ok {
			return false
		}
		dir = p.dirPath(pid, dirfd, annot)
	}
	pathArg, _ := a.next()
	flags, _ := a.next()
	var acc *fileAcc
	if r.annot != nil {
		p.scratch = annotPath(p.scratch[:0], r.annot)
		acc = p.intern(p.scratch)
	} else {
		path, ok := stringArg(p.scratch[:0], pathArg)
		if !ok {
			return false
		}
		p.scratch = joinDir(path, dir)
		acc = p.intern(p.scratch)
	}
	p.setFD(pid, r.ret, acc)
	if name == "creat" {
		flags = []byte("O_CREAT|O_TRUNC")
	}
	p.noteOpen(pid, acc, flags)
	return true
}

// noteOpen keeps an open's telling flags and, for a shared object, the
// library the process loaded.
func (p *parser) noteOpen(pid int, acc *fileAcc, flags []byte) {
	acc.noteFlags(flags)
	acc.opened = true
	if isSharedObject([]byte(acc.path)) {
		pr := p.proc(pid)
		pr.Libs = appendNew(pr.Libs, acc.path)
	}
}

// dirPath is the path of an openat's dirfd, nil for the working
// directory or a directory the trace did not open.
func (p *parser) dirPath(pid int, dirfd int64, annot []byte) []byte {
	switch {
	case dirfd == atFDCWD:
		return nil
	case annot != nil:
		return annotPath(p.dirBuf[:0], annot)
	}
	if f, _ := p.lookup(pid, dirfd); f != nil {
		return append(p.dirBuf[:0], f.path...)
	}
	return nil
}

// joinDir puts a relative path under dir, in place of path's bytes.
func joinDir(path, dir []byte) []byte {
	if len(dir) == 0 || len(path) > 0 && path[0] == '/' {
		return path
	}
	rel := append([]byte(nil), path...)
	path = append(path[:0], dir...)
	if !bytes.HasSuffix(path, []byte{'/'}) {
		path = append(path, '/')
	}
	return append(path, rel...)
}

// applyClose forgets a closed descriptor, whatever close returned: Linux
// frees the number even when close fails with EINTR or EIO.
func (p *parser) applyClose(pid int, args []byte) bool {
	a := argList{s: args}
	arg, _ := a.next()
	fd, _, ok := fdArg(arg)
	if ok {
		p.closeFD(p.table(pid), fd)
	}
	return ok
}

// applyCloseRange forgets the descriptors close_range closed, unless it
// only set close-on-exec.
func (p *parser) applyCloseRange(pid int, args []byte, r result) bool {
	a := argList{s: args}
	firstArg, _ := a.next()
	lastArg, _ := a.next()
	flags, _ := a.next()
	first, ok := parseInt(firstArg)
	if !ok {
		return false
	}
	last, ok := parseInt(lastArg)
	if !ok { // "~0U"
		last = math.MaxInt64
	}
	raw, _ := parseInt(flags)
	if r.ret != 0 || bytes.Contains(flags, []byte("CLOSE_RANGE_CLOEXEC")) || raw&4 != 0 {
		return true
	}
	// The pid's open descriptors, not the range: "~0U" is 2^32 numbers.
	t := p.table(pid)
	for fd := range t.live {
		if first <= fd && fd <= last {
			p.closeFD(t, fd)
		}
	}
	return true
}

// applyDup maps the descriptor a dup, dup2, dup3 or fcntl(F_DUPFD)
// returned to the file of the one it copied.
func (p *parser) applyDup(pid int, k kind, args []byte, r result) bool {
	a := argList{s: args}
	oldArg, _ := a.next()
	old, oldAnnot, ok := fdArg(oldArg)
	if !ok {
		return false
	}
	if k == kFcntl {
		cmd, _ := a.next()
		if !isDupCmd(cmd) {
			return true
		}
	}
	if r.unknown || r.ret < 0 {
		return true
	}
	if r.annot != nil {
		oldAnnot = r.annot
	}
	p.setFD(pid, r.ret, p.resolve(pid, old, oldAnnot))
	return true
}

// isDupCmd tells whether an fcntl command duplicates: F_DUPFD (0) or
// F_DUPFD_CLOEXEC (1030).
func isDupCmd(cmd []byte) bool {
	if bytes.Equal(cmd, []byte("F_DUPFD")) || bytes.Equal(cmd, []byte("F_DUPFD_CLOEXEC")) {
		return true
	}
	v, ok := parseInt(cmd)
	return ok && (v == 0 || v == 1030)
}
