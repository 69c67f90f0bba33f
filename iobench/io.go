package iobench

import (
	"errors"

	"golang.org/x/sys/unix"
)

// writeFull writes all of p, retrying short writes and EINTR and counting
// both, so nothing is silently lost.
func writeFull(f File, p []byte, s *Sample) error {
	for len(p) > 0 {
		n, err := f.Write(p)
		s.Calls++
		if n > 0 {
			s.Bytes += int64(n)
			if n < len(p) {
				s.ShortWrites++
			}
			p = p[n:]
		}
		switch {
		case errors.Is(err, unix.EINTR):
			s.EINTR++
		case err != nil:
			return err
		case n == 0:
			return errZeroWrite
		}
	}
	return nil
}

// readFull fills p, retrying short reads and EINTR.
func readFull(f File, p []byte, s *Sample) error {
	for len(p) > 0 {
		n, err := f.Read(p)
		s.Calls++
		if n > 0 {
			s.Bytes += int64(n)
			p = p[n:]
		}
		switch {
		case errors.Is(err, unix.EINTR):
			s.EINTR++
		case err != nil:
			return err
		case n == 0:
			return errShortFile
		}
	}
	return nil
}
