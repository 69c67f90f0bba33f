package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/binary"
	"github.com/iobench/iobench/report"
)

// appWith is an app report of a program linking kinds, whose advice has
// the apply rows.
func appWith(kinds []binary.Kind, rows ...advice.Apply) *report.AppReport {
	p := &report.AppProgram{}
	for _, k := range kinds {
		p.Libraries = append(p.Libraries, report.AppLibrary{Kind: string(k)})
	}
	return &report.AppReport{Program: p, Estimate: &report.AppEstimate{Apply: rows}}
}

// ompi is an Open MPI program of release version (none: ""), whose
// calls showed bs.
func ompi(version string, bs []advice.Behaviour, rows ...advice.Apply) *report.AppReport {
	rep := appWith([]binary.Kind{binary.OpenMPI}, rows...)
	rep.Program.Libraries[0].Version = version
	rep.Program.Behaviours = bs
	return rep
}

// fortran is a libgfortran program whose calls showed bs.
func fortran(bs []advice.Behaviour, rows ...advice.Apply) *report.AppReport {
	rep := appWith([]binary.Kind{binary.Gfortran}, rows...)
	rep.Program.Behaviours = bs
	return rep
}

func names(cs []candidate) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.name)
	}
	return out
}

func TestCandidatesOfEachRuntime(t *testing.T) {
	t.Setenv("GFORTRAN_UNFORMATTED_BUFFER_SIZE", "")
	t.Setenv("GFORTRAN_FORMATTED_BUFFER_SIZE", "")
	t.Setenv("OMPI_MCA_fcoll", "")
	unformatted := advice.Behaviour{Runtime: advice.RuntimeLibgfortran, Knob: advice.KnobUnformatted, Access: advice.AccessSequential, Call: 65592}
	formatted := advice.Behaviour{Runtime: advice.RuntimeLibgfortran, Knob: advice.KnobFormatted, Access: advice.AccessSequential, Call: 4134}
	hints := "cb_buffer_size 16777216\nind_wr_buffer_size 1048576"
	tests := []struct {
		name  string
		rep   *report.AppReport
		sets  []string
		want  []string
		env   map[string]string // a candidate's name -> an entry of its environment
		never []string
	}{
		{name: "libgfortran, unformatted calls: the advice and its double, not the default in effect",
			rep:  fortran([]advice.Behaviour{unformatted}, advice.Apply{Setting: advice.KnobUnformatted, Value: "262144"}),
			want: []string{"GFORTRAN_UNFORMATTED_BUFFER_SIZE=262144", "GFORTRAN_UNFORMATTED_BUFFER_SIZE=524288"}},
		{name: "libgfortran, formatted calls: the formatted buffer alone",
			rep:  fortran([]advice.Behaviour{formatted}, advice.Apply{Setting: advice.KnobFormatted, Value: "65536"}),
			want: []string{"GFORTRAN_FORMATTED_BUFFER_SIZE=32768", "GFORTRAN_FORMATTED_BUFFER_SIZE=65536", "GFORTRAN_FORMATTED_BUFFER_SIZE=131072"}},
		{name: "libgfortran, calls not recognised: both buffers",
			rep: fortran(nil, advice.Apply{Setting: advice.KnobUnformatted, Value: "262144"}),
			want: []string{"GFORTRAN_UNFORMATTED_BUFFER_SIZE=262144", "GFORTRAN_UNFORMATTED_BUFFER_SIZE=524288",
				"GFORTRAN_FORMATTED_BUFFER_SIZE=32768", "GFORTRAN_FORMATTED_BUFFER_SIZE=65536", "GFORTRAN_FORMATTED_BUFFER_SIZE=131072"}},
		{name: "Intel Fortran: buffered, the advised block, one buffer",
			rep:  appWith([]binary.Kind{binary.IntelFortran}, advice.Apply{Setting: "FORT_BLOCKSIZE", Value: "1048576"}),
			want: []string{"FORT_BUFFERED=true FORT_BLOCKSIZE=1048576 FORT_BUFFERCOUNT=1"},
			env:  map[string]string{"FORT_BUFFERED=true FORT_BLOCKSIZE=1048576 FORT_BUFFERCOUNT=1": "FORT_BLOCKSIZE=1048576"}},
		{name: "Open MPI 4.1: the hints file and both components",
			rep:  ompi("4.1.4", nil, advice.Apply{Setting: "ROMIO_HINTS", Value: hints}),
			want: []string{"ROMIO hints: cb_buffer_size 16777216; ind_wr_buffer_size 1048576", "OMPI_MCA_io=romio321", "OMPI_MCA_io=ompio"}},
		{name: "Open MPI 5.0: its ROMIO is romio341",
			rep:  ompi("5.0.3", nil),
			want: []string{"OMPI_MCA_io=romio341", "OMPI_MCA_io=ompio"}},
		{name: "Open MPI of no known release: any component but OMPIO",
			rep:  ompi("", nil),
			want: []string{"OMPI_MCA_io=^ompio", "OMPI_MCA_io=ompio"}},
		{name: "MPICH: the hints file, no Open MPI component",
			rep:   appWith([]binary.Kind{binary.MPICH}, advice.Apply{Setting: "ROMIO_HINTS", Value: hints}),
			want:  []string{"ROMIO hints: cb_buffer_size 16777216; ind_wr_buffer_size 1048576"},
			never: []string{"OMPI_MCA_io=ompio"}},
		{name: "OMPIO's aggregator buffer when the advice changes it",
			rep:  ompi("4.1.4", nil, advice.Apply{Setting: advice.SettingBytesPerAgg, Value: "67108864"}),
			want: []string{advice.SettingBytesPerAgg + "=67108864", "OMPI_MCA_io=romio321", "OMPI_MCA_io=ompio"}},
		{name: "OMPIO's collective writes: its other collective components",
			rep:  ompi("4.1.4", []advice.Behaviour{{Runtime: advice.RuntimeOMPIO, Access: advice.AccessCollective, Call: 32 << 20}}),
			want: []string{"OMPI_MCA_io=romio321", "OMPI_MCA_io=ompio", "OMPI_MCA_fcoll=dynamic_gen2", "OMPI_MCA_fcoll=two_phase"}},
		{name: "OMPIO passing the program's calls through: no collective component matters",
			rep:   ompi("4.1.4", []advice.Behaviour{{Runtime: advice.RuntimeOMPIO, Access: advice.AccessIndependent, Call: 4096}}),
			want:  []string{"OMPI_MCA_io=romio321", "OMPI_MCA_io=ompio"},
			never: []string{"OMPI_MCA_fcoll=two_phase"}},
		{name: "--set after the runtimes'", rep: appWith(nil), sets: []string{"MY_BUF=1"}, want: []string{"MY_BUF=1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs, _ := candidates(tt.rep, tt.sets, nil, "no compiler", t.TempDir())
			got := names(cs)
			if !slices.Equal(got, tt.want) {
				t.Fatalf("candidates %q, want %q", got, tt.want)
			}
			for name, entry := range tt.env {
				i := slices.Index(got, name)
				if !slices.Contains(cs[i].env, entry) {
					t.Errorf("%s: environment %q lacks %q", name, cs[i].env, entry)
				}
			}
			for _, n := range tt.never {
				if slices.Contains(got, n) {
					t.Errorf("%q tried", n)
				}
			}
		})
	}
}

// The hints candidate points ROMIO_HINTS at a file holding app's lines.
func TestHintsCandidateWritesTheFile(t *testing.T) {
	scratch := t.TempDir()
	cs, _ := candidates(appWith([]binary.Kind{binary.MPICH}, advice.Apply{Setting: "ROMIO_HINTS", Value: "cb_buffer_size 33554432"}), nil, nil, "", scratch)
	if len(cs) != 1 || len(cs[0].env) != 1 || !strings.HasPrefix(cs[0].env[0], "ROMIO_HINTS=") {
		t.Fatalf("candidates %+v: want one ROMIO_HINTS candidate", cs)
	}
	raw, err := os.ReadFile(strings.TrimPrefix(cs[0].env[0], "ROMIO_HINTS="))
	if err != nil || string(raw) != "cb_buffer_size 33554432\n" {
		t.Errorf("hints file %q (%v), want app's line", raw, err)
	}
}

func TestCannotSayWhatNoSettingReaches(t *testing.T) {
	rep := appWith([]binary.Kind{binary.OpenMPI, binary.HDF5})
	rep.Program.Behaviours = []advice.Behaviour{{Path: "/d/out.h5", Runtime: advice.RuntimeOMPIO, Access: advice.AccessIndependent, Call: 4096}}
	_, cannot := candidates(rep, nil, nil, "", t.TempDir())
	all := strings.Join(cannot, "\n")
	for _, want := range []string{"H5Pset_alignment", "/d/out.h5: the program's own 4096-byte calls pass through"} {
		if !strings.Contains(all, want) {
			t.Errorf("cannot %q: want %q", cannot, want)
		}
	}
	stdio := appWith(nil)
	stdio.Program.Behaviours = []advice.Behaviour{{Runtime: advice.RuntimeStdio, Buffer: 4096}}
	if _, cannot := candidates(stdio, nil, nil, "cc not found", t.TempDir()); !slices.Contains(cannot, "C stdio: cc not found") {
		t.Errorf("cannot %q: want the shim's reason", cannot)
	}
}

// The collective components tried are those installed beside libmpi.
func TestFcollFromTheInstallation(t *testing.T) {
	t.Setenv("OMPI_MCA_fcoll", "")
	dir := t.TempDir()
	for _, f := range []string{"libmpi.so.40.30.4", "openmpi/mca_fcoll_two_phase.so", "openmpi/mca_fcoll_vulcan.so", "openmpi/mca_fcoll_individual.so"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep := ompi("4.1.4", []advice.Behaviour{{Runtime: advice.RuntimeOMPIO, Access: advice.AccessCollective}})
	rep.Program.Libraries[0].Lib = filepath.Join(dir, "libmpi.so.40.30.4")
	cs, _ := candidates(rep, nil, nil, "", t.TempDir())
	got := slices.DeleteFunc(names(cs), func(n string) bool { return !strings.HasPrefix(n, "OMPI_MCA_fcoll=") })
	if !slices.Equal(got, []string{"OMPI_MCA_fcoll=two_phase"}) {
		t.Errorf("fcoll candidates %q, want two_phase alone: vulcan is in effect, dynamic_gen2 not installed", got)
	}
}

// Without an untraced run (a long program, one that appends), app's
// estimate is still given, over the traced run's time and said so, for
// finish to hold against the timed baseline.
func TestEstimateWithoutAnUntracedRun(t *testing.T) {
	app := &report.AppReport{Estimate: &report.AppEstimate{SavingSeconds: 0.5},
		Program: &report.AppProgram{TracedSeconds: 2, UntracedWhy: "the program appends to log.txt", Curve: &report.AppProgramCurve{Source: "quick sweep", Comparable: true}}}
	e := estimateFor(app, candidate{advised: true})
	if e == nil || e.Ratio != 0.75 || e.SavingSeconds != 0.5 || !strings.Contains(e.Basis, "traced run's 2 s") || !strings.Contains(e.Basis, "appends to log.txt") {
		t.Errorf("estimate %+v, want x0.75 over the traced run's 2 s, saying why", e)
	}
	if e := estimateFor(app, candidate{}); e != nil {
		t.Errorf("a neighbour got app's estimate %+v", e)
	}
}
