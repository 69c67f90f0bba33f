package advice_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/fsinfo"
)

// row is an Apply without its words: what the tables compare.
type row struct {
	Runtime, Setting, Value string
	Measured                bool
}

func rows(as []advice.Apply) []row {
	var out []row
	for _, a := range as {
		out = append(out, row{a.Runtime, a.Setting, a.Value, a.Measured})
	}
	return out
}

// common are the rows every file system gets for a buffer whose
// ROMIO, OMPIO, HDF5 and PnetCDF values are given.
func common(intel, stdio, hints, cray, ompio, align string) []row {
	return []row{
		{"intel-fortran", "FORT_BUFFERED", "true", false},
		{"intel-fortran", "FORT_BLOCKSIZE", intel, false},
		{"intel-fortran", "FORT_BUFFERCOUNT", "1", false},
		{"stdio", "setvbuf", "static char b[" + stdio + "]; setvbuf(f, b, _IOFBF, sizeof b);", false},
		{"romio", "ROMIO_HINTS", hints, false},
		{"romio", "MPICH_MPIIO_HINTS", cray, false},
		{"ompio", "OMPI_MCA_io_ompio_bytes_per_agg", ompio, false},
		{"hdf5", "H5Pset_alignment", "H5Pset_alignment(fapl, " + align + ", " + align + ");", false},
		{"pnetcdf", "PNETCDF_HINTS", "nc_var_align_size=" + align, false},
	}
}

func gfortranRows(unformatted, small, formatted string) []row {
	out := []row{{"libgfortran", "GFORTRAN_UNFORMATTED_BUFFER_SIZE", unformatted, false}}
	if small != "" {
		out = append(out, row{"libgfortran", "GFORTRAN_UNFORMATTED_BUFFER_SIZE", small, false})
	}
	return append(out, row{"libgfortran", "GFORTRAN_FORMATTED_BUFFER_SIZE", formatted, false})
}

func concat(parts ...[]row) []row {
	var out []row
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// TestHowToApplyRows: every row's value, per file system, from the knee
// and the file system's facts.
func TestHowToApplyRows(t *testing.T) {
	ext4 := fsinfo.Info{Type: "ext4", BlockSize: 4096}
	tmpfs := fsinfo.Info{Type: "tmpfs", BlockSize: 4096}
	gpfs := fsinfo.Info{Type: "gpfs", BlockSize: 16 * mib}
	lustre := fsinfo.Info{Type: "lustre", BlockSize: 4096}
	tests := []struct {
		name  string
		facts advice.ApplyFacts
		want  []row
	}{
		{"ext4, 1 MiB knee", advice.ApplyFacts{Knee: mib, FS: ext4, DefaultVerdict: advice.VerdictExport},
			concat(gfortranRows("1048576", "2097152", "1048576"),
				common("1048576", "1048576", "cb_buffer_size 16777216\nind_wr_buffer_size 1048576",
					"*:cb_buffer_size=16777216:ind_wr_buffer_size=1048576", "33554432", "1048576"))},
		{"ext4, 32 KiB knee: no default lowered", advice.ApplyFacts{Knee: 32 * kib, FS: ext4, DefaultVerdict: advice.VerdictEnough},
			concat(gfortranRows("131072", "", "32768"),
				common("131072", "32768", "cb_buffer_size 16777216\nind_wr_buffer_size 524288",
					"*:cb_buffer_size=16777216:ind_wr_buffer_size=524288", "33554432", "32768"))},
		{"ext4, 1 MiB knee, the default's gain undecided: kept", advice.ApplyFacts{Knee: mib, FS: ext4, DefaultVerdict: advice.VerdictUndecided},
			concat(gfortranRows("131072", "2097152", "1048576"),
				common("1048576", "1048576", "cb_buffer_size 16777216\nind_wr_buffer_size 1048576",
					"*:cb_buffer_size=16777216:ind_wr_buffer_size=1048576", "33554432", "1048576"))},
		{"tmpfs, 256 KiB knee", advice.ApplyFacts{Knee: 256 * kib, FS: tmpfs, DefaultVerdict: advice.VerdictExport},
			concat(gfortranRows("262144", "524288", "262144"),
				common("262144", "262144", "cb_buffer_size 16777216\nind_wr_buffer_size 524288",
					"*:cb_buffer_size=16777216:ind_wr_buffer_size=524288", "33554432", "262144"))},
		{"gpfs, 1 MiB knee on 16 MiB blocks", advice.ApplyFacts{Knee: mib, FS: gpfs, DefaultVerdict: advice.VerdictExport},
			concat(gfortranRows("1048576", "2097152", "1048576"),
				common("1048576", "1048576", "cb_buffer_size 16777216\nind_wr_buffer_size 16777216",
					"*:cb_buffer_size=16777216:ind_wr_buffer_size=16777216", "33554432", "16777216"),
				[]row{{"gpfs", "block size", "16777216", false}})},
		{"lustre, stripe unknown: at least Lustre's 1 MiB default", advice.ApplyFacts{Knee: 256 * kib, FS: lustre, DefaultVerdict: advice.VerdictExport},
			concat(gfortranRows("262144", "524288", "262144"),
				common("262144", "262144", "striping_unit 1048576\ncb_buffer_size 16777216\nind_wr_buffer_size 1048576",
					"*:striping_unit=1048576:cb_buffer_size=16777216:ind_wr_buffer_size=1048576", "33554432", "1048576"),
				[]row{{"lustre", "lfs setstripe -S", "1048576", false}})},
		{"lustre, 1 MiB stripe below a 4 MiB knee", advice.ApplyFacts{Knee: 4 * mib, FS: lustre, StripeSize: mib, DefaultVerdict: advice.VerdictExport},
			concat(gfortranRows("4194304", "8388608", "4194304"),
				common("4194304", "4194304", "striping_unit 4194304\ncb_buffer_size 16777216\nind_wr_buffer_size 4194304",
					"*:striping_unit=4194304:cb_buffer_size=16777216:ind_wr_buffer_size=4194304", "33554432", "4194304"),
				[]row{{"lustre", "lfs setstripe -S", "4194304", false}})},
		{"lustre, 4 MiB stripe above a 1 MiB knee: kept", advice.ApplyFacts{Knee: mib, FS: lustre, StripeSize: 4 * mib, DefaultVerdict: advice.VerdictExport},
			concat(gfortranRows("1048576", "2097152", "1048576"),
				common("1048576", "1048576", "striping_unit 4194304\ncb_buffer_size 16777216\nind_wr_buffer_size 4194304",
					"*:striping_unit=4194304:cb_buffer_size=16777216:ind_wr_buffer_size=4194304", "33554432", "4194304"),
				[]row{{"lustre", "lfs setstripe -S", "4194304", false}})},
		{"lustre, 100 KiB buffer rounds to 128 KiB stripes", advice.ApplyFacts{Knee: 100 * kib, FS: lustre, StripeSize: 64 * kib},
			concat(gfortranRows("131072", "204800", "102400"),
				common("131072", "102400", "striping_unit 131072\ncb_buffer_size 16777216\nind_wr_buffer_size 524288",
					"*:striping_unit=131072:cb_buffer_size=16777216:ind_wr_buffer_size=524288", "33554432", "131072"),
				[]row{{"lustre", "lfs setstripe -S", "131072", false}})},
		{"Intel rounds to 512, a big knee raises ompio", advice.ApplyFacts{Knee: 64*mib + 1000, FS: ext4},
			concat(gfortranRows("67109864", "134219728", "67109864"),
				common("67109888", "67109864", "cb_buffer_size 67109864\nind_wr_buffer_size 67109864",
					"*:cb_buffer_size=67109864:ind_wr_buffer_size=67109864", "67109864", "67109864"))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, rows(advice.HowToApply(tt.facts))); diff != "" {
				t.Errorf("HowToApply rows (-want +got):\n%s", diff)
			}
		})
	}
}

// TestHowToApplyMeasured: only a runtime measured through itself says
// measured, at its recommended buffer; every other note says what was
// inferred and how to check it.
func TestHowToApplyMeasured(t *testing.T) {
	as := advice.HowToApply(advice.ApplyFacts{Knee: mib, FS: fsinfo.Info{Type: "ext4"}, Measured: map[string][]int64{"libgfortran": {mib}}, DefaultVerdict: advice.VerdictExport})
	var measured []row
	for _, a := range as {
		if a.Measured {
			measured = append(measured, row{a.Runtime, a.Setting, a.Value, true})
			if !strings.Contains(a.Note, "Measured through libgfortran itself") {
				t.Errorf("measured note = %q", a.Note)
			}
			continue
		}
		if !strings.Contains(a.Note, "Not measured through") {
			t.Errorf("%s %s: note does not say it was not measured: %q", a.Runtime, a.Setting, a.Note)
		}
	}
	if diff := cmp.Diff([]row{{"libgfortran", "GFORTRAN_UNFORMATTED_BUFFER_SIZE", "1048576", true}}, measured); diff != "" {
		t.Errorf("measured rows (-want +got):\n%s", diff)
	}
	for _, a := range advice.HowToApply(advice.ApplyFacts{Knee: mib, DefaultVerdict: advice.VerdictExport}) {
		switch a.Runtime {
		case "libgfortran":
			for _, w := range []string{"write(2) calls of 128 KiB", "significantly slower", "check it with `iobench runtime gfortran`"} {
				if !strings.Contains(a.Note, w) {
					t.Errorf("%s note lacks %q: %q", a.Setting, w, a.Note)
				}
			}
		case "stdio":
			if !strings.Contains(a.Note, "check it with `iobench runtime stdio`") {
				t.Errorf("stdio note = %q", a.Note)
			}
		}
	}
}

func TestHowToApplyNotes(t *testing.T) {
	// A buffer at least twice the knee needs no second libgfortran row.
	as := advice.HowToApply(advice.ApplyFacts{Knee: 64 * kib, Buffer: 16 * mib})
	var unf []advice.Apply
	for _, a := range as {
		if a.Setting == "GFORTRAN_UNFORMATTED_BUFFER_SIZE" {
			unf = append(unf, a)
		}
	}
	if len(unf) != 1 {
		t.Fatalf("%d GFORTRAN_UNFORMATTED_BUFFER_SIZE rows, want 1", len(unf))
	}
	if !strings.Contains(unf[0].Note, "100 open units take 1600 MiB") || !strings.Contains(unf[0].Note, "Also enough for small records") ||
		!strings.Contains(unf[0].Comment, "16 MiB per open unit") {
		t.Errorf("note lacks the memory or small-record words: %q (%q)", unf[0].Note, unf[0].Comment)
	}
	lustre := advice.HowToApply(advice.ApplyFacts{Knee: mib, FS: fsinfo.Info{Type: "lustre"}, StripeSize: 4 * mib})
	if a := lustre[len(lustre)-1]; !strings.Contains(a.Note, "The stripe size now is 4 MiB, already above the buffer: no change is needed") {
		t.Errorf("Lustre note = %q", a.Note)
	}
	if as := advice.HowToApply(advice.ApplyFacts{}); as != nil {
		t.Errorf("no knee: %d settings, want none", len(as))
	}
}

func TestFilterApply(t *testing.T) {
	all := advice.HowToApply(advice.ApplyFacts{Knee: mib, FS: fsinfo.Info{Type: "lustre"}})
	tests := []struct {
		list string
		want []string // runtimes kept, in order
	}{
		{"", []string{"libgfortran", "intel-fortran", "stdio", "romio", "ompio", "hdf5", "pnetcdf", "lustre"}},
		{"hdf5,gfortran", []string{"libgfortran", "hdf5"}},
		{" IFORT ", []string{"intel-fortran"}},
		{"lustre,mpich", []string{"romio", "lustre"}},
		{"gpfs", nil}, // valid, but not this file system
	}
	for _, tt := range tests {
		names, err := advice.ParseRuntimes(tt.list)
		if err != nil {
			t.Fatalf("ParseRuntimes(%q): %v", tt.list, err)
		}
		got, err := advice.FilterApply(all, names)
		if err != nil {
			t.Fatalf("FilterApply(%q): %v", names, err)
		}
		var rts []string
		for _, a := range got {
			if len(rts) == 0 || rts[len(rts)-1] != a.Runtime {
				rts = append(rts, a.Runtime)
			}
		}
		if diff := cmp.Diff(tt.want, rts); diff != "" {
			t.Errorf("FilterApply(%q) runtimes (-want +got):\n%s", tt.list, diff)
		}
	}
	for _, bad := range []string{"hdf5, netcdf", "netcdf"} {
		_, err := advice.ParseRuntimes(bad)
		var ue *advice.UnknownRuntimeError
		if !errors.As(err, &ue) || ue.Name != "netcdf" ||
			err.Error() != `unknown runtime "netcdf" (valid: libgfortran, intel-fortran, stdio, romio, ompio, hdf5, pnetcdf, lustre, gpfs)` {
			t.Errorf("ParseRuntimes(%q) error = %v", bad, err)
		}
	}
	for _, bad := range []string{"hdf5,", ",", "lustre,lustre", "gfortran,libgfortran"} {
		if _, err := advice.ParseRuntimes(bad); err == nil {
			t.Errorf("ParseRuntimes(%q): no error for an empty or repeated name", bad)
		}
	}
	if _, err := advice.FilterApply(all, []string{"netcdf"}); err == nil {
		t.Error("FilterApply(netcdf): no error")
	}
}

// TestDefaultEnoughNamesWhatItReaches: with the safe size recommended
// (the knee not established), a default that is big enough reaches the
// recommended size, not "the knee", which is smaller.
func TestDefaultEnoughNamesWhatItReaches(t *testing.T) {
	for _, tt := range []struct {
		knee, buffer int64
		want         string
	}{{64 * kib, 64 * kib, "reaches the knee"}, {16 * kib, 64 * kib, "reaches the recommended size"}} {
		found := false
		for _, a := range advice.HowToApply(advice.ApplyFacts{Knee: tt.knee, Buffer: tt.buffer, FS: fsinfo.Info{Type: "ext4"}}) {
			found = found || strings.Contains(a.Comment, tt.want) && a.Setting == "GFORTRAN_UNFORMATTED_BUFFER_SIZE"
		}
		if !found {
			t.Errorf("knee %d, buffer %d: no GFORTRAN_UNFORMATTED_BUFFER_SIZE row whose comment says %q", tt.knee, tt.buffer, tt.want)
		}
	}
}
