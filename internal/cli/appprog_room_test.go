package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/iobench/iobench/fsinfo"
	"github.com/iobench/iobench/internal/testkit/testenv"
)

// TestNoRoomSaysWhatIsShort: a scratch run that would leave less than the
// sweep's margin free is refused with what it needs and what there is;
// one that fits is not.
func TestNoRoomSaysWhatIsShort(t *testing.T) {
	info := fsinfo.Info{MountPoint: "/scratch", TotalBytes: 100 << 20, AvailBytes: 40 << 20} // margin: a tenth, 10 MiB
	if why := noRoom(info, "the quick curve", 16<<20); why != "" {
		t.Errorf("16 MiB in 40 MiB free: %q, want it to fit", why)
	}
	why := noRoom(info, "the quick curve", 32<<20)
	for _, want := range []string{"the quick curve needs 42 MiB", "mounted at /scratch has 40 MiB available"} {
		if !strings.Contains(why, want) {
			t.Errorf("32 MiB in 40 MiB free: %q, want %q in it", why, want)
		}
	}
}

// TestAppWithoutRoomForTheQuickCurve: on a file system too full for the
// quick curve, app still reports the program, says why it has no curve,
// and leaves no scratch directory.
func TestAppWithoutRoomForTheQuickCurve(t *testing.T) {
	testenv.Full(t, "strace and a tmpfs mount")
	testenv.Command(t, "strace")
	dir := mountTmpfs(t, "size=36m")
	t.Chdir(dir)
	stdout, stderr, code := runCLI(t, "app", "--curve-time", "3s", "--", "dd", "if=/dev/zero", "of=out.dat", "bs=1M", "count=20", "status=none")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if stdout != "" {
		t.Errorf("stdout %q, want the program's (none)", stdout)
	}
	words := strings.Join(strings.Fields(stderr), " ") // the text is wrapped
	if !strings.Contains(words, "There is nothing to price: no quick curve: the quick curve needs") || !strings.Contains(words, "give a measured curve with --curve") {
		t.Errorf("stderr does not say why there is no curve:\n%s", stderr)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 || ents[0].Name() != "out.dat" {
		t.Errorf("left in %s: %v, want only out.dat", dir, ents)
	}
	if _, err := os.Stat(filepath.Join(dir, "out.dat")); err != nil {
		t.Errorf("the program's output is gone: %v", err)
	}
}
