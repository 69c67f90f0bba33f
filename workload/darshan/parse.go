package darshan

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
)

// Parse reads a whole Darshan log from r (size bytes). Pure: no file
// system access. A log that breaks the format gives a *FormatError; one
// that needs more than lim allows gives a *FormatError wrapping ErrLimit.
func Parse(r io.ReaderAt, size int64, lim Limits) (*Log, error) {
	if size < 0 {
		return nil, fmt.Errorf("darshan: negative log size %d", size)
	}
	h, err := readHeader(r, size)
	if err != nil {
		return nil, err
	}
	p := &parser{r: r, size: size, lim: lim.withDefaults(), h: h}
	p.log = &Log{
		Version:     h.version,
		BigEndian:   h.order == binary.BigEndian,
		Compression: h.comp.String(),
	}
	for _, step := range []func() error{p.readJob, p.readNames, p.readModules} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return p.log, nil
}

// ReadFile is the thin layer over Parse; its errors name the file.
func ReadFile(path string, lim Limits) (*Log, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	l, err := Parse(f, st.Size(), lim)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return l, nil
}

type parser struct {
	r            io.ReaderAt
	size         int64
	lim          Limits
	h            *header
	log          *Log
	zr           io.ReadCloser // reused across regions
	decompressed int64
	records      int
}

func (p *parser) readModules() error {
	p.log.Modules = []Module{}
	for id := range maxModules {
		m := p.h.mods[id]
		partial := p.h.partial&(1<<id) != 0
		if m.len == 0 && !partial {
			continue
		}
		mod := Module{Name: moduleName(id), ID: id, Version: int(p.h.modVer[id]),
			Partial: partial, Size: int64(m.len)}
		if kind := decodedKinds[id]; kind != nil {
			if lay, ok := kind.layouts[mod.Version]; ok {
				if err := p.decodeModule(&mod, kind, &lay, m); err != nil {
					return err
				}
			}
		}
		p.log.Modules = append(p.log.Modules, mod)
	}
	return nil
}

func (p *parser) decodeModule(mod *Module, kind *moduleKind, lay *layout, m regionMap) error {
	mod.Decoded = true
	mod.Counters = slices.Clone(kind.counters)
	mod.FCounters = slices.Clone(kind.fcounters)
	if m.len == 0 {
		return nil
	}
	rr := p.openRegion(mod.Name, m)
	raw := make([]byte, lay.size())
	var a arena
	for n := 0; ; n++ {
		got, err := io.ReadFull(rr, raw)
		switch {
		case err == io.EOF:
			return nil
		case err == io.ErrUnexpectedEOF:
			return formatErr(mod.Name, int64(m.off), "region ends inside record %d (%d of %d bytes)", n, got, len(raw))
		case err != nil:
			return err
		}
		rec, keep := p.decodeRecord(raw, lay, &a)
		if !keep {
			mod.Dropped++
			continue
		}
		if p.records >= p.lim.MaxRecords {
			return &FormatError{Region: mod.Name, Offset: int64(m.off), Err: ErrLimit,
				Reason: fmt.Sprintf("more module records than the limit of %d", p.lim.MaxRecords)}
		}
		p.records++
		mod.Records = append(mod.Records, rec)
	}
}

// decodeRecord upgrades one stored record to today's counters; false
// means darshan leaves it out.
func (p *parser) decodeRecord(raw []byte, lay *layout, a *arena) (Record, bool) {
	o := p.h.order
	rec := Record{ID: o.Uint64(raw), Rank: int64(o.Uint64(raw[8:]))}
	ints := raw[16:]
	floats := ints[8*len(lay.intAt):]
	if d := lay.dropIfPositive; d >= 0 && int64(o.Uint64(ints[8*d:])) > 0 {
		return rec, false
	}
	rec.Counters, rec.FCounters = a.take(len(lay.ints), len(lay.floats))
	copy(rec.Counters, lay.ints)
	copy(rec.FCounters, lay.floats)
	for i, at := range lay.intAt {
		if at >= 0 {
			rec.Counters[at] = int64(o.Uint64(ints[8*i:]))
		}
	}
	for i, at := range lay.floatAt {
		if at >= 0 {
			rec.FCounters[at] = math.Float64frombits(o.Uint64(floats[8*i:]))
		}
	}
	return rec, true
}

// arena hands out counter slices from shared chunks, so a module of many
// records costs a few allocations rather than two per record.
type arena struct {
	ints   []int64
	floats []float64
	chunk  int // records per chunk, doubling up to a bound
}

func (a *arena) take(ni, nf int) ([]int64, []float64) {
	if len(a.ints) < ni || len(a.floats) < nf {
		a.chunk = min(max(2*a.chunk, 8), 1024)
		a.ints = make([]int64, ni*a.chunk)
		a.floats = make([]float64, nf*a.chunk)
	}
	ints, floats := a.ints[:ni:ni], a.floats[:nf:nf]
	a.ints, a.floats = a.ints[ni:], a.floats[nf:]
	return ints, floats
}
