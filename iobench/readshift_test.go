package iobench

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/iobench/iobench/record"
)

// openLog is a memFS that records the names read runs open.
type openLog struct {
	*memFS
	opened []string
}

func (o *openLog) Open(name string, id FileID, direct bool) (File, error) {
	o.opened = append(o.opened, name)
	return o.memFS.Open(name, id, direct)
}

// shiftCoord is one rank of a job whose rank +n wrote peer: Shift hands
// over peer's name, identity and size, and records what this rank sent.
type shiftCoord struct {
	peer   []byte
	sent   []byte
	agrees int
	events []string
}

func (c *shiftCoord) Agree(err error) error {
	c.agrees++
	c.events = append(c.events, "agree")
	return err
}

func (c *shiftCoord) Shift(b []byte, n int) ([]byte, error) {
	c.sent = b
	c.events = append(c.events, "shift")
	return c.peer, nil
}

// peerMessage is what Shift carries: size, device, inode, name.
func peerMessage(size int64, id FileID, name string) []byte {
	b := binary.LittleEndian.AppendUint64(nil, uint64(size))
	b = binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(b, id.Dev), id.Ino)
	return append(b, name...)
}

// With ReadShift the read runs read the file another rank wrote, by its
// creator's identity, and leave it for its creator to remove; this rank's
// own read file is passed on and removed by this rank, after a last
// barrier.
func TestReadShiftReadsThePeersFile(t *testing.T) {
	m := &openLog{memFS: newMemFS()}
	c := smallConfig()
	c.Mode, c.ReadShift, c.Warmup = ModeRead, 1, false
	f, peerID, err := m.Create("peer.dat", false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(make([]byte, c.TotalBytes())); err != nil {
		t.Fatal(err)
	}
	f.Close()
	coord := &shiftCoord{peer: peerMessage(c.TotalBytes(), peerID, "peer.dat")}
	r := &Runner{Config: c, FS: m, Coord: coord}
	res, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := make([]string, len(res.Samples))
	for i := range want {
		want[i] = "peer.dat"
	}
	if diff := cmp.Diff(want, m.opened); diff != "" {
		t.Errorf("files the read runs opened (-want +got):\n%s", diff)
	}
	if name := string(coord.sent[24:]); !strings.HasSuffix(name, "-read-0.dat") || int64(binary.LittleEndian.Uint64(coord.sent)) != c.TotalBytes() {
		t.Errorf("sent %q with size %d, want this rank's read file and its size", name, binary.LittleEndian.Uint64(coord.sent))
	}
	if last := coord.events[len(coord.events)-1]; last != "agree" {
		t.Errorf("events %v: want a barrier after the last read run", coord.events)
	}
	if diff := cmp.Diff([]string{"peer.dat"}, m.names()); diff != "" {
		t.Errorf("files left (-want +got): only the peer's, which its creator removes:\n%s", diff)
	}
}

// A peer whose share differs would end the reads early or late: every
// rank stops before reading.
func TestReadShiftRefusesAnotherShare(t *testing.T) {
	m := &openLog{memFS: newMemFS()}
	c := smallConfig()
	c.Mode, c.ReadShift = ModeRead, 1
	coord := &shiftCoord{peer: peerMessage(c.TotalBytes()+8, FileID{Dev: 1, Ino: 99}, "peer.dat")}
	_, err := (&Runner{Config: c, FS: m, Coord: coord}).Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "shares of the total differ") || len(m.opened) != 0 {
		t.Errorf("err = %v after opening %v; want the differing share refused before any read", err, m.opened)
	}
	if left := m.names(); len(left) != 0 {
		t.Errorf("files left: %v", left)
	}
}

// A shift needs a coordinator that can pass names; alone, it is refused.
func TestReadShiftNeedsAShifter(t *testing.T) {
	c := smallConfig()
	c.Mode, c.ReadShift = ModeRead, 1
	_, err := (&Runner{Config: c, FS: newMemFS(), Coord: &failingCoord{}}).Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "needs MPI ranks") {
		t.Errorf("err = %v, want ReadShift refused", err)
	}
	for _, bad := range []Config{{ReadShift: -1, Settings: record.Settings{Mode: ModeRead}}, {ReadShift: 1, Settings: record.Settings{Mode: ModeWrite}}} {
		if err := bad.validReadShift(); err == nil {
			t.Errorf("validReadShift(%+v) = nil", bad)
		}
	}
}
