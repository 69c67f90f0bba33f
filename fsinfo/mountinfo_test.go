package fsinfo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// readFixture parses testdata/name.
func readFixture(t *testing.T, name string) []Mount {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	mounts, err := ParseMountInfo(f)
	if err != nil {
		t.Fatalf("ParseMountInfo(%s): %v", name, err)
	}
	return mounts
}

// byMountPoint returns the last mount at mp, as the kernel would show it.
func byMountPoint(mounts []Mount, mp string) (Mount, bool) {
	var got Mount
	found := false
	for _, m := range mounts {
		if m.MountPoint == mp {
			got, found = m, true
		}
	}
	return got, found
}

func TestParseMountInfoFixtures(t *testing.T) {
	tests := []struct {
		file      string
		wantCount int
		want      []Mount // looked up by MountPoint
	}{
		{"debian12.mountinfo", 18, []Mount{
			{ID: 28, ParentID: 1, MajorMinor: "254:1", Root: "/", MountPoint: "/",
				MountOptions: "rw,relatime", FSType: "ext4", Source: "/dev/mapper/vg0-root",
				SuperOptions: "rw,errors=remount-ro"},
			{ID: 30, ParentID: 24, MajorMinor: "0:25", Root: "/", MountPoint: "/dev/shm",
				MountOptions: "rw,nosuid,nodev", FSType: "tmpfs", Source: "tmpfs",
				SuperOptions: "rw,inode64"},
			{ID: 65, ParentID: 28, MajorMinor: "254:2", Root: "/", MountPoint: "/home",
				MountOptions: "rw,relatime", FSType: "xfs", Source: "/dev/mapper/vg0-home",
				SuperOptions: "rw,attr2,inode64,logbufs=8,logbsize=32k,noquota"},
		}},
		{"gpfs.mountinfo", 5, []Mount{
			{ID: 96, ParentID: 21, MajorMinor: "0:52", Root: "/", MountPoint: "/gpfs/fs1",
				MountOptions: "rw,relatime", FSType: "gpfs", Source: "gpfs1", SuperOptions: "rw"},
		}},
		{"lustre-nfs.mountinfo", 5, []Mount{
			{ID: 140, ParentID: 21, MajorMinor: "0:60", Root: "/", MountPoint: "/scratch",
				MountOptions: "rw,relatime", FSType: "lustre", Source: "10.0.0.1@o2ib:/scratch",
				SuperOptions: "rw,lazystatfs,flock"},
			// Two optional fields before the separator.
			{ID: 141, ParentID: 21, MajorMinor: "0:61", Root: "/", MountPoint: "/home",
				MountOptions: "rw,relatime", FSType: "nfs4", Source: "nfs1.example.org:/export/home",
				SuperOptions: "rw,vers=4.2,rsize=1048576,wsize=1048576,namlen=255,hard,proto=tcp," +
					"timeo=600,retrans=2,sec=sys,clientaddr=10.0.0.5,local_lock=none,addr=10.0.0.2"},
			// No optional fields.
			{ID: 142, ParentID: 21, MajorMinor: "0:62", Root: "/", MountPoint: "/proj",
				MountOptions: "rw,noatime", FSType: "nfs", Source: "nfs2:/vol/proj",
				SuperOptions: "ro,vers=3,rsize=65536,wsize=65536,namlen=255,hard,proto=tcp," +
					"timeo=600,retrans=2,sec=sys,mountaddr=10.0.0.3,mountvers=3,mountport=635," +
					"mountproto=udp,local_lock=none,addr=10.0.0.3"},
		}},
		{"escapes-overmount.mountinfo", 7, []Mount{
			{ID: 40, ParentID: 21, MajorMinor: "8:17", Root: "/", MountPoint: "/mnt/usb stick",
				MountOptions: "rw,nosuid,nodev,relatime", FSType: "vfat", Source: "/dev/sdb1",
				SuperOptions: "rw,fmask=0022,dmask=0022"},
			{ID: 41, ParentID: 21, MajorMinor: "8:18", Root: "/exports/tab\tdir", MountPoint: "/srv/tab\tdir",
				MountOptions: "rw,relatime", FSType: "ext4", Source: `/dev/disk/by-label/back\slash`,
				SuperOptions: "rw"},
			// \777 is not a byte, so it stays as written.
			{ID: 42, ParentID: 21, MajorMinor: "0:41", Root: "/", MountPoint: "/srv/new\nline\\777",
				MountOptions: "rw,relatime", FSType: "tmpfs", Source: "tmpfs", SuperOptions: "rw"},
			// The overmount, listed last for /data.
			{ID: 60, ParentID: 50, MajorMinor: "0:70", Root: "/", MountPoint: "/data",
				MountOptions: "rw,relatime", FSType: "tmpfs", Source: "tmpfs", SuperOptions: "rw,size=4096k"},
			// An empty source shows as two spaces in a row.
			{ID: 70, ParentID: 21, MajorMinor: "0:80", Root: "/", MountPoint: "/empty-source",
				MountOptions: "rw,relatime", FSType: "tmpfs", Source: "", SuperOptions: "rw"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			mounts := readFixture(t, tt.file)
			if len(mounts) != tt.wantCount {
				t.Errorf("got %d mounts, want %d", len(mounts), tt.wantCount)
			}
			for _, want := range tt.want {
				got, ok := byMountPoint(mounts, want.MountPoint)
				if !ok {
					t.Errorf("no mount at %q", want.MountPoint)
					continue
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("mount at %q mismatch (-want +got):\n%s", want.MountPoint, diff)
				}
			}
		})
	}
}

func TestParseMountInfoBlankLinesAndNoFinalNewline(t *testing.T) {
	in := "\n21 1 8:1 / / rw - ext4 /dev/sda1 rw\n\n22 21 0:20 / /proc rw - proc proc rw"
	got, err := ParseMountInfo(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Mount{
		{ID: 21, ParentID: 1, MajorMinor: "8:1", Root: "/", MountPoint: "/", MountOptions: "rw",
			FSType: "ext4", Source: "/dev/sda1", SuperOptions: "rw"},
		{ID: 22, ParentID: 21, MajorMinor: "0:20", Root: "/", MountPoint: "/proc", MountOptions: "rw",
			FSType: "proc", Source: "proc", SuperOptions: "rw"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ParseMountInfo mismatch (-want +got):\n%s", diff)
	}
}

func TestParseMountInfoErrors(t *testing.T) {
	const good = "21 1 8:1 / / rw - ext4 /dev/sda1 rw\n"
	tests := []struct {
		name    string
		in      string
		wantErr string
	}{
		{"no separator", good + "22 21 0:20 / /proc rw shared:5 proc proc rw\n", `line 2: want 6+ fields`},
		{"too few fields after separator", good + good + "22 21 0:20 / /proc rw - proc proc\n", `line 3: want 6+ fields`},
		{"separator too early", "22 21 0:20 / - proc proc rw\n", `line 1: want 6+ fields`},
		{"bad mount ID", "x 1 8:1 / / rw - ext4 /dev/sda1 rw\n", `line 1: bad mount ID "x"`},
		{"bad parent ID", "21 one 8:1 / / rw - ext4 /dev/sda1 rw\n", `line 1: bad parent ID "one"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseMountInfo(strings.NewReader(tt.in))
			if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
				t.Errorf("ParseMountInfo error = %v, want prefix %q", err, tt.wantErr)
			}
		})
	}
}

func TestReadMountInfo(t *testing.T) {
	proc := t.TempDir()
	if err := os.Mkdir(filepath.Join(proc, "self"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(proc, "self", "mountinfo")
	copyFile(t, filepath.Join("testdata", "malformed.mountinfo"), path)
	_, err := ReadMountInfo(proc)
	wantErr := path + ": line 3: "
	if err == nil || !strings.HasPrefix(err.Error(), wantErr) {
		t.Errorf("ReadMountInfo(malformed) error = %v, want prefix %q", err, wantErr)
	}

	copyFile(t, filepath.Join("testdata", "gpfs.mountinfo"), path)
	got, err := ReadMountInfo(proc)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(readFixture(t, "gpfs.mountinfo"), got); diff != "" {
		t.Errorf("ReadMountInfo mismatch (-want +got):\n%s", diff)
	}

	if _, err := ReadMountInfo(t.TempDir()); !os.IsNotExist(err) {
		t.Errorf("ReadMountInfo(empty dir) error = %v, want not-exist", err)
	}
}

// copyFile copies src to dst, replacing dst.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestFindMount(t *testing.T) {
	debian := readFixture(t, "debian12.mountinfo")
	gpfs := readFixture(t, "gpfs.mountinfo")
	hpc := readFixture(t, "lustre-nfs.mountinfo")
	odd := readFixture(t, "escapes-overmount.mountinfo")
	tests := []struct {
		name       string
		mounts     []Mount
		path       string
		wantID     int // 0: no mount
		wantFSType string
	}{
		{"root itself", debian, "/", 28, "ext4"},
		{"file on root", debian, "/var/tmp/x", 28, "ext4"},
		{"mount point itself", debian, "/home", 65, "xfs"},
		{"below a mount point", debian, "/home/alice/run", 65, "xfs"},
		{"nested mount wins", debian, "/boot/efi/EFI", 62, "vfat"},
		{"parent of nested mount", debian, "/boot/grub", 59, "ext2"},
		{"deeper nesting", debian, "/run/user/1000/x", 120, "tmpfs"},
		{"unclean path", debian, "/home/../tmp//job/", 70, "tmpfs"},
		{"component boundary: fs1 is not fs10", gpfs, "/gpfs/fs10/run", 97, "gpfs"},
		{"component boundary: fs1", gpfs, "/gpfs/fs1/run", 96, "gpfs"},
		{"component boundary: prefix only", gpfs, "/gpfs/fs1x", 21, "xfs"},
		{"lustre", hpc, "/scratch/u/out.dat", 140, "lustre"},
		{"nfs", hpc, "/home/u", 141, "nfs4"},
		{"decoded space", odd, "/mnt/usb stick/data", 40, "vfat"},
		{"overmount: later entry wins", odd, "/data/x", 60, "tmpfs"},
		{"no root mount listed", odd[1:2], "/home", 0, ""},
		{"no mounts", nil, "/", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := FindMount(tt.mounts, tt.path)
			if ok != (tt.wantID != 0) {
				t.Fatalf("FindMount(%q) found = %v, want %v", tt.path, ok, tt.wantID != 0)
			}
			if got.ID != tt.wantID || got.FSType != tt.wantFSType {
				t.Errorf("FindMount(%q) = ID %d %q, want ID %d %q", tt.path, got.ID, got.FSType, tt.wantID, tt.wantFSType)
			}
		})
	}
}

func TestOptionValue(t *testing.T) {
	const nfs = "rw,vers=4.2,rsize=1048576,wsize=1048576,hard"
	tests := []struct {
		options, key string
		want         string
		wantOK       bool
	}{
		{"rw,wsize=1048576", "wsize", "1048576", true},
		{nfs, "rsize", "1048576", true},
		{nfs, "vers", "4.2", true},
		{nfs, "hard", "", true},
		{"rw,noatime", "noatime", "", true},
		{"rw,noatime", "atime", "", false},
		{"rw,noatime", "ro", "", false},
		{"ro,relatime", "ro", "", true},
		{"rw,lowerdir=/a=b", "lowerdir", "/a=b", true},
		{`rw,context="system_u:object_r:nfs_t:s0:c1,c2",noatime`, "context", `"system_u:object_r:nfs_t:s0:c1,c2"`, true},
		// The comma inside the quotes does not start an option `c2"`.
		{`rw,context="system_u:object_r:nfs_t:s0:c1,c2",noatime`, `c2"`, "", false},
		{`rw,context="system_u:object_r:nfs_t:s0:c1,c2",noatime`, "noatime", "", true},
		{"", "rw", "", false},
		{"rw", "", "", false},
	}
	for _, tt := range tests {
		got, ok := OptionValue(tt.options, tt.key)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("OptionValue(%q, %q) = %q, %v; want %q, %v", tt.options, tt.key, got, ok, tt.want, tt.wantOK)
		}
	}
}
