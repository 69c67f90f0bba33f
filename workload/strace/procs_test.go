package strace_test

import (
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/iobench/iobench/workload/strace"
)

// record.txt is strace 6.1 with RecordArgs on a C program that fwrites
// to one file and fsyncs it, maps a second one (O_DSYNC) shared, msyncs
// and fdatasyncs it, then forks a child that execs true via PATH.
func parseRecord(t *testing.T) *strace.Trace {
	t.Helper()
	f, err := os.Open("testdata/record.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := strace.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestRecordedProcesses(t *testing.T) {
	tr := parseRecord(t)
	libc := "/usr/lib/x86_64-linux-gnu/libc.so.6"
	want := []strace.Proc{
		{PID: 18095, Execs: []string{"/data/t"}, Libs: []string{libc}, Writes: 3, Bytes: 3 * 4096},
		{PID: 18096, Parent: 18095, Execs: []string{"/usr/bin/true"}, Libs: []string{libc}},
	}
	if diff := cmp.Diff(want, tr.Procs); diff != "" {
		t.Errorf("Procs (-want +got):\n%s", diff)
	}
	if p := tr.Program(); p == nil || p.PID != 18095 {
		t.Errorf("Program() = %+v, want pid 18095 (the writer, not the child)", p)
	}
}

func TestRecordedFlushes(t *testing.T) {
	tr := parseRecord(t)
	if len(tr.Files) != 1 {
		t.Fatalf("files = %+v, want the one written", tr.Files)
	}
	f := tr.Files[0]
	if f.Flushes["fsync"] != 1 || len(f.OpenFlags) != 2 || f.OpenFlags[0] != "O_TRUNC" || f.Mapped {
		t.Errorf("tx.dat: flushes %v, flags %v, mapped %v; want fsync 1, [O_TRUNC O_CREAT], not mapped", f.Flushes, f.OpenFlags, f.Mapped)
	}
	want := []strace.Mapping{{Path: "/data/tx2.dat", Msyncs: 1}}
	if diff := cmp.Diff(want, tr.Mapped); diff != "" {
		t.Errorf("Mapped (-want +got):\n%s", diff)
	}
}

func TestThreadsJoinTheirProcess(t *testing.T) {
	const trace = `100 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM, exit_signal=0}, 88) = 101
101 openat(AT_FDCWD, "/usr/lib/libgfortran.so.5", O_RDONLY|O_CLOEXEC) = 3
101 close(3) = 0
101 openat(AT_FDCWD, "out.dat", O_WRONLY|O_CREAT|O_DIRECT, 0644) = 4
101 write(4, ""..., 65592) = 65592
100 vfork() = 102
102 write(1, ""..., 10) = 10
102 io_submit(0x7f00, 1, [{...}]) = 1
`
	tr, err := strace.Parse(stringsReader(trace))
	if err != nil {
		t.Fatal(err)
	}
	p := tr.Program()
	if p == nil || p.PID != 100 || p.Bytes != 65592 || len(p.Libs) != 1 {
		t.Fatalf("Program() = %+v, want pid 100 with its thread's 65592 bytes and libgfortran", p)
	}
	if got := tr.Files[0].OpenFlags; len(got) != 2 || got[0] != "O_DIRECT" {
		t.Errorf("out.dat flags = %v, want [O_DIRECT O_CREAT]", got)
	}
	if tr.Async["io_submit"] != 1 {
		t.Errorf("Async = %v, want io_submit 1", tr.Async)
	}
}

func TestRecordArgsTraceTheReadCalls(t *testing.T) {
	args := strace.RecordArgs("out")
	for _, need := range []string{"-f", "-y", "-T", "out"} {
		if !containsArg(args, need) {
			t.Errorf("RecordArgs = %v, lacks %s", args, need)
		}
	}
}

func stringsReader(s string) *strings.Reader { return strings.NewReader(s) }

func containsArg(args []string, a string) bool { return slices.Contains(args, a) }

// Open MPI's components are among the shared objects a process opened.
func TestOpenMPIComponentsAreLibraries(t *testing.T) {
	const trace = `100 openat(AT_FDCWD, "/usr/lib/x86_64-linux-gnu/libmpi.so.40", O_RDONLY|O_CLOEXEC) = 3
100 openat(AT_FDCWD, "/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/mca_io_romio321.so", O_RDONLY|O_CLOEXEC) = 4
100 openat(AT_FDCWD, "/usr/share/openmpi/mca_x.txt", O_RDONLY) = 5
100 openat(AT_FDCWD, "out.dat", O_WRONLY|O_CREAT, 0644) = 6
100 pwrite64(6, ""..., 4096, 0) = 4096
`
	tr, err := strace.Parse(stringsReader(trace))
	if err != nil {
		t.Fatal(err)
	}
	p := tr.Program()
	if p == nil || len(p.Libs) != 2 || !strings.HasSuffix(p.Libs[1], "mca_io_romio321.so") {
		t.Fatalf("Program() = %+v, want libmpi and mca_io_romio321.so", p)
	}
}

// A file written through a descriptor the program inherited (a shell's
// > out, named by -y) is not one it opened; one it opened is, and its
// later writes through a dup of it keep that.
func TestOpenedTellsInheritedDescriptors(t *testing.T) {
	text := "1 write(1</home/u/run.log>, \"x\"..., 8) = 8\n" +
		"1 openat(AT_FDCWD</home/u>, \"out.dat\", O_WRONLY|O_CREAT|O_TRUNC, 0644) = 3</home/u/out.dat>\n" +
		"1 dup2(3</home/u/out.dat>, 5) = 5</home/u/out.dat>\n" +
		"1 write(5</home/u/out.dat>, \"x\"..., 8) = 8\n"
	tr, err := strace.Parse(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	opened := map[string]bool{}
	for _, f := range tr.Files {
		opened[f.Path] = f.Opened
	}
	if want := map[string]bool{"/home/u/run.log": false, "/home/u/out.dat": true}; !maps.Equal(opened, want) {
		t.Errorf("opened %v, want %v", opened, want)
	}
}
