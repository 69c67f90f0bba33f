package iobench

import (
	"errors"
	"sync/atomic"
	"time"
)

// pass is one timed pass over the data, from open to close: what its
// calls move and with what, and what cuts it short. A writer makes one
// for each run, so nothing of one run's timing reaches the next.
type pass struct {
	cfg     Config                 // the current variant's plan
	data    *variantData           // its source, packer and conversion buffer
	scratch func() ([]byte, error) // where reads land (variantSet.readScratch)
	limit   time.Duration          // no further call once it passed; 0: none
	timer   startTimer             // arms limit
	cut     atomic.Bool            // limit has passed
	lat     *latencyRecorder       // times a sample of the calls; nil: none
	stop    *atomic.Bool           // the sweep is interrupted
	moved   *atomic.Int64          // bytes so far, for progress bars
	phase   *livePhase
}

// noTimeLimit is the limit of a pass that must move all the data, such
// as laying out a file that later runs read or overwrite.
const noTimeLimit time.Duration = 0

// time runs the pass: from before open to after close on the monotonic
// clock, with the flush inside for writes when asked. Once the limit has
// passed, no further call is made (stonewalling).
func (p *pass) time(run Run, open func() (File, error), move func(*pass, File, *Sample) error) (Sample, error) {
	defer p.phase.set(PhaseIdle)
	p.phase.set(PhaseOpen)
	s := Sample{Run: run, Start: time.Now()}
	stopLimit := p.startLimit()
	f, err := open()
	if err != nil {
		stopLimit()
		return s, wrapOp("open", err)
	}
	p.phase.set(map[Mode]Phase{ModeWrite: PhaseWrite, ModeRead: PhaseRead}[run.Mode])
	err = move(p, f, &s)
	if p.lat != nil {
		p.lat.end()
	}
	stopLimit()
	if err == nil && run.Mode == ModeWrite {
		err = p.flush(f)
	}
	p.phase.set(PhaseClose)
	if cerr := f.Close(); err == nil {
		err = wrapOp("close", cerr)
	}
	s.End = time.Now()
	s.Seconds = s.End.Sub(s.Start).Seconds()
	if p.lat != nil {
		s.Latency = p.lat.hist.Latency()
	}
	p.moved.Store(0)
	return s, err
}

// startLimit arms the pass's time limit; stop disarms it.
func (p *pass) startLimit() (stop func()) {
	if p.limit <= 0 {
		return func() {}
	}
	return p.timer(p.limit, func() { p.cut.Store(true) })
}

// startTimer calls f once d has passed, unless stop ran first. Tests
// give the writer one they fire themselves, so that what a time limit
// does is tested whatever the machine's speed.
type startTimer func(d time.Duration, f func()) (stop func())

// clockTimer is the startTimer of the monotonic clock.
func clockTimer(d time.Duration, f func()) (stop func()) {
	t := time.AfterFunc(d, f)
	return func() { t.Stop() }
}

// eachChunk walks the data in chunks of s.WriteSize bytes (the last one
// shorter), as element ranges, stopping at an error or an interrupt, and
// after at least one chunk once the time limit passed.
func (p *pass) eachChunk(s *Sample, do func(first, n int64) error) error {
	per := s.WriteSize / p.cfg.ElemSize()
	for first := int64(0); first < p.cfg.Count; first += per {
		if p.stop.Load() {
			return ErrInterrupted
		}
		if first > 0 && p.cut.Load() {
			s.TimeLimited = true
			return nil
		}
		if err := do(first, min(per, p.cfg.Count-first)); err != nil {
			return err
		}
		p.moved.Store(s.Bytes)
	}
	return nil
}

// write writes the data to f, converted when the variant asks.
func (p *pass) write(f File, s *Sample) error {
	es := p.cfg.ElemSize()
	d := p.data
	identity := d.packer.Identity()
	stamp := p.cfg.stampsBlocks()
	d.stampEvery = 0
	if stamp {
		d.stampEvery = s.WriteSize / es
	}
	var saved [32]byte // one element, the largest type's size
	return p.eachChunk(s, func(first, n int64) error {
		chunk := d.src.region(first, n)
		if !identity {
			out := d.buf[:n*es]
			d.packer.Pack(out, chunk)
			chunk = out
		}
		if !stamp {
			return writeTimed(f, chunk, s, p.lat)
		}
		// The block's first element carries its own offset, outside the
		// timing; the window it was written from is put back after.
		copy(saved[:es], chunk[:es])
		expectPattern(d.src.pattern, chunk[:es], p.cfg.Type, p.cfg.Convert, d.src.unwrapped(first), d.src.seed)
		err := writeTimed(f, chunk, s, p.lat)
		copy(chunk[:es], saved[:es])
		return err
	})
}

// read reads the data back from f, converted back when the variant asks.
func (p *pass) read(f File, s *Sample) error {
	es := p.cfg.ElemSize()
	d := p.data
	identity := d.packer.Identity()
	scratch, err := p.scratch()
	if err != nil {
		return err
	}
	return p.eachChunk(s, func(first, n int64) error {
		dst := d.src.region(first, n)
		if scratch != nil {
			dst = scratch[:n*es]
		}
		if identity {
			return readTimed(f, dst, s, p.lat)
		}
		in := d.buf[:n*es]
		if err := readTimed(f, in, s, p.lat); err != nil {
			return err
		}
		d.packer.Unpack(dst, in)
		return nil
	})
}

// flush is the flush after a write pass's last call, inside the timing.
func (p *pass) flush(f File) error {
	switch p.cfg.FlushKind() {
	case FlushFsync:
		p.phase.set(PhaseFsync)
		return wrapOp("fsync", f.Fsync())
	case FlushFdatasync:
		p.phase.set(PhaseFdatasync)
		d, ok := f.(Datasyncer)
		if !ok {
			return wrapOp("fdatasync", errors.ErrUnsupported)
		}
		return wrapOp("fdatasync", d.Fdatasync())
	}
	return nil
}

// opError marks which call failed, for RunError.
type opError struct {
	op  string
	err error
}

func (e *opError) Error() string { return e.op + ": " + e.err.Error() }
func (e *opError) Unwrap() error { return e.err }

func wrapOp(op string, err error) error {
	if err == nil {
		return nil
	}
	return &opError{op: op, err: err}
}

// runError says which call of which run failed, on which file (path).
func runError(run Run, path string, bytes int64, err error) error {
	if errors.Is(err, ErrInterrupted) {
		return err
	}
	var verr *VerifyError
	if errors.As(err, &verr) {
		return err
	}
	op := "write"
	if run.Mode == ModeRead {
		op = "read"
	}
	var oe *opError
	if errors.As(err, &oe) {
		op, err = oe.op, oe.err
	}
	return &RunError{Op: op, Run: run, Bytes: bytes, Path: path, Err: err}
}
