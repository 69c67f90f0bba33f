package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/iobench/iobench/iobench"
)

// killedRunFile is a data file named as a run of this host would name
// it, made by a process that no longer exists.
func killedRunFile(t *testing.T, dir string) string {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("cannot run true:", err)
	}
	prefix, err := iobench.UniquePrefix()
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(prefix, "-") // .iobench, host, pid, random
	parts[2] = strconv.Itoa(cmd.Process.Pid)
	name := strings.Join(parts, "-") + "-4096-0.dat"
	if err := os.WriteFile(filepath.Join(dir, name), make([]byte, 3<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

func TestCleanRemovesOnlyFilesOfGoneRuns(t *testing.T) {
	dir := t.TempDir()
	dead := killedRunFile(t, dir)
	other := ".iobench-elsewhere-1-0123456789ab-shared.dat"
	for _, name := range []string{other, "results.dat"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, code := runCLI(t, "clean", "--dir", dir, "--dry-run")
	if code != 0 || !strings.Contains(out, "would remove "+dead+"  3.0 MiB (3145728 bytes)") || !strings.Contains(out, "made on host elsewhere") {
		t.Fatalf("dry run: exit %d\n%s%s", code, out, errOut)
	}
	if names := dirEntries(t, dir); len(names) != 3 {
		t.Fatalf("--dry-run removed files: %v", names)
	}
	out, errOut, code = runCLI(t, "clean", "--dir", dir)
	if code != 0 || !strings.Contains(out, "removed      "+dead) || !strings.Contains(out, "freed 3.0 MiB (3145728 bytes)") {
		t.Fatalf("clean: exit %d\n%s%s", code, out, errOut)
	}
	if names := dirEntries(t, dir); strings.Join(names, " ") != other+" results.dat" {
		t.Errorf("left %v, want the other host's file and the user's file", names)
	}
}

func TestSweepWarnsOnceAboutFilesOfGoneRuns(t *testing.T) {
	dir := t.TempDir()
	killedRunFile(t, dir)
	_, errOut, code := runCLI(t, smallSweep(dir, "--repeat", "1")...)
	want := "1 data file (3.0 MiB, 3145728 bytes) in " + dir + " left by iobench runs that no longer exist; remove with: iobench clean --dir " + dir
	if code != 0 || strings.Count(errOut, want) != 1 {
		t.Errorf("exit %d, want the warning once:\n%s", code, errOut)
	}
}
