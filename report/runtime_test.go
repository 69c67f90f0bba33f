package report_test

import (
	"slices"
	"testing"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/libcheck"
	"github.com/iobench/iobench/report/internal/fixture"
)

// The runtime report's how-to-apply rows: libgfortran's are marked
// measured, as it ran at the recommended 256 KiB; the others are not.
func TestRuntimeReportAppliesWhatItMeasured(t *testing.T) {
	r := fixture.Runtime()
	var gf, others int
	for _, a := range r.Apply {
		switch {
		case a.Runtime == advice.RuntimeLibgfortran && a.Setting == "GFORTRAN_UNFORMATTED_BUFFER_SIZE" && a.Value == "262144":
			if !a.Measured {
				t.Errorf("%+v: want measured", a)
			}
			gf++
		case a.Runtime != advice.RuntimeLibgfortran && a.Measured:
			t.Errorf("%+v: only libgfortran ran", a)
		default:
			others++
		}
	}
	if gf != 1 || others == 0 {
		t.Errorf("apply rows %+v: want libgfortran at 262144 measured, and the other runtimes", r.Apply)
	}
	r.Sweep.KneeBytes = 0
	if r.SetApply(); r.Apply != nil {
		t.Errorf("no knee in the sweep, yet apply rows %+v", r.Apply)
	}
}

// Measurement adds rows for what the rules do not cover, only where the
// gain is real: romio_cb_write=enable (1.3 times as fast in the fixture)
// and H5Pset_buffer (big-endian half as fast as native); not the sieve
// buffer, which gains nothing; none at all from three rounds.
func TestLibraryReportAddsRowsOnlyForRealGains(t *testing.T) {
	for _, tc := range []struct {
		rt     libcheck.Runtime
		rounds int
		want   []string
	}{
		{libcheck.MPIIO, 8, []string{"romio_cb_write"}},
		{libcheck.HDF5, 8, []string{libcheck.SettingTconv}},
		{libcheck.MPIIO, 3, nil},
		{libcheck.HDF5, 3, nil},
	} {
		r := fixture.LibraryRounds(tc.rt, tc.rounds)
		var got []string
		for _, a := range r.Apply {
			if a.Setting != "romio_cb_write" && a.Setting != libcheck.SettingTconv && a.Setting != libcheck.SettingSieve {
				continue
			}
			got = append(got, a.Setting)
			if !a.Measured || a.Gain == nil || !a.Gain.Significant || a.Gain.Ratio < 1.2 {
				t.Errorf("%s, %d rounds: %s row %+v: want measured with a real gain of about 1.3", tc.rt, tc.rounds, a.Setting, a)
			}
			if a.Setting == "romio_cb_write" && a.Value != "enable" {
				t.Errorf("%s: romio_cb_write=%s, want enable", tc.rt, a.Value)
			}
			// The recommended buffer is HDF5's default; the 2 MiB case gained.
			if a.Setting == libcheck.SettingTconv && a.Value != "H5Pset_buffer(dxpl, 2097152, NULL, NULL);" {
				t.Errorf("%s: %s, want the 2 MiB that measured the gain", tc.rt, a.Value)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s, %d rounds: rows added for %q, want %q", tc.rt, tc.rounds, got, tc.want)
		}
	}
}
