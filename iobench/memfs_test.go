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
	closed  map[string][]byte // contents at close, by name
	written int64             // bytes accepted over all files

	shortEvery int         // every n-th write accepts half
	eintrEvery int         // every n-th write returns EINTR first
	failAfter  int64       // fail writes once this many bytes were accepted
	failErr    error       // error for failAfter
	fsyncErr   error       // error from Fsync
	onWrite    func(int64) // called with total bytes written so far
	corrupt    bool        // flip a byte on every read
	calls      int
}

func newMemFS() *memFS {
	return &memFS{files: map[string][]byte{}, closed: map[string][]byte{}}
}

func (m *memFS) Create(name string, _ bool) (File, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.files[name]; ok {
		return nil, &os.PathError{Op: "open", Path: name, Err: unix.EEXIST}
	}
	m.files[name] = []byte{}
	return &memFile{fs: m, name: name}, nil
}

func (m *memFS) OpenWrite(name string, _ bool, offset int64) (File, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.files[name]; !ok {
		return nil, &os.PathError{Op: "open", Path: name, Err: unix.ENOENT}
	}
	return &memFile{fs: m, name: name, pos: offset}, nil
}

func (m *memFS) Open(name string, _ bool) (File, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.files[name]
	if !ok {
		return nil, &os.PathError{Op: "open", Path: name, Err: unix.ENOENT}
	}
	data := bytes.Clone(b)
	if m.corrupt && len(data) > 10 {
		data[10] ^= 0x01
	}
	return &memFile{fs: m, name: name, r: bytes.NewReader(data)}, nil
}

func (m *memFS) Remove(name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.files[name]; !ok {
		return &os.PathError{Op: "remove", Path: name, Err: unix.ENOENT}
	}
	delete(m.files, name)
	return nil
}

func (m *memFS) Sync(SyncMode) error              { return nil }
func (m *memFS) DropCache(string, DropMode) error { return nil }

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

func (f *memFile) Fsync() error { return f.fs.fsyncErr }

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
