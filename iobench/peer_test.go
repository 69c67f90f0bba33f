package iobench

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// otherClientCoord is a rank on another client of a network file system:
// the creator's broadcast (device, inode) arrives with the creator's own
// device number, which this client does not share.
type otherClientCoord struct{ creator FileID }

func (c *otherClientCoord) Agree(err error) error { return err }
func (c *otherClientCoord) Broadcast([]byte) ([]byte, error) {
	return binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(nil, c.creator.Dev), c.creator.Ino), nil
}

// creatorsFile makes, as "rank 0" would, the shared file name in dir; its
// identity on this host.
func creatorsFile(t *testing.T, dir, name string) FileID {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	id, err := OSFS{Dir: dir}.Identify(name)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// A rank on another host than the creator's checks the shared file by its
// inode (a client's device number is its own) and writes its part; on
// the creator's host the device must match too.
func TestSharedFileFromAnotherHostIsCheckedByInode(t *testing.T) {
	c := smallConfig()
	c.Count, c.Sizes, c.Warmup, c.Repeat = 100, []int64{256}, false, 1
	for _, tc := range []struct {
		host string
		ok   bool
	}{{"otherclient", true}, {nameHost(), false}} {
		dir := t.TempDir()
		name := ".iobench-" + tc.host + "-12345-0123456789ab-shared.dat"
		id := creatorsFile(t, dir, name)
		remote := FileID{Dev: id.Dev + 7, Ino: id.Ino}
		r := &Runner{Config: c, FS: OSFS{Dir: dir}, Coord: &otherClientCoord{creator: remote}, Shared: &Shared{Name: name, Offset: 800}}
		_, err := r.Run(context.Background())
		if tc.ok && err != nil {
			t.Errorf("creator on host %s: %v, want the part written", tc.host, err)
		}
		if !tc.ok && !errors.As(err, new(*ReplacedError)) {
			t.Errorf("creator on this host, another device: err = %v, want a ReplacedError", err)
		}
		got, _ := os.ReadFile(filepath.Join(dir, name))
		if want := int64(800) * map[bool]int64{false: 0, true: 2}[tc.ok]; int64(len(got)) != want {
			t.Errorf("creator on host %s: the shared file holds %d bytes, want %d (this rank's 800 after offset 800, or nothing)", tc.host, len(got), want)
		}
	}
}

// From another host a name that leads to another file than the creator's
// inode is refused before a byte moves.
func TestSharedFileFromAnotherHostRefusesAnotherInode(t *testing.T) {
	c := smallConfig()
	c.Count, c.Sizes, c.Warmup, c.Repeat = 100, []int64{256}, false, 1
	dir := t.TempDir()
	name := ".iobench-otherclient-12345-0123456789ab-shared.dat"
	id := creatorsFile(t, dir, name)
	user := []byte("a user's thesis")
	path := filepath.Join(dir, name)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	keep := filepath.Join(dir, "hold") // keeps the old inode number from being reused
	if err := os.WriteFile(keep, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, user, 0o600); err != nil {
		t.Fatal(err)
	}
	r := &Runner{Config: c, FS: OSFS{Dir: dir}, Coord: &otherClientCoord{creator: FileID{Dev: id.Dev + 7, Ino: id.Ino}}, Shared: &Shared{Name: name, Offset: 800}}
	if now, _ := (OSFS{Dir: dir}).Identify(name); now.Ino == id.Ino {
		t.Skip("the file system reused the inode number at once")
	}
	_, err := r.Run(context.Background())
	if !errors.As(err, new(*ReplacedError)) {
		t.Fatalf("err = %v, want a ReplacedError", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, user) {
		t.Errorf("the user's file holds %q, want it untouched", got)
	}
}

// A read shift from another host takes the peer's file by inode too.
func TestReadShiftFromAnotherHostReadsByInode(t *testing.T) {
	c := smallConfig()
	c.Mode, c.ReadShift, c.Warmup, c.Repeat = ModeRead, 1, false, 1
	dir := t.TempDir()
	name := ".iobench-otherclient-12345-0123456789ab-read-0.dat"
	if err := os.WriteFile(filepath.Join(dir, name), make([]byte, c.TotalBytes()), 0o600); err != nil {
		t.Fatal(err)
	}
	id, err := OSFS{Dir: dir}.Identify(name)
	if err != nil {
		t.Fatal(err)
	}
	coord := &shiftCoord{peer: peerMessage(c.TotalBytes(), FileID{Dev: id.Dev + 7, Ino: id.Ino}, name)}
	res, err := (&Runner{Config: c, FS: OSFS{Dir: dir}, Coord: coord}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range res.Samples {
		if s.Bytes != c.TotalBytes() {
			t.Errorf("read run moved %d bytes, want %d", s.Bytes, c.TotalBytes())
		}
	}
}

// Each writer of a sweep (MPI rank, job) writes its own random data, so
// a deduplicating file system cannot keep one copy for all; writer 0's
// is the seed's own stream, as a single process writes it.
func TestRandomDataDiffersByWriter(t *testing.T) {
	c := smallConfig()
	c.Data, c.Seed = DataRandom, 7
	fill := func(writer int) []byte {
		c.Writer = writer
		s, err := newSource(c, func() bool { return false }, func(int64) {})
		if err != nil {
			t.Fatal(err)
		}
		defer s.free()
		return bytes.Clone(s.data)
	}
	single := make([]byte, c.TotalBytes())
	fillRandom(single, 7, 0)
	w0, w1, w2 := fill(0), fill(1), fill(2)
	if !bytes.Equal(w0, single) {
		t.Error("writer 0's data is not the seed's stream")
	}
	if bytes.Equal(w0[:64], w1[:64]) || bytes.Equal(w1[:64], w2[:64]) || bytes.Equal(w0[:64], w2[:64]) {
		t.Error("two writers' random data begin alike")
	}
}
