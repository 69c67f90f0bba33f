package libcheck

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/iobench/iobench/convert"
)

// Job is one timed run of a writer.
type Job struct {
	Dir string // directory of the data file
	// Name is the data file's name in Dir, which must not exist: the
	// writer creates it (status='new', O_EXCL) and Run removes it. Make
	// it with FileName from an iobench.UniquePrefix, so that no other run
	// shares it and `iobench clean` recognises a file left by a kill.
	Name        string
	Elements    int64         // float64 values written
	BufferBytes int64         // the runtime's buffer; 0 keeps its default
	RecordBytes int64         // bytes per write statement (a multiple of 8); 0: one write of the whole array
	Convert     convert.Order // byte order in the file
	Fsync       bool          // flush and fsync before close, inside the timing
	// SameRecord writes every record from one record's memory, as a
	// program writing one record variable does, where false writes
	// consecutive slices of an array of all the data: element i then
	// holds (i-1) mod the record's elements, plus 1. A run-sized array
	// touched before the timing changes where the page cache's memory
	// comes from, which is what a large buffer's calls are sensitive to.
	SameRecord bool
	// Case is a library's case (its settings and layout) and Library what
	// its writer needs besides; the buffered runtimes read neither.
	Case    Case
	Library LibraryPlan
}

// Bytes is the data the job writes: for MPI-IO, each rank.
func (j Job) Bytes() int64 { return j.Elements * ElementBytes }

// Value is what the writer puts in element i (from 1) of the file: i,
// or with SameRecord i's place in its record.
func (j Job) Value(i int64) int64 {
	if per := j.RecordBytes / ElementBytes; j.SameRecord && per > 0 {
		return (i-1)%per + 1
	}
	return i
}

// FileName is the name of a runtime run's data file: prefix (from
// iobench.UniquePrefix), the runtime and a sequence number, in the form
// iobench's leftover scan recognises.
func FileName(prefix string, rt Runtime, seq int) string {
	return fmt.Sprintf("%s-%s-%d.dat", prefix, rt, seq)
}

// Measurement is what one run measured: raw numbers, as the writer
// counted them from inside the process.
type Measurement struct {
	Runtime      Runtime
	BufferBytes  int64  // as asked; 0: the runtime's default
	RecordBytes  int64  // 0: one write of the whole array
	Convert      string // convert.Order name asked for
	Fsync        bool
	Nanos        int64 // open to close
	Bytes        int64 // data written
	WriteCalls   int64 // write(2) calls (/proc/self/io syscw); -1: not counted
	WrittenBytes int64 // bytes they wrote (wchar); -1: not counted
	// RuntimeConvert is the unit's byte order as the runtime reported it
	// (inquire convert= for gfortran).
	RuntimeConvert string
	// The libraries' writers count more: the calls outside the data path
	// (HDF5's metadata, OMPIO's at open), the time the MPI-IO writer spent
	// packing, the longest of its ranks' own spans, and each rank's calls.
	OverheadCalls int64
	PackNanos     int64
	SlowestNanos  int64
	RankCalls     []int64
}

// MiBPerSec is the throughput, 2^20 bytes per second.
func (m Measurement) MiBPerSec() float64 {
	if m.Nanos <= 0 {
		return 0
	}
	return float64(m.Bytes) / (float64(m.Nanos) / 1e9) / (1 << 20)
}

// MeanCallBytes is the bytes per write(2) call, 0 when not counted.
func (m Measurement) MeanCallBytes() float64 {
	if m.WriteCalls <= 0 || m.WrittenBytes < 0 {
		return 0
	}
	return float64(m.WrittenBytes) / float64(m.WriteCalls)
}

// Env is the environment a writer runs with: this process's, less every
// GFORTRAN_* variable (a user's GFORTRAN_UNBUFFERED_ALL or
// GFORTRAN_CONVERT_UNIT would change what is measured), plus the
// settings the job asks for, exactly as a user would export them.
func Env(rt Runtime, j Job) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GFORTRAN_") {
			env = append(env, kv)
		}
	}
	return append(env, Settings(rt, j)...)
}

// Settings are the environment variables that set up rt for j, for Env
// and for a report to print: GFORTRAN_CONVERT_UNIT and, when the job sets
// a buffer, GFORTRAN_UNFORMATTED_BUFFER_SIZE; for MPI-IO, OMPI_MCA_io and
// the aggregation buffer when the case sets it. Stdio and HDF5 take their
// settings as arguments and have none.
func Settings(rt Runtime, j Job) []string {
	if rt == MPIIO {
		return librarySettings(j)
	}
	if rt != Gfortran {
		return nil
	}
	s := []string{"GFORTRAN_CONVERT_UNIT=" + convertUnit(j.Convert)}
	if j.BufferBytes > 0 {
		s = append(s, "GFORTRAN_UNFORMATTED_BUFFER_SIZE="+strconv.FormatInt(j.BufferBytes, 10))
	}
	return s
}

// convertUnit is GFORTRAN_CONVERT_UNIT's spelling of o.
func convertUnit(o convert.Order) string {
	return strings.ReplaceAll(o.String(), "-", "_")
}

func (j Job) Validate(rt Runtime) error {
	if _, err := ParseRuntime(string(rt)); err != nil {
		return err
	}
	switch {
	case j.Dir == "":
		return errors.New("job: no directory for the data file")
	case j.Name == "" || filepath.Base(j.Name) != j.Name || j.Name == "." || j.Name == "..":
		return fmt.Errorf("job: data file name %q: want a plain name in the directory", j.Name)
	case j.Elements < 1 || j.Elements > math.MaxInt64/ElementBytes:
		return fmt.Errorf("job: %d elements: want at least 1", j.Elements)
	case j.RecordBytes < 0 || j.RecordBytes%ElementBytes != 0:
		return fmt.Errorf("job: record of %d bytes: want 0 or a multiple of %d", j.RecordBytes, ElementBytes)
	case j.BufferBytes < 0:
		return fmt.Errorf("job: buffer of %d bytes", j.BufferBytes)
	case j.Convert < convert.Native || j.Convert > convert.Swap:
		return fmt.Errorf("job: byte order %v", j.Convert)
	}
	if rt.IsLibrary() {
		return j.validateLibrary(rt)
	}
	return j.validateFor(rt)
}

// validateFor checks what one runtime cannot take: libgfortran reads its
// buffer size into an int and trims trailing blanks from file names; the
// Fortran writer's path argument holds 4096 characters.
func (j Job) validateFor(rt Runtime) error {
	if rt != Gfortran {
		return nil
	}
	path := filepath.Join(j.Dir, j.Name)
	switch {
	case j.BufferBytes > math.MaxInt32:
		return fmt.Errorf("job: GFORTRAN_UNFORMATTED_BUFFER_SIZE=%d is above libgfortran's limit of %d", j.BufferBytes, math.MaxInt32)
	case len(path) >= 4096:
		return fmt.Errorf("job: data file path is %d bytes long; the gfortran writer takes fewer than 4096", len(path))
	case strings.TrimRight(path, " ") != path:
		return fmt.Errorf("job: data file path %q ends in a blank, which Fortran drops", path)
	}
	return nil
}

// Result is what a plan measured, kept when it fails part way.
type Result struct {
	Samples    []Sample
	WarmupRan  bool
	Incomplete bool
	// Adaptive is what the adaptive rounds did; nil for a fixed plan.
	Adaptive *Adaptive
}
