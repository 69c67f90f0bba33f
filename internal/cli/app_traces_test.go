package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/workload"
)

// traceBehaviours reads a trace fixture, @EXE@ and @DIR@ replaced, as
// app reads a trace, and what it shows without the program.
func traceBehaviours(t *testing.T, fixture string, subst ...string) ([]workload.Input, []advice.Behaviour) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "traces", fixture))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), fixture)
	if err := os.WriteFile(p, []byte(strings.NewReplacer(subst...).Replace(string(raw))), 0o644); err != nil {
		t.Fatal(err)
	}
	ins, err := readWorkloads([]string{p})
	if err != nil {
		t.Fatal(err)
	}
	return ins, logBehaviours(ins)
}

// MPI-IO's collective buffer is read from a trace alone when it shows
// libmpi opened: the component from the components it opened, the
// buffer its default; the program's own calls are not read.
func TestTraceShowsMPIIOCollective(t *testing.T) {
	t.Setenv("OMPI_MCA_io", "")
	for _, tc := range []struct {
		fixture, runtime, knob string
	}{
		{"mpiio-romio.trace", advice.RuntimeROMIO, "cb_buffer_size (ROMIO hint)"},
		{"mpiio-ompio.trace", advice.RuntimeOMPIO, advice.SettingBytesPerAgg},
		{"mpiio-independent.trace", "", ""},
	} {
		ins, bs := traceBehaviours(t, tc.fixture)
		if tc.runtime == "" {
			if len(bs) != 0 {
				t.Errorf("%s: %+v, want nothing read from the program's own 4 KiB calls", tc.fixture, bs)
			}
			continue
		}
		if len(bs) != 1 || bs[0].Runtime != tc.runtime || bs[0].Access != advice.AccessCollective || bs[0].Knob != tc.knob {
			t.Fatalf("%s: behaviours %+v, want %s's collective buffer", tc.fixture, bs, tc.runtime)
		}
		linked := behaviourEvidence(tracedLibraries(ins), bs)
		if !strings.Contains(linked[tc.runtime], "the trace shows") {
			t.Errorf("%s: evidence %q, want the component the trace shows", tc.fixture, linked[tc.runtime])
		}
	}
}

// 16 MiB pwrite calls are not MPI-IO's when no libmpi shows.
func TestTraceMPIIONeedsLibmpi(t *testing.T) {
	_, bs := traceBehaviours(t, "mpiio-romio.trace", "libmpi.so.40", "libfoo.so.1")
	if len(bs) != 0 {
		t.Errorf("behaviours %+v, want none without libmpi", bs)
	}
}

// st_blksize calls in a trace are stdio's only when the program it
// names is here and writes through stdio, the trace opened libc alone,
// and the file is here to tell its st_blksize.
func TestTraceShowsStdio(t *testing.T) {
	dir := t.TempDir()
	fw := buildC(t, "gcc", filepath.Join(dir), "p.c", fwriteRecords)
	wdir := filepath.Join(dir, "w")
	if err := os.Mkdir(wdir, 0o755); err != nil {
		t.Fatal(err)
	}
	wr := buildC(t, "gcc", wdir, "w.c", write4K)
	out := filepath.Join(dir, "out.dat")
	if err := os.WriteFile(out, make([]byte, 32*4096), 0o644); err != nil {
		t.Fatal(err)
	}
	if blockSizeOf(out) != 4096 {
		t.Skipf("st_blksize of %s is %d, not the fixture's 4096", out, blockSizeOf(out))
	}
	for _, tc := range []struct {
		name  string
		subst []string
		stdio bool
	}{
		{"an fwrite program", []string{"@EXE@", fw, "@DIR@", dir}, true},
		{"a write(2) program", []string{"@EXE@", wr, "@DIR@", dir}, false},
		{"a program not here", []string{"@EXE@", filepath.Join(dir, "gone"), "@DIR@", dir}, false},
		{"another runtime opened", []string{"@EXE@", fw, "@DIR@", dir, "libc.so.6", "libgfortran.so.5"}, false},
	} {
		ins, bs := traceBehaviours(t, "stdio-blksize.trace", tc.subst...)
		got := len(bs) == 1 && bs[0].Runtime == advice.RuntimeStdio
		if got != tc.stdio {
			t.Errorf("%s: behaviours %+v (exe %q, libraries %q), want stdio %v", tc.name, bs, ins[0].Exe, ins[0].Libraries, tc.stdio)
		}
		if got && !strings.Contains(behaviourEvidence(tracedLibraries(ins), bs)[advice.RuntimeStdio], "imports fopen") {
			t.Errorf("%s: no stdio evidence", tc.name)
		}
	}
}
