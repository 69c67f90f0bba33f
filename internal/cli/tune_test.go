package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/iobench/iobench/internal/testkit/testenv"
	"github.com/iobench/iobench/report"
)

// fakeProgram is a program whose speed and write size depend on its
// environment: FAST=1 writes 64 KiB calls and naps less; QUICK=1 naps
// less alone, BS sets the call size alone; FAIL and KILL end it badly. It reads input.txt and
// appends a line to log.txt, both there before it runs.
const fakeProgram = `#!/bin/sh
bs=${BS:-512}
nap=0.06
if [ -n "$FAST" ]; then bs=65536; nap=0.01; fi
[ -n "$QUICK" ] && nap=0.01
[ -n "$FAIL" ] && exit 1
[ -n "$KILL" ] && kill -9 $$
cat input.txt > /dev/null
echo run >> log.txt
dd if=/dev/zero of=out.dat bs=$bs count=$((262144 / bs)) status=none
sleep $nap
`

// tuneDir is a working directory with the fake program and the files
// it finds there.
func tuneDir(t *testing.T) string {
	t.Helper()
	testenv.Full(t, "strace, a quick sweep and many runs of a program")
	testenv.Command(t, "strace")
	dir := t.TempDir()
	for name, body := range map[string]string{"prog.sh": fakeProgram, "input.txt": "keep me\n", "log.txt": "before\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	return dir
}

func runTune(t *testing.T, args ...string) (*report.TuneReport, string, int) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "tune.json")
	full := append([]string{"tune", "--curve-time", "2s", "--format", "json", "-o", out}, args...)
	full = append(full, "--", "sh", "./prog.sh")
	_, stderr, code := runCLI(t, full...)
	return readTuneReport(t, out), stderr, code
}

// readTuneReport reads a JSON tune report; an empty one when tune wrote
// none.
func readTuneReport(t *testing.T, path string) *report.TuneReport {
	t.Helper()
	var rep report.TuneReport
	if raw, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(raw, &rep); err != nil {
			t.Fatal(err)
		}
	}
	return &rep
}

// The user's files are as one run of the program leaves them: the input
// untouched, the log with one line more, the output the baseline's.
func checkFiles(t *testing.T, dir string) {
	t.Helper()
	for name, want := range map[string]string{"input.txt": "keep me\n", "log.txt": "before\nrun\n"} {
		if got, _ := os.ReadFile(filepath.Join(dir, name)); string(got) != want {
			t.Errorf("%s = %q after tune, want %q", name, got, want)
		}
	}
	if st, err := os.Stat(filepath.Join(dir, "out.dat")); err != nil || st.Size() != 262144 {
		t.Errorf("out.dat after tune: %v, %v; want the last baseline run's 262144 bytes", st, err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 4 {
		t.Errorf("left in the working directory: %v", ents)
	}
}

func TestTuneFindsTheFasterSetting(t *testing.T) {
	dir := tuneDir(t)
	rep, stderr, code := runTune(t, "--set", "FAST=1", "--time-budget", "60s")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if rep.Winner != "FAST=1" || rep.Confirm == nil || !rep.Confirm.Decided || rep.Confirm.Ratio >= 1 {
		t.Errorf("winner %q, confirm %+v; want FAST=1 confirmed faster\n%s", rep.Winner, rep.Confirm, stderr)
	}
	if !strings.Contains(strings.Join(rep.Apply, "\n"), "export FAST=1") {
		t.Errorf("apply lines %q, want an export", rep.Apply)
	}
	if len(rep.Files.Created) != 1 || len(rep.Files.Restored) != 1 || !rep.Deterministic {
		t.Errorf("files %+v, deterministic %v: want out.dat created, log.txt (appended to) put back from the copy, same outputs", rep.Files, rep.Deterministic)
	}
	checkFiles(t, dir)
}

func TestTuneNoDifference(t *testing.T) {
	dir := tuneDir(t)
	rep, stderr, code := runTune(t, "--set", "BS=256", "--set", "UNUSED=1", "--alpha", "0.001", "--time-budget", "8s")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if rep.Winner != "" {
		t.Errorf("winner %q: UNUSED=1 changes nothing, BS=256 only adds calls\n%s", rep.Winner, stderr)
	}
	unused := rep.Arms[2]
	if unused.Name != "UNUSED=1" || !unused.NoEffect || unused.Runs < 2 || unused.Excluded != "" {
		t.Errorf("UNUSED=1: %+v, want no effect on the call sizes, and timed: it is the user's own", unused)
	}
	if bs := rep.Arms[1]; bs.NoEffect || bs.Runs < 2 {
		t.Errorf("BS=256: %+v, want an effect and timed runs", bs)
	}
	checkFiles(t, dir)
}

// A setting of the user's own that changes the program's time and not
// its calls is timed, and wins: the traced check alone would drop it.
func TestTuneTimesASettingOfYourOwn(t *testing.T) {
	dir := tuneDir(t)
	rep, stderr, code := runTune(t, "--set", "QUICK=1", "--time-budget", "60s")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if a := rep.Arms[1]; !a.NoEffect || !strings.Contains(a.Effect, "timed all the same") || rep.Winner != "QUICK=1" {
		t.Errorf("QUICK=1: %+v, winner %q; want the calls unchanged, timed, and the winner\n%s", a, rep.Winner, stderr)
	}
	if !strings.HasPrefix(stderr, "iobench: tune: first as app does") || rep.ExpectedSeconds <= 0 || !strings.Contains(stderr, "warm-up and 1 traced check run(s)") {
		t.Errorf("expected %v s; the phases and the duration were not said first:\n%s", rep.ExpectedSeconds, stderr)
	}
	checkFiles(t, dir)
}

func TestTuneSurvivesFailingCandidates(t *testing.T) {
	dir := tuneDir(t)
	rep, stderr, code := runTune(t, "--set", "FAIL=1", "--set", "KILL=1", "--time-budget", "10s")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for i, want := range []string{"exit status 1", "killed by signal 9"} {
		if a := rep.Arms[i+1]; !strings.Contains(a.Excluded, want) || a.Runs != 0 {
			t.Errorf("%s: excluded %q after %d runs, want %q", a.Name, a.Excluded, a.Runs, want)
		}
	}
	if rep.Winner != "" {
		t.Errorf("a failing setting won: %q", rep.Winner)
	}
	checkFiles(t, dir)
}

func TestTuneUsageErrors(t *testing.T) {
	for _, tc := range []struct{ args []string }{
		{[]string{"tune", "--set", "=1", "--", "true"}},
		{[]string{"tune", "--alpha", "0.7", "--", "true"}},
		{[]string{"tune", "--time-budget", "0s", "--", "true"}},
		{[]string{"tune"}},
	} {
		if _, stderr, code := runCLI(t, tc.args...); code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") > 1 {
			t.Errorf("%v: exit %d, want 2 with a line naming the flag\n%s", tc.args, code, stderr)
		}
	}
}

// Interrupted, tune stops the program and puts the files back as each
// run found them: the input untouched, the log as it was before tune.
func TestTuneInterrupted(t *testing.T) {
	dir := tuneDir(t)
	ctx, cancel := context.WithCancelCause(context.Background())
	time.AfterFunc(2500*time.Millisecond, func() { cancel(errors.New("interrupt")) })
	var out, errb bytes.Buffer
	err := run(ctx, testEnv(&out, &errb), []string{"iobench", "tune", "--curve-time", "1s", "--set", "BS=1024", "--alpha", "0.0001", "--time-budget", "60s", "--", "sh", "./prog.sh"})
	if code := exitCode(afterSignal(ctx, err), &errb); code != 130 {
		t.Fatalf("exit %d, want 130\n%s", code, errb.String())
	}
	for name, want := range map[string]string{"input.txt": "keep me\n", "log.txt": "before\n"} {
		if got, _ := os.ReadFile(filepath.Join(dir, name)); string(got) != want {
			t.Errorf("%s = %q after an interrupted tune, want %q", name, got, want)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) > 4 {
		t.Errorf("left in the working directory: %v", ents)
	}
}

// A piped stdin is captured once and replayed to every run: a program
// that copies it into its output writes the same bytes each time.
func TestTuneReplaysStdin(t *testing.T) {
	dir := tuneDir(t)
	if err := os.WriteFile(filepath.Join(dir, "prog.sh"), []byte("#!/bin/sh\ncat > out.dat\ndd if=/dev/zero bs=${BS:-512} count=8 status=none >> out.dat\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(t.TempDir(), "stdin")
	if err := os.WriteFile(in, []byte("the input deck\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	saved := os.Stdin
	os.Stdin = f
	defer func() { os.Stdin = saved }()
	rep, stderr, code := runTune(t, "--set", "BS=1024", "--time-budget", "5s")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if !rep.Deterministic {
		t.Errorf("the warm-up runs wrote different bytes: stdin was not replayed\n%s", stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "out.dat")); !strings.HasPrefix(string(got), "the input deck\n") {
		t.Errorf("the last run's output starts %q, want the input deck", got[:min(len(got), 20)])
	}
}
