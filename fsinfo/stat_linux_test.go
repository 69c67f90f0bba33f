package fsinfo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// statF runs `stat -f -c format dir`, the command users compare against,
// and skips the test when stat is missing.
func statF(t *testing.T, format, dir string) string {
	t.Helper()
	if _, err := exec.LookPath("stat"); err != nil {
		t.Skip("stat(1) not found")
	}
	out, err := exec.Command("stat", "-f", "-c", format, dir).CombinedOutput()
	if err != nil {
		t.Fatalf("stat -f -c %q %s: %v: %s", format, dir, err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestStatTempDir(t *testing.T) {
	dir := t.TempDir()
	info, err := Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	var sfs unix.Statfs_t
	if err := unix.Statfs(dir, &sfs); err != nil {
		t.Fatal(err)
	}
	magic := int64(uint32(sfs.Type))
	if info.Magic != magic || info.BlockSize != int64(sfs.Bsize) || info.FragmentSize != int64(sfs.Frsize) {
		t.Errorf("Stat = magic %#x bsize %d frsize %d, statfs says %#x %d %d",
			info.Magic, info.BlockSize, info.FragmentSize, magic, sfs.Bsize, sfs.Frsize)
	}
	if want := uint64(sfs.Blocks) * uint64(sfs.Frsize); info.TotalBytes != want {
		t.Errorf("TotalBytes = %d, want %d", info.TotalBytes, want)
	}
	// Free space moves under a running test; only its order is stable.
	if info.AvailBytes > info.FreeBytes || info.FreeBytes > info.TotalBytes {
		t.Errorf("want avail %d <= free %d <= total %d", info.AvailBytes, info.FreeBytes, info.TotalBytes)
	}
	if info.MagicName != MagicName(magic) || info.MagicHex != fmt.Sprintf("%#x", magic) {
		t.Errorf("MagicName, MagicHex = %q, %q for magic %#x", info.MagicName, info.MagicHex, magic)
	}
	if info.Dir != dir || info.ResolvedDir != mustEval(t, dir) || info.DirIsSymlink {
		t.Errorf("Dir, ResolvedDir, DirIsSymlink = %q, %q, %v for %q", info.Dir, info.ResolvedDir, info.DirIsSymlink, dir)
	}
	if info.IOBlockSize <= 0 || info.Type == "" || info.MountPoint == "" {
		t.Errorf("IOBlockSize, Type, MountPoint = %d, %q, %q: want all set", info.IOBlockSize, info.Type, info.MountPoint)
	}
	want := statF(t, "%s %S %t", dir)
	got := fmt.Sprintf("%d %d %x", info.BlockSize, info.FragmentSize, info.Magic)
	if got != want {
		t.Errorf("Stat gives %q, `stat -f -c '%%s %%S %%t'` prints %q", got, want)
	}
}

// mustEval resolves path the way Stat documents: symlinks, then absolute.
func mustEval(t *testing.T, path string) string {
	t.Helper()
	resolved, err := filepath.EvalSymlinks(path)
	if err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(resolved)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

func TestStatSymlinkAndRelative(t *testing.T) {
	base := t.TempDir()
	target := filepath.Join(base, "a", "target")
	if err := os.MkdirAll(target, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink("a/target", link); err != nil {
		t.Fatal(err)
	}
	// t.TempDir may itself sit below a symlink (macOS /tmp), so resolve the
	// expected paths before changing directory.
	realBase, realTarget := mustEval(t, base), mustEval(t, target)
	t.Chdir(base)
	tests := []struct {
		dir         string
		wantDir     string
		wantSymlink bool
	}{
		{link, realTarget, true},
		{"link", realTarget, true},
		{"a/target", realTarget, false},
		{"link/", realTarget, true},
		{"link/..", filepath.Join(realBase, "a"), false}, // ".." of the target, not lexical
		{".", realBase, false},
	}
	for _, tt := range tests {
		info, err := Stat(tt.dir)
		if err != nil {
			t.Errorf("Stat(%q): %v", tt.dir, err)
			continue
		}
		if info.ResolvedDir != tt.wantDir || info.DirIsSymlink != tt.wantSymlink {
			t.Errorf("Stat(%q) = ResolvedDir %q, DirIsSymlink %v; want %q, %v",
				tt.dir, info.ResolvedDir, info.DirIsSymlink, tt.wantDir, tt.wantSymlink)
		}
	}
}

func TestStatErrors(t *testing.T) {
	base := t.TempDir()
	file := filepath.Join(base, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(base, "dangling")
	if err := os.Symlink("nowhere", dangling); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(base, "missing")
	tests := []struct {
		dir     string
		wantIs  error
		wantMsg string
	}{
		{missing, fs.ErrNotExist, fmt.Sprintf("directory %q: no such file or directory", missing)},
		{dangling, fs.ErrNotExist, fmt.Sprintf("directory %q: lstat %s: no such file or directory", dangling, filepath.Join(base, "nowhere"))},
		{file, unix.ENOTDIR, fmt.Sprintf("directory %q: not a directory", file)},
		{file + "/", unix.ENOTDIR, fmt.Sprintf("directory %q: not a directory", file+"/")},
	}
	for _, tt := range tests {
		_, err := Stat(tt.dir)
		if !errors.Is(err, tt.wantIs) {
			t.Errorf("Stat(%q) error = %v, want errors.Is %v", tt.dir, err, tt.wantIs)
			continue
		}
		if err.Error() != tt.wantMsg {
			t.Errorf("Stat(%q) error = %q, want %q", tt.dir, err, tt.wantMsg)
		}
	}
}

// fakeProc makes a proc root whose self/mountinfo holds content.
func fakeProc(t *testing.T, content string) string {
	t.Helper()
	proc := t.TempDir()
	if err := os.Mkdir(filepath.Join(proc, "self"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proc, "self", "mountinfo"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return proc
}

func TestStatWithProcMountFacts(t *testing.T) {
	dir := t.TempDir()
	resolved := mustEval(t, dir)
	mountLine := func(mp, opts, fstype string) string {
		return fmt.Sprintf("99 1 8:1 / %s %s - %s /dev/x\\040y rw,wsize=65536\n", strings.ReplaceAll(mp, " ", `\040`), opts, fstype)
	}
	tests := []struct {
		name      string
		mountinfo string
		want      func(Info) string // "" when good
	}{
		{"mount type wins over magic", mountLine(resolved, "ro,relatime", "weirdfs"), func(i Info) string {
			if i.Type != "weirdfs" || i.MountPoint != resolved || i.Device != "/dev/x y" ||
				i.MountOptions != "ro,relatime" || i.SuperOptions != "rw,wsize=65536" || !i.ReadOnly {
				return fmt.Sprintf("got %+v", i)
			}
			return ""
		}},
		{"no containing mount: magic name", mountLine("/nonexistent-mount", "rw", "weirdfs"), func(i Info) string {
			if i.Type != i.MagicName || i.MountPoint != "" || i.Device != "" || i.ReadOnly {
				return fmt.Sprintf("got %+v", i)
			}
			return ""
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info, err := StatWithProc(dir, fakeProc(t, tt.mountinfo))
			if err != nil {
				t.Fatal(err)
			}
			if msg := tt.want(info); msg != "" {
				t.Error(msg)
			}
		})
	}
}

func TestStatWithProcBadMountInfo(t *testing.T) {
	proc := fakeProc(t, "21 1 8:1 / / rw ext4 /dev/sda1 rw\n")
	_, err := StatWithProc(t.TempDir(), proc)
	want := filepath.Join(proc, "self", "mountinfo") + ": line 1: "
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("StatWithProc error = %v, want prefix %q", err, want)
	}
	if _, err := StatWithProc(t.TempDir(), t.TempDir()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("StatWithProc(no mountinfo) error = %v, want not-exist", err)
	}
}
