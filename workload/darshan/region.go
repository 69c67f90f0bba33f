package darshan

import (
	"bufio"
	"compress/bzip2"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
)

// ErrLimit is wrapped by the *FormatError of a log that needs more than
// its Limits allow.
var ErrLimit = errors.New("limit exceeded")

// regionReader yields the decompressed bytes of one region, charging
// them to the parse's budget and turning decompressor faults into
// *FormatError.
type regionReader struct {
	p      *parser
	name   string
	off    int64
	src    io.Reader
	failed error
}

func (p *parser) openRegion(name string, m regionMap) *regionReader {
	sec := io.NewSectionReader(p.r, int64(m.off), int64(m.len))
	rr := &regionReader{p: p, name: name, off: int64(m.off)}
	switch p.h.comp {
	case compNone:
		rr.src = sec
	case compBzip2:
		rr.src = bzip2.NewReader(bufio.NewReaderSize(sec, bufferSize(m.len)))
	default:
		rr.src = &zlibStreams{p: p, in: bufio.NewReaderSize(sec, bufferSize(m.len))}
	}
	return rr
}

func bufferSize(regionLen uint64) int {
	return int(min(max(regionLen, 16), 32<<10))
}

func (rr *regionReader) Read(b []byte) (int, error) {
	if rr.failed != nil {
		return 0, rr.failed
	}
	left := rr.p.lim.MaxDecompressed - rr.p.decompressed
	if int64(len(b)) > left+1 {
		b = b[:left+1]
	}
	n, err := rr.src.Read(b)
	rr.p.decompressed += int64(n)
	if rr.p.decompressed > rr.p.lim.MaxDecompressed {
		rr.failed = &FormatError{Region: rr.name, Offset: rr.off,
			Reason: fmt.Sprintf("decompressed data passes the limit of %d bytes", rr.p.lim.MaxDecompressed), Err: ErrLimit}
		return 0, rr.failed
	}
	if err != nil && err != io.EOF {
		rr.failed = &FormatError{Region: rr.name, Offset: rr.off, Reason: "cannot decompress", Err: err}
		return n, rr.failed
	}
	return n, err
}

// zlibStreams inflates a region made of zlib streams back to back, as a
// log written by many ranks at once is.
type zlibStreams struct {
	p      *parser
	in     *bufio.Reader
	inside bool
}

func (z *zlibStreams) Read(b []byte) (int, error) {
	for {
		if !z.inside {
			if err := z.nextStream(); err != nil {
				return 0, err
			}
		}
		n, err := z.p.zr.Read(b)
		if err == io.EOF {
			z.inside = false
			if n == 0 {
				continue
			}
			err = nil
		}
		return n, err
	}
}

// nextStream starts the next stream, or reports io.EOF at the region's end.
func (z *zlibStreams) nextStream() error {
	if _, err := z.in.Peek(1); err != nil {
		return err
	}
	var err error
	if z.p.zr == nil {
		z.p.zr, err = zlib.NewReader(z.in)
	} else {
		err = z.p.zr.(zlib.Resetter).Reset(z.in, nil)
	}
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	z.inside = err == nil
	return err
}
