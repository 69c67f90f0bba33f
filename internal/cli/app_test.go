package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/iobench/iobench/internal/testkit/testenv"
	"github.com/iobench/iobench/internal/testkit/testwait"
)

// sharedDarshanLogs is the Darshan logs of ../shared (IOBENCH_SHARED
// names another shared folder); the test skips without them.
func sharedDarshanLogs(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(moduleRoot, "..", "shared", "darshan")
	if s := os.Getenv("IOBENCH_SHARED"); s != "" {
		dir = filepath.Join(s, "darshan")
	}
	if _, err := os.Stat(filepath.Join(dir, "logs")); err != nil {
		t.Skipf("no shared Darshan logs: %v", err)
	}
	return filepath.Join(dir, "logs")
}

// quarterCurve writes a saved sweep (CSV, 3 rounds) whose writes of
// 128 KiB and less run at a quarter of the 400 MiB/s plateau, which
// starts at 512 KiB.
func quarterCurve(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("mode,write_size,round,seq,seconds,bytes,calls,short_writes,eintr_retries,mib_per_s,start,fs_type,block_size,element_type,convert,fsync,source,incomplete\n")
	seq := 0
	for round := 1; round <= 3; round++ {
		for size := int64(1 << 10); size <= 64<<20; size *= 2 {
			rate := 400.0
			switch {
			case size <= 128<<10:
				rate = 100
			case size == 256<<10:
				rate = 200
			}
			rate *= []float64{1, 0.99, 1.01}[round-1]
			seq++
			const bytes = 256 << 20
			fmt.Fprintf(&b, "write,%d,%d,%d,%.9f,%d,%d,0,0,%.7f,2026-12-04T10:%02d:%02dZ,ext4,4096,float64,native,true,array,false\n",
				size, round, seq, bytes/(rate*(1<<20)), bytes, bytes/size, rate, seq/60, seq%60)
		}
	}
	path := filepath.Join(t.TempDir(), "quarter.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

type appDoc struct {
	Inputs []struct {
		Kind    string `json:"kind"`
		Modules []struct {
			Module       string           `json:"module"`
			Records      int              `json:"records"`
			Files        int              `json:"files"`
			Writes       int64            `json:"writes"`
			BytesWritten int64            `json:"bytes_written"`
			Histogram    map[string]int64 `json:"write_histogram"`
		} `json:"modules"`
		Files []struct {
			Path   string `json:"path"`
			Writes int64  `json:"writes"`
			Bytes  int64  `json:"bytes_written"`
			Sizes  []struct {
				Low, High, Calls int64
			} `json:"sizes"`
		} `json:"files"`
	} `json:"inputs"`
	Curve *struct {
		Recommended int64 `json:"recommended_write_size"`
	} `json:"curve"`
	Estimate *struct {
		SecondsNow   float64                                    `json:"seconds_now"`
		SecondsAtRec float64                                    `json:"seconds_at_recommended"`
		Gain         float64                                    `json:"gain"`
		GainLow      float64                                    `json:"gain_ci_low"`
		GainHigh     float64                                    `json:"gain_ci_high"`
		Calls        int64                                      `json:"estimated_calls"`
		Apply        []struct{ Runtime, Setting, Value string } `json:"apply"`
	} `json:"estimate"`
}

func decodeApp(t *testing.T, out string) appDoc {
	t.Helper()
	var d appDoc
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	return d
}

// The 1 KiB-record Fortran log: libgfortran's 2048 write(2) calls of
// 128 KiB, on a curve where 128 KiB runs at a quarter of the plateau,
// take 4x what they would at the recommended size, and the report names
// GFORTRAN_UNFORMATTED_BUFFER_SIZE.
func TestAppFortranRecordsAgainstAQuarterCurve(t *testing.T) {
	log := filepath.Join(sharedDarshanLogs(t), "generated", "frec-big_endian.darshan")
	curve := quarterCurve(t)
	out, errOut, code := runCLI(t, "app", log, "--curve", curve, "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	d := decodeApp(t, out)
	e := d.Estimate
	if e == nil || e.Calls != 2048 || e.Gain < 3.9 || e.Gain > 4.1 || e.GainLow > e.Gain || e.GainHigh < e.Gain {
		t.Fatalf("estimate %+v, want 2048 calls at a gain of 4 inside its interval", e)
	}
	if d.Curve.Recommended != 512<<10 {
		t.Errorf("recommended %d, want 512 KiB", d.Curve.Recommended)
	}
	named := false
	for _, a := range e.Apply {
		named = named || (a.Runtime == "libgfortran" && a.Setting == "GFORTRAN_UNFORMATTED_BUFFER_SIZE" && a.Value == "524288")
	}
	if !named {
		t.Errorf("apply rows %+v do not set GFORTRAN_UNFORMATTED_BUFFER_SIZE=524288", e.Apply)
	}
	text, _, _ := runCLI(t, "app", log, "--curve", curve)
	text = strings.Join(strings.Fields(text), " ") // the words, wherever the lines break
	for _, want := range []string{"2048 write(2) calls of 128 KiB", "in 512 KiB writes", "x4.00", "export GFORTRAN_UNFORMATTED_BUFFER_SIZE=524288", "Drishti would flag 2048 of 2048", "the curve agrees"} {
		if !strings.Contains(text, want) {
			t.Errorf("text has no %q:\n%s", want, text)
		}
	}
}

// The e3sm log's totals, through the whole command.
func TestAppE3SMTotals(t *testing.T) {
	log := filepath.Join(sharedDarshanLogs(t), "corpus", "e3sm_io_heatmaps_and_dxt_e3sm_io_heatmap_only.darshan")
	out, errOut, code := runCLI(t, "app", log, "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	m := decodeApp(t, out).Inputs[0].Modules[0]
	if m.Module != "POSIX" || m.Writes != 306777 || m.BytesWritten != 304663273048 || m.Histogram["100K_1M"] != 306518 {
		t.Errorf("POSIX totals %+v, want darshan-parser's 306777 writes, 304663273048 bytes, 306518 in 100K_1M", m)
	}
}

// A truncated log is one line naming the file, exit 1; a log with a
// flipped byte parses or fails the same way, never with a trace.
func TestAppCorruptLogsFailInOneLine(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(sharedDarshanLogs(t), "generated", "cwr-write8.darshan"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.darshan")
	check := func(what string, b []byte, mayParse bool) {
		t.Helper()
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		_, errOut, code := runCLI(t, "app", path, "--format", "json")
		switch {
		case code == 0 && mayParse:
		case code != 1 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, path) || strings.Contains(errOut, "goroutine"):
			t.Fatalf("%s: exit %d, stderr %q; want exit 1 and one line naming the file", what, code, errOut)
		}
	}
	step := 1 // every cut and every flipped byte: 12 s of runs, 126 s under -race
	if !testenv.IsFull() || testenv.Race {
		step = 7 // a seventh; scripts/test.sh's step without -race runs them all
	}
	for n := 0; n < len(data); n += step { // below 16 bytes, too short for the magic number: neither a log nor a trace
		check(fmt.Sprintf("first %d bytes", n), data[:n], false)
	}
	for i := 0; i < len(data); i += step {
		flipped := []byte(string(data))
		flipped[i] ^= 0xff
		check(fmt.Sprintf("byte %d flipped", i), flipped, true)
	}
}

func TestAppBadInput(t *testing.T) {
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("size,count\n1,2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"app"}, 2, "name at least one Darshan log or strace trace"},
		{[]string{"app", notes}, 1, "neither a Darshan log"},
		{[]string{"app", dir}, 1, "not a regular file"},
		{[]string{"app", filepath.Join(dir, "missing")}, 1, "no such file"},
		{[]string{"app", "-"}, 2, "standard input"},
		{[]string{"app", notes, "--format", "csv"}, 2, `--format: unknown format "csv" for app (valid: text, json, markdown)`},
		{[]string{"app", notes, "--for", "x"}, 2, "--for: unknown runtime"},
	} {
		_, errOut, code := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q in one line", tc.args, code, errOut, tc.code, tc.want)
		}
	}
}

// A real program's write(2) calls under strace: the trace gives exactly
// the calls and bytes the program made.
func TestAppStraceOfARealProgram(t *testing.T) {
	src := filepath.Join(sharedDarshanLogs(t), "..", "programs", "cwr.c")
	for _, tool := range []string{"gcc", "strace"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "cwr")
	if out, err := exec.Command("gcc", "-O2", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	data, trace := filepath.Join(dir, "out.dat"), filepath.Join(dir, "trace.txt")
	cmd := exec.Command("strace", "-f", "-T", "-y", "-e", "trace=write,pwrite64,writev,pwritev,openat,close", "-o", trace, bin, data, "n", "10000")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("strace cannot trace here: %v\n%s", err, out)
	}
	out, errOut, code := runCLI(t, "app", trace, "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, f := range decodeApp(t, out).Inputs[0].Files {
		if f.Path == data {
			if f.Writes != 10000 || f.Bytes != 80000 || len(f.Sizes) != 1 || f.Sizes[0].Low != 8 {
				t.Errorf("%s: %d writes, %d bytes, sizes %+v; want 10000 of 8 bytes", f.Path, f.Writes, f.Bytes, f.Sizes)
			}
			return
		}
	}
	t.Errorf("no file %s in the trace's report:\n%s", data, out)
}

// The program a log names is looked at only where it is a regular ELF
// file here: a FIFO under that name must not hang the command.
func TestProgramNamedByALogIsReadOnlyIfARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "prog")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan bool)
	go func() { done <- linksLibgfortran(fifo) }()
	if testwait.Recv(t, "the look at a FIFO named by a log", done) {
		t.Error("a FIFO was taken for a Fortran program")
	}
	for _, p := range []string{dir, filepath.Join(dir, "missing"), "/dev/zero", "/proc/self/exe"} {
		if linksLibgfortran(p) {
			t.Errorf("%s: taken for a Fortran program", p)
		}
	}
	if _, err := exec.LookPath("gfortran"); err != nil {
		t.Skip("no gfortran to build a Fortran program with")
	}
	src, exe := filepath.Join(dir, "p.f90"), filepath.Join(dir, "p")
	if err := os.WriteFile(src, []byte("program p\nprint *, 1\nend program p\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("gfortran", "-o", exe, src).CombinedOutput(); err != nil {
		t.Fatalf("gfortran: %v\n%s", err, out)
	}
	if !linksLibgfortran(exe) {
		t.Error("a gfortran program was not recognised")
	}
}

// A trace alone names libgfortran by its openat and reads the 65,592-byte
// calls as sequential access: one row, twice the recommended size.
func TestAppTraceOfSequentialFortran(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "trace.txt")
	var b strings.Builder
	b.WriteString(`7 openat(AT_FDCWD, "/lib/x86_64-linux-gnu/libgfortran.so.5", O_RDONLY|O_CLOEXEC) = 3</usr/lib/x86_64-linux-gnu/libgfortran.so.5.0.0>` + "\n")
	b.WriteString(`7 openat(AT_FDCWD, "out.dat", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 4</data/out.dat>` + "\n")
	for range 64 {
		b.WriteString(`7 write(4</data/out.dat>, ""..., 65592) = 65592 <0.000020>` + "\n")
	}
	if err := os.WriteFile(trace, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "app", trace, "--curve", quarterCurve(t), "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	d := decodeApp(t, out)
	var rows []string
	for _, a := range d.Estimate.Apply {
		if a.Setting == "GFORTRAN_UNFORMATTED_BUFFER_SIZE" {
			rows = append(rows, a.Value)
		}
	}
	if want := strconv.FormatInt(2*d.Curve.Recommended, 10); len(rows) != 1 || rows[0] != want {
		t.Errorf("unformatted rows %v, want one of %s (twice the recommended %d)", rows, want, d.Curve.Recommended)
	}
}
