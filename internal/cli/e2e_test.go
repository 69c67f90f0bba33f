package cli

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/iobench/iobench/internal/testkit/testenv"
	"github.com/iobench/iobench/internal/testkit/testwait"
)

// iobenchBin is the iobench command built once for the end-to-end tests.
var iobenchBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "iobench-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	iobenchBin, err = binaryFor(dir, os.Getenv(coverDirEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, "building iobench:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// moduleRoot is the module's directory, where the command's main package
// and the shared test data are, from this package's.
const moduleRoot = "../.."

// coverDirEnv names a directory for the coverage of the iobench runs
// (scripts/coverage.sh): with it set, the binary is built with -cover and
// every run of it writes its counters there through GOCOVERDIR.
const coverDirEnv = "IOBENCH_COVERDIR"

// binaryFor is the command the tests run: the one built for the whole
// test run, or one instrumented for coverage into dir.
func binaryFor(dir, coverDir string) (string, error) {
	if coverDir == "" {
		return testenv.Binary(dir, moduleRoot)
	}
	out := filepath.Join(dir, "iobench")
	return out, buildIobench(out, coverDir)
}

// buildIobench builds the command into out, instrumented for coverage of
// every package of the module when coverDir is not empty. GOCOVERDIR is set
// in this process's environment, so every subprocess inherits it, also
// those started with cmd.Env = append(os.Environ(), ...).
func buildIobench(out, coverDir string) error {
	args := []string{"build", "-buildvcs=auto", "-o", out}
	if coverDir != "" {
		abs, err := filepath.Abs(coverDir) // some runs start in another directory
		if err != nil {
			return err
		}
		if err := os.MkdirAll(abs, 0o755); err != nil {
			return err
		}
		if err := os.Setenv("GOCOVERDIR", abs); err != nil {
			return err
		}
		args = append(args, "-cover", "-coverpkg=github.com/iobench/iobench/...")
	}
	build := exec.Command("go", append(args, moduleRoot)...)
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	return build.Run()
}

type result struct {
	stdout, stderr string
	code           int
}

func runBinary(t *testing.T, args ...string) result {
	t.Helper()
	cmd := exec.Command(iobenchBin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return result{out.String(), errb.String(), cmd.ProcessState.ExitCode()}
}

func TestBinaryUsageErrorExitsTwoWithoutPanic(t *testing.T) {
	r := runBinary(t, "sweep", "--dir", t.TempDir(), "--max", "3MiB")
	if r.code != 2 || r.stderr != "iobench: --max: \"3MiB\" is not a power of two\n" {
		t.Errorf("exit %d stderr %q", r.code, r.stderr)
	}
	if strings.Contains(r.stderr, "goroutine") {
		t.Errorf("panic trace: %s", r.stderr)
	}
}

// snapshot records every file under dir with a hash of its content.
func snapshot(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	files := map[string][32]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		files[p] = sha256.Sum256(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// prefill puts users' files in dir, including names close to iobench's own.
func prefill(t *testing.T, dir string) {
	t.Helper()
	for _, name := range []string{"results.dat", "out.dat", ".iobench-1-000000000000-1-0.dat", "notes.txt"} {
		data := make([]byte, 4096)
		_, _ = rand.Read(data)
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func assertUntouched(t *testing.T, dir string, before map[string][32]byte) {
	t.Helper()
	after := snapshot(t, dir)
	for p, h := range before {
		if after[p] != h {
			t.Errorf("%s was changed or removed", p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s was left behind", p)
		}
	}
}

func TestSweepInAPrefilledDirectoryLeavesItAsFound(t *testing.T) {
	dir := t.TempDir()
	prefill(t, dir)
	before := snapshot(t, dir)
	r := runBinary(t, smallSweep(dir, "--verify", "--convert", "big-endian", "--repeat", "1")...)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	// the warm-up and 11 sizes, 4 MiB (524288 float64) each
	if want := "verified: 12 files read back, 6291456 float64 elements (50331648 bytes) checked, all as written"; !strings.Contains(r.stdout, want) {
		t.Errorf("no %q in:\n%s", want, r.stdout)
	}
	assertUntouched(t, dir, before)
}

// running is a sweep of the built binary, started and seen to run.
type running struct {
	cmd *exec.Cmd
	out bytes.Buffer
}

// startSweep runs a long 1 KiB sweep in dir with --repeat rounds and waits
// until stderr reports round `after`.
func startSweep(t *testing.T, dir string, rounds, after int, extra ...string) *running {
	t.Helper()
	args := append([]string{"sweep", "--dir", dir, "--size", "32MiB", "--sizes", "1KiB",
		"--repeat", fmt.Sprint(rounds), "--sync", "none", "--no-progress", "--profile", "generic"}, extra...)
	r := &running{cmd: exec.Command(iobenchBin, args...)}
	r.cmd.Stdout = &r.out
	stderr, err := r.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitForLines(t, stderr, fmt.Sprintf(" r%d/%d ", after, rounds))
	return r
}

// wait ends the sweep and returns its exit code.
func (r *running) wait(t *testing.T) int {
	t.Helper()
	exited := make(chan struct{})
	go func() { _ = r.cmd.Wait(); close(exited) }()
	testwait.Exit(t, "exit of the sweep", r.cmd.Process, exited, func() string { return "" })
	return r.cmd.ProcessState.ExitCode()
}

func TestInterruptStopsCleansUpAndReports(t *testing.T) {
	dir := t.TempDir()
	prefill(t, dir)
	before := snapshot(t, dir)
	r := startSweep(t, dir, 200, 2, "--format", "json")
	if err := r.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	code := r.wait(t)
	if code != 130 {
		t.Errorf("exit code %d, want 130", code)
	}
	doc := decodeJSON(t, r.out.String())
	if !doc.Incomplete || len(doc.Results) != 1 || len(doc.Results[0].Samples) < 2 || len(doc.Results[0].Samples) >= 200 || !strings.Contains(doc.Error, "interrupted") {
		t.Errorf("partial report: incomplete %v, %d rows, error %q", doc.Incomplete, len(doc.Results), doc.Error)
	}
	assertUntouched(t, dir, before)
}

// waitForLines reads stderr until a line contains want, then drains the
// rest in the background.
func waitForLines(t *testing.T, r interface{ Read([]byte) (int, error) }, want string) {
	t.Helper()
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if strings.Contains(sc.Text(), want) {
			go func() {
				for sc.Scan() {
				}
			}()
			return
		}
	}
	t.Fatalf("stderr ended before %q", want)
}

func TestSecondSignalExitsAtOnceAndRemovesTheFile(t *testing.T) {
	dir := t.TempDir()
	prefill(t, dir)
	before := snapshot(t, dir)
	r := startSweep(t, dir, 100, 1)
	_ = r.cmd.Process.Signal(syscall.SIGTERM)
	_ = r.cmd.Process.Signal(syscall.SIGINT)
	if code := r.wait(t); code != 130 {
		t.Errorf("exit code %d, want 130", code)
	}
	assertUntouched(t, dir, before)
}

func TestHangupCleansUpLikeCtrlC(t *testing.T) {
	testenv.Full(t, "signals to the built binary")
	// Under nohup this process ignores SIGHUP and a child inherits that
	// (and keeps running, as it should there); a signal this process
	// catches is reset to the default in the child.
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	dir := t.TempDir()
	r := startSweep(t, dir, 200, 2)
	_ = r.cmd.Process.Signal(syscall.SIGHUP)
	if code := r.wait(t); code != 130 {
		t.Errorf("exit code %d after SIGHUP, want 130", code)
	}
	if left := dirEntries(t, dir); len(left) != 0 {
		t.Errorf("files left after SIGHUP: %v", left)
	}
}

func TestReportGoesToStdoutWhenTheOutputFileCannotBeWritten(t *testing.T) {
	dir := t.TempDir()
	outDir := t.TempDir()
	r := startSweep(t, dir, 3, 1, "--format", "json", "-o", filepath.Join(outDir, "r.json"))
	if err := os.RemoveAll(outDir); err != nil { // the -o directory vanishes mid-sweep
		t.Fatal(err)
	}
	if code := r.wait(t); code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	if doc := decodeJSON(t, r.out.String()); len(doc.Results) != 1 || len(doc.Results[0].Samples) != 3 {
		t.Errorf("stdout report has %d rows, want the 1 size with its 3 runs", len(doc.Results))
	}
}

// closedPipe is a pipe whose reading end is already closed: every write
// to it fails with EPIPE (and SIGPIPE, were it not ignored).
func closedPipe(t *testing.T) *os.File {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	t.Cleanup(func() { w.Close() })
	return w
}

// A closed stdout and stderr (`2>&1 >/dev/null | head`) must not kill the
// run by SIGPIPE: it finishes, removes its files and saves the report.
func TestBrokenPipesCostNeitherFilesNorTheReport(t *testing.T) {
	dir, cwd, state := t.TempDir(), t.TempDir(), t.TempDir()
	cmd := exec.Command(iobenchBin, "sweep", "--dir", dir, "--size", "1MiB", "--max", "64KiB", "--repeat", "1",
		"--sync", "none", "--no-progress", "--format", "json")
	cmd.Dir = cwd
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+state)
	cmd.Stdout, cmd.Stderr = closedPipe(t), closedPipe(t)
	err := cmd.Run()
	if st := cmd.ProcessState; st == nil || st.Sys().(syscall.WaitStatus).Signaled() {
		t.Fatalf("killed by a signal: %v", err)
	}
	if code := cmd.ProcessState.ExitCode(); code != 1 {
		t.Errorf("exit code %d, want 1 (the report could not go to stdout)", code)
	}
	if left := dirEntries(t, dir); len(left) != 0 {
		t.Errorf("data files left: %v", left)
	}
	saved, _ := filepath.Glob(filepath.Join(state, "iobench", "iobench-report-*.json"))
	if len(saved) != 1 || len(dirEntries(t, cwd)) != 0 {
		t.Fatalf("saved reports %v, in the working directory %v; want one in $XDG_STATE_HOME/iobench, none here", saved, dirEntries(t, cwd))
	}
	if b, err := os.ReadFile(saved[0]); err != nil || len(decodeJSON(t, string(b)).Results) != 7 {
		t.Errorf("saved report unreadable or not 7 rows: %v", err)
	}
}

// Ctrl-C while the 2 GB array fills answers at once, not after the fill.
func TestInterruptWhileTheArrayFills(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 2 GiB")
	}
	dir := t.TempDir()
	cmd := exec.Command(iobenchBin, "sweep", "--dir", dir, "--size", "2GiB", "--sizes", "1MiB", "--repeat", "1",
		"--sync", "none", "--no-progress", "--force", "--profile", "generic")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitForLines(t, stderr, "iobench: profile")
	// That the fill stops within a chunk is TestFillStopsWithinAChunkOfTheStop's.
	testwait.Until(t, "the array filling", func() bool { return residentBytes(cmd.Process.Pid) > 64<<20 })
	_ = cmd.Process.Signal(syscall.SIGINT)
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	testwait.Exit(t, "exit after SIGINT during the fill", cmd.Process, exited, func() string { return "" })
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Errorf("exit code %d, want 130", code)
	}
	if left := dirEntries(t, dir); len(left) != 0 {
		t.Errorf("files left: %v", left)
	}
}

// The reference program shipped in testdata/, built small (2e6 doubles),
// run, and read by analyze: its "bs" counts doubles and its "MiB/s" is
// Mi-doubles per second, so each row becomes 8*bs bytes at 8x the figure.
func TestReferenceProgramThroughAnalyze(t *testing.T) {
	cc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not installed (apt-get install gcc)")
	}
	src, err := os.ReadFile(filepath.Join(moduleRoot, "testdata", "pr91030-bench.c"))
	if err != nil {
		t.Fatal(err)
	}
	small := bytes.Replace(src, []byte("#define N 250000000\n"), []byte("#define N 2000000\n"), 1)
	if bytes.Equal(small, src) {
		t.Fatal("testdata/pr91030-bench.c no longer defines N 250000000")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bench.c"), small, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(cc, "-O2", "-o", filepath.Join(dir, "bench"), filepath.Join(dir, "bench.c")).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	run := exec.Command(filepath.Join(dir, "bench"))
	run.Dir = dir
	text, err := run.Output()
	if err != nil {
		t.Fatalf("reference program: %v", err)
	}
	textPath := filepath.Join(dir, "ref.txt")
	if err := os.WriteFile(textPath, text, 0o644); err != nil {
		t.Fatal(err)
	}
	r := runBinary(t, "analyze", "--format", "json", textPath)
	if r.code != 0 {
		t.Fatalf("analyze: exit %d: %s", r.code, r.stderr)
	}
	doc := decodeJSON(t, r.stdout)
	var printed []float64
	for _, line := range strings.Split(string(text), "\n") {
		var bs int64
		var mibps float64
		if n, _ := fmt.Sscanf(line, "bs = %d, %f MiB/s", &bs, &mibps); n == 2 {
			printed = append(printed, mibps)
		}
	}
	if len(doc.Results) != len(printed) || len(printed) != 17 {
		t.Fatalf("%d rows analyzed, %d printed; want 17 (bs 2^10 .. 2^26 doubles)", len(doc.Results), len(printed))
	}
	for i, row := range doc.Results {
		if want := int64(1024*8) << i; row.WriteSize != want {
			t.Errorf("row %d: write_size %d, want %d (8 x bs)", i, row.WriteSize, want)
		}
		if want := 8 * printed[i]; math.Abs(row.MiBPerSec-want) > 0.01*want+0.1 {
			t.Errorf("row %d: %.2f MiB/s, want 8 x the printed %.2f", i, row.MiBPerSec, printed[i])
		}
	}
	if left := dirEntries(t, dir); len(left) != 3 { // bench.c, bench, ref.txt and nothing else
		t.Errorf("files after the reference ran: %v (it should remove out.dat)", left)
	}
}

// residentBytes is the memory process pid has touched, 0 if unknown.
func residentBytes(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/statm", pid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}
