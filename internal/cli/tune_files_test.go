package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// counterProgram updates counter.txt in place (1<> opens it without
// truncating), truncates table.dat with what it read, prints a line to
// its stdout and writes out.dat in BS-byte calls.
const counterProgram = `#!/bin/sh
n=$(cat counter.txt)
printf '%s\n' $((n+1)) 1<> counter.txt
echo "table $n" > table.dat
echo hello
dd if=/dev/zero of=out.dat bs=${BS:-512} count=$((131072 / ${BS:-512})) status=none
`

// counterDir is a working directory with the counter program, its two
// files as they were before tune, and run.log, iobench's stdout.
func counterDir(t *testing.T) (string, *os.File) {
	t.Helper()
	dir := tuneDir(t)
	for name, body := range map[string]string{"prog.sh": counterProgram, "counter.txt": "0\n", "table.dat": "original\n", "run.log": ""} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stdout, err := os.OpenFile(filepath.Join(dir, "run.log"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdout.Close() })
	return dir, stdout
}

// tuneWithStdout runs tune with stdout on a file: the program inherits
// it, as under a shell's > run.log.
func tuneWithStdout(t *testing.T, stdout *os.File, args ...string) (string, int) {
	t.Helper()
	var errb bytes.Buffer
	full := append([]string{"iobench", "tune", "--curve-time", "2s"}, args...)
	err := run(context.Background(), testEnv(stdout, &errb), append(full, "--", "sh", "./prog.sh"))
	code := exitCode(err, &errb)
	return errb.String(), code
}

func readOr(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// A file the program updates in place is put back as it was before the
// first of all runs, app's traced and untraced ones included: after
// tune it is as one run leaves it. A file it truncates is put back too,
// and the user's own > run.log is not the program's to restore.
func TestTunePutsBackFilesAsBeforeTheFirstRun(t *testing.T) {
	dir, stdout := counterDir(t)
	out := filepath.Join(t.TempDir(), "tune.json")
	stderr, code := tuneWithStdout(t, stdout, "--set", "BS=4096", "--time-budget", "5s", "--format", "json", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for name, want := range map[string]string{"counter.txt": "1\n", "table.dat": "table 0\n", "run.log": "hello\n"} {
		if got := readOr(t, filepath.Join(dir, name)); got != want {
			t.Errorf("%s = %q after tune, want %q: one run's effect\n%s", name, got, want, stderr)
		}
	}
	rep := readTuneReport(t, out)
	log := filepath.Join(dir, "run.log")
	if !slices.Contains(rep.Files.Inherited, log) || slices.Contains(rep.Files.Checked, log) || slices.Contains(rep.Files.Restored, log) {
		t.Errorf("files %+v: run.log is the user's redirect, not an output to check or restore", rep.Files)
	}
	for _, name := range []string{"counter.txt", "table.dat"} {
		if !slices.Contains(rep.Files.Restored, filepath.Join(dir, name)) {
			t.Errorf("files %+v: %s not put back from the copy made before the first run", rep.Files, name)
		}
	}
	if !rep.Deterministic {
		t.Errorf("the warm-up runs wrote different bytes: the counter was not put back before each\n%s", stderr)
	}
}

// Over --max-saved, tune refuses, naming the flag and the files, after
// one run of the program: before app's untraced run and its curve.
func TestTuneRefusesWhatItCouldNotSave(t *testing.T) {
	for _, max := range []string{"1", "0"} {
		t.Run("max-saved="+max, func(t *testing.T) {
			dir, stdout := counterDir(t)
			stderr, code := tuneWithStdout(t, stdout, "--max-saved", max, "--set", "BS=4096", "--time-budget", "5s")
			if code != 125 {
				t.Fatalf("exit %d, want 125\n%s", code, stderr)
			}
			if !strings.Contains(stderr, "--max-saved") || !strings.Contains(stderr, "counter.txt") || strings.Contains(stderr, "a quick curve in ") {
				t.Errorf("the refusal does not name --max-saved and counter.txt, or comes after the curve:\n%s", stderr)
			}
			if got := readOr(t, filepath.Join(dir, "counter.txt")); got != "1\n" {
				t.Errorf("counter.txt = %q after the refusal, want one run's %q", got, "1\n")
			}
		})
	}
}
