package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/binary"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/workload"
)

// buildC writes src to dir/name and compiles it with compiler into
// dir/prog; the test is skipped without the compiler.
func buildC(t *testing.T, compiler, dir, name, src string, args ...string) string {
	t.Helper()
	cc, err := exec.LookPath(compiler)
	if err != nil {
		t.Skipf("%s not found: %v", compiler, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "prog")
	cmd := exec.Command(cc, append(args, "-o", exe, name)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", compiler, err, out)
	}
	return exe
}

// A C++ program's libraries, read as app reads them, make tune say
// that its streams' buffers are out of reach.
func TestCannotReachCxxStreams(t *testing.T) {
	exe := buildC(t, "g++", t.TempDir(), "p.cc", "#include <fstream>\nint main() { std::ofstream o(\"x\"); o << 1; }\n")
	libs, _, _ := libraries(exe, nil, nil, "ext4")
	rep := &report.AppReport{Program: &report.AppProgram{Exe: exe, Libraries: libs}}
	_, cannot := candidates(rep, nil, nil, "", t.TempDir())
	if !slices.ContainsFunc(cannot, func(s string) bool { return strings.HasPrefix(s, "C++ streams:") }) {
		t.Errorf("cannot %q, libraries %+v: want the C++ streams line", cannot, libs)
	}
}

// The interpreter, by its name or by the libpython it loaded (an
// embedding program), makes tune say a Python file's buffer is the
// program's.
func TestCannotReachPython(t *testing.T) {
	dir := t.TempDir()
	exe := buildC(t, "gcc", dir, "p.c", "int main(void) { return 0; }\n")
	py := filepath.Join(dir, "python3.12")
	if err := os.Link(exe, py); err != nil {
		t.Fatal(err)
	}
	lib := filepath.Join(dir, "libpython3.12.so.1.0")
	if err := os.Link(exe, lib); err != nil { // a soname is all identify reads
		t.Fatal(err)
	}
	for _, tc := range []struct {
		exe    string
		loaded []string
	}{{py, nil}, {exe, []string{lib}}} {
		libs, _, _ := libraries(tc.exe, nil, tc.loaded, "ext4")
		rep := &report.AppReport{Program: &report.AppProgram{Exe: tc.exe, Libraries: libs}}
		_, cannot := candidates(rep, nil, nil, "", t.TempDir())
		if !slices.ContainsFunc(cannot, func(s string) bool { return strings.HasPrefix(s, "Python:") }) {
			t.Errorf("%s %v: cannot %q, libraries %+v: want the Python line", tc.exe, tc.loaded, cannot, libs)
		}
	}
}

// traceOf runs exe in dir under strace and reads the trace as app reads
// one, with the executable the program path names; skipped without a
// tracer that may trace.
func traceOf(t *testing.T, dir, exe string, args ...string) workload.Input {
	t.Helper()
	st, err := exec.LookPath("strace")
	if err != nil {
		t.Skipf("strace not found: %v", err)
	}
	trace := filepath.Join(t.TempDir(), "trace.txt")
	cmd := exec.Command(st, append([]string{"-f", "-y", "-e", "trace=write,openat,close", "-o", trace, exe}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("strace cannot run here: %v\n%s", err, out)
	}
	ins, err := readWorkloads([]string{trace})
	if err != nil || len(ins) != 1 {
		t.Fatalf("reading the trace: %v", err)
	}
	ins[0].Exe = exe
	return ins[0]
}

const fwriteRecords = `#include <stdio.h>
int main(void) {
	char rec[64] = {0};
	FILE *f = fopen("out.dat", "w");
	for (int i = 0; i < 16384; i++) fwrite(rec, sizeof rec, 1, f);
	return fclose(f) != 0;
}
`

const write4K = `#include <fcntl.h>
#include <unistd.h>
int main(void) {
	char buf[4096] = {0};
	int fd = open("out.dat", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	for (int i = 0; i < 256; i++) if (write(fd, buf, sizeof buf) != sizeof buf) return 1;
	return close(fd) != 0;
}
`

// Calls of st_blksize are stdio's only when the program writes through
// stdio: a program's own 4 KiB write(2) calls are not, though every
// dynamic program links libc.
func TestStdioNeedsAProgramThatUsesIt(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		stdio     bool
	}{{"fwrite of 64-byte records", fwriteRecords, true}, {"write(2) of 4 KiB", write4K, false}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			exe := buildC(t, "gcc", dir, "p.c", tc.src)
			in := traceOf(t, dir, exe)
			out := filepath.Join(dir, "out.dat")
			if blockSizeOf(out) != 4096 {
				t.Skipf("st_blksize of %s is %d, not 4096: the two programs' calls would differ", out, blockSizeOf(out))
			}
			bs := behaviours(in, 131072, map[string]string{})
			got := slices.ContainsFunc(bs, func(b advice.Behaviour) bool { return b.Runtime == advice.RuntimeStdio && b.Path == out })
			if got != tc.stdio {
				t.Errorf("stdio %v, want %v: behaviours %+v; files %+v", got, tc.stdio, bs, in.Files)
			}
		})
	}
}

const fortranBoth = `program p
  integer :: i
  open(10, file='fmt.txt', form='formatted')
  open(11, file='unf.bin', form='unformatted')
  do i = 1, 20000
    write(10, '(I10,1X,F20.10,1X,F20.10)') i, i*1.0d0, i*2.0d0
    write(11) i*1.0d0, i*2.0d0, i*3.0d0, i*4.0d0, i*5.0d0, i*6.0d0, i*7.0d0, i*8.0d0
  end do
  close(10)
  close(11)
end program p
`

// A real gfortran program's formatted file is read as the formatted
// buffer's, its unformatted one as 911 records of 64 bytes.
func TestGfortranBothBuffers(t *testing.T) {
	t.Setenv(advice.KnobFormatted, "")
	dir := t.TempDir()
	exe := buildC(t, "gfortran", dir, "p.f90", fortranBoth)
	in := traceOf(t, dir, exe)
	bs := behaviours(in, advice.GfortranUnformattedDefault, map[string]string{advice.RuntimeLibgfortran: "test"})
	knobs := map[string]advice.Behaviour{}
	for _, b := range bs {
		knobs[filepath.Base(b.Path)] = b
	}
	if b := knobs["fmt.txt"]; b.Knob != advice.KnobFormatted || b.Access != advice.AccessSequential {
		t.Errorf("fmt.txt: %+v, want the formatted buffer's sequential flushes", b)
	}
	if b := knobs["unf.bin"]; b.Knob != advice.KnobUnformatted || b.Call != 65592 || b.Record != 64 {
		t.Errorf("unf.bin: %+v, want 65,592-byte calls of 64-byte records", b)
	}
}

// mpiTrace runs an MPI-IO program built with mpicc under mpirun, with
// launcher's options, traced whole as app traces an unsplit launcher.
func mpiTrace(t *testing.T, opts ...string) workload.Input {
	t.Helper()
	dir := t.TempDir()
	exe := buildC(t, "mpicc", dir, "m.c", mpiWriteAtAll)
	mpirun, err := exec.LookPath("mpirun")
	if err != nil {
		t.Skipf("mpirun not found: %v", err)
	}
	if os.Getuid() == 0 {
		t.Setenv("OMPI_ALLOW_RUN_AS_ROOT", "1")
		t.Setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
	}
	args := append(append([]string{"--oversubscribe", "-np", "2"}, opts...), exe)
	return traceOf(t, dir, mpirun, args...)
}

const mpiWriteAtAll = `#include <mpi.h>
#include <string.h>
int main(int argc, char **argv) {
	int rank;
	char buf[4096];
	MPI_File fh;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	memset(buf, 'x', sizeof buf);
	MPI_File_open(MPI_COMM_WORLD, "out.dat", MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
	for (int i = 0; i < 64; i++)
		MPI_File_write_at_all(fh, ((MPI_Offset)i * 2 + rank) * 4096, buf, 4096, MPI_BYTE, MPI_STATUS_IGNORE);
	MPI_File_close(&fh);
	MPI_Finalize();
	return 0;
}
`

// The component a real Open MPI run used shows in the components it
// opened: ROMIO chosen with --mca io, OMPIO by default.
func TestMPIIOComponentFromARealTrace(t *testing.T) {
	t.Setenv("OMPI_MCA_io", "")
	for _, tc := range []struct {
		opts      []string
		want, why string
	}{
		{[]string{"--mca", "io", "romio321"}, "romio321", "mca_io_romio321.so opened"},
		{nil, "ompio", "OMPIO's mca_f"},
	} {
		in := mpiTrace(t, tc.opts...)
		facts, _ := binary.Inspect("", in.Libraries)
		var rt binary.Runtime
		for _, r := range facts.Runtimes {
			if r.Kind == binary.OpenMPI {
				rt = r
			}
		}
		if rt.Kind == "" {
			t.Skipf("mpirun is not Open MPI's: %+v", facts.Runtimes)
		}
		if got, why := mpiioComponent(rt, nil, in.Libraries, "ext4"); got != tc.want || !strings.Contains(why, tc.why) {
			t.Errorf("%v: %q, %q; want %q, ~%q", tc.opts, got, why, tc.want, tc.why)
		}
	}
}

// The launcher's --mca io is read from the command line app runs.
func TestMPIIOComponentFromTheLauncher(t *testing.T) {
	t.Setenv("OMPI_MCA_io", "ompio")
	rt := binary.Runtime{Kind: binary.OpenMPI, Version: "5.0.3"}
	for _, tc := range []struct {
		argv      []string
		want, why string
	}{
		{[]string{"mpirun", "--mca", "io", "^ompio", "-np", "2", "./prog"}, "romio341", "the launcher's --mca io ^ompio"},
		{[]string{"mpirun", "-x", "OMPI_MCA_io=romio341", "-np", "2", "./prog"}, "romio341", "the launcher's -x OMPI_MCA_io=romio341"},
		{[]string{"mpirun", "-np", "2", "./prog", "--mca", "io", "romio341"}, "ompio", "OMPI_MCA_io=ompio"},
		{[]string{"./prog"}, "ompio", "OMPI_MCA_io=ompio"},
	} {
		if got, why := mpiioComponent(rt, tc.argv, nil, "ext4"); got != tc.want || !strings.Contains(why, tc.why) {
			t.Errorf("%q: %q, %q; want %q, ~%q", tc.argv, got, why, tc.want, tc.why)
		}
	}
}

// app -- mpirun ...: the launcher's --mca io on the command line names
// the MPI-IO component of the libmpi the program loaded.
func TestLibrariesReadTheLauncher(t *testing.T) {
	t.Setenv("OMPI_MCA_io", "")
	exe, err := exec.LookPath("true")
	if err != nil {
		t.Skip("no true(1)")
	}
	lib := filepath.Join(t.TempDir(), "libmpi.so.40")
	if err := os.Symlink(exe, lib); err != nil { // a soname is all identify reads
		t.Fatal(err)
	}
	argv := []string{"mpirun", "--mca", "io", "romio321", "-np", "2", "./prog"}
	libs, linked, _ := libraries(exe, argv, []string{lib}, "ext4")
	if len(libs) != 1 || !strings.Contains(libs[0].Evidence, "MPI-IO component romio321") || !strings.Contains(libs[0].Evidence, "--mca io romio321") {
		t.Errorf("libraries %+v: want Open MPI's MPI-IO through romio321, from the launcher", libs)
	}
	if linked[advice.RuntimeROMIO] == "" {
		t.Errorf("linked %v: want ROMIO", linked)
	}
}
