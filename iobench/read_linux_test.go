package iobench

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"hash"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/iobench/iobench/convert"
)

// hashingFS is the real file system that keeps a SHA-256 of the bytes
// written to each data file and of every pass that read one back, so a
// test can tell that a read run saw what was written.
type hashingFS struct {
	OSFS
	mu      sync.Mutex
	written map[string][]byte   // file name: sum of the bytes written
	reads   map[string][][]byte // file name: sum of each read pass
}

func newHashingFS(dir string, raw bool) *hashingFS {
	return &hashingFS{OSFS: OSFS{Dir: dir, RawSyscalls: raw}, written: map[string][]byte{}, reads: map[string][][]byte{}}
}

func (h *hashingFS) Create(name string, direct bool) (File, FileID, error) {
	f, id, err := h.OSFS.Create(name, direct)
	if err != nil {
		return nil, id, err
	}
	return h.hashing(f, func(sum []byte) { h.written[name] = sum }), id, nil
}

func (h *hashingFS) Open(name string, id FileID, direct bool) (File, error) {
	f, err := h.OSFS.Open(name, id, direct)
	if err != nil {
		return nil, err
	}
	return h.hashing(f, func(sum []byte) { h.reads[name] = append(h.reads[name], sum) }), nil
}

func (h *hashingFS) hashing(f File, done func(sum []byte)) File {
	return &hashingFile{File: f, h: sha256.New(), done: func(sum []byte) {
		h.mu.Lock()
		defer h.mu.Unlock()
		done(sum)
	}}
}

// hashingFile hashes the bytes each call moved and hands the sum over
// on Close.
type hashingFile struct {
	File
	h    hash.Hash
	done func(sum []byte)
}

func (f *hashingFile) Write(p []byte) (int, error) {
	n, err := f.File.Write(p)
	f.h.Write(p[:max(n, 0)])
	return n, err
}

func (f *hashingFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	f.h.Write(p[:max(n, 0)])
	return n, err
}

func (f *hashingFile) Close() error {
	f.done(f.h.Sum(nil))
	return f.File.Close()
}

// realReadConfig is a small read sweep in dir: 4 MiB of float64 read in
// 4 KiB and 1 MiB calls, with the default sync (syncfs) and warm-up.
func realReadConfig(dir string) Config {
	c := DefaultConfig()
	c.Dir = dir
	c.Count = 4 << 20 / 8
	c.Sizes = []int64{4096, 1 << 20}
	c.Mode = ModeRead
	return c
}

// checkReadSamples checks that every size was read once, each run moving
// the whole file in size-long calls at a measured throughput, and that
// the writes (for ModeBoth) came first at each size.
func checkReadSamples(t *testing.T, c Config, samples []Sample) {
	t.Helper()
	perSize := len(c.Mode.Directions())
	if len(samples) != perSize*len(c.Sizes) {
		t.Fatalf("%d samples, want %d (%d sizes x %v)", len(samples), perSize*len(c.Sizes), len(c.Sizes), c.Mode.Directions())
	}
	for i, s := range samples {
		if want := c.Mode.Directions()[i%perSize]; s.Mode != want {
			t.Errorf("sample %d is a %s run, want %s", i, s.Mode, want)
		}
		if want := c.TotalBytes() / s.WriteSize; s.Bytes != c.TotalBytes() || s.Calls != want {
			t.Errorf("%s run of %d: %d bytes in %d calls, want %d in %d", s.Mode, s.WriteSize, s.Bytes, s.Calls, c.TotalBytes(), want)
		}
		if s.MiBPerSec() <= 0 {
			t.Errorf("%s run of %d: no throughput (%v s)", s.Mode, s.WriteSize, s.Seconds)
		}
	}
}

// The read paths on a real file system: every read pass (the warm-up and
// one per size) reads back exactly the bytes written to the read file.
func TestRealFileReadRunsReadBackWhatWasWritten(t *testing.T) {
	for _, tc := range []struct {
		name string
		raw  bool
		set  func(*Config)
	}{
		{"read, default syncfs", false, func(*Config) {}},
		{"write and read, sync(2), raw calls", true, func(c *Config) { c.Mode, c.Sync = ModeBoth, SyncAll }},
		{"read, big-endian through the conversion buffer", false, func(c *Config) { c.Convert, c.Sync = convert.BigEndian, SyncNone }},
		{"write and read, O_DIRECT", false, func(c *Config) { c.Mode, c.Direct = ModeBoth, true }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			c := realReadConfig(dir)
			tc.set(&c)
			h := newHashingFS(dir, tc.raw)
			res, err := (&Runner{Config: c, FS: h}).Run(context.Background())
			if c.Direct && errors.Is(err, unix.EINVAL) {
				t.Skipf("this file system refuses O_DIRECT: %v", err)
			}
			if err != nil {
				t.Fatal(err)
			}
			checkReadSamples(t, c, res.Samples)
			if len(h.reads) != 1 {
				t.Fatalf("read passes went to %d files, want all to the one read file", len(h.reads))
			}
			for name, sums := range h.reads {
				if len(sums) != 1+len(c.Sizes) {
					t.Errorf("%d read passes, want the warm-up and one per size", len(sums))
				}
				for i, sum := range sums {
					if !bytes.Equal(sum, h.written[name]) {
						t.Errorf("read pass %d of %s: sha256 %x, written %x", i, name, sum, h.written[name])
					}
				}
			}
			if left, _ := os.ReadDir(dir); len(left) != 0 {
				t.Errorf("files left: %v", left)
			}
		})
	}
}

// --keep in read mode keeps the file the read runs read, whole.
func TestRealFileReadKeepsTheReadFile(t *testing.T) {
	dir := t.TempDir()
	c := realReadConfig(dir)
	c.Keep, c.Warmup, c.Sync = true, false, SyncNone
	res, err := (&Runner{Config: c, FS: OSFS{Dir: dir}}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(left) != 1 || res.KeptFile != left[0] {
		t.Fatalf("kept file %q, files in the directory %v; want just the kept one", res.KeptFile, left)
	}
	if st, err := os.Stat(left[0]); err != nil || st.Size() != c.TotalBytes() {
		t.Errorf("kept read file: %v, want %d bytes", err, c.TotalBytes())
	}
}

// withDropSwitch points the page cache switch at path for one test.
func withDropSwitch(t *testing.T, path string) {
	old := dropCachesPath
	dropCachesPath = path
	t.Cleanup(func() { dropCachesPath = old })
}

// --drop-caches writes "1" to the kernel's switch before each read run;
// here a file stands in for /proc/sys/vm/drop_caches, so no root needed.
func TestDropCachesWritesTheSwitchBeforeReads(t *testing.T) {
	dir := t.TempDir()
	sw := filepath.Join(t.TempDir(), "drop_caches")
	if err := os.WriteFile(sw, nil, 0o600); err != nil { // the kernel's switch always exists
		t.Fatal(err)
	}
	withDropSwitch(t, sw)
	c := realReadConfig(dir)
	c.Drop, c.Sync = DropCaches, SyncNone
	res, err := (&Runner{Config: c, FS: OSFS{Dir: dir}}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	checkReadSamples(t, c, res.Samples)
	if got, err := os.ReadFile(sw); err != nil || string(got) != "1\n" {
		t.Errorf("switch holds %q (%v), want \"1\\n\"", got, err)
	}
}

// A switch that cannot be written fails the first read run, names the
// switch, and leaves no data file.
func TestDropCachesFailureStopsTheReadRun(t *testing.T) {
	dir := t.TempDir()
	sw := filepath.Join(t.TempDir(), "no-such-dir", "drop_caches")
	withDropSwitch(t, sw)
	c := realReadConfig(dir)
	c.Drop, c.Sync, c.Warmup = DropCaches, SyncNone, false
	res, err := (&Runner{Config: c, FS: OSFS{Dir: dir}}).Run(context.Background())
	var pe *os.PathError
	if !errors.As(err, &pe) || pe.Path != sw || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err %v, want the switch %s not found", err, sw)
	}
	if !res.Incomplete || len(res.Samples) != 0 {
		t.Errorf("incomplete %v with %d samples, want incomplete with none", res.Incomplete, len(res.Samples))
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("files left: %v", left)
	}
}

// The real switch, as root: the page cache is dropped before each read
// run and the reads still see the whole file.
func TestDropCachesAsRoot(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to write /proc/sys/vm/drop_caches")
	}
	dir := t.TempDir()
	c := realReadConfig(dir)
	c.Drop, c.Sizes = DropCaches, []int64{1 << 20}
	if err := checkDropCaches(c); err != nil {
		t.Skipf("the page cache switch is not writable here: %v", err)
	}
	res, err := (&Runner{Config: c, FS: OSFS{Dir: dir}}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	checkReadSamples(t, c, res.Samples)
}

func TestSyncModesOnARealDirectory(t *testing.T) {
	dir := t.TempDir()
	for _, m := range []SyncMode{SyncFS, SyncAll, SyncNone} {
		if err := (OSFS{Dir: dir}).Sync(m); err != nil {
			t.Errorf("Sync(%s): %v", m, err)
		}
	}
	missing := filepath.Join(dir, "missing")
	err := OSFS{Dir: missing}.Sync(SyncFS)
	var pe *os.PathError
	if !errors.As(err, &pe) || pe.Path != missing || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("syncfs on a missing directory: %v, want a path error naming %s", err, missing)
	}
}

// A read that meets the end of the file before the data ends is an error,
// with the bytes it did read counted, through both call paths.
func TestReadFullOnAShortFile(t *testing.T) {
	for _, raw := range []bool{false, true} {
		o := OSFS{Dir: t.TempDir(), RawSyscalls: raw}
		f, id, err := o.Create("short.dat", false)
		if err != nil {
			t.Fatal(err)
		}
		var ws Sample
		if err := writeTimed(f, make([]byte, 100), &ws, nil); err != nil || f.Close() != nil {
			t.Fatalf("writing 100 bytes: %v", err)
		}
		if f, err = o.Open("short.dat", id, false); err != nil {
			t.Fatal(err)
		}
		var s Sample
		err = readFull(f, make([]byte, 200), &s)
		f.Close()
		if !errors.Is(err, errShortFile) || s.Bytes != 100 || s.Calls != 2 {
			t.Errorf("raw %v: err %v after %d bytes in %d calls, want errShortFile after 100 in 2", raw, err, s.Bytes, s.Calls)
		}
		if err := o.Remove("short.dat", id); err != nil {
			t.Error(err)
		}
	}
}
