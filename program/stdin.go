package program

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// ErrStdinTooLarge: the standard input to replay is over the limit.
var ErrStdinTooLarge = errors.New("standard input too large to replay")

// CaptureStdin copies r, a program's standard input, into a new file in
// dir so that every run of tune reads the same bytes; more than limit
// bytes is ErrStdinTooLarge.
func CaptureStdin(r io.Reader, dir string, limit int64) (string, int64, error) {
	path := filepath.Join(dir, "stdin")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", 0, err
	}
	n, err := io.Copy(f, io.LimitReader(r, limit+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil:
		return "", n, fmt.Errorf("capturing standard input: %w", err)
	case n > limit:
		return "", n, fmt.Errorf("%w: more than %d bytes", ErrStdinTooLarge, limit)
	}
	return path, n, nil
}
