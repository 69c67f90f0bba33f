package cli

import (
	"os"
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

func names(cs []candidate) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.name)
	}
	return out
}

func TestCandidatesOfEachRuntime(t *testing.T) {
	t.Setenv("GFORTRAN_UNFORMATTED_BUFFER_SIZE", "")
	hints := "cb_buffer_size 16777216\nind_wr_buffer_size 1048576"
	tests := []struct {
		name  string
		rep   *report.AppReport
		sets  []string
		want  []string
		env   map[string]string // a candidate's name -> an entry of its environment
		never []string
	}{
		{name: "libgfortran: the advice and its double, not the default in effect",
			rep:  appWith([]binary.Kind{binary.Gfortran}, advice.Apply{Setting: "GFORTRAN_UNFORMATTED_BUFFER_SIZE", Value: "262144"}),
			want: []string{"GFORTRAN_UNFORMATTED_BUFFER_SIZE=262144", "GFORTRAN_UNFORMATTED_BUFFER_SIZE=524288"}},
		{name: "Intel Fortran: buffered, the advised block, one buffer",
			rep:  appWith([]binary.Kind{binary.IntelFortran}, advice.Apply{Setting: "FORT_BLOCKSIZE", Value: "1048576"}),
			want: []string{"FORT_BUFFERED=true FORT_BLOCKSIZE=1048576 FORT_BUFFERCOUNT=1"},
			env:  map[string]string{"FORT_BUFFERED=true FORT_BLOCKSIZE=1048576 FORT_BUFFERCOUNT=1": "FORT_BLOCKSIZE=1048576"}},
		{name: "Open MPI: the hints file and both components",
			rep:  appWith([]binary.Kind{binary.OpenMPI}, advice.Apply{Setting: "ROMIO_HINTS", Value: hints}),
			want: []string{"ROMIO hints: cb_buffer_size 16777216; ind_wr_buffer_size 1048576", "OMPI_MCA_io=romio321", "OMPI_MCA_io=ompio"}},
		{name: "MPICH: the hints file, no Open MPI component",
			rep:   appWith([]binary.Kind{binary.MPICH}, advice.Apply{Setting: "ROMIO_HINTS", Value: hints}),
			want:  []string{"ROMIO hints: cb_buffer_size 16777216; ind_wr_buffer_size 1048576"},
			never: []string{"OMPI_MCA_io=ompio"}},
		{name: "OMPIO's aggregator buffer when the advice changes it",
			rep:  appWith([]binary.Kind{binary.OpenMPI}, advice.Apply{Setting: advice.SettingBytesPerAgg, Value: "67108864"}),
			want: []string{advice.SettingBytesPerAgg + "=67108864", "OMPI_MCA_io=romio321", "OMPI_MCA_io=ompio"}},
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
