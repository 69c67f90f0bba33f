package advice

import (
	"fmt"
	"slices"
	"strings"

	"github.com/iobench/iobench/fsinfo"
	"github.com/iobench/iobench/knee"
)

// Runtimes HowToApply covers, by the names --for takes.
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

// runtimeAliases are other names people use for the runtimes.
var runtimeAliases = map[string]string{
	"gfortran": RuntimeLibgfortran, "ifort": RuntimeIntel, "ifx": RuntimeIntel,
	"mpich": RuntimeROMIO, "openmpi": RuntimeOMPIO, "c": RuntimeStdio,
}

// Defaults of the settings HowToApply never lowers: a default at or
// above the knee already gives calls on the plateau.
const (
	romioCBDefault       = 16 << 20  // ROMIO cb_buffer_size
	romioIndWrDefault    = 512 << 10 // ROMIO ind_wr_buffer_size
	ompioBytesPerAgg     = 32 << 20  // io_ompio_bytes_per_agg (ompi_info, Open MPI 4.1)
	lustreStripeMultiple = 64 << 10  // lfs setstripe -S takes multiples of 64 KiB
	intelBlockMultiple   = 512       // FORT_BLOCKSIZE is rounded to 512 bytes
	bigBuffer            = 4 << 20   // from here a per-unit memory note is worth giving
)

// Apply is one setting that applies the recommendation in one runtime.
type Apply struct {
	Runtime string `json:"runtime"` // one of ApplyRuntimes
	Setting string `json:"setting"` // environment variable, call or command
	Value   string `json:"value"`   // exactly what to set: bytes in plain decimal
	// Measured: the runtime itself was measured writing with this value
	// (iobench runtime); otherwise the value is inferred from the write(2)
	// sweep and the runtime's buffering rule.
	Measured bool   `json:"measured"`
	Note     string `json:"note"`
}

// ApplyFacts are what the values are derived from.
type ApplyFacts struct {
	Knee   int64       // the knee of the write(2) curve, bytes
	Buffer int64       // the recommended buffer (Recommendation.BufferSize); 0: the knee
	FS     fsinfo.Info // type and block size of the file system measured
	// StripeSize is the Lustre stripe size when known (lfs getstripe).
	StripeSize int64
	// Measured names the runtimes (ApplyRuntimes) measured through the
	// runtime itself at the recommended buffer.
	Measured []string
}

// HowToApply says, for every runtime that applies, what to set so that
// its writes reach the knee. Lustre and GPFS appear only on those file
// systems. Without a knee there is nothing to apply: nil.
func HowToApply(f ApplyFacts) []Apply {
	b, k := f.Buffer, f.Knee
	if b <= 0 {
		b = k
	}
	if b <= 0 {
		return nil
	}
	if k <= 0 {
		k = b
	}
	unit := alignment(f, b)
	var out []Apply
	out = append(out, libgfortran(b, k, slices.Contains(f.Measured, RuntimeLibgfortran))...)
	out = append(out, intelFortran(b)...)
	out = append(out, stdio(b, slices.Contains(f.Measured, RuntimeStdio)))
	out = append(out, romio(b, unit, striped(f.FS))...)
	out = append(out, ompio(b, unit), hdf5(unit), pnetcdf(unit))
	out = append(out, lustre(f, b)...)
	return append(out, gpfs(f.FS, k)...)
}

// alignment is the boundary file offsets should keep: the stripe on
// Lustre, the block on GPFS, elsewhere the buffer itself.
func alignment(f ApplyFacts, b int64) int64 {
	switch {
	case isFS(f.FS, "lustre") && f.StripeSize >= b:
		return f.StripeSize
	case isFS(f.FS, "lustre"):
		return roundUp(b, lustreStripeMultiple)
	case isFS(f.FS, "gpfs") && f.FS.BlockSize > 0:
		return roundUp(b, f.FS.BlockSize)
	}
	return b
}

func isFS(fs fsinfo.Info, name string) bool {
	return strings.EqualFold(fs.Type, name) || strings.EqualFold(fs.MagicName, name)
}

func striped(fs fsinfo.Info) bool { return isFS(fs, "lustre") || isFS(fs, "gpfs") }

// roundUp is n rounded up to a multiple of m.
func roundUp(n, m int64) int64 { return (n + m - 1) / m * m }

func bytesValue(n int64) string { return fmt.Sprintf("%d", n) }

// libgfortran's rule (buf_write in libgfortran/io/unix.c): converted
// data pass through the buffer, so calls are exactly the buffer; a
// native write over half the buffer bypasses it; small records go out
// when the next one does not fit, in calls between B/2 and B, so B must
// be at least twice the knee for them.
func libgfortran(b, k int64, measured bool) []Apply {
	const plain = "plain decimal bytes (libgfortran ignores a value with a suffix such as 1M)"
	rt := RuntimeLibgfortran
	note := plain + "; with -fconvert=big-endian or GFORTRAN_CONVERT_UNIT every write(2) is exactly this size; a native array write larger than half the buffer bypasses it"
	var small []Apply
	if 2*k > b {
		small = append(small, Apply{Runtime: rt, Setting: "GFORTRAN_UNFORMATTED_BUFFER_SIZE", Value: bytesValue(2 * k),
			Note: fmt.Sprintf("for many records smaller than the knee: libgfortran writes its buffer out when the next record does not fit, in calls between half the buffer and all of it, so twice the knee (%s) keeps every call at or above it", knee.FormatSize(k)) + memoryNote(2*k)})
	} else {
		note += "; also enough for small records, which go out in calls of at least half the buffer"
	}
	out := append([]Apply{{Runtime: rt, Setting: "GFORTRAN_UNFORMATTED_BUFFER_SIZE", Value: bytesValue(b), Measured: measured, Note: note + memoryNote(b)}}, small...)
	return append(out, Apply{Runtime: rt, Setting: "GFORTRAN_FORMATTED_BUFFER_SIZE", Value: bytesValue(b),
		Note: "formatted (text) files; default 8192 bytes. Converting numbers to text often costs more than small writes do, so expect a smaller gain" + memoryNote(b)})
}

// memoryNote warns that every open unit holds its own buffer.
func memoryNote(n int64) string {
	if n < bigBuffer {
		return ""
	}
	return fmt.Sprintf(". Each open unit allocates its own %s buffer: 100 open units take %s", knee.FormatSize(n), knee.FormatSize(100*n))
}

func intelFortran(b int64) []Apply {
	rt, bs := RuntimeIntel, roundUp(b, intelBlockMultiple)
	return []Apply{
		{Runtime: rt, Setting: "FORT_BUFFERED", Value: "true", Note: "buffer unformatted output; unbuffered, each WRITE statement goes to the file system by itself"},
		{Runtime: rt, Setting: "FORT_BLOCKSIZE", Value: bytesValue(bs), Note: "the buffer block, bytes, a multiple of 512 (the runtime rounds up to one)" + memoryNote(bs)},
		{Runtime: rt, Setting: "FORT_BUFFERCOUNT", Value: "1", Note: "blocks per unit: a unit buffers FORT_BLOCKSIZE x FORT_BUFFERCOUNT bytes before it writes; 1 keeps each write at the block size"},
	}
}

func stdio(b int64, measured bool) Apply {
	return Apply{Runtime: RuntimeStdio, Setting: "setvbuf", Value: fmt.Sprintf("setvbuf(f, NULL, _IOFBF, %d);", b), Measured: measured,
		Note: "after fopen, before the first I/O on f; glibc's default buffer is st_blksize, at most 8192 bytes (BUFSIZ). glibc fills the buffer before each write(2), and an fwrite larger than the free space goes out in whole buffers"}
}

// romio gives a hints file and the Cray variant. A buffer whose default
// is already at or above the buffer size is kept.
func romio(b, unit int64, striped bool) []Apply {
	cb := roundUp(max(b, romioCBDefault), unit)
	ind := roundUp(max(b, romioIndWrDefault), unit)
	keys := [][2]string{{"cb_buffer_size", bytesValue(cb)}, {"ind_wr_buffer_size", bytesValue(ind)}}
	if striped {
		keys = append([][2]string{{"striping_unit", bytesValue(unit)}}, keys...)
	}
	var file, cray []string
	for _, kv := range keys {
		file = append(file, kv[0]+" "+kv[1])
		cray = append(cray, kv[0]+"="+kv[1])
	}
	return []Apply{
		{Runtime: RuntimeROMIO, Setting: "ROMIO_HINTS", Value: strings.Join(file, "\n"),
			Note: "write these lines to a file and export ROMIO_HINTS=<that file> (MPICH, Intel MPI, Open MPI's romio). cb_buffer_size is each aggregator's collective buffer (default 16 MiB), ind_wr_buffer_size the buffer of independent noncontiguous writes (default 512 KiB); a default already at or above the knee is kept" + stripingNote(striped)},
		{Runtime: RuntimeROMIO, Setting: "MPICH_MPIIO_HINTS", Value: "*:" + strings.Join(cray, ":"),
			Note: "HPE Cray MPICH: the same hints for every file (*)"},
	}
}

func stripingNote(striped bool) string {
	if !striped {
		return ""
	}
	return "; striping_unit applies to files ROMIO creates"
}

func ompio(b, unit int64) Apply {
	v := roundUp(max(b, ompioBytesPerAgg), unit)
	note := "each aggregator's collective buffer in Open MPI's ompio (default 32 MiB)"
	if v == ompioBytesPerAgg {
		note += ": the default already reaches the knee, no change is needed"
	}
	return Apply{Runtime: RuntimeOMPIO, Setting: "OMPI_MCA_io_ompio_bytes_per_agg", Value: bytesValue(v), Note: note}
}

func hdf5(unit int64) Apply {
	return Apply{Runtime: RuntimeHDF5, Setting: "H5Pset_alignment", Value: fmt.Sprintf("H5Pset_alignment(fapl, %d, %d);", unit, unit),
		Note: "on the file access property list, before H5Fcreate: objects of at least that size start on that boundary, so their writes do not straddle blocks or stripes; smaller ones stay packed"}
}

func pnetcdf(unit int64) Apply {
	return Apply{Runtime: RuntimePnetCDF, Setting: "PNETCDF_HINTS", Value: fmt.Sprintf("nc_var_align_size=%d", unit),
		Note: "aligns the start of the variables' data to that boundary; or pass it as an MPI_Info hint"}
}

// lustre: the stripe size for new files, a multiple of 64 KiB.
func lustre(f ApplyFacts, b int64) []Apply {
	if !isFS(f.FS, "lustre") {
		return nil
	}
	s := roundUp(b, lustreStripeMultiple)
	note := fmt.Sprintf("stripe size of new files in the directory: lfs setstripe -S %d <dir> (a multiple of 64 KiB); existing files keep theirs", s)
	if f.StripeSize > 0 {
		note += fmt.Sprintf("; the stripe size now is %s", knee.FormatSize(f.StripeSize))
		if f.StripeSize >= s && f.StripeSize%lustreStripeMultiple == 0 {
			note += ", already at or above it: no change is needed"
		}
	}
	return []Apply{{Runtime: RuntimeLustre, Setting: "lfs setstripe -S", Value: bytesValue(s), Note: note}}
}

// gpfs: the block size is fixed when the file system is made, so the
// advice is to write whole blocks.
func gpfs(fs fsinfo.Info, k int64) []Apply {
	if !isFS(fs, "gpfs") || fs.BlockSize <= 0 {
		return nil
	}
	note := fmt.Sprintf("fixed when the file system was made (mmcrfs -B), not per file: keep writes and buffers whole, aligned blocks; the knee is %s", knee.FormatSize(k))
	return []Apply{{Runtime: RuntimeGPFS, Setting: "block size", Value: bytesValue(fs.BlockSize), Note: note}}
}

// UnknownRuntimeError: a runtime name HowToApply does not know.
type UnknownRuntimeError struct {
	Name  string
	Valid []string
}

func (e *UnknownRuntimeError) Error() string {
	return fmt.Sprintf("unknown runtime %q (valid: %s)", e.Name, strings.Join(e.Valid, ", "))
}

// FilterApply keeps the settings of the runtimes named (for --for;
// aliases such as gfortran or ifort are accepted). No names keep all.
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
		return "", &UnknownRuntimeError{Name: name, Valid: ApplyRuntimes()}
	}
	return n, nil
}
