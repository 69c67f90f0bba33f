package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/iobench/iobench/internal/testkit/testenv"
	"github.com/iobench/iobench/runtimes"
)

// appProgramDoc is the part of app's JSON that `app -- PROG` adds.
type appProgramDoc struct {
	Program struct {
		Exe             string  `json:"exe"`
		Status          int     `json:"status"`
		Traced          bool    `json:"traced"`
		WallBasis       string  `json:"wall_basis"`
		UntracedSeconds float64 `json:"untraced_wall_seconds"`
		Flush           string  `json:"flush"`
		Libraries       []struct {
			Kind string `json:"kind"`
		} `json:"libraries"`
		Curve struct {
			Source  string `json:"source"`
			Flush   string `json:"flush"`
			Matches bool   `json:"matches"`
		} `json:"curve"`
	} `json:"program"`
	Estimate struct {
		MeasuredBy  string  `json:"measured_by"`
		AccountsFor float64 `json:"accounts_for"`
	} `json:"estimate"`
}

// app -- runs a script that starts dd: it reads dd, not the shell, as the
// program, times it untraced, and prices it on a page-cache quick curve.
func TestAppRunsTheProgram(t *testing.T) {
	testenv.Full(t, "strace and a quick sweep")
	testenv.Command(t, "strace")
	dir := t.TempDir()
	t.Chdir(dir)
	report := filepath.Join(t.TempDir(), "app.json")
	stdout, stderr, code := runCLI(t, "app", "--curve-time", "3s", "--format", "json", "-o", report, "--",
		"sh", "-c", "dd if=/dev/zero of=out.dat bs=4096 count=2048 status=none && echo done")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if stdout != "done\n" {
		t.Errorf("stdout = %q, want the program's own output only", stdout)
	}
	var doc appProgramDoc
	readJSON(t, report, &doc)
	p := doc.Program
	if filepath.Base(p.Exe) != "dd" || !p.Traced || p.WallBasis != "untraced" || p.UntracedSeconds <= 0 {
		t.Errorf("program = %+v, want dd, traced, timed untraced", p)
	}
	if p.Flush != "none" || p.Curve.Source != "quick sweep" || p.Curve.Flush != "none" || !p.Curve.Matches {
		t.Errorf("flush %q, curve %+v: want none on a matching quick curve", p.Flush, p.Curve)
	}
	if len(p.Libraries) == 0 || p.Libraries[len(p.Libraries)-1].Kind != "glibc stdio" {
		t.Errorf("libraries = %+v, want glibc stdio among them", p.Libraries)
	}
	if doc.Estimate.MeasuredBy != "strace -T" || doc.Estimate.AccountsFor != 0 {
		t.Errorf("estimate %+v: strace's time must not be compared", doc.Estimate)
	}
	if _, err := os.Stat(filepath.Join(dir, "out.dat")); err != nil {
		t.Errorf("the program's output is gone: %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left in the working directory: %v, want only out.dat", ents)
	}
}

// The program's exit status is app's, as env(1) gives it; a program
// that cannot be found is 127.
func TestAppReturnsTheProgramsStatus(t *testing.T) {
	t.Chdir(t.TempDir())
	if _, stderr, code := runCLI(t, "app", "--untraced-below", "0", "--", "sh", "-c", "exit 3"); code != 3 {
		t.Errorf("exit %d, want 3\n%s", code, stderr)
	}
	_, stderr, code := runCLI(t, "app", "--", "no-such-program-iobench")
	if code != 127 || !strings.Contains(stderr, "no-such-program-iobench") {
		t.Errorf("exit %d, want 127 naming the program\n%s", code, stderr)
	}
}

// A C program writing 64-byte records through stdio's default buffer is
// priced through C stdio's own writer too: its 4 KiB buffer against the
// recommended one, every scratch file gone afterwards.
func TestAppPricesStdioThroughItsWriter(t *testing.T) {
	testenv.Full(t, "strace, a compiler and a quick sweep")
	testenv.Command(t, "strace")
	cc := testenv.Command(t, "gcc", "cc")
	bin := filepath.Join(t.TempDir(), "stdio-records")
	src, err := filepath.Abs(filepath.Join("..", "..", "examples", "stdio-records.c"))
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(cc, "-O2", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	dir := t.TempDir()
	if blockSizeOf(dir) != 4096 {
		t.Skipf("st_blksize of %s is %d, not stdio's 4096 of the example", dir, blockSizeOf(dir))
	}
	t.Chdir(dir)
	report := filepath.Join(t.TempDir(), "app.json")
	if _, stderr, code := runCLI(t, "app", "--curve-time", "5s", "--format", "json", "-o", report, "--", bin, "16"); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var doc struct {
		Program struct {
			RuntimePrice *struct {
				Runtime string `json:"runtime"`
				Bytes   int64  `json:"bytes"`
				Now     struct {
					Buffer int64 `json:"buffer_bytes"`
					Runs   int   `json:"runs"`
					Calls  int64 `json:"calls"`
				} `json:"now"`
				Advised struct {
					Buffer int64 `json:"buffer_bytes"`
				} `json:"advised"`
			} `json:"runtime_price"`
			Notes []string `json:"notes"`
		} `json:"program"`
	}
	readJSON(t, report, &doc)
	rp := doc.Program.RuntimePrice
	if rp == nil {
		t.Fatalf("no runtime price; notes: %q", doc.Program.Notes)
	}
	if rp.Runtime != "stdio" || rp.Bytes != 16<<20 || rp.Now.Buffer != 4096 || rp.Now.Runs < runtimes.PriceRounds || rp.Advised.Buffer <= 4096 {
		t.Errorf("price %+v: want stdio, 16 MiB, at least %d runs at 4096 against a larger buffer", *rp, runtimes.PriceRounds)
	}
	if rp.Now.Calls >= 0 && rp.Now.Calls != 4096 {
		t.Errorf("the writer's 4 KiB buffer made %d calls for 16 MiB, want 4096", rp.Now.Calls)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left in the working directory: %v, want only out.dat", ents)
	}
}

// The untraced run starts from the state the traced one did: a file the
// traced run created is removed first, so a program that refuses to
// overwrite its output runs again, and the time has no truncation in it.
func TestAppUntracedRunStartsAsTheTracedOne(t *testing.T) {
	testenv.Full(t, "strace")
	testenv.Command(t, "strace")
	t.Chdir(t.TempDir())
	report := filepath.Join(t.TempDir(), "app.json")
	_, stderr, code := runCLI(t, "app", "--curve-time", "2s", "--format", "json", "-o", report, "--",
		"sh", "-c", "test ! -e out.dat && dd if=/dev/zero of=out.dat bs=65536 count=64 status=none")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var doc struct {
		Program struct {
			WallBasis   string   `json:"wall_basis"`
			UntracedWhy string   `json:"untraced_note"`
			Notes       []string `json:"notes"`
		} `json:"program"`
	}
	readJSON(t, report, &doc)
	if doc.Program.WallBasis != "untraced" {
		t.Errorf("wall basis %q (%s): want the untraced run's time", doc.Program.WallBasis, doc.Program.UntracedWhy)
	}
	if !strings.Contains(strings.Join(doc.Program.Notes, "\n"), "out.dat, which the traced run created, removed first") {
		t.Errorf("notes %q: want the removal said", doc.Program.Notes)
	}
	if _, err := os.Stat("out.dat"); err != nil {
		t.Errorf("the program's output is gone: %v", err)
	}
}

// readJSON decodes the JSON file at path into v.
func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatal(err)
	}
}

// --scratch is where app keeps its own files of the run, in a directory
// of its own that it removes; the program's TMPDIR is left as it was.
func TestAppKeepsItsFilesInScratch(t *testing.T) {
	testenv.Full(t, "strace and a quick sweep")
	testenv.Command(t, "strace")
	dir, scratch := t.TempDir(), t.TempDir()
	t.Chdir(dir)
	script := `ls "$1" > seen.txt; printf '%s' "$TMPDIR" > tmpdir.txt; dd if=/dev/zero of=out.dat bs=4096 count=256 status=none`
	_, stderr, code := runCLI(t, "app", "--curve-time", "2s", "--scratch", scratch, "--", "sh", "-c", script, "sh", scratch)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if seen := readOr(t, filepath.Join(dir, "seen.txt")); !strings.HasPrefix(seen, "iobench-app-") {
		t.Errorf("the program saw %q in --scratch, want iobench's directory", seen)
	}
	if got := readOr(t, filepath.Join(dir, "tmpdir.txt")); got != os.Getenv("TMPDIR") {
		t.Errorf("the program's TMPDIR = %q, want its own %q", got, os.Getenv("TMPDIR"))
	}
	if ents, _ := os.ReadDir(scratch); len(ents) != 0 {
		t.Errorf("left in --scratch: %v", ents)
	}
}

// A --scratch that is not a writable directory is a usage error naming
// the flag, before the program runs.
func TestScratchMustBeADirectory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	writeFile(t, file, "x")
	dir := t.TempDir()
	t.Chdir(dir)
	if abs, err := absScratch("."); err != nil || abs != dir {
		t.Errorf("absScratch(.) = %q, %v; want %s: the writers are built, and the program runs, elsewhere", abs, err, dir)
	}
	for _, cmd := range []string{"app", "tune"} {
		for _, bad := range []string{file, filepath.Join(file, "missing")} {
			_, stderr, code := runCLI(t, cmd, "--scratch", bad, "--", "true")
			if code != 2 || !strings.Contains(stderr, "--scratch: ") || !strings.Contains(stderr, bad) {
				t.Errorf("%s --scratch %s: exit %d, %q; want 2 naming the flag and the value", cmd, bad, code, stderr)
			}
		}
	}
}

// The flags of a program's run are refused when app reads logs instead:
// they would do nothing.
func TestAppLogsRefuseTheProgramsFlags(t *testing.T) {
	log := filepath.Join(t.TempDir(), "run.strace")
	writeFile(t, log, "")
	for _, args := range [][]string{{"--scratch", t.TempDir()}, {"--trace", "x"}, {"--curve-time", "5s"}, {"--untraced-below", "1s"}} {
		_, stderr, code := runCLI(t, append(append([]string{"app"}, args...), log)...)
		if code != 2 || !strings.Contains(stderr, args[0]+": only with app -- PROG") {
			t.Errorf("app %v LOG: exit %d, %q; want 2 naming %s", args, code, stderr, args[0])
		}
	}
}

// A program that updates a file of the working directory in place is
// run a second time, untraced, and app says the file is as two runs
// leave it, and how to run the program once.
func TestAppSaysWhatTheSecondRunUpdated(t *testing.T) {
	testenv.Full(t, "strace and a quick sweep")
	testenv.Command(t, "strace")
	dir := t.TempDir()
	t.Chdir(dir)
	writeFile(t, filepath.Join(dir, "counter.txt"), "0\n")
	script := `n=$(cat counter.txt); printf '%s\n' $((n+1)) 1<> counter.txt; dd if=/dev/zero of=out.dat bs=4096 count=256 status=none`
	_, stderr, code := runCLI(t, "app", "--curve-time", "2s", "--", "sh", "-c", script)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	counter := filepath.Join(dir, "counter.txt")
	if got := readOr(t, counter); got != "2\n" {
		t.Errorf("counter.txt = %q, want two runs' %q", got, "2\n")
	}
	if !strings.Contains(stderr, "the program updates "+counter+" in place, which the untraced run updates again") || !strings.Contains(stderr, "--untraced-below 0 runs the program once") {
		t.Errorf("stderr does not name the file the second run updated:\n%s", stderr)
	}
	if strings.Contains(stderr, "updates "+filepath.Join(dir, "out.dat")) {
		t.Errorf("out.dat, which the run created, is named as updated in place:\n%s", stderr)
	}
}
