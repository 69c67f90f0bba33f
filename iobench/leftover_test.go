package iobench

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// deadPID is the pid of a child that has exited and been reaped.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("cannot run true:", err)
	}
	return cmd.Process.Pid
}

func TestUniquePrefixNamesAreFoundAgain(t *testing.T) {
	prefix, err := UniquePrefix()
	if err != nil {
		t.Fatal(err)
	}
	for _, tag := range []string{"4096-0.dat", "shared.dat", "read-3.dat"} {
		l, ok := parseLeftover(prefix+"-"+tag, nameHost())
		if !ok || l.PID != os.Getpid() || l.State != RunAlive {
			t.Errorf("%s-%s: parsed %+v, %v; want this process, alive", prefix, tag, l, ok)
		}
	}
}

func TestFindLeftoversSortsDeadAliveAndOtherHosts(t *testing.T) {
	dir := t.TempDir()
	host, dead := nameHost(), strconv.Itoa(deadPID(t))
	files := map[string]LeftoverState{
		".iobench-" + host + "-" + dead + "-0123456789ab-4096-0.dat":                 RunGone,
		".iobench-" + host + "-" + strconv.Itoa(os.Getpid()) + "-0123456789ab-x.dat": RunAlive,
		".iobench-" + host + "x-" + dead + "-0123456789ab-shared.dat":                OtherHost,
	}
	for name := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("data"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"results.dat", ".iobench-" + host + "-" + dead + "-0123456789ab.txt", ".iobench-1-0123456789ab-1-0.dat"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	link := ".iobench-" + host + "-" + dead + "-0123456789ab-link-0.dat"
	if err := os.Symlink("results.dat", filepath.Join(dir, link)); err != nil {
		t.Fatal(err)
	}
	found, err := FindLeftovers(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != len(files) {
		t.Fatalf("found %d files (%+v), want %d", len(found), found, len(files))
	}
	for _, l := range found {
		if want := files[l.Name]; l.State != want || l.Bytes != 4 {
			t.Errorf("%s: state %v, %d bytes; want %v, 4", l.Name, l.State, l.Bytes, want)
		}
		err := RemoveLeftover(dir, l)
		if _, statErr := os.Lstat(filepath.Join(dir, l.Name)); (statErr == nil) != (l.State != RunGone) || (err == nil) != (l.State == RunGone) {
			t.Errorf("%s (%v): remove gave %v, file there: %v", l.Name, l.State, err, statErr == nil)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, link)); err != nil {
		t.Errorf("the symlink was touched: %v", err)
	}
}

func TestRemoveLeftoverRefusesAReplacedFile(t *testing.T) {
	dir := t.TempDir()
	name := ".iobench-" + nameHost() + "-" + strconv.Itoa(deadPID(t)) + "-0123456789ab-1-0.dat"
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte("data"), 0o600); err != nil {
		t.Fatal(err)
	}
	found, err := FindLeftovers(dir)
	if err != nil || len(found) != 1 {
		t.Fatalf("found %v, %v", found, err)
	}
	if err := os.Rename(path, path+".user"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("a user's file"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := RemoveLeftover(dir, found[0]); err == nil {
		t.Error("removed a file that replaced the leftover")
	}
	if b, _ := os.ReadFile(path); string(b) != "a user's file" {
		t.Errorf("the replacing file is now %q", b)
	}
}

// peerCoord is a Coordinator of a job whose other processes use prefixes.
type peerCoord struct{ prefixes []string }

func (peerCoord) Agree(err error) error    { return err }
func (p peerCoord) PeerPrefixes() []string { return p.prefixes }

// A rank that survives a killed peer removes the files named with that
// peer's prefix, and only those: not a live peer's, not another job's.
func TestSurvivorRemovesTheFilesOfAKilledPeer(t *testing.T) {
	dir := t.TempDir()
	host := nameHost()
	gone := ".iobench-" + host + "-" + strconv.Itoa(deadPID(t)) + "-0123456789ab"
	alive := ".iobench-" + host + "-" + strconv.Itoa(os.Getpid()) + "-0123456789ac"
	otherJob := ".iobench-" + host + "-" + strconv.Itoa(deadPID(t)) + "-0123456789ad"
	for _, name := range []string{gone + "-warmup-0.dat", gone + "-4096-3.dat", alive + "-warmup-0.dat", otherJob + "-warmup-0.dat"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	r := &Runner{Config: DefaultConfig(), FS: OSFS{Dir: dir}, Coord: peerCoord{[]string{gone, alive}}}
	r.RemoveFiles()
	var left []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		left = append(left, e.Name())
	}
	want := []string{alive + "-warmup-0.dat", otherJob + "-warmup-0.dat"}
	slices.Sort(want) // as ReadDir lists them: pids of other lengths sort either way
	if !slices.Equal(left, want) {
		t.Errorf("left %v, want %v", left, want)
	}
}
