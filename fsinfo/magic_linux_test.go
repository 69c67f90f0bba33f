package fsinfo

import (
	"testing"

	"golang.org/x/sys/unix"
)

// TestMagicMatchesKernel checks the constants against the kernel's own
// <linux/magic.h>, as x/sys/unix copies it, where the kernel has them.
func TestMagicMatchesKernel(t *testing.T) {
	tests := []struct {
		name       string
		ours, unix int64
	}{
		{"ext4", MagicExt4, unix.EXT4_SUPER_MAGIC},
		{"xfs", MagicXFS, unix.XFS_SUPER_MAGIC},
		{"btrfs", MagicBtrfs, unix.BTRFS_SUPER_MAGIC},
		{"nfs", MagicNFS, unix.NFS_SUPER_MAGIC},
		{"tmpfs", MagicTmpfs, unix.TMPFS_MAGIC},
		{"ceph", MagicCephFS, unix.CEPH_SUPER_MAGIC},
		{"overlayfs", MagicOverlay, unix.OVERLAYFS_SUPER_MAGIC},
	}
	for _, tt := range tests {
		if tt.ours != tt.unix {
			t.Errorf("%s magic = %#x, kernel says %#x", tt.name, tt.ours, tt.unix)
		}
	}
	for magic, name := range map[int64]string{
		unix.PROC_SUPER_MAGIC:    "proc",
		unix.SYSFS_MAGIC:         "sysfs",
		unix.RAMFS_MAGIC:         "ramfs",
		unix.FUSE_SUPER_MAGIC:    "fuse",
		unix.F2FS_SUPER_MAGIC:    "f2fs",
		unix.SQUASHFS_MAGIC:      "squashfs",
		unix.MSDOS_SUPER_MAGIC:   "vfat",
		unix.CGROUP2_SUPER_MAGIC: "cgroup2",
		unix.V9FS_MAGIC:          "9p",
		unix.SMB2_SUPER_MAGIC:    "smb2",
		unix.EXFAT_SUPER_MAGIC:   "exfat",
		unix.ISOFS_SUPER_MAGIC:   "iso9660",
	} {
		if got := MagicName(magic); got != name {
			t.Errorf("MagicName(%#x) = %q, want %q", magic, got, name)
		}
	}
}
