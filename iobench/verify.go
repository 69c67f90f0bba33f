package iobench

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// VerifyError is a data file whose contents differ from what was written.
type VerifyError struct {
	Path     string
	Offset   int64 // byte offset of the element in the file
	Expected []byte
	Found    []byte
}

func (e *VerifyError) Error() string {
	return fmt.Sprintf("verify %s: element at file offset %d: expected bytes % x, found % x", e.Path, e.Offset, e.Expected, e.Found)
}

const verifyChunk = 1 << 20

// verify reads a data file back, outside the timing, and checks its
// first elems elements (all a run that was not time-limited wrote)
// against the expected value in the data pattern, the variant's type
// and byte order. path names the file in errors.
func (d *variantData) verify(f File, path string, elems int64) error {
	es := d.cfg.ElemSize()
	buf := make([]byte, verifyChunk/es*es)
	want := make([]byte, es)
	var s Sample // counts the reads, unused
	for first := int64(0); first < elems; {
		n := min(int64(len(buf))/es, elems-first)
		if err := readFull(f, buf[:n*es], &s); err != nil {
			return wrapOp("read for verify", err)
		}
		for i := int64(0); i < n; i++ {
			expectPattern(d.src.pattern, want, d.cfg.Type, d.cfg.Convert, d.expected(first+i), d.src.seed)
			got := buf[i*es : (i+1)*es]
			if !bytes.Equal(want, got) {
				return &VerifyError{Path: path, Offset: (first + i) * es, Expected: want, Found: bytes.Clone(got)}
			}
		}
		first += n
	}
	if (d.cfg.Preallocate || d.cfg.Overwrite) && elems < d.cfg.Count {
		return nil // the file is longer than what a time-limited run wrote
	}
	return checkEOF(f, path)
}

// expected is the number element e of the file holds: the source's,
// or, at the start of a stamped block, the element's own offset.
func (d *variantData) expected(e int64) int64 {
	if d.stampEvery > 0 && e%d.stampEvery == 0 {
		return d.src.unwrapped(e)
	}
	return d.src.value(e)
}

// checkEOF rejects a file longer than the data: the reference program's
// last write ran past the end of its array.
func checkEOF(f File, path string) error {
	var one [1]byte
	n, err := f.Read(one[:])
	if n > 0 {
		return fmt.Errorf("verify %s: file is longer than the data written", path)
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return &os.PathError{Op: "read for verify", Path: path, Err: err}
	}
	return nil
}
