package advice

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/iobench/iobench/units"
	"github.com/iobench/iobench/workload"
)

// Gfortran access modes, as the call sizes show them.
const (
	AccessSequential = "sequential"
	AccessStream     = "stream"
)

// Behaviour is what made one file's write(2) sizes: the runtime, its
// knob, the buffer that explains the calls, and the knob's value that
// gives calls of a target size.
type Behaviour struct {
	Path    string  `json:"path"`
	Runtime string  `json:"runtime"` // one of ApplyRuntimes
	Knob    string  `json:"knob"`    // the setting that made the size
	Buffer  int64   `json:"buffer"`  // bytes: the knob's value that explains the calls
	Access  string  `json:"access,omitempty"`
	Call    int64   `json:"call_size"` // bytes: the file's most common call size
	Share   float64 `json:"share"`     // of the file's calls
	// Record is libgfortran's record length that makes the calls, when
	// the calls tell it (0: several fit).
	Record int64  `json:"record,omitempty"`
	Why    string `json:"why"`
}

// KnobFor is the knob's value that makes calls of size target bytes:
// libgfortran's sequential access flushes at just over half its buffer,
// so a call of S needs a buffer of 2S; stream access and stdio flush the
// whole buffer.
func (b Behaviour) KnobFor(target int64) int64 {
	if b.Access == AccessSequential {
		return 2 * target
	}
	return target
}

// gfortranSequentialSlack bounds the records looked for: one a quarter
// of the buffer at most, past which the calls are large enough.
const gfortranSequentialSlack = 4

// The knobs of libgfortran's two buffers.
const (
	KnobUnformatted = "GFORTRAN_UNFORMATTED_BUFFER_SIZE"
	KnobFormatted   = "GFORTRAN_FORMATTED_BUFFER_SIZE"
)

// RecogniseGfortran reads a file's calls as libgfortran's unformatted
// output, with buffer the unformatted buffer in effect
// (GFORTRAN_UNFORMATTED_BUFFER_SIZE, or the default): calls of the whole
// buffer are stream access (or a converted write); calls of the smallest
// whole number of records, each with its 8 bytes of markers, that reach
// half the buffer are sequential access (GfortranSequentialCall). ok is
// false when the dominant size fits neither.
func RecogniseGfortran(f workload.File, buffer int64) (Behaviour, bool) {
	call, share := dominantCall(f)
	if call <= 0 || share < 0.5 || buffer <= 0 {
		return Behaviour{}, false
	}
	b := Behaviour{Path: f.Path, Runtime: RuntimeLibgfortran, Knob: KnobUnformatted, Buffer: buffer, Call: call, Share: share}
	if call == buffer {
		b.Access = AccessStream
		b.Why = fmt.Sprintf("%.0f%% of the calls are the whole %s buffer: stream access (or converted data), which flushes the buffer when full", 100*share, units.FormatSize(buffer))
		return b, true
	}
	return sequential(f, b, GfortranMarkers)
}

// RecogniseGfortranFormatted reads a file's calls as libgfortran's
// formatted sequential output, with buffer the formatted buffer in
// effect (GFORTRAN_FORMATTED_BUFFER_SIZE, or 8 KiB): calls of the
// smallest whole number of lines reaching half the buffer (4,134 bytes
// for 53-byte lines with the default, measured with gfortran 12).
func RecogniseGfortranFormatted(f workload.File, buffer int64) (Behaviour, bool) {
	call, share := dominantCall(f)
	if call <= 0 || share < 0.5 || buffer <= 0 {
		return Behaviour{}, false
	}
	return sequential(f, Behaviour{Path: f.Path, Runtime: RuntimeLibgfortran, Knob: KnobFormatted, Buffer: buffer, Call: call, Share: share}, 0)
}

// sequential fills b when its call is sequential access's flush of
// whole records of some length, marker bytes added to each.
func sequential(f workload.File, b Behaviour, marker int64) (Behaviour, bool) {
	us := recordUnits(f, b.Call, b.Buffer, marker)
	if len(us) == 0 {
		return Behaviour{}, false
	}
	b.Access = AccessSequential
	noun, records := "lines", "lines"
	if marker > 0 {
		noun, records = "records", fmt.Sprintf("records, each with its %d bytes of markers,", marker)
	}
	if len(us) == 1 {
		b.Record = us[0] - marker
		records = fmt.Sprintf("%d %s of %d bytes", b.Call/us[0], noun, b.Record)
		if marker > 0 {
			records += fmt.Sprintf(" (%d with their markers)", us[0])
		}
	}
	b.Why = fmt.Sprintf("%.0f%% of the calls are %d bytes, the first whole number of %s reaching half the %s buffer: sequential access, which flushes there", 100*b.Share, b.Call, records, units.FormatSize(b.Buffer))
	return b, true
}

// RecogniseGfortranDefault reads a file's calls as libgfortran's with
// its default buffer, from the sizes alone (a trace or a log): only the
// sequential pattern, calls just over 64 KiB that are not a power of
// two, is taken as unambiguous; whole-buffer calls of 128 KiB could be
// any program's.
func RecogniseGfortranDefault(f workload.File) (Behaviour, bool) {
	b, ok := RecogniseGfortran(f, GfortranUnformattedDefault)
	if !ok || b.Access != AccessSequential || bits.OnesCount64(uint64(b.Call)) == 1 {
		return Behaviour{}, false
	}
	return b, true
}

// RecogniseStdio reads a file's calls as C stdio's full-buffered
// output: calls of its buffer, st_blksize (blksize) unless the program
// set one. writer is the evidence that stdio writes the program's files
// (binary.StdioWriter); without it the calls are the program's own
// write(2), whatever their size.
func RecogniseStdio(f workload.File, blksize int64, writer string) (Behaviour, bool) {
	call, share := dominantCall(f)
	if writer == "" || call <= 0 || share < 0.5 || call != blksize || positioned(f) {
		return Behaviour{}, false
	}
	return Behaviour{Path: f.Path, Runtime: RuntimeStdio, Knob: "the FILE's buffer (setvbuf with a buffer of its own)", Buffer: blksize, Call: call, Share: share,
		Why: fmt.Sprintf("%.0f%% of the calls are %s, the file system's st_blksize: C stdio's default buffer (%s)", 100*share, units.FormatSize(blksize), writer)}, true
}

// positioned says whether a trace shows pwrite-family calls: stdio
// writes with write(2) alone; MPI-IO and HDF5 with pwrite.
func positioned(f workload.File) bool {
	return f.Syscalls["pwrite64"]+f.Syscalls["pwritev"]+f.Syscalls["pwritev2"] > 0
}

// dominantCall is a file's most common exact call size and its share of
// the file's calls; 0 when the sizes are not exact.
func dominantCall(f workload.File) (int64, float64) {
	var best, calls, total int64
	for _, c := range f.Sizes {
		total += c.Calls
		if c.Exact() && c.Calls > calls {
			best, calls = c.Low, c.Calls
		}
	}
	if total == 0 {
		return 0, 0
	}
	return best, float64(calls) / float64(total)
}

// ForBehaviours fits the apply rows to what the program showed: for
// each libgfortran buffer (unformatted, formatted) whose calls a file
// shows, the one row of that knob is the value that makes that access
// mode's calls at least size bytes (twice it for sequential access), in
// place of the rows for every case.
func ForBehaviours(rows []Apply, bs []Behaviour, size int64) []Apply {
	if size <= 0 {
		return rows
	}
	for _, b := range gfortranBehaviours(bs) {
		rows = placeRow(rows, behaviourRow(b, size))
	}
	return rows
}

// placeRow puts row in place of the first row of its setting and drops
// the others of it; first when there was none.
func placeRow(rows []Apply, row Apply) []Apply {
	out := []Apply{}
	placed := false
	for _, r := range rows {
		if r.Setting != row.Setting {
			out = append(out, r)
		} else if !placed {
			out, placed = append(out, row), true
		}
	}
	if !placed {
		out = append([]Apply{row}, out...)
	}
	return out
}

// gfortranBehaviours are the first libgfortran behaviour of each knob.
func gfortranBehaviours(bs []Behaviour) []Behaviour {
	var out []Behaviour
	for _, b := range bs {
		if b.Runtime == RuntimeLibgfortran && !slices.ContainsFunc(out, func(o Behaviour) bool { return o.Knob == b.Knob }) {
			out = append(out, b)
		}
	}
	return out
}

// behaviourRow is the row of one behaviour's buffer.
func behaviourRow(b Behaviour, size int64) Apply {
	v := b.KnobFor(size)
	r := Apply{Runtime: RuntimeLibgfortran, Setting: b.Knob, Value: bytesValue(max(v, b.Buffer))}
	calls := "calls of the whole buffer"
	if b.Access == AccessSequential {
		calls = "calls of just over half the buffer"
	}
	access := b.Access
	if b.Knob == KnobFormatted {
		access = "formatted " + access
	}
	if v <= b.Buffer {
		r.Comment = fmt.Sprintf("this program's %s access: %s already reach %s, no change is needed", access, calls, units.FormatSize(size))
	} else {
		r.Comment = fmt.Sprintf("this program's %s access: %s, so calls of at least %s", access, calls, units.FormatSize(size))
	}
	r.Note = fmt.Sprintf("Plain decimal bytes. %s: %s. With this buffer the calls are at least %s, the recommended size.%s",
		b.Path, b.Why, units.FormatSize(size), memoryNote(v))
	return r
}

// MPI-IO's access, as the call sizes show it.
const (
	AccessCollective  = "collective"  // calls of the aggregators' collective buffer
	AccessIndependent = "independent" // the program's own calls, passed through
)

// RecogniseMPIIO reads a file's positioned calls as MPI-IO's, through
// runtime (RuntimeROMIO or RuntimeOMPIO) whose collective buffer is
// collective bytes (cb_buffer_size, or OMPIO's bytes_per_agg): calls of
// that size are two-phase collective writes by the aggregators, whose
// buffer the knob sets; other sizes are the program's own calls, which
// MPI-IO hands to pwrite as they are (independent writes, and collective
// ones the library does not aggregate, such as non-interleaved blocks),
// so only the program's code sets them.
func RecogniseMPIIO(f workload.File, runtime string, collective int64) (Behaviour, bool) {
	call, share := dominantCall(f)
	if call <= 0 || share < 0.5 || !positioned(f) || collective <= 0 {
		return Behaviour{}, false
	}
	b := Behaviour{Path: f.Path, Runtime: runtime, Buffer: collective, Call: call, Share: share}
	if call == collective {
		b.Access, b.Knob = AccessCollective, mpiioCollectiveKnob(runtime)
		b.Why = fmt.Sprintf("%.0f%% of the calls are pwrite of %s, the collective buffer: two-phase collective writes by the aggregators", 100*share, units.FormatSize(call))
		return b, true
	}
	b.Access, b.Knob, b.Buffer = AccessIndependent, "the program's own MPI-IO call size", 0
	b.Why = fmt.Sprintf("%.0f%% of the calls are pwrite of %d bytes, not the %s collective buffer: MPI-IO passed the program's own calls through; no hint changes their size", 100*share, call, units.FormatSize(collective))
	return b, true
}

// mpiioCollectiveKnob is the setting of a component's collective buffer.
func mpiioCollectiveKnob(runtime string) string {
	if runtime == RuntimeOMPIO {
		return SettingBytesPerAgg
	}
	return SettingCBBuffer + " (ROMIO hint)"
}

// MPIIOCollectiveDefault is a component's collective buffer when nothing
// sets it.
func MPIIOCollectiveDefault(runtime string) int64 {
	if runtime == RuntimeOMPIO {
		return ompioBytesPerAgg
	}
	return romioCBDefault
}
