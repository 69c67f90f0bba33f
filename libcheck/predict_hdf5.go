package libcheck

import "fmt"

// HDF5's defaults, as H5Pfapl.c and H5Dprivate.h set them.
const (
	HDF5SieveDefault = 64 << 10 // H5Pset_sieve_buf_size
	HDF5TconvDefault = 1 << 20  // H5Pset_buffer (H5D_TEMP_BUF_SIZE)
	HDF5CacheDefault = 1 << 20  // H5Pset_cache rdcc_nbytes
)

// hdf5BtreeFanout and hdf5BtreeKeep are the v1 B-tree of a chunked
// dataset: a leaf holds 2K = 64 chunk addresses (H5F istore_k 32), and a
// full leaf split while chunks are appended keeps 57 of them on the left
// (the 0.9 right split ratio of H5D_XFER_BTREE_SPLIT_RATIO).
const (
	hdf5BtreeFanout = 64
	hdf5BtreeKeep   = 57
)

// HDF5Pattern is what the HDF5 writer hands the library, for PredictHDF5.
type HDF5Pattern struct {
	Elements    int64 // float64 values of the 1-D dataset
	RecordBytes int64 // bytes per H5Dwrite, a multiple of 8; 0: one H5Dwrite
	ChunkBytes  int64 // chunk size, a multiple of 8; 0: contiguous layout
	BigEndian   bool  // file type H5T_IEEE_F64BE: converted on the way
	TconvBytes  int64 // H5Pset_buffer; 0: HDF5TconvDefault
	SieveBytes  int64 // H5Pset_sieve_buf_size; 0: HDF5SieveDefault
	CacheBytes  int64 // chunk cache; 0: HDF5CacheDefault
}

// HDF5Calls are the write(2) calls PredictHDF5 gives: the raw data's,
// made by H5Dwrite and H5Dclose, and the metadata's, made by H5Fcreate,
// H5Dcreate and H5Fclose.
type HDF5Calls struct {
	Data      Calls
	DataBytes int64 // what the data calls write: more than the data where they overlap
	Metadata  int64
	Rule      string // the rules that gave Data
}

// PredictHDF5 is the write(2) calls HDF5 1.10's sec2 driver makes for p,
// from its raw-data path (H5Dcontig.c, H5Dscatgath.c, H5Dchunk.c) and its
// metadata layout. H5Pset_alignment moves the data but changes no call,
// so it is no input.
func PredictHDF5(p HDF5Pattern) (HDF5Calls, error) {
	if err := p.validate(); err != nil {
		return HDF5Calls{}, err
	}
	p = p.withDefaults()
	var out HDF5Calls
	if p.ChunkBytes == 0 {
		out.Rule = p.contiguous(&out)
	} else {
		out.Rule = p.chunked(&out)
	}
	out.Metadata = p.metadata()
	return out, nil
}

func (p HDF5Pattern) validate() error {
	switch {
	case p.Elements < 1:
		return fmt.Errorf("hdf5 pattern: %d elements", p.Elements)
	case p.RecordBytes < 0 || p.RecordBytes%ElementBytes != 0 || p.ChunkBytes < 0 || p.ChunkBytes%ElementBytes != 0:
		return fmt.Errorf("hdf5 pattern: record %d and chunk %d bytes: want 0 or multiples of %d", p.RecordBytes, p.ChunkBytes, ElementBytes)
	case p.TconvBytes < 0 || p.SieveBytes < 0 || p.CacheBytes < 0:
		return fmt.Errorf("hdf5 pattern: negative buffer in %+v", p)
	}
	return nil
}

func (p HDF5Pattern) withDefaults() HDF5Pattern {
	if p.RecordBytes == 0 || p.RecordBytes > p.bytes() {
		p.RecordBytes = p.bytes()
	}
	if p.TconvBytes == 0 {
		p.TconvBytes = HDF5TconvDefault
	}
	if p.SieveBytes == 0 {
		p.SieveBytes = HDF5SieveDefault
	}
	if p.CacheBytes == 0 {
		p.CacheBytes = HDF5CacheDefault
	}
	return p
}

func (p HDF5Pattern) bytes() int64 { return p.Elements * ElementBytes }

// pass is the bytes converted at a time: H5D__scatgath_write strip-mines
// a converted selection in passes of the type-conversion buffer, each
// handed on as one piece; unconverted data go as one piece per H5Dwrite.
func (p HDF5Pattern) pass(n int64) int64 {
	if !p.BigEndian {
		return n
	}
	return max(ElementBytes, p.TconvBytes/ElementBytes*ElementBytes)
}

// records calls f with each H5Dwrite's first byte and length.
func (p HDF5Pattern) records(f func(off, n int64)) {
	for off := int64(0); off < p.bytes(); off += p.RecordBytes {
		f(off, min(p.RecordBytes, p.bytes()-off))
	}
}

// contiguous is rules H1 and H2: each piece through the dataset's sieve
// buffer, which the contiguous layout sizes to min(sieve, dataset).
func (p HDF5Pattern) contiguous(out *HDF5Calls) string {
	sv := sieve{size: min(p.SieveBytes, p.bytes()), store: p.bytes(), out: out}
	p.records(func(off, n int64) {
		step := p.pass(n)
		for a := off; a < off+n; a += step {
			sv.piece(a, min(step, off+n-a))
		}
	})
	sv.flush()
	if p.BigEndian {
		return "H2 conversion in passes of the type-conversion buffer, each through the H1 sieve buffer"
	}
	return "H1 sieve buffer: a piece larger than it is written directly, smaller ones gather in it"
}

// chunked is rules H3 to H5: chunks that fit the chunk cache are written
// once each when evicted or at H5Dclose; a larger chunk is built whole on
// its first write and written once, and later writes into it go out
// piece by piece: a chunked dataset has no sieve buffer (only the
// contiguous layout's H5D__contig_init sizes one).
func (p HDF5Pattern) chunked(out *HDF5Calls) string {
	k := p.ChunkBytes
	if k <= p.CacheBytes {
		p.cachedChunks(out)
		return "H3 chunk cache: each chunk written once, whole"
	}
	allocated := map[int64]bool{}
	p.records(func(off, n int64) {
		for c := off / k; c*k < off+n; c++ {
			lo, hi := max(off, c*k), min(off+n, (c+1)*k)
			if !allocated[c] {
				allocated[c] = true
				out.add(min(k, p.bytes()-c*k))
				continue
			}
			step := p.pass(hi - lo)
			for a := lo; a < hi; a += step {
				out.add(min(step, hi-a))
			}
		}
	})
	return "H4 chunk larger than the chunk cache: built whole on its first write, later writes go out piece by piece (no sieve buffer for chunks)"
}

// cachedChunks: the cache holds floor(cache/K) chunks and evicts the
// least recently used (H5D__chunk_cache_prune); what is left is written
// at H5Dclose.
func (p HDF5Pattern) cachedChunks(out *HDF5Calls) {
	k := p.ChunkBytes
	fit := max(1, p.CacheBytes/k)
	var held []int64 // least recently used first
	size := func(c int64) int64 { return min(k, p.bytes()-c*k) }
	p.records(func(off, n int64) {
		for c := off / k; c*k < off+n; c++ {
			if i := indexOf(held, c); i >= 0 {
				held = append(append(held[:i:i], held[i+1:]...), c)
				continue
			}
			if int64(len(held)) >= fit {
				out.add(size(held[0]))
				held = held[1:]
			}
			held = append(held, c)
		}
	})
	for _, c := range held {
		out.add(size(c))
	}
}

func indexOf(s []int64, v int64) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// metadata is rule H0: the superblock at create; at close one write for
// the metadata that lies together and the superblock again, plus one
// per B-tree leaf when a chunked dataset's index has more than one: the
// leaves are allocated between the chunks, so none is adjacent to
// another.
func (p HDF5Pattern) metadata() int64 {
	const create, close = 1, 2
	if p.ChunkBytes == 0 {
		return create + close
	}
	chunks := (p.bytes() + p.ChunkBytes - 1) / p.ChunkBytes
	if chunks <= hdf5BtreeFanout {
		return create + close
	}
	leaves := 2 + (chunks-hdf5BtreeFanout-1)/hdf5BtreeKeep
	return create + close + leaves
}

func (c *HDF5Calls) add(n int64) {
	c.Data.raw(n)
	c.DataBytes += n
}

// sieve is H5D__contig_writevv_sieve_cb for one contiguous dataset: a
// piece larger than the buffer is written directly (after flushing a
// dirty region it overlaps); a smaller one is copied into the region,
// which starts at the first piece outside the last one and spans
// min(size, bytes to the dataset's end), or grows by a piece that
// touches it while it has room; a dirty region is written whole when a
// piece falls outside it, and at H5Dclose.
type sieve struct {
	size, store int64
	loc, span   int64
	active      bool // a region is set
	dirty       bool
	out         *HDF5Calls
}

func (s *sieve) piece(addr, n int64) {
	switch {
	case s.active && addr >= s.loc && addr+n <= s.loc+s.span:
		s.dirty = true
	case n > s.size:
		if s.active && addr < s.loc+s.span && addr+n > s.loc {
			s.flush()
			s.active = false
		}
		s.out.add(n)
	case s.active && s.dirty && (addr+n == s.loc || addr == s.loc+s.span) && n+s.span <= s.size:
		s.loc, s.span = min(s.loc, addr), s.span+n
	default:
		s.flush()
		s.loc, s.span, s.active, s.dirty = addr, min(s.size, s.store-addr), true, true
	}
}

func (s *sieve) flush() {
	if s.active && s.dirty {
		s.out.add(s.span)
	}
	s.dirty = false
}
