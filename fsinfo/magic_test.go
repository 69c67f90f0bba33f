package fsinfo

import "testing"

func TestMagicName(t *testing.T) {
	tests := []struct {
		magic int64
		want  string
	}{
		{MagicExt4, "ext2/3/4"},
		{MagicXFS, "xfs"},
		{MagicBtrfs, "btrfs"},
		{MagicNFS, "nfs"},
		{MagicTmpfs, "tmpfs"},
		{MagicLustre, "lustre"},
		{MagicGPFS, "gpfs"},
		{MagicZFS, "zfs"},
		{MagicBeeGFS, "beegfs"},
		{MagicCephFS, "cephfs"},
		{MagicOverlay, "overlayfs"},
		{0x9fa0, "proc"},
		{0x62656572, "sysfs"},
		{0x858458f6, "ramfs"},
		{0x65735546, "fuse"},
		{0xf2f52010, "f2fs"},
		{0x73717368, "squashfs"},
		{0x4d44, "vfat"},
		{0xaad7aaea, "panfs"},
		{0, "unknown"},
		{0x12345678, "unknown"},
		{-1, "unknown"},
	}
	for _, tt := range tests {
		if got := MagicName(tt.magic); got != tt.want {
			t.Errorf("MagicName(%#x) = %q, want %q", tt.magic, got, tt.want)
		}
	}
}
