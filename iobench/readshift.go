package iobench

import (
	"encoding/binary"
	"fmt"
)

// Shifter is a Coordinator that passes every process's bytes on: each
// process sends b and gets those of the process n places on (MPI rank
// (r+n) mod size). Read runs with ReadShift learn another process's file
// through it.
type Shifter interface {
	Shift(b []byte, n int) ([]byte, error)
}

// readFile is the file read runs read: the writer's own, or with
// ReadShift one another process created and will remove.
type readFile struct {
	own  string
	peer *peerFile
}

// peerFile is another process's file, by the identity it has here.
type peerFile struct {
	name string
	id   FileID
}

// validReadShift: a shift is a number of ranks, for read runs.
func (c Config) validReadShift() error {
	switch {
	case c.ReadShift < 0:
		return configErr(SetReadShift, c.ReadShift, "%d must be 0 (each rank reads its own file) or a positive number of ranks", c.ReadShift)
	case c.ReadShift > 0 && c.Mode == ModeWrite:
		return configErr(SetReadShift, c.ReadShift, "applies to read runs; use it with %s read or both", SetMode.Ref())
	}
	return nil
}

// shiftReadFile makes the read runs read the file of the process
// ReadShift places on (IOR's -C), so no process reads back pages its own
// client cached while writing them. Every process calls it at the same
// step, once each has written its file for the read runs.
func (w *writer) shiftReadFile() error {
	if w.cfg.ReadShift == 0 {
		return nil
	}
	s, ok := w.coord.(Shifter)
	if !ok {
		return configErr(SetReadShift, w.cfg.ReadShift, "needs MPI ranks to read each other's files")
	}
	// The message: the file's size, device and inode, then its name.
	id := w.files.id(w.read.own)
	msg := binary.LittleEndian.AppendUint64(nil, uint64(w.cfg.TotalBytes()))
	msg = binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(msg, id.Dev), id.Ino)
	got, err := s.Shift(append(msg, w.read.own...), w.cfg.ReadShift)
	if err != nil {
		return fmt.Errorf("read shift: passing the read files' names: %w", err)
	}
	if len(got) <= 24 {
		return fmt.Errorf("read shift: a %d-byte file name and identity from rank +%d, want more than 24", len(got), w.cfg.ReadShift)
	}
	if size := int64(binary.LittleEndian.Uint64(got)); size != w.cfg.TotalBytes() {
		// Said without setting names: it travels to the other ranks as text.
		return fmt.Errorf("read shift: the rank this one reads wrote %d bytes, this one reads %d: the ranks' shares of the total differ; choose a data size that divides evenly by the ranks", size, w.cfg.TotalBytes())
	}
	name := string(got[24:])
	peer, err := w.files.peerID(name, FileID{Dev: binary.LittleEndian.Uint64(got[8:]), Ino: binary.LittleEndian.Uint64(got[16:24])})
	if err != nil {
		return fmt.Errorf("read shift: %w", err)
	}
	w.read.peer = &peerFile{name: name, id: peer}
	return nil
}

// target is the file a read run reads and its identity: the writer's own
// as t holds it, or the other process's as this host sees it.
func (f readFile) target(t *fileTable) (string, FileID) {
	if f.peer != nil {
		return f.peer.name, f.peer.id
	}
	return f.own, t.id(f.own)
}

// readsDone is the barrier after the last read run: with ReadShift each
// process's file is read by another, and its creator removes it only
// once every process has finished reading.
func (w *writer) readsDone() error {
	if w.read.peer == nil {
		return nil
	}
	return w.agree(nil)
}
