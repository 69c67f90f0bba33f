package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/iobench/iobench/libcheck"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/internal/fixture"
)

// TestLibraryGolden renders every runtime format of the library reports
// against testdata/library-<runtime>-<format>.golden (-update rewrites).
func TestLibraryGolden(t *testing.T) {
	for _, rt := range libcheck.Libraries() {
		rep := fixture.Library(rt)
		for _, f := range Formats(report.CmdRuntime) {
			if f.Library == nil {
				t.Errorf("runtime format %s renders no library report", f.Name)
				continue
			}
			name := libraryGoldenName(rt, f.Name)
			t.Run(name, func(t *testing.T) {
				var b bytes.Buffer
				if err := f.Library(&b, rep); err != nil {
					t.Fatal(err)
				}
				checkGolden(t, name, b.Bytes())
			})
		}
	}
}

func libraryGoldenName(rt libcheck.Runtime, format string) string {
	return "library-" + string(rt) + "-" + format
}

// libraryGoldenNames are the golden files TestLibraryGolden checks.
func libraryGoldenNames() []string {
	var out []string
	for _, rt := range libcheck.Libraries() {
		for _, f := range Formats(report.CmdRuntime) {
			out = append(out, libraryGoldenName(rt, f.Name))
		}
	}
	return out
}

// TestLibraryApplyMeasured: the library's own rows are marked measured
// with their gain where it ran their values; the others say why not.
func TestLibraryApplyMeasured(t *testing.T) {
	rep := fixture.Library(libcheck.MPIIO)
	var romio, hdf5 bool
	for _, a := range rep.Apply {
		switch {
		case a.Runtime == "romio" && a.Setting == "ROMIO_HINTS":
			romio = a.Measured && strings.Contains(a.Note, "Measured through ROMIO") && strings.Contains(a.Note, "other values of cb_buffer_size: x")
		case a.Runtime == "hdf5":
			hdf5 = !a.Measured && strings.Contains(a.Note, "iobench runtime hdf5")
		}
	}
	if !romio || !hdf5 {
		b, _ := json.MarshalIndent(rep.Apply, "", "  ")
		t.Errorf("ROMIO's row measured, with the gains of twice its values: %v; HDF5's row says how to check it: %v\n%s", romio, hdf5, b)
	}
}

// TestLibraryApplyAtItsValue: HDF5's H5Pset_alignment row is measured,
// with its gain, only where the run ran the value it gives; where it
// did not (an interrupted run, or the plan's value another), the row
// stays inferred and names what did run.
func TestLibraryApplyAtItsValue(t *testing.T) {
	align := func(edit func(*libcheck.CaseSummary)) func(*report.LibraryReport) {
		return func(r *report.LibraryReport) {
			for i, c := range r.Summary.Cases {
				if c.Setting == libcheck.SettingAlignment {
					edit(&r.Summary.Cases[i])
				}
			}
		}
	}
	for _, tt := range []struct {
		name     string
		edit     func(*report.LibraryReport)
		measured bool
		words    string // in the note
	}{
		{"ran", nil, true, "Measured through HDF5"},
		{"interrupted", align(func(c *libcheck.CaseSummary) { c.Runs, c.Gain = 0, nil }),
			false, "Not measured through HDF5: inferred from the write(2) sweep, which measured calls of 256 KiB reaching the plateau; through HDF5 itself (iobench runtime) H5Pset_alignment did not run"},
		{"the plan's value another", func(r *report.LibraryReport) {
			align(func(c *libcheck.CaseSummary) { c.BufferBytes = 512 << 10 })(r)
			r.Library.Recommended[libcheck.SettingAlignment] = 512 << 10
		}, false, "through HDF5 itself (iobench runtime) H5Pset_alignment ran at 512 KiB"},
	} {
		rep := fixture.Library(libcheck.HDF5)
		if tt.edit != nil {
			tt.edit(rep)
			rep.SetApply()
		}
		for _, a := range rep.Apply {
			if a.Setting != "H5Pset_alignment" {
				continue
			}
			if a.Measured != tt.measured || (a.Gain != nil) != tt.measured || !strings.Contains(a.Note, tt.words) {
				t.Errorf("%s: measured %v, gain %v, note %q; want measured and a gain %v, a note with %q", tt.name, a.Measured, a.Gain, a.Note, tt.measured, tt.words)
			}
		}
	}
}

// TestLibraryHeaderNamesTheWindowSource: the text report says when the
// ranks wrote from a window, and how much memory it held in the cases
// that ran; the default (each rank's array) adds no line. The strided
// memory is named only where strided cases ran, and a pack cost measured
// from the window says so.
func TestLibraryHeaderNamesTheWindowSource(t *testing.T) {
	contiguous := func(r *report.LibraryReport) {
		var kept []libcheck.CaseSummary
		for _, c := range r.Summary.Cases {
			if c.Memory == libcheck.MemoryContiguous {
				kept = append(kept, c)
			}
		}
		r.Summary.Cases, r.Summary.Pack = kept, nil // no strided case, no pack cost
	}
	for _, tt := range []struct {
		name, source string
		edit         func(*report.LibraryReport)
		want         string
	}{
		{"array", libcheck.SourceArray, nil, ""},
		{"window", libcheck.SourceWindow, nil, "source:     a window of one call's data per rank (1 MiB; 2 MiB in the strided and packed cases), written again by every call"},
		{"window contiguous", libcheck.SourceWindow, contiguous, "source:     a window of one call's data per rank (1 MiB), written again by every call"},
	} {
		rep := fixture.Library(libcheck.MPIIO)
		rep.Library.Source = tt.source
		if tt.edit != nil {
			tt.edit(rep)
		}
		var b bytes.Buffer
		if err := LibraryText(&b, rep); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range strings.Split(b.String(), "\n") {
			if strings.HasPrefix(l, "source:") {
				got = append(got, l)
			}
		}
		if ok := len(got) == 0 && tt.want == "" || len(got) == 1 && tt.want != "" && strings.HasPrefix(got[0], tt.want); !ok {
			t.Errorf("%s: source lines %q, want one starting %q (none if empty)", tt.name, got, tt.want)
		}
		if cached, window := strings.Contains(b.String(), "gathered from the window, hot in the CPU cache"), tt.source == libcheck.SourceWindow && tt.edit == nil; cached != window {
			t.Errorf("%s: the pack cost says it came from the cached window: %v, want %v", tt.name, cached, window)
		}
		if named, ran := strings.Contains(b.String(), "strided memory: every 2nd int32"), tt.edit == nil; named != ran {
			t.Errorf("%s: the data line names the strided memory: %v, strided cases ran: %v", tt.name, named, ran)
		}
	}
}
