package advice

import (
	"fmt"
	"slices"
	"strings"

	"github.com/iobench/iobench/fsinfo"
	"github.com/iobench/iobench/units"
)

// Runtimes HowToApply covers, by the names FilterApply takes.
const (
	RuntimeLibgfortran = "libgfortran"
	RuntimeIntel       = "intel-fortran"
	RuntimeStdio       = "stdio"
	RuntimeROMIO       = "romio"
	RuntimeOMPIO       = "ompio"
	RuntimeHDF5        = "hdf5"
	RuntimePnetCDF     = "pnetcdf"
	RuntimeLustre      = "lustre"
	RuntimeGPFS        = "gpfs"
)

// ApplyRuntimes lists the runtimes in the order HowToApply gives them.
func ApplyRuntimes() []string {
	return []string{RuntimeLibgfortran, RuntimeIntel, RuntimeStdio, RuntimeROMIO, RuntimeOMPIO,
		RuntimeHDF5, RuntimePnetCDF, RuntimeLustre, RuntimeGPFS}
}

// RuntimeTitle is a runtime's name as people write it: "Intel Fortran".
func RuntimeTitle(rt string) string {
	t := map[string]string{
		RuntimeLibgfortran: "libgfortran", RuntimeIntel: "Intel Fortran", RuntimeStdio: "C stdio",
		RuntimeROMIO: "ROMIO (MPICH, Intel MPI, Cray MPICH)", RuntimeOMPIO: "Open MPI OMPIO",
		RuntimeHDF5: "HDF5", RuntimePnetCDF: "PnetCDF", RuntimeLustre: "Lustre", RuntimeGPFS: "GPFS",
	}[rt]
	if t == "" {
		return rt
	}
	return t
}

// runtimeAliases are other names people use for the runtimes.
var runtimeAliases = map[string]string{
	"gfortran": RuntimeLibgfortran, "ifort": RuntimeIntel, "ifx": RuntimeIntel, "intel": RuntimeIntel,
	"mpich": RuntimeROMIO, "openmpi": RuntimeOMPIO, "c": RuntimeStdio,
}

// The defaults HowToApply never lowers: a default at or above the knee
// already gives calls on the plateau, and a smaller value would only cost
// throughput where the curve is not yet flat.
const (
	fortBlockDefault  = 128 << 10 // Intel Fortran BLOCKSIZE (OPEN: BLOCKSIZE specifier)
	romioCBDefault    = 16 << 20  // ROMIO cb_buffer_size
	romioIndWrDefault = 512 << 10 // ROMIO ind_wr_buffer_size
	ompioBytesPerAgg  = 32 << 20  // io_ompio_bytes_per_agg (ompi_info, Open MPI 4.1)
	// OMPIOBytesPerAggDefault is that default, for callers that skip it.
	OMPIOBytesPerAggDefault = ompioBytesPerAgg
	lustreStripeDefault     = 1 << 20  // lfs setstripe's default stripe size
	lustreStripeMultiple    = 64 << 10 // lfs setstripe -S takes multiples of 64 KiB
	intelBlockMultiple      = 512      // FORT_BLOCKSIZE is rounded up to 512 bytes
	bigBuffer               = 4 << 20  // from here a per-unit memory note is worth giving
)

// Apply is one setting that applies the recommendation in one runtime.
type Apply struct {
	Runtime string `json:"runtime"` // one of ApplyRuntimes
	Setting string `json:"setting"` // environment variable, call, command or fact
	Value   string `json:"value"`   // exactly what to set: bytes in plain decimal
	// Measured: the runtime itself was measured writing with this value
	// (iobench runtime); otherwise the value is inferred from the write(2)
	// sweep and the runtime's buffering rule, and Note says what the sweep
	// did measure.
	Measured bool   `json:"measured"`
	Note     string `json:"note"`
	// Gain is what the runtime check measured with this value, when it
	// ran it (Measured).
	Gain *MeasuredGain `json:"gain,omitempty"`
	// Comment is a few words to print beside the setting in a shell
	// block (which case it is for, a memory cost, no change needed); Note
	// holds everything it says.
	Comment string `json:"-"`
}

// MeasuredGain is what a runtime check measured with an apply row's
// value: the gain over the runtime's default, its interval, and where.
type MeasuredGain struct {
	Ratio       float64 `json:"ratio"`
	Low         float64 `json:"low"`
	High        float64 `json:"high"`
	Significant bool    `json:"significant"`
	Case        string  `json:"case"` // the case it was measured in: "romio321 shared collective strided"
}

// The libraries' settings, by the names LibraryValues gives them.
const (
	SettingCBBuffer    = "cb_buffer_size"                  // ROMIO hint: each aggregator's collective buffer
	SettingIndWrBuffer = "ind_wr_buffer_size"              // ROMIO hint: independent noncontiguous writes' buffer
	SettingBytesPerAgg = "OMPI_MCA_io_ompio_bytes_per_agg" // OMPIO: each aggregator's buffer
	SettingAlignment   = "H5Pset_alignment"                // HDF5: threshold and alignment alike
	SettingSieve       = "H5Pset_sieve_buf_size"           // HDF5: the contiguous dataset's sieve buffer
	SettingTconv       = "H5Pset_buffer"                   // HDF5: the type-conversion buffer
)

// Library defaults HowToApply never lowers (HDF5's: H5Pfapl.c, H5Dprivate.h).
const (
	hdf5SieveDefault = 64 << 10
	hdf5TconvDefault = 1 << 20
)

// LibraryValues are the values the apply block gives the libraries'
// settings for f, by setting: each at least its library's default and on
// the file system's boundary (the stripe on Lustre, whole blocks on
// GPFS, else the buffer). The sieve and type-conversion buffers have
// rows only where a runtime check showed they matter. Nil without a knee.
func LibraryValues(f ApplyFacts) map[string]int64 {
	a, ok := newApplier(f)
	if !ok {
		return nil
	}
	return a.libraryValues()
}

func (a applier) libraryValues() map[string]int64 {
	unit := a.alignment()
	return map[string]int64{SettingCBBuffer: a.atLeast(romioCBDefault, unit), SettingIndWrBuffer: a.atLeast(romioIndWrDefault, unit),
		SettingBytesPerAgg: a.atLeast(ompioBytesPerAgg, unit), SettingAlignment: unit,
		SettingSieve: a.atLeast(hdf5SieveDefault, unit), SettingTconv: a.atLeast(hdf5TconvDefault, unit)}
}

// LibrarySettings are the library settings a runtime's HowToApply rows
// give (LibraryValues' names), in their order; nil for other runtimes.
func LibrarySettings(rt string) []string {
	return map[string][]string{RuntimeROMIO: {SettingCBBuffer, SettingIndWrBuffer},
		RuntimeOMPIO: {SettingBytesPerAgg}, RuntimeHDF5: {SettingAlignment}}[rt]
}

// librarySets are rt's library settings with the values its rows give.
func (a applier) librarySets(rt string) []setValue {
	vs := a.libraryValues()
	var out []setValue
	for _, name := range LibrarySettings(rt) {
		out = append(out, setValue{name, vs[name]})
	}
	return out
}

// atLeast is the buffer, raised to def, on the boundary unit.
func (a applier) atLeast(def, unit int64) int64 { return roundUp(max(a.b, def), unit) }

// ApplyFacts are what the values are derived from.
type ApplyFacts struct {
	Knee   int64       // the knee of the write(2) curve, bytes
	Buffer int64       // the recommended buffer (Recommendation.BufferSize); 0: the knee
	FS     fsinfo.Info // type and block size of the file system measured
	// StripeSize is the Lustre stripe size of the directory when known
	// (lfs getstripe); 0: unknown.
	StripeSize int64
	// Measured gives, per runtime (ApplyRuntimes), the buffer sizes it
	// was measured at through the runtime itself (iobench runtime), and
	// per library setting (LibraryValues' names) the values it ran at (a
	// setting present with none: the run planned it but never ran it); a
	// row is marked measured when every value it gives is among them.
	Measured map[string][]int64
	// Unmeasured says, per runtime (ApplyRuntimes), why it was not
	// measured through itself: not installed, or which check measures it.
	Unmeasured map[string]string
	// DefaultVerdict is the sweep's verdict on libgfortran's 128 KiB
	// unformatted default (Gfortran.Verdict), judged from write(2) calls
	// of that size; "" when there is none.
	DefaultVerdict string
}

// HowToApply says, for every runtime that applies, what to set so that
// its writes reach the knee. Lustre and GPFS appear only on those file
// systems. No value is below the runtime's default. Without a knee there
// is nothing to apply: nil.
func HowToApply(f ApplyFacts) []Apply {
	a, ok := newApplier(f)
	if !ok {
		return nil
	}
	unit := a.alignment()
	var out []Apply
	out = append(out, a.libgfortran()...)
	out = append(out, a.intelFortran()...)
	out = append(out, a.stdio())
	out = append(out, a.romio()...)
	out = append(out, a.ompio(), a.hdf5(), a.pnetcdf(unit))
	out = append(out, a.lustre()...)
	return append(out, a.gpfs()...)
}

// newApplier completes f (a missing knee or buffer is the other); false
// when it has neither.
func newApplier(f ApplyFacts) (applier, bool) {
	if f.Buffer <= 0 {
		f.Buffer = f.Knee
	}
	if f.Buffer <= 0 {
		return applier{}, false
	}
	if f.Knee <= 0 {
		f.Knee = f.Buffer
	}
	a := applier{f: f, b: f.Buffer, k: f.Knee}
	a.stripe = a.lustreStripe()
	return a, true
}

// applier derives the settings from one set of facts.
type applier struct {
	f      ApplyFacts
	b, k   int64 // buffer and knee, both set
	stripe int64 // the stripe size new Lustre files should get; 0 off Lustre
}

// reached names what a default that is big enough reaches: the knee, or
// the safe size recommended when the knee is not established.
func (a applier) reached() string {
	if a.b == a.k {
		return "the knee"
	}
	return "the recommended size"
}

func (a applier) onLustre() bool { return isFS(a.f.FS, "lustre") }
func (a applier) onGPFS() bool   { return isFS(a.f.FS, "gpfs") && a.f.FS.BlockSize > 0 }

// lustreStripe is the stripe size that keeps whole stripes per buffer:
// the buffer rounded up to 64 KiB, or the directory's stripe when that is
// already at or above it. With the stripe unknown it is at least Lustre's
// default, so that the advice does not lower a stripe nobody looked at.
func (a applier) lustreStripe() int64 {
	if !a.onLustre() {
		return 0
	}
	s := roundUp(a.b, lustreStripeMultiple)
	switch {
	case a.f.StripeSize >= s:
		return a.f.StripeSize
	case a.f.StripeSize == 0:
		return max(s, lustreStripeDefault)
	}
	return s
}

// alignment is the boundary file offsets should keep: the stripe on
// Lustre, whole blocks on GPFS, elsewhere the buffer itself.
func (a applier) alignment() int64 {
	switch {
	case a.onLustre():
		return a.stripe
	case a.onGPFS():
		return roundUp(a.b, a.f.FS.BlockSize)
	}
	return a.b
}

func isFS(fs fsinfo.Info, name string) bool {
	return strings.EqualFold(fs.Type, name) || strings.EqualFold(fs.MagicName, name)
}

// roundUp is n rounded up to a multiple of m.
func roundUp(n, m int64) int64 { return (n + m - 1) / m * m }

func bytesValue(n int64) string { return fmt.Sprintf("%d", n) }

// measured is whether rt was measured through the runtime itself with a
// buffer of n bytes.
func (a applier) measured(rt string, n int64) bool { return slices.Contains(a.f.Measured[rt], n) }

// provenance says what the value rests on: the runtime measured at it,
// or the write(2) sweep and the runtime's rule, and how to check it.
func (a applier) provenance(rt string, measured bool) string {
	if measured {
		return fmt.Sprintf("Measured through %s itself (iobench runtime) at this buffer size.", RuntimeTitle(rt))
	}
	s := a.inferred(rt)
	switch rt {
	case RuntimeLibgfortran:
		s += " and " + a.defaultWords() + "; check it with `iobench runtime gfortran`"
	case RuntimeStdio:
		s += "; check it with `iobench runtime stdio`"
	case RuntimeROMIO, RuntimeOMPIO, RuntimeHDF5, RuntimePnetCDF:
		s += "; the library's own buffering and aggregation were not measured"
	}
	return a.why(rt, s)
}

func (a applier) inferred(rt string) string {
	return fmt.Sprintf("Not measured through %s: inferred from the write(2) sweep, which measured calls of %s reaching the plateau", RuntimeTitle(rt), units.FormatSize(a.k))
}

// why ends a note on an unmeasured row with the reason given for rt.
func (a applier) why(rt, s string) string {
	if why := a.f.Unmeasured[rt]; why != "" {
		s += ": " + why
	}
	return s + "."
}

// setValue is one setting of a library row and the value it gives.
type setValue struct {
	name string
	v    int64
}

// libraryProvenance is whether a library row was measured, every value
// it gives having run through the library, and what it rests on; a row
// whose values did not all run names those that did.
func (a applier) libraryProvenance(rt string, sets []setValue) (bool, string) {
	measured, planned := true, false
	var words []string
	for _, s := range sets {
		ran, ok := a.f.Measured[s.name]
		measured = measured && slices.Contains(ran, s.v)
		planned = planned || ok
		words = append(words, s.name+ranWords(ran))
	}
	switch {
	case measured:
		return true, fmt.Sprintf("Measured through %s itself (iobench runtime) at these values.", RuntimeTitle(rt))
	case !planned:
		return false, a.provenance(rt, false)
	}
	return false, a.why(rt, a.inferred(rt)+fmt.Sprintf("; through %s itself (iobench runtime) %s", RuntimeTitle(rt), strings.Join(words, ", ")))
}

// ranWords says the values a setting ran at.
func ranWords(vs []int64) string {
	if len(vs) == 0 {
		return " did not run"
	}
	var sizes []string
	for _, v := range vs {
		sizes = append(sizes, units.FormatSize(v))
	}
	return " ran at " + strings.Join(sizes, " and ")
}

// defaultWords says what the sweep measured of libgfortran's default:
// write(2) calls of 128 KiB, what converted data through that buffer
// would make.
func (a applier) defaultWords() string {
	w := map[string]string{
		VerdictExport:    "found write(2) calls of 128 KiB, what libgfortran's default buffer makes of converted data, significantly slower",
		VerdictEnough:    "found write(2) calls of 128 KiB, what libgfortran's default buffer makes of converted data, within noise of the plateau",
		VerdictUndecided: "measured write(2) calls of 128 KiB, what libgfortran's default buffer makes of converted data, below the plateau but within noise",
	}[a.f.DefaultVerdict]
	if w == "" {
		return "did not measure write(2) calls of 128 KiB, libgfortran's default"
	}
	return w
}

// libgfortran's rule (buf_write and buf_markeor in libgfortran/io/unix.c):
// converted data pass through the buffer, so calls are the buffer; a
// native write larger than half the buffer, arriving with it empty,
// bypasses it; small records are flushed at the end of a record once the
// buffer is at least half full, so their calls are just over half the
// buffer, and the buffer must be at least twice the knee for them.
func (a applier) libgfortran() []Apply {
	const plain = "Plain decimal bytes: libgfortran ignores a value with a suffix such as 1M. "
	rt := RuntimeLibgfortran
	prov := a.provenance(rt, false)
	enough := a.b <= GfortranUnformattedDefault || a.f.DefaultVerdict == VerdictEnough
	// An undecided default is kept too: no gain over it is shown yet.
	undecided := !enough && a.f.DefaultVerdict == VerdictUndecided
	conv := Apply{Runtime: rt, Setting: "GFORTRAN_UNFORMATTED_BUFFER_SIZE", Value: bytesValue(a.b), Measured: a.measured(rt, a.b)}
	conv.Note = plain + "With -fconvert=big-endian or GFORTRAN_CONVERT_UNIT, stream access goes out in write(2) calls of this size (sequential records, converted or not, in calls of just over half of it); a native array write larger than half the buffer bypasses it and goes out in one call."
	conv.Comment = "unformatted: converted data goes out in calls of this size"
	switch {
	case enough:
		conv.Value, conv.Measured = bytesValue(GfortranUnformattedDefault), a.measured(rt, GfortranUnformattedDefault)
		conv.Note += " The default, 131072, already reaches " + a.reached() + ": no change is needed."
		conv.Comment = "the default already reaches " + a.reached() + ": no change is needed"
	case undecided:
		conv.Value, conv.Measured = bytesValue(GfortranUnformattedDefault), a.measured(rt, GfortranUnformattedDefault)
		conv.Note += fmt.Sprintf(" The sweep does not establish a gain over the default yet, so it is kept; %d is the value to try once more rounds show one.", a.b)
		conv.Comment = "the default: the sweep shows no gain over it yet"
		enough = true // the buffer the small-records row compares with
	}
	buf := int64(max(a.b, GfortranUnformattedDefault))
	if enough {
		buf = GfortranUnformattedDefault
	}
	var small []Apply
	if 2*a.k > buf {
		v := 2 * a.k
		m := a.measured(rt, v)
		small = append(small, Apply{Runtime: rt, Setting: "GFORTRAN_UNFORMATTED_BUFFER_SIZE", Value: bytesValue(v), Measured: m,
			Note: fmt.Sprintf("%sFor many records smaller than the knee: at the end of each record libgfortran writes its buffer out once it is at least half full, so calls are just over half the buffer, and twice the knee (%s) keeps them at or above it. It serves converted data too, in calls of %s, if the curve stays on the plateau there.%s %s",
				plain, units.FormatSize(a.k), units.FormatSize(v), memoryNote(v), a.provenance(rt, m)),
			Comment: "or, for many small records: calls of just over half of it" + memoryComment(v)})
	} else {
		conv.Note += fmt.Sprintf(" Also enough for small records, which go out in calls of just over half the buffer (%s).", units.FormatSize(buf/2))
	}
	conv.Note += memoryNote(buf) + " " + a.provenance(rt, conv.Measured)
	conv.Comment += memoryComment(buf)
	fbuf := int64(max(a.b, GfortranFormattedDefault))
	formatted := Apply{Runtime: rt, Setting: "GFORTRAN_FORMATTED_BUFFER_SIZE", Value: bytesValue(fbuf),
		Note: fmt.Sprintf("Formatted (text) files; the default is %d bytes. Converting numbers to text often costs more than small writes do, so expect a smaller gain.%s %s",
			GfortranFormattedDefault, memoryNote(fbuf), prov),
		Comment: "formatted files" + memoryComment(fbuf)}
	if fbuf == GfortranFormattedDefault {
		formatted.Comment = "formatted files: the default already reaches " + a.reached()
	}
	return append(append([]Apply{conv}, small...), formatted)
}

// memoryNote warns that every open unit holds its own buffer.
func memoryNote(n int64) string {
	if n < bigBuffer {
		return ""
	}
	return fmt.Sprintf(" Each open unit allocates its own %s buffer: 100 open units take %s.", units.FormatSize(n), units.FormatSize(100*n))
}

func memoryComment(n int64) string {
	if n < bigBuffer {
		return ""
	}
	return fmt.Sprintf("; %s per open unit", units.FormatSize(n))
}

// intelFortran: buffered output in blocks of FORT_BLOCKSIZE. Intel's
// documentation sizes a unit's buffer as BLOCKSIZE x BUFFERCOUNT only
// when both are given, else 8 KiB, so both are set.
func (a applier) intelFortran() []Apply {
	rt, prov := RuntimeIntel, a.provenance(RuntimeIntel, false)
	bs := max(roundUp(a.b, intelBlockMultiple), fortBlockDefault)
	block := Apply{Runtime: rt, Setting: "FORT_BLOCKSIZE", Value: bytesValue(bs),
		Note:    "The physical transfer size, bytes, a multiple of 512 (the runtime rounds up to one); the default is 128 KiB." + memoryNote(bs) + " " + prov,
		Comment: "the transfer size" + memoryComment(bs)}
	if bs == fortBlockDefault {
		block.Comment = "the default already reaches " + a.reached()
	}
	return []Apply{
		{Runtime: rt, Setting: "FORT_BUFFERED", Value: "true", Comment: "buffer output",
			Note: "Buffer output: without it each WRITE statement goes to the file system by itself, whatever its size. " + prov},
		block,
		{Runtime: rt, Setting: "FORT_BUFFERCOUNT", Value: "1", Comment: "with FORT_BLOCKSIZE: the buffer is their product",
			Note: "Set it with FORT_BLOCKSIZE: a unit's buffer is FORT_BLOCKSIZE x FORT_BUFFERCOUNT bytes only when both are given, else 8 KiB. " + prov},
	}
}

func (a applier) stdio() Apply {
	rt := RuntimeStdio
	v := max(a.b, StdioBUFSIZ)
	m := a.measured(rt, v)
	return Apply{Runtime: rt, Setting: "setvbuf", Value: StdioSetvbuf(v) + ";", Measured: m,
		Note: fmt.Sprintf("After fopen, before the first I/O on f, with a buffer of the program's own (static, or malloc'd and kept until fclose): glibc ignores the size when the buffer is NULL. glibc's default buffer is st_blksize, at most %d bytes (BUFSIZ); it fills the buffer before each write(2), and an fwrite larger than the free space writes its whole buffers in one call.%s %s",
			StdioBUFSIZ, memoryNote(v), a.provenance(rt, m)),
		Comment: "in C, after fopen" + memoryComment(v)}
}

// romio gives a hints file and the Cray variant. A buffer whose default
// is already at or above the value is kept. striping_unit only on Lustre:
// ROMIO's GPFS driver cannot change the block size.
func (a applier) romio() []Apply {
	keys := a.librarySets(RuntimeROMIO)
	striping := ""
	if a.onLustre() { // no library run sets it: the hints stay inferred
		keys = append([]setValue{{"striping_unit", a.stripe}}, keys...)
		striping = " striping_unit is the stripe size of the files ROMIO creates, as lfs setstripe -S below."
	}
	var file, cray []string
	for _, kv := range keys {
		file = append(file, kv.name+" "+bytesValue(kv.v))
		cray = append(cray, kv.name+"="+bytesValue(kv.v))
	}
	m, prov := a.libraryProvenance(RuntimeROMIO, keys)
	return []Apply{
		{Runtime: RuntimeROMIO, Setting: "ROMIO_HINTS", Value: strings.Join(file, "\n"), Comment: "a hints file, one key and value a line", Measured: m,
			Note: "Write these lines to a file and export ROMIO_HINTS=<that file> (MPICH, Intel MPI, Open MPI's romio component). cb_buffer_size is each aggregator's collective buffer (default 16 MiB), ind_wr_buffer_size the buffer of independent noncontiguous writes (default 512 KiB); a default already at or above the knee is kept." + striping + " " + prov},
		{Runtime: RuntimeROMIO, Setting: "MPICH_MPIIO_HINTS", Value: "*:" + strings.Join(cray, ":"), Comment: "HPE Cray MPICH: the same hints", Measured: m,
			Note: "HPE Cray MPICH: the same hints for every file (*). " + prov},
	}
}

func (a applier) ompio() Apply {
	sets := a.librarySets(RuntimeOMPIO)
	v := sets[0].v
	note, comment := "Each aggregator's collective buffer in Open MPI's ompio (default 32 MiB)", "each aggregator's buffer"
	if v == ompioBytesPerAgg {
		note += ": the default already reaches " + a.reached() + ", no change is needed"
		comment = "the default already reaches " + a.reached()
	}
	m, prov := a.libraryProvenance(RuntimeOMPIO, sets)
	return Apply{Runtime: RuntimeOMPIO, Setting: SettingBytesPerAgg, Value: bytesValue(v), Comment: comment, Measured: m,
		Note: note + ". " + prov}
}

func (a applier) hdf5() Apply {
	sets := a.librarySets(RuntimeHDF5)
	unit := sets[0].v
	m, prov := a.libraryProvenance(RuntimeHDF5, sets)
	return Apply{Runtime: RuntimeHDF5, Setting: SettingAlignment, Value: fmt.Sprintf("H5Pset_alignment(fapl, %d, %d);", unit, unit),
		Comment: "on the file access property list, before H5Fcreate", Measured: m,
		Note: "On the file access property list, before H5Fcreate: objects of at least that size start on that boundary, so their writes do not straddle blocks or stripes; smaller ones stay packed. " + prov}
}

func (a applier) pnetcdf(unit int64) Apply {
	return Apply{Runtime: RuntimePnetCDF, Setting: "PNETCDF_HINTS", Value: fmt.Sprintf("nc_var_align_size=%d", unit),
		Comment: "aligns the variables' data",
		Note:    "Aligns the start of the variables' data to that boundary; or pass it as an MPI_Info hint. " + a.provenance(RuntimePnetCDF, false)}
}

// lustre: the stripe size for new files, a multiple of 64 KiB.
func (a applier) lustre() []Apply {
	if !a.onLustre() {
		return nil
	}
	note := fmt.Sprintf("The stripe size of new files in the directory: lfs setstripe -S %d <dir>, a multiple of 64 KiB; existing files keep theirs. ", a.stripe)
	comment := "new files in <dir>"
	switch {
	case a.f.StripeSize == 0:
		note += "The stripe size now is unknown (lfs getstripe -d <dir> shows it): if it is already this or larger, keep it. "
		comment = "unless lfs getstripe -d <dir> shows this or more already"
	case a.f.StripeSize == a.stripe && a.stripe > roundUp(a.b, lustreStripeMultiple):
		note += fmt.Sprintf("The stripe size now is %s, already above the buffer: no change is needed. ", units.FormatSize(a.f.StripeSize))
		comment = "the stripe size now: no change is needed"
	case a.f.StripeSize == a.stripe:
		note += fmt.Sprintf("The stripe size now is %s, already this: no change is needed. ", units.FormatSize(a.f.StripeSize))
		comment = "the stripe size now: no change is needed"
	default:
		note += fmt.Sprintf("The stripe size now is %s (lfs getstripe). ", units.FormatSize(a.f.StripeSize))
	}
	return []Apply{{Runtime: RuntimeLustre, Setting: "lfs setstripe -S", Value: bytesValue(a.stripe), Comment: comment,
		Note: note + a.provenance(RuntimeLustre, false)}}
}

// gpfs: the block size is fixed when the file system is made, so the
// advice is to write whole blocks.
func (a applier) gpfs() []Apply {
	if !a.onGPFS() {
		return nil
	}
	bs := a.f.FS.BlockSize
	note := fmt.Sprintf("The file system's block size (statfs f_bsize), fixed when it was made (mmcrfs -B), not per file: keep writes and buffers whole, aligned blocks; the knee is %s", units.FormatSize(a.k))
	if a.k < bs {
		note += ", below the block size, so buffers of whole blocks cost memory without a measured gain"
	}
	return []Apply{{Runtime: RuntimeGPFS, Setting: "block size", Value: bytesValue(bs), Comment: "write whole, aligned blocks",
		Note: note + ". A fact of the file system, not a setting: nothing to measure."}}
}

// UnknownRuntimeError: a runtime name HowToApply does not know. It names
// no flag: the caller knows where the name came from.
type UnknownRuntimeError struct {
	Name  string
	Valid []string
}

func (e *UnknownRuntimeError) Error() string {
	return fmt.Sprintf("unknown runtime %q (valid: %s)", e.Name, strings.Join(e.Valid, ", "))
}

// ParseRuntimes reads a comma-separated list of runtimes into their
// canonical names (ApplyRuntimes), in the order given, each once. Empty
// items are skipped; an unknown name is an *UnknownRuntimeError.
func ParseRuntimes(list string) ([]string, error) {
	if strings.TrimSpace(list) == "" {
		return nil, nil // no names: every runtime
	}
	var out []string
	for _, n := range strings.Split(list, ",") {
		if strings.TrimSpace(n) == "" {
			return nil, fmt.Errorf("%q has an empty name (valid: %s)", list, strings.Join(ApplyRuntimes(), ", "))
		}
		rt, err := canonicalRuntime(n)
		if err != nil {
			return nil, err
		}
		if slices.Contains(out, rt) {
			return nil, fmt.Errorf("%q names %s twice", list, rt)
		}
		out = append(out, rt)
	}
	return out, nil
}

// FilterApply keeps the settings of the runtimes named (aliases such as
// gfortran or ifort are accepted), in HowToApply's order. No names keep
// all.
func FilterApply(as []Apply, names []string) ([]Apply, error) {
	if len(names) == 0 {
		return as, nil
	}
	want := map[string]bool{}
	for _, n := range names {
		rt, err := canonicalRuntime(n)
		if err != nil {
			return nil, err
		}
		want[rt] = true
	}
	var out []Apply
	for _, a := range as {
		if want[a.Runtime] {
			out = append(out, a)
		}
	}
	return out, nil
}

func canonicalRuntime(name string) (string, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	if alias, ok := runtimeAliases[n]; ok {
		n = alias
	}
	if !slices.Contains(ApplyRuntimes(), n) {
		return "", &UnknownRuntimeError{Name: strings.TrimSpace(name), Valid: ApplyRuntimes()}
	}
	return n, nil
}

// StdioSetvbuf is the C that gives a stream a buffer of n bytes. The
// buffer must be the program's: glibc ignores the size of a NULL one.
func StdioSetvbuf(n int64) string {
	return fmt.Sprintf("static char b[%d]; setvbuf(f, b, _IOFBF, sizeof b)", n)
}
