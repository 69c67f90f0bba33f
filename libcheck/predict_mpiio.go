package libcheck

import (
	"errors"
	"fmt"
)

// Open MPI's MPI-IO components, as OMPI_MCA_io names them.
const (
	OMPIO = "ompio"    // the default (priority 30)
	ROMIO = "romio321" // ROMIO 3.2.1 inside Open MPI 4 (priority 10)
)

// Their buffers' defaults (ompi_info --all; ROMIO's adioi.h).
const (
	ROMIOCBBufferDefault = 16 << 20  // cb_buffer_size
	ROMIOIndWrDefault    = 512 << 10 // ind_wr_buffer_size
	OMPIOBytesPerAggDef  = 32 << 20  // io_ompio_bytes_per_agg
	OMPIOCycleDefault    = 512 << 20 // io_ompio_cycle_buffer_size
)

// iovMax is the iovecs one pwritev takes (Linux IOV_MAX), which OMPIO's
// fbtl posix joins its file-adjacent entries up to.
const iovMax = 1024

// ompioAggregatorRatio caps OMPIO's aggregators at F/8 of the F ranks of
// a file (io_ompio_max_aggregators_ratio): under 16 ranks there is one.
const ompioAggregatorRatio = 8

// ROMIO's romio_cb_write values.
const (
	CBWriteAutomatic = "automatic"
	CBWriteEnable    = "enable"
	CBWriteDisable   = "disable"
)

// MPIIOPattern is what the MPI-IO writer does, for PredictMPIIO. Shared
// files put call k of rank r at (k*Ranks + r)*CallBytes, so the ranks'
// pieces of one call never interleave.
type MPIIOPattern struct {
	Component  string // OMPIO or ROMIO
	Ranks      int    // ranks writing
	Hosts      int    // nodes they run on; 0: 1
	Shared     bool   // one file on MPI_COMM_WORLD; else a file per rank on MPI_COMM_SELF
	Collective bool   // MPI_File_write_at_all
	RankBytes  int64  // file bytes per rank
	CallBytes  int64  // file bytes per MPI call
	// ElemBytes is the element of a strided memory type (the library
	// gathers); 0: the memory is contiguous.
	ElemBytes int64
	// ROMIO's hints; 0 or "" keeps the default.
	CBBufferBytes int64
	IndWrBytes    int64
	CBWrite       string
	// OMPIO's MCA parameters; 0 keeps the default.
	BytesPerAgg int64
	CycleBytes  int64
}

// MPIIOCalls are the write(2) calls PredictMPIIO gives: the data's, per
// rank and in all, and those the component makes inside MPI_File_open,
// which may vary from run to run between OverheadMin and OverheadMax.
type MPIIOCalls struct {
	Data        Calls
	PerRank     []int64
	OverheadMin int64
	OverheadMax int64
	Rule        string
}

// ErrNoRule: the pattern is outside what the rules model.
var ErrNoRule = errors.New("no rule models this case")

// PredictMPIIO is the write(2) calls Open MPI 4.1's component makes for p
// on a local file system (ROMIO's UFS driver, OMPIO's fbtl posix).
func PredictMPIIO(p MPIIOPattern) (MPIIOCalls, error) {
	if err := p.validate(); err != nil {
		return MPIIOCalls{}, err
	}
	out := MPIIOCalls{PerRank: make([]int64, p.Ranks)}
	var err error
	switch p.Component {
	case ROMIO:
		out.Rule = p.romio(&out)
	case OMPIO:
		out.Rule, err = p.ompio(&out)
		out.OverheadMin, out.OverheadMax = p.ompioOpen()
	}
	return out, err
}

func (p MPIIOPattern) validate() error {
	switch {
	case p.Component != OMPIO && p.Component != ROMIO:
		return fmt.Errorf("mpiio pattern: component %q: want %s or %s", p.Component, OMPIO, ROMIO)
	case p.Ranks < 1 || p.RankBytes < 1 || p.CallBytes < 1:
		return fmt.Errorf("mpiio pattern: %d ranks, %d bytes per rank, %d per call", p.Ranks, p.RankBytes, p.CallBytes)
	case p.ElemBytes < 0 || p.ElemBytes > 0 && (p.CallBytes%p.ElemBytes != 0 || p.RankBytes%p.ElemBytes != 0):
		return fmt.Errorf("mpiio pattern: element of %d bytes does not divide the calls", p.ElemBytes)
	}
	switch p.CBWrite {
	case "", CBWriteAutomatic, CBWriteEnable, CBWriteDisable:
		return nil
	}
	return fmt.Errorf("mpiio pattern: romio_cb_write %q", p.CBWrite)
}

// calls gives each MPI call's file bytes, the last one shorter.
func (p MPIIOPattern) calls(f func(n int64)) {
	for left := p.RankBytes; left > 0; left -= min(left, p.CallBytes) {
		f(min(left, p.CallBytes))
	}
}

// pieces counts n bytes cut into pieces of at most size, made by rank.
func (c *MPIIOCalls) pieces(rank int, n, size int64) {
	for n > 0 {
		k := min(n, size)
		before := c.Data.Count
		c.Data.raw(k)
		c.PerRank[rank] += c.Data.Count - before
		n -= k
	}
}

// romio is rules R1, R2, R4 and R5. A collective call without
// romio_cb_write=enable whose requests do not interleave goes the
// independent way (ADIOI_GEN_WriteStridedColl); contiguous memory is one
// pwrite a call (ADIOI_GEN_WriteContig), strided memory is gathered in
// ind_wr_buffer_size pieces (ADIOI_GEN_WriteStrided).
func (p MPIIOPattern) romio(out *MPIIOCalls) string {
	if p.Collective && p.CBWrite == CBWriteEnable {
		p.twoPhase(out)
		return "R5 two-phase: the aggregators write windows of cb_buffer_size"
	}
	size, rule := int64(maxRW), "R1 one pwrite per call"
	if p.ElemBytes > 0 {
		size, rule = orDefault(p.IndWrBytes, ROMIOIndWrDefault), "R2 strided memory gathered in pieces of ind_wr_buffer_size"
	}
	if p.Collective {
		rule += " (R4: collective without two-phase when the ranks' requests do not interleave)"
	}
	for r := range p.Ranks {
		p.calls(func(n int64) { out.pieces(r, n, size) })
	}
	return rule
}

// twoPhase is rule R5: one aggregator per host (cb_config_list "*:1"),
// each taking an equal share of the call's byte range
// (ADIOI_Calc_file_domains) and walking it from its first byte of data
// in windows of cb_buffer_size, each window that holds any data written
// whole, holes and all (ADIOI_Exch_and_write). A file per rank is its
// own range.
func (p MPIIOPattern) twoPhase(out *MPIIOCalls) {
	cb := orDefault(p.CBBufferBytes, ROMIOCBBufferDefault)
	if !p.Shared {
		for r := range p.Ranks {
			p.calls(func(n int64) { out.pieces(r, n, cb) })
		}
		return
	}
	aggr := int64(min(p.Ranks, max(1, p.Hosts)))
	k := int64(0)
	p.calls(func(n int64) {
		pieces := p.callPieces(k, n)
		lo, hi := pieces[0].off, pieces[len(pieces)-1].end()
		domain := (hi - lo + aggr - 1) / aggr
		for a := int64(0); a < aggr; a++ {
			out.writes(int(a), windows(clip(pieces, lo+a*domain, min(hi, lo+(a+1)*domain)), cb))
		}
		k++
	})
}

// span is a piece of file: off to off+n.
type span struct{ off, n int64 }

func (s span) end() int64 { return s.off + s.n }

// callPieces are the ranks' pieces of call k, n bytes each, in file
// order: adjacent for whole calls, apart for a last, shorter one.
func (p MPIIOPattern) callPieces(k, n int64) []span {
	out := make([]span, p.Ranks)
	for r := range out {
		out[r] = span{(k*int64(p.Ranks) + int64(r)) * p.CallBytes, n}
	}
	return out
}

// clip is the parts of pieces within [lo, hi).
func clip(pieces []span, lo, hi int64) []span {
	var out []span
	for _, s := range pieces {
		a, b := max(s.off, lo), min(s.end(), hi)
		if a < b {
			out = append(out, span{a, b - a})
		}
	}
	return out
}

// windows are ROMIO's writes over pieces: windows of cb from the first
// byte of data to the last, each window holding data written whole.
func windows(pieces []span, cb int64) []int64 {
	var out []int64
	if len(pieces) == 0 {
		return nil
	}
	last := pieces[len(pieces)-1].end()
	for off := pieces[0].off; off < last; off += cb {
		if len(clip(pieces, off, off+cb)) > 0 {
			out = append(out, min(cb, last-off))
		}
	}
	return out
}

// cycles are vulcan's writes over pieces: the data cut into cycles of
// size bytes, each file-contiguous run of a cycle written at once.
func cycles(pieces []span, size int64) []int64 {
	var out []int64
	used, prevEnd := int64(0), int64(-1)
	for _, s := range pieces {
		for off := s.off; off < s.end(); {
			k := min(s.end()-off, size-used)
			if used > 0 && off == prevEnd {
				out[len(out)-1] += k
			} else {
				out = append(out, k)
			}
			off, used, prevEnd = off+k, used+k, off+k
			if used == size {
				used, prevEnd = 0, -1
			}
		}
	}
	return out
}

// writes counts each of sizes as one write by rank.
func (c *MPIIOCalls) writes(rank int, sizes []int64) {
	for _, n := range sizes {
		c.pieces(rank, n, maxRW)
	}
}

// ompio is rules O0 to O3. The fcoll component is chosen by the ranks of
// the file: up to 2 (a file per rank always) take "individual", the
// independent path; 3 or more take "vulcan", whose one aggregator writes
// the whole call in pieces of bytes_per_agg/2 (two cycles overlap).
// Independent contiguous writes go in cycles of io_ompio_cycle_buffer_size;
// strided memory becomes one iovec per element, IOV_MAX per pwritev.
func (p MPIIOPattern) ompio(out *MPIIOCalls) (string, error) {
	f := 1
	if p.Shared {
		f = p.Ranks
	}
	if p.Collective && f >= 3 {
		if f >= 2*ompioAggregatorRatio {
			return "", fmt.Errorf("%w: OMPIO's vulcan with %d ranks on a file picks its aggregators by a cost model", ErrNoRule, f)
		}
		half := orDefault(p.BytesPerAgg, OMPIOBytesPerAggDef) / 2
		k := int64(0)
		p.calls(func(n int64) {
			out.writes(0, cycles(p.callPieces(k, n), half))
			k++
		})
		return "O3 vulcan: one aggregator writes each call's contiguous data in pieces of bytes_per_agg/2", nil
	}
	rule := "O1 contiguous: one pwrite per call up to io_ompio_cycle_buffer_size"
	if p.Collective {
		rule += " (O0: fcoll individual for up to 2 ranks on a file)"
	}
	for r := range p.Ranks {
		p.calls(func(n int64) {
			if p.ElemBytes == 0 {
				out.pieces(r, n, orDefault(p.CycleBytes, OMPIOCycleDefault))
				return
			}
			elems := n / p.ElemBytes
			for ; elems > 0; elems -= min(elems, iovMax) {
				out.pieces(r, min(elems, iovMax)*p.ElemBytes, maxRW)
			}
		})
	}
	if p.ElemBytes > 0 {
		rule = "O2 strided memory: one pwritev of IOV_MAX elements at a time"
	}
	return rule, nil
}

// ompioOpen is rule O5: sharedfp/sm writes its 40-byte offset record at
// each open, and glibc's sem_open writes the 32-byte semaphore file for
// each rank that creates it: on a file per rank every rank does both;
// on a shared file one rank writes the record and between 1 and all of
// them race to create the semaphore.
func (p MPIIOPattern) ompioOpen() (lo, hi int64) {
	if !p.Shared {
		return 2 * int64(p.Ranks), 2 * int64(p.Ranks)
	}
	return 2, 1 + int64(p.Ranks)
}

func orDefault(v, def int64) int64 {
	if v > 0 {
		return v
	}
	return def
}
