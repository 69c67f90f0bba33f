package fsinfo

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// These tests mount real file systems. They need root and a kernel that lets
// this process mount (not so in most containers), and skip otherwise.

// needTools skips the test unless root can run every named command.
func needTools(t *testing.T, names ...string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount file systems")
	}
	for _, name := range names {
		if _, err := exec.LookPath(name); err != nil {
			t.Skipf("%s not found", name)
		}
	}
}

// mount runs mount(8) with args, the last being the mount point, and
// unmounts it when the test ends. A failing mount skips: it usually means
// the environment forbids mounting, not that fsinfo is wrong.
func mount(t *testing.T, args ...string) {
	t.Helper()
	if out, err := exec.Command("mount", args...).CombinedOutput(); err != nil {
		t.Skipf("mount %s: %v: %s (mounting not permitted here?)", strings.Join(args, " "), err, out)
	}
	dir := args[len(args)-1]
	// Cleanups run last-registered first, so this unmounts before
	// t.TempDir's cleanup removes the mount point.
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
}

func TestStatTmpfs(t *testing.T) {
	needTools(t, "mount", "umount")
	tests := []struct {
		name         string
		options      string
		wantReadOnly bool
	}{
		{"rw", "size=4m", false},
		{"ro", "ro,size=4m", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := mustEval(t, t.TempDir())
			mount(t, "-t", "tmpfs", "-o", tt.options, "tmpfs", dir)
			info, err := Stat(dir)
			if err != nil {
				t.Fatal(err)
			}
			if info.Type != "tmpfs" || info.Magic != MagicTmpfs || info.MagicName != "tmpfs" {
				t.Errorf("Type, Magic, MagicName = %q, %#x, %q; want tmpfs", info.Type, info.Magic, info.MagicName)
			}
			if info.MountPoint != dir || info.Device != "tmpfs" {
				t.Errorf("MountPoint, Device = %q, %q; want %q, tmpfs", info.MountPoint, info.Device, dir)
			}
			if size, _ := OptionValue(info.SuperOptions, "size"); size != "4096k" {
				t.Errorf("SuperOptions %q: size = %q, want 4096k", info.SuperOptions, size)
			}
			if _, ro := OptionValue(info.MountOptions, "ro"); ro != tt.wantReadOnly || info.ReadOnly != tt.wantReadOnly {
				t.Errorf("MountOptions %q, ReadOnly %v; want read-only %v", info.MountOptions, info.ReadOnly, tt.wantReadOnly)
			}
			if info.TotalBytes != 4<<20 {
				t.Errorf("TotalBytes = %d, want %d", info.TotalBytes, 4<<20)
			}
		})
	}
}

func TestStatLoopDevice(t *testing.T) {
	tests := []struct {
		fsType    string
		mkfs      []string // the image path is appended
		size      int64
		wantMagic int64
	}{
		{"ext4", []string{"mkfs.ext4", "-q", "-F", "-b", "4096"}, 32 << 20, MagicExt4},
		// mkfs.xfs refuses file systems below 300 MiB; the image is sparse.
		{"xfs", []string{"mkfs.xfs", "-q", "-f", "-b", "size=4096"}, 300 << 20, MagicXFS},
	}
	for _, tt := range tests {
		t.Run(tt.fsType, func(t *testing.T) {
			needTools(t, "mount", "umount", "stat", tt.mkfs[0])
			base := mustEval(t, t.TempDir())
			image, dir := filepath.Join(base, "image"), filepath.Join(base, "mnt")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(image, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(image, tt.size); err != nil {
				t.Fatal(err)
			}
			mkfs := slices.Concat(tt.mkfs, []string{image})
			if out, err := exec.Command(mkfs[0], mkfs[1:]...).CombinedOutput(); err != nil {
				t.Fatalf("%s: %v: %s", strings.Join(mkfs, " "), err, out)
			}
			mount(t, "-o", "loop", image, dir)
			info, err := Stat(dir)
			if err != nil {
				t.Fatal(err)
			}
			if info.Type != tt.fsType || info.Magic != tt.wantMagic || info.BlockSize != 4096 {
				t.Errorf("Type, Magic, BlockSize = %q, %#x, %d; want %q, %#x, 4096",
					info.Type, info.Magic, info.BlockSize, tt.fsType, tt.wantMagic)
			}
			if info.MountPoint != dir || !strings.HasPrefix(info.Device, "/dev/loop") || info.ReadOnly {
				t.Errorf("MountPoint, Device, ReadOnly = %q, %q, %v; want %q, /dev/loop*, false",
					info.MountPoint, info.Device, info.ReadOnly, dir)
			}
			if info.TotalBytes == 0 || info.TotalBytes > uint64(tt.size) {
				t.Errorf("TotalBytes = %d, want in (0, %d]", info.TotalBytes, tt.size)
			}
			want := statF(t, "%s %S", dir)
			if got := fmt.Sprintf("%d %d", info.BlockSize, info.FragmentSize); got != want {
				t.Errorf("Stat gives %q, `stat -f -c '%%s %%S'` prints %q", got, want)
			}
		})
	}
}
