package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/iobench/iobench/internal/testkit/testenv"
	"github.com/iobench/iobench/internal/testkit/testwait"
)

// mountTmpfs mounts a small tmpfs for one test; it skips unless root and
// allowed to mount.
func mountTmpfs(t *testing.T, opts string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a tmpfs")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", opts, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount tmpfs here: %v: %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

func TestPreflightRefusesASweepLargerThanFreeSpace(t *testing.T) {
	dir := mountTmpfs(t, "size=8m")
	prefill(t, dir)
	before := snapshot(t, dir)
	r := runBinary(t, "sweep", "--dir", dir, "--size", "16MiB", "--max", "1MiB", "--no-progress")
	if r.code != 1 || !strings.Contains(r.stderr, "available, the sweep needs") || !strings.Contains(r.stderr, "--force") {
		t.Errorf("exit %d stderr %q; want 1 and the space refusal", r.code, r.stderr)
	}
	assertUntouched(t, dir, before)
}

func TestForcedSweepHitsENOSPCAndCleansUp(t *testing.T) {
	dir := mountTmpfs(t, "size=8m")
	prefill(t, dir)
	before := snapshot(t, dir)
	report := filepath.Join(t.TempDir(), "partial.json")
	r := runBinary(t, "sweep", "--dir", dir, "--size", "16MiB", "--max", "1MiB", "--force",
		"--warmup=false", "--format", "json", "-o", report, "--no-progress")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1; stderr %s", r.code, r.stderr)
	}
	for _, want := range []string{"no space left on the file system (ENOSPC)", "1024-byte calls", "after "} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q: %s", want, r.stderr)
		}
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatalf("the partial report was not written: %v", err)
	}
	if doc := decodeJSON(t, string(data)); !doc.Incomplete || !strings.Contains(doc.Error, "ENOSPC") {
		t.Errorf("report: incomplete %v error %q", doc.Incomplete, doc.Error)
	}
	assertUntouched(t, dir, before)
}

func TestReadOnlyFileSystemIsRefusedBeforeAnyWrite(t *testing.T) {
	dir := mountTmpfs(t, "size=4m,ro")
	r := runBinary(t, "sweep", "--dir", dir, "--size", "1MiB", "--max", "4KiB", "--no-progress")
	if r.code != 1 || !strings.Contains(r.stderr, "read-only file system") {
		t.Errorf("exit %d stderr %q; want 1 and a read-only error", r.code, r.stderr)
	}
}

func TestSweepOnTmpfsWarnsItMeasuresMemory(t *testing.T) {
	dir := mountTmpfs(t, "size=16m")
	r := runBinary(t, "sweep", "--dir", dir, "--size", "4MiB", "--max", "64KiB", "--format", "json", "--no-progress")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	doc := decodeJSON(t, r.stdout)
	if doc.FS.Type != "tmpfs" || !strings.Contains(strings.Join(doc.Warnings, "\n"), "tmpfs") {
		t.Errorf("fs type %q warnings %q", doc.FS.Type, doc.Warnings)
	}
	// the tmpfs profile calls --fsync useless there: no warning may advise it
	if w := strings.Join(doc.Warnings, "\n"); strings.Contains(w, "use --fsync") {
		t.Errorf("a warning advises --fsync on tmpfs: %q", w)
	}
	if left := dirEntries(t, dir); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

// A data file that cannot be removed (here: made immutable mid-run, which
// stops even root from writing or unlinking it) is named on stderr and in
// left_files[], and the run exits 1 with what it measured.
func TestLeftoverIsNamedAndFailsTheRun(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root for chattr +i")
	}
	dir := t.TempDir()
	probe := filepath.Join(dir, "probe")
	if err := os.WriteFile(probe, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("chattr", "+i", probe).CombinedOutput(); err != nil {
		t.Skipf("chattr +i not supported here: %v: %s", err, out)
	}
	exec.Command("chattr", "-i", probe).Run()
	os.Remove(probe)
	var locked string
	t.Cleanup(func() {
		if locked != "" {
			exec.Command("chattr", "-i", locked).Run()
		}
	})
	r := startSweep(t, dir, 200, 1, "--format", "json")
	// Lock whichever data file exists now; a run may end between the
	// listing and chattr, so try the next one.
	testwait.Until(t, "data file to lock", func() bool {
		for _, name := range dirEntries(t, dir) {
			if exec.Command("chattr", "+i", filepath.Join(dir, name)).Run() == nil {
				locked = filepath.Join(dir, name)
				return true
			}
		}
		return false
	})
	code := r.wait(t)
	if code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	var doc struct {
		LeftFiles []struct{ Path, Error string } `json:"left_files"`
		Results   []struct{}                     `json:"results"`
	}
	if err := json.Unmarshal([]byte(r.out.String()), &doc); err != nil {
		t.Fatalf("no JSON report: %v\n%s", err, r.out.String())
	}
	exec.Command("chattr", "-i", locked).Run()
	left := dirEntries(t, dir)
	if len(doc.LeftFiles) == 0 || len(doc.LeftFiles) != len(left) || len(doc.Results) == 0 {
		t.Fatalf("left_files %+v, files in the directory %v, %d result rows", doc.LeftFiles, left, len(doc.Results))
	}
	for _, l := range doc.LeftFiles {
		if l.Path != locked || !strings.Contains(l.Error, "operation not permitted") {
			t.Errorf("left file %+v: want %s and the cause", l, locked)
		}
	}
}

// A trace that fills its file system is cut: app refuses it, naming the
// directory and --scratch, instead of reporting a part of the writes.
func TestAppRefusesATraceThatFilledItsFileSystem(t *testing.T) {
	testenv.Full(t, "strace and a program of many calls")
	testenv.Command(t, "strace")
	scratch := mountTmpfs(t, "size=1m")
	t.Chdir(t.TempDir())
	_, stderr, code := runCLI(t, "app", "--scratch", scratch, "--", "sh", "-c", "dd if=/dev/zero of=out.dat bs=16 count=40000 status=none")
	if code != 125 || !strings.Contains(stderr, "the trace filled the file system of "+scratch) || !strings.Contains(stderr, "give --scratch a directory with room") {
		t.Errorf("exit %d, want 125 and the full trace named:\n%s", code, lastLines(stderr, 5))
	}
	if ents, _ := os.ReadDir(scratch); len(ents) != 0 {
		t.Errorf("left in --scratch: %v", ents)
	}
}

// lastLines are the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
