package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/iobench/iobench/internal/testkit/testenv"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/libcheck"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/runtimes"
)

// needCompiler skips a test on a machine without rt's compiler.
func needCompiler(t *testing.T, rt libcheck.Runtime) {
	t.Helper()
	if _, err := runtimes.FindCompiler(rt, os.Getenv("PATH")); err != nil {
		t.Skipf("no %s compiler: %v", rt, err)
	}
}

// smallRuntime is a quick runtime run: 2 MiB of data, three buffers, two
// rounds, no flush between runs.
func smallRuntime(rt libcheck.Runtime, dir string, extra ...string) []string {
	return append([]string{"runtime", string(rt), "--dir", dir, "--size", "2MiB", "--buffers", "8KiB,64KiB",
		"--repeat", "2", "--sync", "none", "--profile", "generic", "--no-progress"}, extra...)
}

func TestRuntimeTextReport(t *testing.T) {
	needCompiler(t, libcheck.Gfortran)
	dir := t.TempDir()
	prefill(t, dir)
	before := snapshot(t, dir)
	out, errOut, code := runCLI(t, smallRuntime(libcheck.Gfortran, dir)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"gfortran writes through libgfortran",
		"Measured through libgfortran:",
		"Inferred from write(2):",
		"every run made exactly the calls the buffering rule predicts",
		"a quick write(2) sweep here",
		"array, native: any buffer:",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "iobench: gfortran 24/24 r2: ") {
		t.Errorf("no progress line for the last run on stderr:\n%s", errOut)
	}
	assertUntouched(t, dir, before)
}

// TestRuntimeAdaptiveRounds: an adaptive profile makes --repeat auto the
// default, as in sweep: at least MinAutoRounds rounds of every case, then
// fewer, within --time-budget, and the report says what they did.
func TestRuntimeAdaptiveRounds(t *testing.T) {
	needCompiler(t, libcheck.Stdio)
	dir := t.TempDir()
	args := []string{"runtime", "stdio", "--dir", dir, "--size", "2MiB", "--buffers", "8KiB,64KiB", "--convert", "big-endian",
		"--time-budget", "2s", "--sync", "none", "--profile", "generic", "--no-progress", "--format", "json"}
	out, errOut, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc report.RuntimeReport
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("stdout is not one JSON document: %v\n%s", err, out)
	}
	a := doc.Adaptive
	if a == nil || !doc.Config.RepeatAuto || a.Rounds < iobench.MinAutoRounds || doc.Config.Rounds != a.Rounds || !a.BudgetFromFlag || a.BudgetSeconds != 2 {
		t.Fatalf("config %+v, adaptive %+v; want adaptive rounds, at least %d, within the 2 s budget", doc.Config, a, iobench.MinAutoRounds)
	}
	cases := len(doc.Summary.Cases) // 2 layouts x {8 KiB, 64 KiB, the default}
	runs := 0
	for i, n := range a.CasesPerRound {
		if i < iobench.MinAutoRounds && n != cases || i >= iobench.MinAutoRounds && (n >= cases || n%2 != 0) {
			t.Errorf("round %d ran %d of %d cases", i+1, n, cases)
		}
		runs += n
	}
	if runs != len(doc.Samples) || !strings.Contains(errOut, "r3 auto: ") {
		t.Errorf("%d samples of %v cases per round; stderr:\n%s", len(doc.Samples), a.CasesPerRound, errOut)
	}
}

// TestRuntimeJSONFromSweep holds a stdio run against a saved sweep.
func TestRuntimeJSONFromSweep(t *testing.T) {
	needCompiler(t, libcheck.Stdio)
	dir := t.TempDir()
	saved := filepath.Join(t.TempDir(), "sweep.json")
	if _, errOut, code := runCLI(t, "sweep", "--dir", dir, "--size", "2MiB", "--sizes", "4KiB,8KiB,16KiB,32KiB,64KiB",
		"--repeat", "3", "--sync", "none", "--no-progress", "--format", "json", "-o", saved); code != 0 {
		t.Fatalf("sweep: exit %d: %s", code, errOut)
	}
	out, errOut, code := runCLI(t, smallRuntime(libcheck.Stdio, dir, "--from", saved, "--format", "json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc report.RuntimeReport
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("stdout is not one JSON document: %v\n%s", err, out)
	}
	// 2 layouts x 2 byte orders x {8 KiB, 64 KiB, the default}
	if n := len(doc.Summary.Cases); n != 12 || len(doc.Samples) != 24 || !doc.Summary.CallsAsPredicted {
		t.Errorf("%d cases, %d samples, calls as predicted %v; want 12, 24, true", n, len(doc.Samples), doc.Summary.CallsAsPredicted)
	}
	if doc.Sweep == nil || !strings.Contains(doc.Sweep.Source, saved) || len(doc.Sweep.Points) != 5 {
		t.Errorf("sweep %+v, want the 5 sizes of %s", doc.Sweep, saved)
	}
	for _, c := range doc.Summary.Cases {
		if c.Sweep == nil || (!c.Default && c.Gain == nil) {
			t.Errorf("%+v: no gain or no sweep prediction", c.Case)
		}
	}
	if left := dirEntries(t, dir); len(left) != 0 {
		t.Errorf("files left: %v", left)
	}
}

func TestRuntimeBadFlagsExitTwo(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "old.txt")
	if err := os.WriteFile(existing, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--buffers", "4KB"}, "--buffers: "},
		{[]string{"--buffers", "8KiB,8KiB"}, "--buffers: "},
		{[]string{"--buffers", "1"}, "--buffers: 1 bytes is not a whole number of 8-byte float64 elements"},
		{[]string{"--repeat", "2000000000"}, "--repeat: 2000000000 is more than 10000 rounds"},
		{[]string{"--convert", "middle-endian"}, "--convert: "},
		{[]string{"--convert", "native,native"}, "--convert: "},
		{[]string{"--record", "12"}, "--record: "},
		{[]string{"--record", "1GiB"}, "--record: "},
		{[]string{"--repeat", "0"}, "--repeat: "},
		{[]string{"--repeat", "often"}, "--repeat: "},
		{[]string{"--repeat", "auto", "--time-budget", "soon"}, "--time-budget: "},
		{[]string{"--repeat", "auto", "--time-budget", "-1m"}, "--time-budget: "},
		{[]string{"--repeat", "3", "--time-budget", "1m"}, "--time-budget: 1m0s needs --repeat auto (a fixed --repeat runs its rounds whatever they cost)"},
		{[]string{"--profile", "gfortran-pr91030", "--time-budget", "1m"}, "--time-budget: 1m0s needs --repeat auto (a fixed --repeat runs its rounds whatever they cost); profile gfortran-pr91030"},
		{[]string{"--size", "1MiB", "--count", "10"}, "--count and --size"},
		{[]string{"--size", "12"}, "--size: "},
		{[]string{"--sync", "often"}, "--sync: "},
		{[]string{"--format", "gobench"}, "--format: "},
		{[]string{"--knee-fraction", "2"}, "--knee-fraction: "},
		{[]string{"-o", existing}, "--output: "},
		{[]string{"--dir", filepath.Join(dir, "missing")}, "--dir: "},
		{[]string{"--profile", "zfs-on-mars"}, "--profile: "},
		{[]string{"--from", filepath.Join(dir, "missing.json")}, "--from: "},
		{[]string{"--size", "1MiB", "--size", "2MiB"}, `--size: given twice ("1MiB", then "2MiB")`},
	}
	for _, tt := range tests {
		args := append([]string{"runtime", "stdio", "--dir", dir}, tt.args...)
		if tt.args[0] == "--dir" {
			args = append([]string{"runtime", "stdio"}, tt.args...)
		}
		_, errOut, code := runCLI(t, args...)
		if code != 2 || !strings.HasPrefix(errOut, "iobench: "+tt.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q; want 2 and one line starting %q", tt.args, code, errOut, "iobench: "+tt.want)
		}
	}
	for _, args := range [][]string{{"runtime"}, {"runtime", "ifort"}} {
		if _, errOut, code := runCLI(t, args...); code != 2 || !strings.Contains(errOut, "gfortran") {
			t.Errorf("%q: exit %d, stderr %q; want 2 naming the runtimes", args, code, errOut)
		}
	}
}

func TestRuntimeWithoutCompiler(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	dir := t.TempDir()
	for rt, want := range map[libcheck.Runtime]string{
		libcheck.Gfortran: "iobench: gfortran not found: install it (Debian: apt-get install gfortran)\n",
		libcheck.Stdio:    "iobench: a C compiler (cc or gcc) not found: install it (Debian: apt-get install gcc)\n",
	} {
		out, errOut, code := runCLI(t, smallRuntime(rt, dir)...)
		if code != 1 || errOut != want || out != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 1 and %q", rt, code, out, errOut, want)
		}
	}
	if left := dirEntries(t, dir); len(left) != 0 {
		t.Errorf("files left: %v", left)
	}
}

// TestRuntimeInterruptLeavesNoFile interrupts the built binary while the
// runtime's writer runs: exit 130, a partial report, no data file; a
// second signal kills the writer and removes its file at once.
func TestRuntimeInterruptLeavesNoFile(t *testing.T) {
	testenv.Full(t, "signals to the built binary")
	needCompiler(t, libcheck.Stdio)
	saved := savedSweep(t)
	for _, signals := range []int{1, 2} {
		dir := t.TempDir()
		prefill(t, dir)
		before := snapshot(t, dir)
		cmd := exec.Command(iobenchBin, "runtime", "stdio", "--dir", dir, "--size", "64MiB", "--buffers", "4KiB", "--repeat", "100",
			"--sync", "none", "--fsync", "--profile", "generic", "--from", saved, "--format", "json")
		var out, errOut strings.Builder
		cmd.Stdout = &out
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(stderr)
		for sc.Scan() && !strings.Contains(sc.Text(), "iobench: stdio 2/") {
		}
		time.Sleep(20 * time.Millisecond) // into the next run's writes
		for range signals {
			if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
		}
		for sc.Scan() { // to EOF: the process exited
			errOut.WriteString(sc.Text() + "\n")
		}
		err = cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 130 {
			t.Errorf("%d signal(s): exit %v, want 130", signals, err)
		}
		// Two signals: the second may find the run already stopped; either
		// way nothing is left and the writer's files are gone.
		if signals == 2 && strings.Contains(errOut.String(), "could not be removed") {
			t.Errorf("second signal: %q", errOut.String())
		}
		if signals == 1 {
			var doc report.RuntimeReport
			if err := json.Unmarshal([]byte(out.String()), &doc); err != nil || !doc.Incomplete || !strings.Contains(doc.Error, "interrupted") {
				t.Errorf("partial report: %v; incomplete %v, error %q", err, doc.Incomplete, doc.Error)
			}
		}
		assertUntouched(t, dir, before)
	}
}

// savedSweep is a quick saved write(2) sweep of 4 KiB and 64 KiB, for
// --from.
func savedSweep(t *testing.T) string {
	t.Helper()
	saved := filepath.Join(t.TempDir(), "sweep.json")
	if r := runBinary(t, "sweep", "--dir", t.TempDir(), "--size", "1MiB", "--sizes", "4KiB,64KiB", "--repeat", "1",
		"--sync", "none", "--no-progress", "--format", "json", "-o", saved); r.code != 0 {
		t.Fatalf("sweep: exit %d: %s", r.code, r.stderr)
	}
	return saved
}

// The profile's --sync reaches the runtime check's runs, unless the
// command line gives one: gfortran-pr91030 syncs with sync(2).
func TestRuntimeTakesTheProfilesSync(t *testing.T) {
	needCompiler(t, libcheck.Stdio)
	for _, tt := range []struct {
		extra []string
		want  string
	}{{nil, "sync"}, {[]string{"--sync", "none"}, "none"}} {
		args := append([]string{"runtime", "stdio", "--dir", t.TempDir(), "--size", "1MiB", "--buffers", "8KiB", "--convert", "native",
			"--repeat", "1", "--profile", "gfortran-pr91030", "--no-progress", "--format", "json"}, tt.extra...)
		out, errOut, code := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tt.extra, code, errOut)
		}
		var doc report.RuntimeReport
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("stdout is not one JSON document: %v", err)
		}
		if doc.Config.Sync != tt.want {
			t.Errorf("%v: config.sync = %q, want %q", tt.extra, doc.Config.Sync, tt.want)
		}
	}
}
