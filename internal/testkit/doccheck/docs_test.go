package doccheck

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/iobench/iobench/internal/testkit/testenv"
)

// moduleRoot is the module's directory, from this package's.
const moduleRoot = "../../.."

// blockTimeout ends a block that hangs; the longest, a runtime check
// against a separately written program, takes a few minutes.
const blockTimeout = 20 * time.Minute

// TestDocumentedCommandsRun runs every shell block of README.md and
// docs/*.md in bash (-euo pipefail), the blocks of one document in order
// in a fresh copy of the repository, with the iobench built here first on
// PATH, as a reader who installed it would. A block is skipped only when
// it says why: "# needs: X" for what is not here (an MPI cluster, Slurm, a
// GPFS or Lustre mount, a peer tool), "# run by: scripts/test.sh" for the
// test suite's own commands. "# example" runs it small (blocks.go).
// Every block must leave its TMPDIR empty: iobench, and the commands
// around it, clean up after themselves.
func TestDocumentedCommandsRun(t *testing.T) {
	testenv.Full(t, "the documented commands, which take minutes")
	docs, err := filepath.Glob(filepath.Join(moduleRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	docs = append([]string{filepath.Join(moduleRoot, "README.md")}, docs...)
	bin := buildIobench(t)
	for _, path := range docs {
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(moduleRoot, path)
		t.Run(rel, func(t *testing.T) {
			t.Parallel()
			runDocument(t, rel, string(text), bin)
		})
	}
}

func runDocument(t *testing.T, doc, text, bin string) {
	blocks := blocksOf(doc, text)
	if len(blocks) == 0 {
		return
	}
	work := copyRepository(t)
	for _, b := range blocks {
		t.Run("line"+strconv.Itoa(b.line), func(t *testing.T) {
			if why := skipReason(b); why != "" {
				t.Skip(why)
			}
			runBlock(t, b, work, bin)
		})
	}
}

func runBlock(t *testing.T, b block, work, bin string) {
	tmp := t.TempDir()
	gopath := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), blockTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-euo", "pipefail", "-c", b.script())
	cmd.Dir = work
	modcache := goEnv(t, "GOMODCACHE")
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"), "TMPDIR="+tmp,
		"GOPATH="+gopath, "GOMODCACHE="+modcache)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	t.Logf("%s:%d ran in %s", b.doc, b.line, time.Since(start).Round(time.Second))
	if ctx.Err() != nil {
		t.Fatalf("%s:%d hung (no end after %s):\n%s\n--- output:\n%s", b.doc, b.line, blockTimeout, b.script(), tail(out.String()))
	}
	if err != nil {
		t.Fatalf("%s:%d failed (%v):\n%s\n--- output:\n%s", b.doc, b.line, err, b.script(), tail(out.String()))
	}
	if left := entries(t, tmp); len(left) > 0 {
		t.Errorf("%s:%d left %v in its TMPDIR", b.doc, b.line, left)
	}
}

// skipReason is why a block does not run here, or "".
func skipReason(b block) string {
	m := b.markers()
	if by := m["run by"]; len(by) > 0 {
		return "run by " + by[0] + ", which CI runs"
	}
	for _, need := range m["needs"] {
		if !available(need) {
			return "needs " + need + ", not here"
		}
	}
	return ""
}

// available says whether this machine has what a block needs.
func available(need string) bool {
	switch need {
	case "root":
		return os.Geteuid() == 0
	case "gfortran", "ior", "man", "jq", "strace":
		return onPath(need)
	case "slurm":
		return onPath("srun")
	case "mpi":
		return onPath("mpirun") && exec.Command("pkg-config", "--exists", "mpi").Run() == nil
	case "hdf5":
		return exec.Command("pkg-config", "--exists", "hdf5").Run() == nil || onPath("h5cc")
	case "gpfs", "lustre":
		return mounted(need)
	case "cgroup-v1":
		return exists("/sys/fs/cgroup/blkio")
	case "time":
		return exists("/usr/bin/time")
	case "shared":
		return exists(sharedDir())
	case "quiet":
		return false // timing ratios with targets: they hold on a quiet machine, not beside other tests
	}
	panic("unknown need " + need + ": add it to available")
}

// sharedDir holds the data the project's tests borrow (Darshan logs),
// $IOBENCH_SHARED or the folder beside the repository; it is not part of
// the repository.
func sharedDir() string {
	if s := os.Getenv("IOBENCH_SHARED"); s != "" {
		return s
	}
	return moduleRoot + "/../shared"
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func onPath(name string) bool {
	_, err := exec.LookPath(name)
	return err == nil
}

// mounted says whether a file system of type fstype is mounted here.
func mounted(fstype string) bool {
	b, err := os.ReadFile("/proc/mounts")
	if err != nil {
		return false
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) > 2 && f[2] == fstype {
			return true
		}
	}
	return false
}

// buildIobench builds the command as the README does, into a directory of
// its own that goes first on PATH.
func buildIobench(t *testing.T) string {
	bin, err := testenv.Binary(t.TempDir(), moduleRoot)
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// copyRepository copies the repository's files (tracked, or new and not
// ignored) into a temporary directory, where a document's commands may
// build, write and remove as a reader's clone would let them.
func copyRepository(t *testing.T) string {
	dst := filepath.Join(t.TempDir(), "iobench")
	if shared, err := filepath.Abs(sharedDir()); err == nil && exists(shared) {
		// A reader's clone sits beside ../shared as this one does.
		if err := os.Symlink(shared, filepath.Join(filepath.Dir(dst), "shared")); err != nil {
			t.Fatal(err)
		}
	}
	files, err := repositoryFiles()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if err := copyFile(filepath.Join(moduleRoot, f), filepath.Join(dst, f)); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

func repositoryFiles() ([]string, error) {
	out, err := exec.Command("git", "-C", moduleRoot, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err == nil {
		return strings.Split(strings.TrimRight(string(out), "\x00"), "\x00"), nil
	}
	var files []string // not a git checkout: every file but .git and bin
	err = filepath.WalkDir(moduleRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(moduleRoot, p)
		if d.IsDir() && (rel == ".git" || rel == "bin") {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			files = append(files, rel)
		}
		return nil
	})
	return files, err
}

func copyFile(src, dst string) error {
	info, err := os.Stat(src)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // listed by git, deleted in the work tree
	}
	if err != nil {
		return err
	}
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, b, info.Mode().Perm())
}

func goEnv(t *testing.T, key string) string {
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

func entries(t *testing.T, dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// tail is the last lines of a block's output, enough to see why it failed.
func tail(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > 60 {
		lines = append([]string{"..."}, lines[len(lines)-60:]...)
	}
	return strings.Join(lines, "\n")
}
