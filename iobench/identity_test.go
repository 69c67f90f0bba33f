package iobench

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// swapCoord replaces the shared file with a user's file at its n-th
// Agree call: after the creator made it, before a rank opens it (the
// race a watcher using inotify can win). As a Broadcaster it passes bytes through.
type swapCoord struct {
	calls, at int
	swap      func()
}

func (c *swapCoord) Agree(err error) error {
	if c.calls++; c.calls == c.at {
		c.swap()
	}
	return err
}

func (c *swapCoord) Broadcast(b []byte) ([]byte, error) { return b, nil }

func TestSharedFileSwappedForAUserFileIsNotWritten(t *testing.T) {
	m := newMemFS()
	c := smallConfig()
	c.Count, c.Sizes, c.Warmup = 100, []int64{256}, false
	user := []byte("a user's thesis")
	// Agree calls: setup, prepare (the file exists now), the identity broadcast.
	coord := &swapCoord{at: 2, swap: func() { m.replace("shared.dat", bytes.Clone(user)) }}
	r := &Runner{Config: c, FS: m, Coord: coord, Shared: &Shared{Name: "shared.dat", Creator: true}}
	_, err := r.Run(context.Background())
	var re *ReplacedError
	if !errors.As(err, &re) {
		t.Fatalf("err = %v, want a ReplacedError", err)
	}
	if got := m.files["shared.dat"]; !bytes.Equal(got, user) {
		t.Errorf("the user's file now holds %q, want %q untouched", got, user)
	}
}

// A rank that did not create the shared file takes its identity from the
// creator's broadcast, and stops when the name leads elsewhere.
func TestSharedFileNonCreatorChecksTheCreatorsFile(t *testing.T) {
	m := newMemFS()
	if _, _, err := m.Create("shared.dat", false); err != nil { // "rank 0"
		t.Fatal(err)
	}
	m.replace("shared.dat", []byte("user"))
	c := smallConfig()
	c.Count, c.Sizes, c.Warmup = 100, []int64{256}, false
	r := &Runner{Config: c, FS: m, Coord: &swapCoord{}, Shared: &Shared{Name: "shared.dat", Offset: 800, ID: FileID{Dev: 1, Ino: 1}}}
	// The pass-through broadcast hands this rank its own (zero) ID back,
	// which is not the file under the name: it must refuse.
	if _, err := r.Run(context.Background()); !errors.As(err, new(*ReplacedError)) {
		t.Fatalf("err = %v, want a ReplacedError", err)
	}
	if got := m.files["shared.dat"]; string(got) != "user" {
		t.Errorf("shared name now holds %q, want the user's bytes untouched", got)
	}
	r = &Runner{Config: c, FS: m, Shared: &Shared{Name: "shared.dat"}}
	if _, err := r.Run(context.Background()); !errors.Is(err, errNoBroadcast) {
		t.Errorf("without a broadcaster: err = %v, want errNoBroadcast", err)
	}
}

// OSFS never follows a symlink to a data file and never opens or removes
// a name that leads to another file than the one it created.
func TestOSFSRefusesASwappedName(t *testing.T) {
	dir := t.TempDir()
	o := OSFS{Dir: dir}
	userPath := filepath.Join(dir, "thesis.tex")
	if err := os.WriteFile(userPath, []byte("chapter 1"), 0o644); err != nil {
		t.Fatal(err)
	}
	swaps := map[string]func(data string) error{
		"symlink": func(data string) error {
			os.Remove(data)
			return os.Symlink(userPath, data)
		},
		"hard link": func(data string) error {
			os.Remove(data)
			return os.Link(userPath, data)
		},
	}
	for name, swap := range swaps {
		t.Run(name, func(t *testing.T) {
			f, id, err := o.Create("d.dat", false)
			if err != nil {
				t.Fatal(err)
			}
			f.Close()
			if err := swap(o.Path("d.dat")); err != nil {
				t.Fatal(err)
			}
			if _, err := o.OpenWrite("d.dat", id, false, 0); !errors.As(err, new(*ReplacedError)) {
				t.Errorf("OpenWrite: err = %v, want a ReplacedError", err)
			}
			if _, err := o.Open("d.dat", id, false); !errors.As(err, new(*ReplacedError)) {
				t.Errorf("Open: err = %v, want a ReplacedError", err)
			}
			if err := o.DropCache("d.dat", id, DropFadvise); !errors.As(err, new(*ReplacedError)) {
				t.Errorf("DropCache: err = %v, want a ReplacedError", err)
			}
			if err := o.Remove("d.dat", id); !errors.As(err, new(*ReplacedError)) {
				t.Errorf("Remove: err = %v, want a ReplacedError", err)
			}
			if _, err := os.Lstat(o.Path("d.dat")); err != nil {
				t.Errorf("the swapped-in name was removed: %v", err)
			}
			if b, _ := os.ReadFile(userPath); string(b) != "chapter 1" {
				t.Errorf("user file holds %q", b)
			}
			os.Remove(o.Path("d.dat"))
		})
	}
}

// A data file that cannot be removed is named in the result and stops
// the sweep, with the runs measured before it kept.
func TestLeftFilesAreReported(t *testing.T) {
	m := newMemFS()
	m.removeErr, m.removeFrom = errors.New("input/output error"), 3
	c := smallConfig()
	c.Sizes = []int64{1024, 2048, 4096}
	r := &Runner{Config: c, FS: m}
	res, err := r.Run(context.Background())
	var le *LeftFilesError
	if !errors.As(err, &le) || len(le.Files) == 0 {
		t.Fatalf("err = %v, want a LeftFilesError", err)
	}
	if len(res.LeftFiles) != len(m.names()) || len(res.Samples) != 2 {
		t.Errorf("left %v, files still there %v, %d samples", res.LeftFiles, m.names(), len(res.Samples))
	}
	for _, f := range res.LeftFiles {
		if f.Path == "" || f.Err == "" {
			t.Errorf("left file %+v lacks a path or cause", f)
		}
	}
}

// Removal and sync failures name the call, the path and the errno.
func TestDescribePathNamesTheErrno(t *testing.T) {
	err := &os.PathError{Op: "remove", Path: "/x/d.dat", Err: syscall.EPERM}
	if got, want := DescribePath(err), "remove /x/d.dat: operation not permitted (EPERM)"; got != want {
		t.Errorf("DescribePath = %q, want %q", got, want)
	}
	wrapped := describedError{err}
	if !errors.Is(wrapped, syscall.EPERM) || wrapped.Error() != DescribePath(err) {
		t.Errorf("describedError %q loses the cause or the words", wrapped)
	}
	if got := DescribePath(&os.PathError{Op: "open", Path: "/x", Err: syscall.ENAMETOOLONG}); got != "open /x: file name too long for this file system (ENAMETOOLONG)" {
		t.Errorf("ENAMETOOLONG: %q", got)
	}
}
