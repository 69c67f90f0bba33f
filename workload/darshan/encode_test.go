package darshan

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
)

// encoding says how encodeLog writes a log.
type encoding struct {
	version   string // "3.00", "3.10", "3.20", "3.21" or "3.41"
	bigEndian bool
	comp      compression
	streams   int // streams per module region, as many ranks writing at once make; 0 or 1: one
}

func (e encoding) String() string {
	order := "le"
	if e.bigEndian {
		order = "be"
	}
	return fmt.Sprintf("%s-%s-%s-%d", e.version, order, e.comp, max(e.streams, 1))
}

// opaque is the payload encodeLog writes for modules it does not decode.
var opaque = []byte("opaque module data, never decoded\n")

// encodeLog writes l in the format e, the inverse of Parse. It fills in
// each Module's Size, which only the encoding decides; it panics on a Log
// the format cannot hold.
func encodeLog(l *Log, e encoding) []byte {
	minor, ok := formatMinor[e.version]
	if !ok {
		panic("unknown version " + e.version)
	}
	w := &logWriter{e: e, minor: minor, order: byteOrder(e.bigEndian)}
	lay := layout3x00
	if minor >= 41 {
		lay = layout3x41
	}
	w.buf.Write(make([]byte, lay.size))
	w.writeRegion(w.jobBytes(l), 1)
	names := w.region(w.namesBytes(l), 1)
	maps := make([]regionMap, lay.slots)
	vers := make([]uint32, lay.slots)
	var partial uint64
	for i := range l.Modules {
		m := &l.Modules[i]
		slot := slotOf(minor, m.ID, lay.slots)
		if m.Partial {
			partial |= 1 << slot
		}
		vers[slot] = uint32(m.Version)
		maps[slot] = w.region(w.moduleBytes(m), max(e.streams, 1))
		m.Size = int64(maps[slot].len)
	}
	w.writeHeader(lay, partial, names, maps, vers)
	return w.buf.Bytes()
}

type logWriter struct {
	e     encoding
	minor int
	order binary.ByteOrder
	buf   bytes.Buffer
}

func byteOrder(big bool) binary.ByteOrder {
	if big {
		return binary.BigEndian
	}
	return binary.LittleEndian
}

// slotOf is the header slot of today's module id in an older format.
func slotOf(minor, id, slots int) int {
	for slot := range slots {
		if todayModuleID(minor, slot) == id {
			return slot
		}
	}
	panic(fmt.Sprintf("module id %d has no slot in format minor %d", id, minor))
}

func (w *logWriter) writeHeader(lay headerLayout, partial uint64, names regionMap, maps []regionMap, vers []uint32) {
	h := w.buf.Bytes()[:lay.size]
	copy(h, w.e.version)
	w.order.PutUint64(h[8:], magicNumber)
	h[16] = byte(w.e.comp)
	if lay.wide {
		w.order.PutUint64(h[lay.partialOff:], partial)
	} else {
		w.order.PutUint32(h[lay.partialOff:], uint32(partial))
	}
	put := func(at int, m regionMap) {
		w.order.PutUint64(h[at:], m.off)
		w.order.PutUint64(h[at+8:], m.len)
	}
	put(lay.namesOff, names)
	for slot := range lay.slots {
		put(lay.namesOff+16+16*slot, maps[slot])
		w.order.PutUint32(h[lay.namesOff+16+16*lay.slots+4*slot:], vers[slot])
	}
}

// region appends data compressed as streams back to back; no data, no
// region (offset 0), as darshan writes it.
func (w *logWriter) region(data []byte, streams int) regionMap {
	if len(data) == 0 {
		return regionMap{}
	}
	return w.writeRegion(data, streams)
}

func (w *logWriter) writeRegion(data []byte, streams int) regionMap {
	m := regionMap{off: uint64(w.buf.Len())}
	for _, part := range splitParts(data, streams) {
		w.buf.Write(compress(part, w.e.comp))
	}
	m.len = uint64(w.buf.Len()) - m.off
	return m
}

func splitParts(data []byte, n int) [][]byte {
	var parts [][]byte
	size := (len(data) + n - 1) / n
	for len(data) > size {
		parts = append(parts, data[:size])
		data = data[size:]
	}
	return append(parts, data)
}

func compress(data []byte, c compression) []byte {
	switch c {
	case compBzip2:
		return bzip2Compress(data)
	case compNone:
		return data
	}
	var b bytes.Buffer
	zw := zlib.NewWriter(&b)
	zw.Write(data)
	zw.Close()
	return b.Bytes()
}

func (w *logWriter) jobBytes(l *Log) []byte {
	var b bytes.Buffer
	put := func(v int64) { binary.Write(&b, w.order, v) }
	j := l.Job
	put(j.UID)
	put(j.Start.Unix())
	if w.minor >= 41 {
		put(int64(j.Start.Nanosecond()))
	}
	put(j.End.Unix())
	if w.minor >= 41 {
		put(int64(j.End.Nanosecond()))
	}
	put(j.NProcs)
	put(j.JobID)
	md := make([]byte, metadataLen)
	var lines strings.Builder
	for _, k := range slices.Sorted(maps.Keys(j.Metadata)) {
		fmt.Fprintf(&lines, "%s=%s\n", k, j.Metadata[k])
	}
	if lines.Len() >= metadataLen {
		panic("metadata too long")
	}
	copy(md, lines.String())
	b.Write(md)
	b.WriteString(j.Exe)
	for _, m := range l.Mounts {
		fmt.Fprintf(&b, "\n%s\t%s", m.FSType, m.Path)
	}
	b.WriteByte(0)
	if b.Len() > jobRecordSize {
		panic("job record too long")
	}
	return b.Bytes()
}

func (w *logWriter) namesBytes(l *Log) []byte {
	var b bytes.Buffer
	for _, id := range slices.Sorted(maps.Keys(l.Names)) {
		name := l.Names[id]
		binary.Write(&b, w.order, id)
		if w.minor == 0 {
			binary.Write(&b, w.order, uint32(len(name)))
			b.WriteString(name)
		} else {
			b.WriteString(name)
			b.WriteByte(0)
		}
	}
	return b.Bytes()
}

// moduleBytes stores m's records in the layout of m.Version: counters
// today's layout lacks are written 0.
func (w *logWriter) moduleBytes(m *Module) []byte {
	kind := decodedKinds[m.ID]
	if !m.Decoded || kind == nil {
		return opaque
	}
	lay := kind.layouts[m.Version]
	var b bytes.Buffer
	for _, r := range m.Records {
		binary.Write(&b, w.order, r.ID)
		binary.Write(&b, w.order, r.Rank)
		for _, at := range lay.intAt {
			v := int64(0)
			if at >= 0 {
				v = r.Counters[at]
			}
			binary.Write(&b, w.order, v)
		}
		for _, at := range lay.floatAt {
			binary.Write(&b, w.order, math.Float64bits(r.FCounters[at]))
		}
	}
	return b.Bytes()
}
