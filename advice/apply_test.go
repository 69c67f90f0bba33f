package advice_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/fsinfo"
)

// TestHowToApplyExt4 is the whole block for a 1 MiB knee on ext4, with
// libgfortran measured through the runtime.
func TestHowToApplyExt4(t *testing.T) {
	got := advice.HowToApply(advice.ApplyFacts{Knee: mib, Buffer: mib, FS: fsinfo.Info{Type: "ext4", BlockSize: 4096}, Measured: []string{"libgfortran"}})
	want := []advice.Apply{
		{Runtime: "libgfortran", Setting: "GFORTRAN_UNFORMATTED_BUFFER_SIZE", Value: "1048576", Measured: true,
			Note: "plain decimal bytes (libgfortran ignores a value with a suffix such as 1M); with -fconvert=big-endian or GFORTRAN_CONVERT_UNIT every write(2) is exactly this size; a native array write larger than half the buffer bypasses it"},
		{Runtime: "libgfortran", Setting: "GFORTRAN_UNFORMATTED_BUFFER_SIZE", Value: "2097152",
			Note: "for many records smaller than the knee: libgfortran writes its buffer out when the next record does not fit, in calls between half the buffer and all of it, so twice the knee (1 MiB) keeps every call at or above it"},
		{Runtime: "libgfortran", Setting: "GFORTRAN_FORMATTED_BUFFER_SIZE", Value: "1048576",
			Note: "formatted (text) files; default 8192 bytes. Converting numbers to text often costs more than small writes do, so expect a smaller gain"},
		{Runtime: "intel-fortran", Setting: "FORT_BUFFERED", Value: "true", Note: "buffer unformatted output; unbuffered, each WRITE statement goes to the file system by itself"},
		{Runtime: "intel-fortran", Setting: "FORT_BLOCKSIZE", Value: "1048576", Note: "the buffer block, bytes, a multiple of 512 (the runtime rounds up to one)"},
		{Runtime: "intel-fortran", Setting: "FORT_BUFFERCOUNT", Value: "1", Note: "blocks per unit: a unit buffers FORT_BLOCKSIZE x FORT_BUFFERCOUNT bytes before it writes; 1 keeps each write at the block size"},
		{Runtime: "stdio", Setting: "setvbuf", Value: "setvbuf(f, NULL, _IOFBF, 1048576);",
			Note: "after fopen, before the first I/O on f; glibc's default buffer is st_blksize, at most 8192 bytes (BUFSIZ). glibc fills the buffer before each write(2), and an fwrite larger than the free space goes out in whole buffers"},
		{Runtime: "romio", Setting: "ROMIO_HINTS", Value: "cb_buffer_size 16777216\nind_wr_buffer_size 1048576",
			Note: "write these lines to a file and export ROMIO_HINTS=<that file> (MPICH, Intel MPI, Open MPI's romio). cb_buffer_size is each aggregator's collective buffer (default 16 MiB), ind_wr_buffer_size the buffer of independent noncontiguous writes (default 512 KiB); a default already at or above the knee is kept"},
		{Runtime: "romio", Setting: "MPICH_MPIIO_HINTS", Value: "*:cb_buffer_size=16777216:ind_wr_buffer_size=1048576", Note: "HPE Cray MPICH: the same hints for every file (*)"},
		{Runtime: "ompio", Setting: "OMPI_MCA_io_ompio_bytes_per_agg", Value: "33554432",
			Note: "each aggregator's collective buffer in Open MPI's ompio (default 32 MiB): the default already reaches the knee, no change is needed"},
		{Runtime: "hdf5", Setting: "H5Pset_alignment", Value: "H5Pset_alignment(fapl, 1048576, 1048576);",
			Note: "on the file access property list, before H5Fcreate: objects of at least that size start on that boundary, so their writes do not straddle blocks or stripes; smaller ones stay packed"},
		{Runtime: "pnetcdf", Setting: "PNETCDF_HINTS", Value: "nc_var_align_size=1048576", Note: "aligns the start of the variables' data to that boundary; or pass it as an MPI_Info hint"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("HowToApply (-want +got):\n%s", diff)
	}
}

// pick is the value of one runtime's setting; "" when absent. With two
// rows of one setting it is the first.
func pick(as []advice.Apply, rt, setting string) (advice.Apply, bool) {
	for _, a := range as {
		if a.Runtime == rt && a.Setting == setting {
			return a, true
		}
	}
	return advice.Apply{}, false
}

// TestHowToApplyValues: values derived from the knee and the file
// system's facts, one case per rule.
func TestHowToApplyValues(t *testing.T) {
	lustre := fsinfo.Info{Type: "lustre", BlockSize: 4096}
	gpfs := fsinfo.Info{Type: "gpfs", BlockSize: 16 * mib}
	tests := []struct {
		name    string
		facts   advice.ApplyFacts
		rt      string
		setting string
		want    string // value; "-" when the setting must be absent
	}{
		{"Intel rounds to 512", advice.ApplyFacts{Knee: 1000}, "intel-fortran", "FORT_BLOCKSIZE", "1024"},
		{"Lustre stripe a multiple of 64 KiB", advice.ApplyFacts{Knee: 100 * kib, FS: lustre}, "lustre", "lfs setstripe -S", "131072"},
		{"Lustre stripe aligns HDF5", advice.ApplyFacts{Knee: 100 * kib, FS: lustre}, "hdf5", "H5Pset_alignment", "H5Pset_alignment(fapl, 131072, 131072);"},
		{"Lustre stripe known and larger", advice.ApplyFacts{Knee: mib, FS: lustre, StripeSize: 4 * mib}, "pnetcdf", "PNETCDF_HINTS", "nc_var_align_size=4194304"},
		{"ROMIO striping unit on Lustre", advice.ApplyFacts{Knee: mib, FS: lustre, StripeSize: 4 * mib}, "romio", "MPICH_MPIIO_HINTS", "*:striping_unit=4194304:cb_buffer_size=16777216:ind_wr_buffer_size=4194304"},
		{"GPFS block aligns", advice.ApplyFacts{Knee: mib, FS: gpfs}, "hdf5", "H5Pset_alignment", "H5Pset_alignment(fapl, 16777216, 16777216);"},
		{"GPFS block size", advice.ApplyFacts{Knee: mib, FS: gpfs}, "gpfs", "block size", "16777216"},
		{"no Lustre row elsewhere", advice.ApplyFacts{Knee: mib, FS: gpfs}, "lustre", "lfs setstripe -S", "-"},
		{"no GPFS row elsewhere", advice.ApplyFacts{Knee: mib, FS: lustre}, "gpfs", "block size", "-"},
		{"big knee raises ompio", advice.ApplyFacts{Knee: 64 * mib}, "ompio", "OMPI_MCA_io_ompio_bytes_per_agg", "67108864"},
		{"buffer from the knee when none given", advice.ApplyFacts{Knee: 256 * kib}, "stdio", "setvbuf", "setvbuf(f, NULL, _IOFBF, 262144);"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, ok := pick(advice.HowToApply(tt.facts), tt.rt, tt.setting)
			switch {
			case tt.want == "-" && ok:
				t.Errorf("%s %s present: %+v", tt.rt, tt.setting, a)
			case tt.want != "-" && a.Value != tt.want:
				t.Errorf("%s %s = %q, want %q", tt.rt, tt.setting, a.Value, tt.want)
			}
		})
	}
}

func TestHowToApplyNotes(t *testing.T) {
	// A buffer at least twice the knee needs no second libgfortran row.
	as := advice.HowToApply(advice.ApplyFacts{Knee: 64 * kib, Buffer: 16 * mib})
	if n := strings.Count(fmtSettings(as), "GFORTRAN_UNFORMATTED_BUFFER_SIZE"); n != 1 {
		t.Errorf("%d GFORTRAN_UNFORMATTED_BUFFER_SIZE rows, want 1", n)
	}
	first, _ := pick(as, "libgfortran", "GFORTRAN_UNFORMATTED_BUFFER_SIZE")
	if !strings.Contains(first.Note, "100 open units take 1600 MiB") || !strings.Contains(first.Note, "also enough for small records") {
		t.Errorf("note lacks the memory or small-record words: %q", first.Note)
	}
	// Only libgfortran and stdio can be measured through the runtime.
	for _, a := range advice.HowToApply(advice.ApplyFacts{Knee: mib, Measured: []string{"stdio"}}) {
		if a.Measured != (a.Runtime == "stdio") {
			t.Errorf("%s %s: measured = %v", a.Runtime, a.Setting, a.Measured)
		}
	}
	lustre := advice.HowToApply(advice.ApplyFacts{Knee: mib, FS: fsinfo.Info{Type: "lustre"}, StripeSize: 4 * mib})
	if a, _ := pick(lustre, "lustre", "lfs setstripe -S"); !strings.Contains(a.Note, "the stripe size now is 4 MiB, already at or above it") {
		t.Errorf("Lustre note = %q", a.Note)
	}
	if as := advice.HowToApply(advice.ApplyFacts{}); as != nil {
		t.Errorf("no knee: %d settings, want none", len(as))
	}
}

func fmtSettings(as []advice.Apply) string {
	var b strings.Builder
	for _, a := range as {
		b.WriteString(a.Setting + "\n")
	}
	return b.String()
}

func TestFilterApply(t *testing.T) {
	all := advice.HowToApply(advice.ApplyFacts{Knee: mib, FS: fsinfo.Info{Type: "lustre"}})
	tests := []struct {
		names []string
		want  []string // runtimes kept, in order
	}{
		{nil, []string{"libgfortran", "intel-fortran", "stdio", "romio", "ompio", "hdf5", "pnetcdf", "lustre"}},
		{[]string{"hdf5", "gfortran"}, []string{"libgfortran", "hdf5"}},
		{[]string{" IFORT "}, []string{"intel-fortran"}},
		{[]string{"gpfs"}, nil}, // valid, but not this file system
	}
	for _, tt := range tests {
		got, err := advice.FilterApply(all, tt.names)
		if err != nil {
			t.Fatalf("FilterApply(%q): %v", tt.names, err)
		}
		var rts []string
		for _, a := range got {
			if len(rts) == 0 || rts[len(rts)-1] != a.Runtime {
				rts = append(rts, a.Runtime)
			}
		}
		if diff := cmp.Diff(tt.want, rts); diff != "" {
			t.Errorf("FilterApply(%q) runtimes (-want +got):\n%s", tt.names, diff)
		}
	}
	_, err := advice.FilterApply(all, []string{"hdf5", "netcdf"})
	var ue *advice.UnknownRuntimeError
	if !errors.As(err, &ue) || ue.Name != "netcdf" ||
		err.Error() != `unknown runtime "netcdf" (valid: libgfortran, intel-fortran, stdio, romio, ompio, hdf5, pnetcdf, lustre, gpfs)` {
		t.Errorf("FilterApply(netcdf) error = %v", err)
	}
}
