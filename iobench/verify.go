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

// verify reads the file back, outside the timing, and checks its first
// elems elements (all a run that was not time-limited wrote) against the
// expected value in the data pattern, the file's type and byte order.
func (r *Runner) verify(name string, run Run, elems int64) error {
	f, err := r.FS.Open(name, r.id(name), false)
	if err != nil {
		return wrapOp("open for verify", err)
	}
	defer f.Close()
	es := r.Config.ElemSize()
	buf := make([]byte, verifyChunk/es*es)
	want := make([]byte, es)
	s := Sample{Run: run}
	for first := int64(0); first < elems; {
		n := min(int64(len(buf))/es, elems-first)
		if err := readFull(f, buf[:n*es], &s); err != nil {
			return wrapOp("read for verify", err)
		}
		for i := int64(0); i < n; i++ {
			r.src.pattern.expect(want, r.Config.Type, r.Config.Convert, r.src.value(first+i), r.src.seed)
			got := buf[i*es : (i+1)*es]
			if !bytes.Equal(want, got) {
				return &VerifyError{Path: r.displayPath(name), Offset: (first + i) * es, Expected: want, Found: bytes.Clone(got)}
			}
		}
		first += n
	}
	if (r.Config.Preallocate || r.Config.Overwrite) && elems < r.Config.Count {
		return nil // the file is longer than what a time-limited run wrote
	}
	return checkEOF(f, r.displayPath(name))
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
