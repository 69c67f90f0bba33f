package libcheck

import (
	"fmt"
	"strings"

	"github.com/iobench/iobench/advice"
)

// Runtime is an I/O runtime whose writes can be measured.
type Runtime string

// The runtimes with a writer.
const (
	// Gfortran is libgfortran: unformatted stream I/O, buffer from
	// GFORTRAN_UNFORMATTED_BUFFER_SIZE, byte order from
	// GFORTRAN_CONVERT_UNIT.
	Gfortran Runtime = "gfortran"
	// Stdio is the C library's FILE streams (glibc): fwrite through a
	// setvbuf buffer.
	Stdio Runtime = "stdio"
	// MPIIO is MPI-IO in Open MPI: its OMPIO and ROMIO components, each
	// with its buffers' hints and MCA parameters.
	MPIIO Runtime = "mpiio"
	// HDF5 is libhdf5's sec2 driver: its sieve buffer, type-conversion
	// buffer and chunk cache.
	HDF5 Runtime = "hdf5"
)

// Runtimes lists the runtimes whose one buffer decides their calls
// (Predict), in a stable order.
func Runtimes() []Runtime { return []Runtime{Gfortran, Stdio} }

// Libraries lists the I/O libraries whose cases are settings of their
// own (PredictMPIIO, PredictHDF5), in a stable order.
func Libraries() []Runtime { return []Runtime{MPIIO, HDF5} }

// IsLibrary reports whether rt is one of Libraries.
func (rt Runtime) IsLibrary() bool { return rt == MPIIO || rt == HDF5 }

// ParseRuntime parses a runtime's name.
func ParseRuntime(s string) (Runtime, error) {
	for _, rt := range append(Runtimes(), Libraries()...) {
		if s == string(rt) {
			return rt, nil
		}
	}
	return "", fmt.Errorf("unknown runtime %q (valid: %s)", s, runtimeNames())
}

func runtimeNames() string {
	var names []string
	for _, rt := range append(Runtimes(), Libraries()...) {
		names = append(names, string(rt))
	}
	return strings.Join(names, ", ")
}

// GfortranDefaultBuffer is libgfortran's unformatted buffer since GCC
// 9.2 (PR libfortran/91030), used when nothing sets one; C stdio's
// depends on the file (DefaultBuffer).
const GfortranDefaultBuffer = advice.GfortranUnformattedDefault

// SwapChunk is the staging area, in bytes, through which libgfortran
// (BSWAP_BUFSZ in transfer.c) and the stdio writer byte-swap converted
// data: each chunk reaches the buffered writer as one piece.
const SwapChunk = 512

// ElementBytes is the size of the writers' elements: real(8), double.
const ElementBytes = 8

// DefaultBuffer is the buffer rt uses when the program sets none, for a
// file whose st_blksize is blksize. glibc's _IO_file_doallocate takes
// st_blksize when it is below BUFSIZ, else BUFSIZ; libgfortran never
// looks at the file.
func DefaultBuffer(rt Runtime, blksize int64) int64 {
	if rt == Gfortran {
		return GfortranDefaultBuffer
	}
	return advice.StdioDefaultBuffer(blksize)
}
