package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/iobench/iobench/workload"
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

// A file under a directory the listing could not read, or beyond an
// incomplete listing, is not one the program created: never removed.
func TestTreeListingCreated(t *testing.T) {
	l := treeListing{dir: "/w", files: map[string]bool{"/w/old": true}, complete: true, unreadable: []string{"/w/locked"}}
	for path, want := range map[string]bool{"/w/new": true, "/w/old": false, "/w/locked/data": false, "/elsewhere/new": false} {
		if got := l.created(path); got != want {
			t.Errorf("created(%s) = %v, want %v", path, got, want)
		}
	}
	l.complete = false
	if l.created("/w/new") {
		t.Error("an incomplete listing called a file created")
	}
}

// guardOf is tune's guard over dir's files as one run of a program
// left them, with the copy tune made before it.
func guardOf(t *testing.T, dir string, maxSaved int64, run func(), written ...workload.File) (*fileGuard, error) {
	t.Helper()
	r := &programRun{before: listTree(dir), tmp: t.TempDir()}
	snap, err := copyTree(context.Background(), r.before.files, maxSaved, r.tmp)
	if err != nil {
		t.Fatal(err)
	}
	r.snap = snap
	run()
	return newFileGuard(r, written, maxSaved)
}

// A file opened both to update in place and to append is put back
// from the copy, not cut back by the bytes appended; an old output the
// copy could not hold, which the program truncates, is rewritten, not
// refused.
func TestGuardPrefersTheCopy(t *testing.T) {
	dir := t.TempDir()
	mixed, big := filepath.Join(dir, "mixed.txt"), filepath.Join(dir, "big.out")
	writeFile(t, mixed, "0123456789\n")
	writeFile(t, big, strings.Repeat("x", 4096))
	g, err := guardOf(t, dir, 100, func() {
		writeFile(t, mixed, "XY23456789\nZ\n") // 1<> then >>
		writeFile(t, big, "new")
	}, workload.File{Path: mixed, Opened: true, OpenFlags: []string{"O_APPEND"}, Bytes: 4},
		workload.File{Path: big, Opened: true, OpenFlags: []string{"O_TRUNC"}, Bytes: 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.reset(); err != nil {
		t.Fatal(err)
	}
	if got := readOr(t, mixed); got != "0123456789\n" {
		t.Errorf("mixed.txt after reset = %q, want it as before the first run", got)
	}
	if !slices.Contains(g.files.Rewritten, big) || slices.Contains(g.files.Restored, big) {
		t.Errorf("files %+v: big.out, truncated and over --max-saved, should be rewritten", g.files)
	}
}

// The budget counts the copies kept, not those of files the program
// only read: a small file updated outside the tree is still saved.
func TestGuardBudgetCountsKeptCopies(t *testing.T) {
	dir, outside := t.TempDir(), filepath.Join(t.TempDir(), "counter")
	writeFile(t, filepath.Join(dir, "input.deck"), strings.Repeat("x", 90))
	writeFile(t, outside, "0")
	g, err := guardOf(t, dir, 100, func() { writeFile(t, outside, "1") },
		workload.File{Path: outside, Opened: true, Bytes: 1})
	if err != nil || !slices.Contains(g.files.SavedLate, outside) {
		t.Errorf("guard %+v, %v: want the outside counter saved", g, err)
	}
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The working directory is named as the trace names it: links resolved.
func TestWorkDirResolvesLinks(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	t.Chdir(link)
	want, _ := filepath.EvalSymlinks(real)
	if got, err := workDir(); err != nil || got != want {
		t.Errorf("workDir() = %q, %v; want %q", got, err, want)
	}
}

// Without a trace tune cannot tell the program's files, and refuses
// after the one run app made, before any of its own.
func TestTuneWithoutATrace(t *testing.T) {
	refuseTracing(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "counter.txt"), "0\n")
	writeFile(t, filepath.Join(dir, "prog.sh"), counterProgram)
	t.Chdir(dir)
	_, stderr, code := runCLI(t, "tune", "--set", "BS=4096", "--", "sh", "./prog.sh")
	if code != 125 || !strings.Contains(stderr, "could not be traced") {
		t.Errorf("exit %d, want 125 saying it could not trace\n%s", code, stderr)
	}
	if got := readOr(t, filepath.Join(dir, "counter.txt")); got != "1\n" {
		t.Errorf("counter.txt = %q, want one run's %q", got, "1\n")
	}
}

// Interrupted during app's traced run, tune puts back what its copy
// holds that the program changed.
func TestTuneInterruptedInAppsPart(t *testing.T) {
	dir, _ := counterDir(t)
	writeFile(t, filepath.Join(dir, "prog.sh"), "#!/bin/sh\necho half > table.dat\nsleep 30\n")
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() {
		for readOr(t, filepath.Join(dir, "table.dat")) != "half\n" {
			time.Sleep(20 * time.Millisecond)
		}
		cancel(errors.New("interrupt"))
	}()
	var out, errb bytes.Buffer
	err := run(ctx, testEnv(&out, &errb), []string{"iobench", "tune", "--curve-time", "1s", "--set", "BS=1024", "--", "sh", "./prog.sh"})
	if code := exitCode(afterSignal(ctx, err), &errb); code != 130 {
		t.Fatalf("exit %d, want 130\n%s", code, errb.String())
	}
	if got := readOr(t, filepath.Join(dir, "table.dat")); got != "original\n" {
		t.Errorf("table.dat = %q after an interrupted first run, want %q", got, "original\n")
	}
}

// A restore that fails keeps the scratch directory, the only good copy,
// and the error says where it is.
func TestFailedRestoreKeepsTheCopy(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "state.txt")
	writeFile(t, f, "before\n")
	var errb bytes.Buffer
	r := &programRun{o: programOptions{copyFirst: true, saveFirst: 1 << 20}, before: listTree(dir), tmp: t.TempDir(), stderr: &errb}
	if err := r.saveTree(context.Background()); err != nil {
		t.Fatal(err)
	}
	g, err := newFileGuard(r, []workload.File{{Path: f, Opened: true}}, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(f); err != nil || os.Mkdir(f, 0o755) != nil { // the program left a directory there
		t.Fatal(err)
	}
	err = g.reset()
	r.removeTmp()
	if err == nil || !strings.Contains(err.Error(), "kept at "+r.tmp) {
		t.Errorf("reset: %v; want the copy's place named", err)
	}
	if _, serr := os.Stat(r.tmp); serr != nil || !strings.Contains(errb.String(), "kept "+r.tmp) {
		t.Errorf("scratch %v, stderr %q: want it kept and said so", serr, errb.String())
	}
}

// A file outside the tree that the program appends to is cut back to
// its size before the run.
func TestGuardCutsBackAnAppendOutsideTheTree(t *testing.T) {
	log := filepath.Join(t.TempDir(), "run.log")
	writeFile(t, log, "old\n")
	g, err := guardOf(t, t.TempDir(), 1<<20, func() { writeFile(t, log, "old\nnew\n") },
		workload.File{Path: log, Opened: true, OpenFlags: []string{"O_APPEND"}, Bytes: 4})
	if err != nil || !slices.Contains(g.files.Appended, log) {
		t.Fatalf("guard %+v, %v: want run.log appended", g, err)
	}
	if err := g.reset(); err != nil || readOr(t, log) != "old\n" {
		t.Errorf("after reset: %q, %v; want %q", readOr(t, log), err, "old\n")
	}
}

// A --scratch held in memory (a tmpfs) is said to take RAM from the
// program's runs, and tune leaves nothing in it.
func TestTuneSaysAScratchInMemory(t *testing.T) {
	dir, stdout := counterDir(t)
	if room, mem := scratchRoom("/dev/shm"); mem == "" || room < 1<<20 {
		t.Skip("/dev/shm is not a tmpfs with room here")
	}
	scratch, err := os.MkdirTemp("/dev/shm", "iobench-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(scratch) })
	stderr, code := tuneWithStdout(t, stdout, "--scratch", scratch, "--set", "BS=4096", "--time-budget", "5s")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "the copy is held in memory (/dev/shm is a tmpfs or ramfs)") {
		t.Errorf("stderr does not say the copy takes RAM:\n%s", stderr)
	}
	if ents, _ := os.ReadDir(scratch); len(ents) != 0 {
		t.Errorf("left in --scratch: %v", ents)
	}
	if got := readOr(t, filepath.Join(dir, "counter.txt")); got != "1\n" {
		t.Errorf("counter.txt = %q, want one run's", got)
	}
}

// The copy's budget is what the scratch directory can spare when that is
// less than --max-saved, and its words say which bound it.
func TestTreeCopyWords(t *testing.T) {
	s := &treeCopy{copies: map[string]string{"/w/a": "c"}, bytes: 10, skipped: 2, room: 3 << 20, roomBound: true}
	if w := s.words(); !strings.Contains(w, "2 larger file(s) were not: over the 3.0 MiB the scratch directory can spare (--scratch chooses another)") {
		t.Errorf("words = %q", w)
	}
	s.roomBound = false
	if w := s.words(); !strings.Contains(w, "over --max-saved") || strings.Contains(w, "can spare") {
		t.Errorf("words = %q", w)
	}
	none := &treeCopy{skipped: 1, room: 32 << 20, roomBound: true}
	if w := none.words(); !strings.HasPrefix(w, "saved none of the working directory's files before the first run") || !strings.Contains(w, "; 1 file(s) were not: over the 32 MiB") {
		t.Errorf("words = %q", w)
	}
}
