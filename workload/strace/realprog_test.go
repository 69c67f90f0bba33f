package strace_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/iobench/iobench/workload/strace"
)

const traced = "write,pwrite64,writev,pwritev,openat,close"

// TestRealProgram traces testdata/writer.c under strace with and without
// -y and -T, and with -ff, and checks the parse against what the program
// says it did and against the kernel's count of its write calls.
func TestRealProgram(t *testing.T) {
	straceBin, writer := realTools(t)
	variants := [][]string{{"-f"}, {"-f", "-y"}, {"-f", "-T", "-tt"}, {"-f", "-y", "-yy", "-T"}}
	var plain *strace.Trace
	for _, flags := range variants {
		t.Run(strings.Join(flags, ""), func(t *testing.T) {
			out := t.TempDir()
			tracePath := filepath.Join(out, "trace")
			args := append(slices.Clone(flags), "-o", tracePath, "-e", "trace="+traced, writer, out)
			report := run(t, straceBin, args...)
			got, err := parseFile(t, tracePath)
			if err != nil {
				t.Fatal(err)
			}
			checkReal(t, got, report, slices.Contains(flags, "-T"))
			if len(flags) == 1 {
				plain = got
			}
		})
	}
	t.Run("-ff", func(t *testing.T) {
		out := t.TempDir()
		report := run(t, straceBin, "-ff", "-o", filepath.Join(out, "trace"), "-e", "trace="+traced, writer, out)
		names, err := filepath.Glob(filepath.Join(out, "trace.*"))
		if err != nil {
			t.Fatal(err)
		}
		got, err := parseFF(t, names)
		if err != nil {
			t.Fatal(err)
		}
		checkReal(t, got, report, false)
		if plain == nil {
			t.Skip("no -f run to compare with")
		}
		// The same files and totals as -f gives in one file; the paths
		// differ only by the output directory.
		want := renamed(plain.Files, plainDir(plain), out)
		if diff := cmp.Diff(want, got.Files, equateEmpty, byPath); diff != "" {
			t.Errorf("-ff files (-want -f's +got):\n%s", diff)
		}
	})
}

// realTools builds the writer, or skips the test if gcc or strace is
// missing or strace cannot trace here (ptrace refused).
func realTools(t *testing.T) (straceBin, writer string) {
	t.Helper()
	straceBin, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("strace is not installed")
	}
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc is not installed")
	}
	if out, err := exec.Command(straceBin, "-o", os.DevNull, "true").CombinedOutput(); err != nil {
		t.Skipf("strace cannot trace here: %v: %s", err, bytes.TrimSpace(out))
	}
	src, err := filepath.Abs("testdata/writer.c")
	if err != nil {
		t.Fatal(err)
	}
	writer = filepath.Join(t.TempDir(), "writer")
	if out, err := exec.Command(gcc, "-O1", "-o", writer, src).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	return straceBin, writer
}

func run(t *testing.T, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(name, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.Bytes())
	}
	return out
}

// writerReport is what the writer prints: per file its calls and bytes,
// and its syscw and wchar.
type writerReport struct {
	calls, bytes map[string]int64
	syscw, wchar int64
}

func parseReport(t *testing.T, out []byte) writerReport {
	t.Helper()
	r := writerReport{calls: map[string]int64{}, bytes: map[string]int64{}}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var name string
		var calls, n int64
		switch {
		case strings.HasPrefix(sc.Text(), "syscw "):
			fmt.Sscanf(sc.Text(), "syscw %d", &r.syscw)
		case strings.HasPrefix(sc.Text(), "wchar "):
			fmt.Sscanf(sc.Text(), "wchar %d", &r.wchar)
		default:
			if _, err := fmt.Sscanf(sc.Text(), "%s %d %d", &name, &calls, &n); err != nil {
				t.Fatalf("writer printed %q: %v", sc.Text(), err)
			}
			r.calls[name], r.bytes[name] = calls, n
		}
	}
	return r
}

// checkReal checks a trace of the writer against its report.
func checkReal(t *testing.T, got *strace.Trace, out []byte, timed bool) {
	t.Helper()
	report := parseReport(t, out)
	want := map[string]strace.File{
		"a.dat": {Writes: 1000, Bytes: 8000, Sizes: sizes{8: 1000}, Syscalls: calls{"write": 1000}},
		"b.dat": {Writes: 6, Bytes: 3<<20 + 1108 + 8, Sizes: sizes{1 << 20: 3, 1108: 1, 4: 2},
			Syscalls: calls{"pwrite64": 3, "writev": 1, "write": 2}},
		"c.dat": {Writes: 5, Bytes: 5 * 4096, Sizes: sizes{4096: 5}, Syscalls: calls{"write": 5}},
	}
	var calls, written int64
	var others []strace.File
	for _, f := range got.Files {
		calls += f.Writes + f.Errors + f.Unknown
		written += f.Bytes
		base := filepath.Base(f.Path)
		w, ok := want[base]
		if !ok {
			others = append(others, f)
			continue
		}
		if f.Writes != report.calls[base] || f.Bytes != report.bytes[base] {
			t.Errorf("%s: %d writes of %d bytes; the writer made %d of %d", f.Path, f.Writes, f.Bytes, report.calls[base], report.bytes[base])
		}
		w.Path, w.Seconds = f.Path, f.Seconds
		if diff := cmp.Diff(w, f, equateEmpty); diff != "" {
			t.Errorf("%s (-want +got):\n%s", base, diff)
		}
		delete(want, base)
	}
	if len(want) > 0 {
		t.Errorf("files missing from the trace: %v", want)
	}
	// The one other file is stdout, written once, with the report.
	if len(others) != 1 || others[0].Writes != 1 || others[0].Bytes != int64(len(out)) {
		t.Errorf("other files %+v, want stdout's one write of %d bytes", others, len(out))
	}
	// syscw counts every write-family call the process made, and after
	// waitpid also those of its reaped child; the writer read it before
	// its one write of the report, the only call not counted.
	if report.syscw < 0 {
		t.Log("no /proc/self/io: syscw and wchar not compared")
	} else if calls-1 != report.syscw || written-int64(len(out)) != report.wchar {
		t.Errorf("trace: %d calls of %d bytes before the report; /proc/self/io: syscw %d, wchar %d",
			calls-1, written-int64(len(out)), report.syscw, report.wchar)
	}
	if got.Timed != timed || got.Skipped != 0 || got.PIDs != 2 {
		t.Errorf("Timed %v, Skipped %d at %v, PIDs %d; want Timed %v, 0 skipped, 2 pids",
			got.Timed, got.Skipped, got.SkippedAt, got.PIDs, timed)
	}
}

// plainDir is the output directory of a run, from its a.dat's path.
func plainDir(tr *strace.Trace) string {
	for _, f := range tr.Files {
		if filepath.Base(f.Path) == "a.dat" {
			return filepath.Dir(f.Path)
		}
	}
	return ""
}

// renamed returns files with the directory from replaced by to.
func renamed(files []strace.File, from, to string) []strace.File {
	out := slices.Clone(files)
	for i := range out {
		if rest, ok := strings.CutPrefix(out[i].Path, from+"/"); ok {
			out[i].Path = filepath.Join(to, rest)
		}
	}
	return out
}
