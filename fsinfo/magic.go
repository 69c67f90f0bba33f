package fsinfo

import "strings"

// File system magic numbers as statfs(2) reports them in f_type. Linux's
// <linux/magic.h> lacks the out-of-tree file systems that HPC sites run
// (GPFS, Lustre, ZFS, BeeGFS), so all of them are spelled out here.
const (
	MagicExt4    = 0xEF53 // ext2, ext3 and ext4 share it
	MagicXFS     = 0x58465342
	MagicBtrfs   = 0x9123683E
	MagicNFS     = 0x6969 // NFS v2, v3 and v4
	MagicTmpfs   = 0x01021994
	MagicLustre  = 0x0BD00BD0
	MagicGPFS    = 0x47504653 // IBM Storage Scale
	MagicZFS     = 0x2FC12FC1
	MagicBeeGFS  = 0x19830326
	MagicCephFS  = 0x00C36400
	MagicOverlay = 0x794C7630
)

// magicNames maps f_type to a short name. Where the magic cannot tell file
// systems apart (ext2/3/4, msdos/vfat), the name says so rather than guess.
var magicNames = map[int64]string{
	MagicExt4:    "ext2/3/4",
	MagicXFS:     "xfs",
	MagicBtrfs:   "btrfs",
	MagicNFS:     "nfs",
	MagicTmpfs:   "tmpfs",
	MagicLustre:  "lustre",
	MagicGPFS:    "gpfs",
	MagicZFS:     "zfs",
	MagicBeeGFS:  "beegfs",
	MagicCephFS:  "cephfs",
	MagicOverlay: "overlayfs",

	0x01021997: "9p",
	0x01161970: "gfs2",
	0x0187:     "autofs",
	0x1cd1:     "devpts",
	0x19800202: "mqueue",
	0x20030528: "orangefs",
	0x2011bab0: "exfat",
	0x27e0eb:   "cgroup",
	0x3434:     "nilfs2",
	0x4d44:     "vfat",
	0x52654973: "reiserfs",
	0x6165676c: "pstore",
	0x62656570: "configfs",
	0x62656572: "sysfs",
	0x63677270: "cgroup2",
	0x64626720: "debugfs",
	0x65735546: "fuse",
	0x72b6:     "jffs2",
	0x73636673: "securityfs",
	0x73717368: "squashfs",
	0x74726163: "tracefs",
	0x7461636f: "ocfs2",
	0x858458f6: "ramfs",
	0x958458f6: "hugetlbfs",
	0x9660:     "iso9660",
	0x9fa0:     "proc",
	0xaad7aaea: "panfs",
	0xca451a4e: "bcachefs",
	0xcafe4a11: "bpf",
	0xde5e81e4: "efivarfs",
	0xe0f5e1e2: "erofs",
	0xf2f52010: "f2fs",
	0x15013346: "udf",
	0xfe534d42: "smb2",
	0xff534d42: "cifs",
}

// MagicName names the file system with statfs f_type magic, or returns
// "unknown".
func MagicName(magic int64) string {
	if name, ok := magicNames[magic]; ok {
		return name
	}
	return "unknown"
}

// localMagics are file systems on a local block device or in memory: a
// read or write call on them returns without waiting on a network or a
// user-space server. FUSE, NFS, overlays of unknown layers and every
// parallel file system are absent on purpose.
var localMagics = map[int64]bool{
	MagicExt4: true, MagicXFS: true, MagicBtrfs: true, MagicTmpfs: true, MagicZFS: true,
	0xF2F52010: true, // f2fs
	0x858458f6: true, // ramfs
	0x2011bab0: true, // exfat
	0x4d44:     true, // vfat
}

// Local reports whether the file system answers calls locally (see
// localMagics); false when unsure.
func (i Info) Local() bool { return localMagics[i.Magic] && !strings.HasPrefix(i.Type, "fuse") }

// InMemory reports a file system that keeps its files in RAM (tmpfs,
// ramfs): there is no storage behind the page cache, and fsync is moot.
func (i Info) InMemory() bool { return i.Magic == MagicTmpfs || i.Magic == 0x858458f6 }
