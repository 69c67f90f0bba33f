package advice_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/fsinfo"
)

// TestHowToApplyMeasuredLibrary: a library row is measured when every
// setting it gives ran through the library at its value; one that did
// not says what did run. On Lustre the hints set striping_unit too,
// which no library run sets, so they stay inferred.
func TestHowToApplyMeasuredLibrary(t *testing.T) {
	ran := map[string][]int64{advice.SettingCBBuffer: {16 * mib, 32 * mib}, advice.SettingIndWrBuffer: {512 * kib, mib},
		advice.SettingBytesPerAgg: {32 * mib}, advice.SettingAlignment: {2 * mib}}
	for _, tt := range []struct {
		fs   string
		want []string // the library rows measured
	}{
		{"ext4", []string{"ROMIO_HINTS", "MPICH_MPIIO_HINTS", "OMPI_MCA_io_ompio_bytes_per_agg"}},
		{"lustre", []string{"OMPI_MCA_io_ompio_bytes_per_agg"}},
	} {
		var got []string
		for _, a := range advice.HowToApply(advice.ApplyFacts{Knee: mib, FS: fsinfo.Info{Type: tt.fs}, Measured: ran}) {
			if a.Measured {
				got = append(got, a.Setting)
				if !strings.Contains(a.Note, "Measured through "+advice.RuntimeTitle(a.Runtime)+" itself") {
					t.Errorf("%s %s: measured note = %q", tt.fs, a.Setting, a.Note)
				}
			}
			if a.Runtime == advice.RuntimeHDF5 && !strings.Contains(a.Note, "H5Pset_alignment ran at 2 MiB") {
				t.Errorf("%s: HDF5's row does not name the value that ran: %q", tt.fs, a.Note)
			}
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: measured rows (-want +got):\n%s", tt.fs, diff)
		}
	}
}
