package iobench

import (
	"bytes"
	"io"
	"os"
	"sort"
	"sync"

	"golang.org/x/sys/unix"
)

// memFS is an in-memory FS whose writes can be made short, interrupted or
// failing, to test the engine without a disk.
type memFS struct {
	mu      sync.Mutex
	files   map[string][]byte
	ids     map[string]FileID // identity of each name's file
	nextIno uint64
	closed  map[string][]byte // contents at close, by name
	written int64             // bytes accepted over all files

	shortEvery int   // every n-th write accepts half
	eintrEvery int   // every n-th write returns EINTR first
	failAfter  int64 // fail writes once this many bytes were accepted
	failErr    error // error for failAfter
	fsyncErr   error // error from Fsync
	removeErr  error // error from Remove, from the removeFrom-th call on
	removeFrom int
	removes    int
	onWrite    func(int64) // called with total bytes written so far
	onRemove   func()      // called as each Remove starts
	corrupt    bool        // flip a byte on every read
	misplace   int64       // a write of this many bytes past the first lands as a copy of the first block
	calls      int
	creates    int   // files created
	fsyncs     int   // Fsync calls
	datasyncs  int   // Fdatasync calls
	allocated  int64 // bytes Allocate was asked for, over all calls
}

func newMemFS() *memFS {
	return &memFS{files: map[string][]byte{}, ids: map[string]FileID{}, closed: map[string][]byte{}}
}

// replace puts another file under name, as a process swapping a user's
// file in would; its contents are user.
func (m *memFS) replace(name string, user []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.nextIno++
	m.files[name], m.ids[name] = user, FileID{Dev: 1, Ino: 1000 + m.nextIno}
}

// check fails unless name exists and still is the file id.
func (m *memFS) check(name string, id FileID) error {
	if _, ok := m.files[name]; !ok {
		return &os.PathError{Op: "open", Path: name, Err: unix.ENOENT}
	}
	if got := m.ids[name]; got != id {
		return &ReplacedError{Path: name, Want: id, Now: "another file (" + got.String() + ")"}
	}
	return nil
}

func (m *memFS) Create(name string, _ bool) (File, FileID, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.files[name]; ok {
		return nil, FileID{}, &os.PathError{Op: "open", Path: name, Err: unix.EEXIST}
	}
	m.nextIno++
	m.creates++
	m.files[name], m.ids[name] = []byte{}, FileID{Dev: 1, Ino: m.nextIno}
	return &memFile{fs: m, name: name}, m.ids[name], nil
}

func (m *memFS) OpenWrite(name string, id FileID, _ bool, offset int64) (File, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.check(name, id); err != nil {
		return nil, err
	}
	return &memFile{fs: m, name: name, pos: offset}, nil
}

func (m *memFS) Open(name string, id FileID, _ bool) (File, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.check(name, id); err != nil {
		return nil, err
	}
	data := bytes.Clone(m.files[name])
	if m.corrupt && len(data) > 10 {
		data[10] ^= 0x01
	}
	return &memFile{fs: m, name: name, r: bytes.NewReader(data)}, nil
}

func (m *memFS) Remove(name string, id FileID) error {
	if m.onRemove != nil {
		m.onRemove()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.removes++; m.removeErr != nil && m.removes >= m.removeFrom {
		return &os.PathError{Op: "remove", Path: name, Err: m.removeErr}
	}
	if err := m.check(name, id); err != nil {
		return err
	}
	delete(m.files, name)
	delete(m.ids, name)
	return nil
}

func (m *memFS) Sync(SyncMode) error { return nil }
func (m *memFS) DropCache(name string, id FileID, _ DropMode) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.check(name, id)
}

func (m *memFS) names() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var n []string
	for k := range m.files {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

type memFile struct {
	fs   *memFS
	name string
	pos  int64
	r    *bytes.Reader
	eint bool
}

func (f *memFile) Write(p []byte) (int, error) {
	m := f.fs
	m.mu.Lock()
	m.calls++
	if m.eintrEvery > 0 && m.calls%m.eintrEvery == 0 && !f.eint {
		f.eint = true
		m.mu.Unlock()
		return 0, unix.EINTR
	}
	f.eint = false
	n := len(p)
	if m.shortEvery > 0 && m.calls%m.shortEvery == 0 && n > 1 {
		n /= 2
	}
	var err error
	if m.failErr != nil && m.written+int64(n) > m.failAfter {
		n = int(max(0, m.failAfter-m.written))
		err = m.failErr
	}
	if m.misplace > 0 && len(p) == int(m.misplace) && f.pos > 0 && len(m.files[f.name]) >= n {
		p = append([]byte(nil), m.files[f.name][:n]...) // the block at offset 0, again: a misdirected write
	}
	m.files[f.name] = writeAt(m.files[f.name], p[:n], f.pos)
	f.pos += int64(n)
	m.written += int64(n)
	total, hook := m.written, m.onWrite
	m.mu.Unlock()
	if hook != nil {
		hook(total)
	}
	return n, err
}

func (f *memFile) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF && n == 0 {
		return 0, nil
	}
	return n, err
}

func (f *memFile) Fsync() error {
	f.fs.mu.Lock()
	defer f.fs.mu.Unlock()
	f.fs.fsyncs++
	return f.fs.fsyncErr
}

func (f *memFile) Fdatasync() error {
	f.fs.mu.Lock()
	defer f.fs.mu.Unlock()
	f.fs.datasyncs++
	return f.fs.fsyncErr
}

// Allocate grows the file to size with zeros, as fallocate mode 0 does.
func (f *memFile) Allocate(size int64) error {
	m := f.fs
	m.mu.Lock()
	defer m.mu.Unlock()
	m.allocated += size
	if b := m.files[f.name]; int64(len(b)) < size {
		m.files[f.name] = append(b, make([]byte, size-int64(len(b)))...)
	}
	return nil
}

func (f *memFile) Close() error {
	m := f.fs
	m.mu.Lock()
	defer m.mu.Unlock()
	if b, ok := m.files[f.name]; ok && f.r == nil {
		m.closed[f.name] = bytes.Clone(b)
	}
	return nil
}

func writeAt(buf, p []byte, off int64) []byte {
	if end := off + int64(len(p)); end > int64(len(buf)) {
		buf = append(buf, make([]byte, end-int64(len(buf)))...)
	}
	copy(buf[off:], p)
	return buf
}
