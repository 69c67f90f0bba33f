package darshan

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
)

// magicNumber is written in the writer's byte order, so it tells ours.
const magicNumber = 6567223

// maxModules is the number of module slots of a 3.41 header.
const maxModules = 64

type compression byte

const (
	compZlib compression = iota
	compBzip2
	compNone
)

func (c compression) String() string {
	switch c {
	case compZlib:
		return "zlib"
	case compBzip2:
		return "bzip2"
	case compNone:
		return "none"
	}
	return fmt.Sprintf("unknown(%d)", byte(c))
}

// regionMap locates a region in the file, in compressed bytes.
type regionMap struct{ off, len uint64 }

// headerLayout is where each field of the uncompressed header lies; it
// changed once, in 3.41.
type headerLayout struct {
	slots      int // module slots
	partialOff int // partial flags: uint32 before 3.41, uint64 from 3.41
	wide       bool
	namesOff   int // name map, then the module maps, then the versions
	size       int
}

var (
	layout3x00 = headerLayout{slots: 16, partialOff: 20, namesOff: 24, size: 360}
	layout3x41 = headerLayout{slots: 64, partialOff: 24, wide: true, namesOff: 32, size: 1328}
)

// formatMinor maps each supported version string to its minor number.
var formatMinor = map[string]int{"3.00": 0, "3.10": 10, "3.20": 20, "3.21": 21, "3.41": 41}

type header struct {
	version string
	minor   int
	order   binary.ByteOrder
	comp    compression
	partial uint64 // bit i: module id i, in today's numbering
	names   regionMap
	mods    [maxModules]regionMap // by today's module id
	modVer  [maxModules]uint32
	mapAt   [maxModules]int64 // header offset of each module's map
	size    int64             // bytes of the header in the file
}

func (h *header) layout() headerLayout {
	if h.minor >= 41 {
		return layout3x41
	}
	return layout3x00
}

func readHeader(r io.ReaderAt, size int64) (*header, error) {
	var vbuf [8]byte
	if size < int64(len(vbuf)) {
		return nil, formatErr("header", 0, "file is %d bytes, too short for a version string", size)
	}
	if err := readFull(r, vbuf[:], 0); err != nil {
		return nil, fmt.Errorf("darshan: reading header: %w", err)
	}
	h := &header{version: string(bytes.TrimRight(vbuf[:], "\x00"))}
	minor, ok := formatMinor[h.version]
	if !ok {
		return nil, formatErr("header", 0, "unsupported log format version %q", h.version)
	}
	h.minor = minor
	lay := h.layout()
	h.size = int64(lay.size)
	if size < h.size {
		return nil, formatErr("header", 0, "file is %d bytes, a %s header needs %d", size, h.version, lay.size)
	}
	buf := make([]byte, lay.size)
	if err := readFull(r, buf, 0); err != nil {
		return nil, fmt.Errorf("darshan: reading header: %w", err)
	}
	if err := h.decode(buf, lay); err != nil {
		return nil, err
	}
	if err := h.checkMaps(size); err != nil {
		return nil, err
	}
	return h, nil
}

func (h *header) decode(buf []byte, lay headerLayout) error {
	switch {
	case binary.LittleEndian.Uint64(buf[8:]) == magicNumber:
		h.order = binary.LittleEndian
	case binary.BigEndian.Uint64(buf[8:]) == magicNumber:
		h.order = binary.BigEndian
	default:
		return formatErr("header", 8, "bad magic number %#x", binary.LittleEndian.Uint64(buf[8:]))
	}
	h.comp = compression(buf[16])
	if h.comp > compNone {
		return formatErr("header", 16, "unknown compression type %d", buf[16])
	}
	var partial uint64
	if lay.wide {
		partial = h.order.Uint64(buf[lay.partialOff:])
	} else {
		partial = uint64(h.order.Uint32(buf[lay.partialOff:]))
	}
	h.names = h.readMap(buf[lay.namesOff:])
	mapsOff := lay.namesOff + 16
	versOff := mapsOff + 16*lay.slots
	for slot := 0; slot < lay.slots; slot++ {
		id := todayModuleID(h.minor, slot)
		h.mods[id] = h.readMap(buf[mapsOff+16*slot:])
		h.mapAt[id] = int64(mapsOff + 16*slot)
		h.modVer[id] = h.order.Uint32(buf[versOff+4*slot:])
		if partial&(1<<slot) != 0 {
			h.partial |= 1 << id
		}
	}
	return nil
}

func (h *header) readMap(b []byte) regionMap {
	return regionMap{off: h.order.Uint64(b), len: h.order.Uint64(b[8:])}
}

// todayModuleID renumbers a module slot of an older header: H5D took id 4
// in 3.20 and PNETCDF_VAR id 6 in 3.41, pushing the later modules up.
func todayModuleID(minor, slot int) int {
	id := slot
	if minor < 20 && id >= idH5D {
		id++
	}
	if minor < 41 && id >= idPnetcdfVar {
		id++
	}
	return id
}

// checkMaps makes sure every region lies inside the file, past the header.
func (h *header) checkMaps(size int64) error {
	lay := h.layout()
	if err := checkRegion("names", h.names, int64(lay.namesOff), h.size, size); err != nil {
		return err
	}
	for id, m := range h.mods {
		if err := checkRegion(moduleName(id), m, h.mapAt[id], h.size, size); err != nil {
			return err
		}
	}
	return nil
}

// checkRegion tests one region map; fieldOff is where the map lies in the
// header.
func checkRegion(name string, m regionMap, fieldOff, headerSize, size int64) error {
	if m.len == 0 {
		return nil
	}
	if m.off < uint64(headerSize) || m.off > uint64(size) || m.len > uint64(size)-m.off {
		return formatErr("header", fieldOff, "%s region [%d, +%d) is outside the file's data (bytes %d to %d)",
			name, m.off, m.len, headerSize, size)
	}
	return nil
}

// jobRegion is the job record's region: from the header's end to the
// first region that follows it, or to the end of the file.
func (h *header) jobRegion(size int64) (regionMap, error) {
	start := uint64(h.size)
	end := uint64(size)
	if h.names.off != 0 {
		end = h.names.off
	} else {
		for _, m := range h.mods {
			if m.off != 0 {
				end = m.off
				break
			}
		}
	}
	if end <= start || end > uint64(size) {
		return regionMap{}, formatErr("job", h.size, "job region ends at %d, not between the header's end and the file's (%d)", end, size)
	}
	return regionMap{off: start, len: end - start}, nil
}

// readFull reads len(buf) bytes at off; io.EOF after a full read is fine.
func readFull(r io.ReaderAt, buf []byte, off int64) error {
	n, err := r.ReadAt(buf, off)
	if n == len(buf) {
		return nil
	}
	if err == nil || err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return err
}
