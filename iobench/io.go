package iobench

import (
	"errors"

	"golang.org/x/sys/unix"
)

// writeTimed writes all of p, retrying short writes and EINTR and
// counting both, so nothing is silently lost; the calls lat picks are
// timed (lat may be nil).
func writeTimed(f File, p []byte, s *Sample, lat *latencyRecorder) error {
	return transfer(f, p, true, s, lat)
}

// readFull fills p, retrying short reads and EINTR.
func readFull(f File, p []byte, s *Sample) error { return readTimed(f, p, s, nil) }

// readTimed is readFull with the calls lat picks timed (lat may be nil).
func readTimed(f File, p []byte, s *Sample, lat *latencyRecorder) error {
	return transfer(f, p, false, s, lat)
}

// transfer is the loop of writeTimed and readTimed: calls until all of p
// is written (or read), counting the calls, the bytes and EINTR; a short
// write counts as one, and a call that moves nothing ends it with
// errZeroWrite (a write) or errShortFile (a read).
func transfer(f File, p []byte, write bool, s *Sample, lat *latencyRecorder) error {
	for len(p) > 0 {
		n, err := call(f, p, write, lat)
		s.Calls++
		if n > 0 {
			s.Bytes += int64(n)
			if write && n < len(p) {
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
			if write {
				return errZeroWrite
			}
			return errShortFile
		}
	}
	return nil
}

// call makes one write(2) (or read(2)) on f, timed if lat picks it.
func call(f File, p []byte, write bool, lat *latencyRecorder) (int, error) {
	if lat == nil || !lat.due() {
		return readOrWrite(f, p, write)
	}
	lat.start()
	n, err := readOrWrite(f, p, write)
	lat.stop()
	return n, err
}

func readOrWrite(f File, p []byte, write bool) (int, error) {
	if write {
		return f.Write(p)
	}
	return f.Read(p)
}
