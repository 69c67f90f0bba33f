package darshan

import (
	"encoding/binary"
	"time"
)

// Log is a whole Darshan log.
type Log struct {
	Version     string // log format version as in the header, such as "3.41"
	BigEndian   bool   // the log was written on a big-endian machine
	Compression string // "zlib", "bzip2" or "none"
	Job         Job
	Mounts      []Mount           // the job's mount table, in the order of the log
	Names       map[uint64]string // record id -> path
	Modules     []Module          // every module with a region or a partial flag, in module-id order
}

// Job is the job record: who ran what, when, on how many processes.
type Job struct {
	UID, JobID, NProcs int64
	Start, End         time.Time // UTC; nanoseconds only from format 3.41 on
	// RunTime is darshan-parser's "run time" in seconds: end - start
	// from 3.41 on, and end - start + 1 before, when times had whole
	// seconds only.
	RunTime  float64
	Exe      string            // the command line, as recorded
	Metadata map[string]string // the "key=value" lines of the job record
}

// Mount is one entry of the job's mount table.
type Mount struct {
	Path, FSType string
}

// Module is one module region of the log.
type Module struct {
	Name    string // darshan-parser's name: "POSIX", "MPI-IO", "STDIO", "DXT_POSIX", ...; "<UNKNOWN>" past today's ids
	ID      int    // module id, in today's numbering (older logs are renumbered)
	Version int    // record format version in this log
	Partial bool   // the runtime ran out of memory for records: the data is incomplete
	Decoded bool   // records decoded (POSIX, MPI-IO, STDIO); false: listed and skipped, as is a record version newer than this package
	Size    int64  // region bytes in the file (compressed)
	// Counters and FCounters name today's counters, as darshan-parser
	// prints them; each Record holds values in this order.
	Counters, FCounters []string
	Records             []Record
	// Dropped counts records left out as darshan-logutils does: POSIX v1
	// records that carry stdio counters, which cannot be upgraded.
	Dropped int
}

// Record is one module record: the counters of one file on one rank.
type Record struct {
	ID        uint64 // record id, a key of Log.Names
	Rank      int64  // -1: shared by all ranks, counters reduced over them
	Counters  []int64
	FCounters []float64
}

// Int returns the integer counter called name of r, a record of m.
func (m *Module) Int(r *Record, name string) (int64, bool) {
	i := indexOf(m.Counters, name)
	if i < 0 || i >= len(r.Counters) {
		return 0, false
	}
	return r.Counters[i], true
}

// Float returns the floating-point counter called name of r, a record of m.
func (m *Module) Float(r *Record, name string) (float64, bool) {
	i := indexOf(m.FCounters, name)
	if i < 0 || i >= len(r.FCounters) {
		return 0, false
	}
	return r.FCounters[i], true
}

// Module returns the module called name, or nil if the log has none.
func (l *Log) Module(name string) *Module {
	for i := range l.Modules {
		if l.Modules[i].Name == name {
			return &l.Modules[i]
		}
	}
	return nil
}

func indexOf(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return -1
}

// Limits bounds what Parse may spend on one log. A zero field means its
// default.
type Limits struct {
	// MaxDecompressed caps the bytes decompressed from all regions
	// together.
	MaxDecompressed int64
	// MaxRecords caps the name records, and separately the module
	// records of all modules together.
	MaxRecords int
}

// DefaultLimits returns the limits Parse uses for zero fields: 1 GiB
// decompressed and 4 Mi records.
func DefaultLimits() Limits {
	return Limits{MaxDecompressed: 1 << 30, MaxRecords: 4 << 20}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.MaxDecompressed <= 0 {
		l.MaxDecompressed = d.MaxDecompressed
	}
	if l.MaxRecords <= 0 {
		l.MaxRecords = d.MaxRecords
	}
	return l
}

// IsLog says whether head, a file's first 16 bytes or more, starts a
// Darshan log: the magic number after the version, in either byte order.
func IsLog(head []byte) bool {
	if len(head) < 16 {
		return false
	}
	return binary.LittleEndian.Uint64(head[8:]) == magicNumber || binary.BigEndian.Uint64(head[8:]) == magicNumber
}
