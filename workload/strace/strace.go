package strace

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
)

// MaxLine is the longest line read whole, in bytes. Longer lines (strace
// -s with a large value prints the written data in full) are read in a
// bounded window: their first and last bytes, from which a write-family
// call is still counted; any other line over MaxLine is skipped.
const MaxLine = 1 << 20

// MaxSkippedAt is how many positions of skipped lines a Trace keeps.
const MaxSkippedAt = 10

// ErrNotStrace is the error of an input in which no line is strace output.
var ErrNotStrace = errors.New("not an strace trace")

// Trace is what a program's write-family calls did, per file.
type Trace struct {
	// Files are the files that at least one write-family call was made to,
	// whatever its outcome, in the order of their first such call. Files
	// that were only opened are not listed.
	Files []File
	// PIDs is how many distinct processes (and threads) made the lines.
	PIDs int
	// Lines is how many lines were read; Skipped how many of them were
	// not understood (not strace output, a write-family call cut beyond
	// recovery, or the continuation of a call whose start is not in the
	// trace), and SkippedAt where the first MaxSkippedAt of those are.
	Lines, Skipped int64
	SkippedAt      []Position
	// Long is how many lines were longer than MaxLine.
	Long int64
	// Timed is whether write-family calls carried -T durations.
	Timed bool
	// Procs are the processes and threads, by pid, with the programs
	// they ran and the libraries they opened (RecordArgs traces them).
	Procs []Proc
	// Mapped are the files mapped shared and writable: written by
	// stores, unseen by the trace.
	Mapped []Mapping
	// Async counts the calls whose writes no line shows (io_submit,
	// io_uring_enter) and the whole-system flushes (sync, syncfs).
	Async map[string]int64
}

// File is the write-family calls made to one file.
type File struct {
	// Path is the file's name: the -y annotation of the calls' descriptor
	// when the trace has one, else the path of the open that returned the
	// descriptor (relative if the program gave it so), else "<stdin>",
	// "<stdout>" or "<stderr>" for descriptors 0, 1 and 2, else
	// "fd N (opened before the trace)" or "fd N (closed)": the package
	// comment has the rule. Pipes and sockets keep strace's names, such
	// as "pipe:[1234]". Paths are unescaped to the name's bytes, which
	// need not be UTF-8.
	Path string
	// Writes is how many calls succeeded and Bytes the sum of what they
	// returned: the bytes written.
	Writes, Bytes int64
	// Errors is how many calls failed (returned -1), by errno in Errnos.
	Errors int64
	Errnos map[string]int64
	// Short is how many successful calls wrote less than they asked for,
	// among those whose request is known: write's and pwrite64's count,
	// and the sum of the iov_len of a vectored call whose every iovec
	// strace printed.
	Short int64
	// Unknown is how many calls have no result in the trace: interrupted
	// (= ? ERESTARTSYS; the kernel restarts them as a new call), cut off
	// by the process's end (= ? <unavailable>), or never resumed.
	Unknown int64
	// Sizes counts the successful calls by exact size: what each returned.
	Sizes map[int64]int64
	// Seconds is the sum of the -T durations of the calls, failed ones
	// included; 0 if the trace has none.
	Seconds float64
	// Syscalls counts the calls by system call name, whatever their
	// outcome: its sum is Writes + Errors + Unknown.
	Syscalls map[string]int64
	// Flushes counts the successful fsync, fdatasync, sync_file_range
	// and msync calls on the file; OpenFlags are the telling flags of
	// its opens (O_DIRECT, O_SYNC, O_DSYNC, O_APPEND, O_TRUNC, O_CREAT,
	// O_EXCL); Mapped whether it was also mapped shared and writable.
	Flushes   map[string]int64
	OpenFlags []string
	Mapped    bool
	// Opened: an open in the trace named the file; false for one written
	// only through a descriptor the program inherited (a shell's > out).
	Opened bool
}

// Position is where a line is: its number, from 1, in a named stream.
type Position struct {
	Stream string
	Line   int
}

// String renders the position as "NAME:LINE", or "line LINE" unnamed.
func (p Position) String() string {
	if p.Stream == "" {
		return "line " + strconv.Itoa(p.Line)
	}
	return p.Stream + ":" + strconv.Itoa(p.Line)
}

// Stream is one output file of a strace run.
type Stream struct {
	// Name names the stream in positions and errors, such as its file
	// name; it may be empty.
	Name string
	// PID is the process whose lines the stream holds when they carry no
	// pid: strace -ff -o T writes each process's lines to T.PID (see
	// PIDSuffix). 0 when the lines carry their pids, or there is one
	// process.
	PID int
	R   io.Reader
}

// Parse reads strace's text output. Pure: no file system access.
// It is ParseStreams of one stream.
func Parse(r io.Reader) (*Trace, error) {
	return ParseStreams(Stream{R: r})
}

// ParseStreams reads the output files of one strace run, such as the
// T.PID files of -ff, into one Trace, one after the other in the order
// given: a process that writes to a descriptor it did not open gets the
// most recent open of that number in the streams read so far, so give a
// parent's stream before its children's (sorting by pid usually does).
// With -y every write names its file and the order does not matter.
// Each stream must hold at least one line of strace output.
func ParseStreams(streams ...Stream) (*Trace, error) {
	if len(streams) == 0 {
		return nil, fmt.Errorf("%w: no streams to parse", ErrNotStrace)
	}
	p := newParser(MaxLine)
	for _, s := range streams {
		if err := p.readStream(s); err != nil {
			return nil, err
		}
	}
	return p.finish(), nil
}

// PIDSuffix returns the pid that strace -ff appended to an output file's
// name: 1234 for "trace.1234".
func PIDSuffix(name string) (int, bool) {
	base := filepath.Base(name)
	dot := strings.LastIndexByte(base, '.')
	if dot < 0 {
		return 0, false
	}
	pid, err := strconv.Atoi(base[dot+1:])
	if err != nil || pid <= 0 || base[dot+1] == '+' {
		return 0, false
	}
	return pid, true
}

// notStrace is the error of a stream of which no line was understood;
// first is its first line that is not blank, line number at.
func notStrace(s Stream, lines int64, at int, first []byte) error {
	name := s.Name
	if name == "" {
		name = "input"
	}
	if lines == 0 {
		return fmt.Errorf("%s: %w: it is empty", name, ErrNotStrace)
	}
	return fmt.Errorf("%s: %w: none of its %d lines is strace output (line %d: %q)", name, ErrNotStrace, lines, at, first)
}
