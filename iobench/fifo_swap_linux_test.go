package iobench

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/iobench/iobench/internal/testkit/testwait"
)

// fifoSwapper is a hostile watcher: told by inotify that a data file whose
// name holds match was closed after writing, it moves the file aside and
// puts a FIFO under its name. swapped gets the name once it is done.
func fifoSwapper(t *testing.T, dir, match string) (swapped <-chan string) {
	t.Helper()
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		t.Skip("no inotify:", err)
	}
	if _, err := unix.InotifyAddWatch(fd, dir, unix.IN_CLOSE_WRITE); err != nil {
		unix.Close(fd)
		t.Fatal(err)
	}
	events := os.NewFile(uintptr(fd), "inotify") // non-blocking: Close ends a Read
	t.Cleanup(func() { events.Close() })
	out := make(chan string, 1)
	go func() {
		name, err := nextClosed(events, match)
		if err == nil {
			path := filepath.Join(dir, name)
			err = errors.Join(os.Rename(path, path+".moved"), unix.Mkfifo(path, 0o600))
		}
		if err != nil {
			t.Error("swapping a FIFO in:", err)
			name = ""
		}
		out <- name
	}()
	return out
}

// nextClosed reads inotify events until a name holding match comes.
func nextClosed(events *os.File, match string) (string, error) {
	buf := make([]byte, 64<<10)
	for {
		n, err := events.Read(buf)
		if err != nil {
			return "", err
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
			start := off + unix.SizeofInotifyEvent
			name := strings.TrimRight(string(buf[start:start+int(ev.Len)]), "\x00")
			if strings.Contains(name, match) {
				return name, nil
			}
			off = start + int(ev.Len)
		}
	}
}

// swapWaitFS is OSFS whose first data file named with match waits, once
// closed, for the watcher's swap: the swap then falls between the write
// and the next open, as a watcher that wins the race puts it.
type swapWaitFS struct {
	OSFS
	t       *testing.T
	match   string
	swapped <-chan string
	once    *sync.Once
}

func (s swapWaitFS) Create(name string, direct bool) (File, FileID, error) {
	f, id, err := s.OSFS.Create(name, direct)
	if err != nil || !strings.Contains(name, s.match) {
		return f, id, err
	}
	return waitingFile{File: f, fs: s}, id, nil
}

func (s swapWaitFS) LocalOS() OSFS { return s.OSFS }

type waitingFile struct {
	File
	fs swapWaitFS
}

func (f waitingFile) Allocate(size int64) error { return f.File.(Allocator).Allocate(size) }

func (f waitingFile) Close() error {
	err := f.File.Close()
	f.fs.once.Do(func() { testwait.Recv(f.fs.t, "the watcher's swap", f.fs.swapped) })
	return err
}

// shiftToSelf is a Shifter of one process, which reads its own file.
type shiftToSelf struct{}

func (shiftToSelf) Agree(err error) error                 { return err }
func (shiftToSelf) Shift(b []byte, _ int) ([]byte, error) { return b, nil }

// A FIFO a watcher swaps in for a data file is never opened to wait for
// a writer (no signal would end that wait): every open of an existing
// data file refuses it as a replaced file, the run ends naming the name
// it could not remove, and the FIFO, not iobench's, stays.
func TestFIFOSwappedInForADataFileIsRefused(t *testing.T) {
	for _, tc := range []struct {
		name   string
		match  string // the file the watcher swaps
		set    func(c *Config)
		shared bool
		coord  Coordinator
	}{
		{"cache drop before a read run", "-read-", func(c *Config) { c.Mode = ModeRead }, false, nil},
		{"warm-up read", "-read-", func(c *Config) { c.Mode, c.Warmup = ModeRead, true }, false, nil},
		{"read shift's file of another process", "-read-", func(c *Config) { c.Mode, c.ReadShift = ModeRead, 1 }, false, shiftToSelf{}},
		{"verify", ".dat", func(c *Config) { c.Verify = true }, false, nil},
		{"overwrite", "-overwrite-", func(c *Config) { c.Overwrite = true }, false, nil},
		{"preallocated file's timed open", ".dat", func(c *Config) { c.Preallocate = true }, false, nil},
		{"a rank's open of the shared file", "shared", func(*Config) {}, true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			c := smallConfig()
			tc.set(&c)
			fs := swapWaitFS{OSFS: OSFS{Dir: dir}, t: t, match: tc.match, swapped: fifoSwapper(t, dir, tc.match), once: &sync.Once{}}
			r := &Runner{Config: c, FS: fs, Coord: tc.coord}
			if tc.shared {
				r.Shared = &Shared{Name: ".iobench-test-shared.dat", Creator: true}
			}
			done := make(chan error, 1)
			var res *Result
			go func() {
				var err error
				res, err = r.Run(context.Background())
				done <- err
			}()
			err := testwait.Recv(t, "end of the run", done)
			checkFIFORefused(t, dir, err, res)
		})
	}
}

// checkFIFORefused: the run failed on the FIFO as a replaced file, named
// it as not removed, and left it in place.
func checkFIFORefused(t *testing.T, dir string, err error, res *Result) {
	t.Helper()
	var re *ReplacedError
	if !errors.As(err, &re) || !strings.Contains(re.Now, "a FIFO") {
		t.Fatalf("err = %v, want a ReplacedError naming a FIFO", err)
	}
	if len(res.LeftFiles) != 1 || res.LeftFiles[0].Path != re.Path || !strings.Contains(res.LeftFiles[0].Err, "a FIFO") {
		t.Errorf("left files %+v, want %s named with the FIFO", res.LeftFiles, re.Path)
	}
	var st unix.Stat_t
	if err := unix.Lstat(re.Path, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFIFO {
		t.Errorf("the watcher's FIFO at %s: %v, mode %o; want it kept", re.Path, err, st.Mode)
	}
	if filepath.Dir(re.Path) != dir {
		t.Errorf("replaced path %s is not in %s", re.Path, dir)
	}
}

// A FIFO swapped in between the check of a name and its open must not
// hold the open (O_NONBLOCK): a name flipping between the data file and
// a FIFO opens as the data file or is refused, for reading and writing.
func TestOpenNeverWaitsOnAFIFOSwappedInMidOpen(t *testing.T) {
	dir := t.TempDir()
	o := OSFS{Dir: dir}
	f, id, err := o.Create("d.dat", false)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	fifo := filepath.Join(dir, "fifo")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := unix.Renameat2(unix.AT_FDCWD, o.Path("d.dat"), unix.AT_FDCWD, fifo, unix.RENAME_EXCHANGE); err != nil {
		t.Skip("this file system cannot exchange two names:", err)
	}
	stop := make(chan struct{})
	flipped := make(chan error, 1)
	go func() { flipped <- flip(o.Path("d.dat"), fifo, stop) }()
	opened := make(chan error, 1)
	go func() { opened <- openAll(o, id) }()
	err = testwait.Recv(t, "the opens to return", opened)
	close(stop)
	if ferr := <-flipped; ferr != nil {
		t.Fatal(ferr)
	}
	if err != nil {
		t.Error(err)
	}
}

// flip swaps the data file at path and the FIFO back and forth, each
// swap atomic, so the name always leads to one of them.
func flip(path, fifo string, stop <-chan struct{}) error {
	for {
		select {
		case <-stop:
			return nil
		default:
		}
		if err := unix.Renameat2(unix.AT_FDCWD, path, unix.AT_FDCWD, fifo, unix.RENAME_EXCHANGE); err != nil {
			return err
		}
	}
}

// openAll opens the data file many times each way; every open returns
// the data file or a ReplacedError.
func openAll(o OSFS, id FileID) error {
	for range 20000 {
		for _, open := range []func() error{
			func() error { return closeOpened(o.Open("d.dat", id, false)) },
			func() error { return closeOpened(o.OpenWrite("d.dat", id, false, 0)) },
			func() error { return o.DropCache("d.dat", id, DropFadvise) },
		} {
			if err := open(); err != nil && !errors.As(err, new(*ReplacedError)) {
				return err
			}
		}
	}
	return nil
}

func closeOpened(f File, err error) error {
	if err == nil {
		return f.Close()
	}
	return err
}
