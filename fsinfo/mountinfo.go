package fsinfo

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Mount is one line of /proc/self/mountinfo.
type Mount struct {
	ID, ParentID int
	MajorMinor   string // device number, "8:1"
	Root         string // the directory of the file system mounted here, "/" unless a bind mount
	MountPoint   string // \040 etc. decoded
	MountOptions string // per-mount options, e.g. "rw,relatime"
	FSType       string // e.g. "ext4", "nfs4", "fuse.sshfs"
	Source       string // device, e.g. "/dev/vda" (decoded)
	SuperOptions string // per-superblock options, e.g. NFS "rw,vers=4.2,wsize=1048576"
}

// ParseMountInfo parses the format of /proc/PID/mountinfo (proc(5)):
//
//	36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue
//
// A malformed line is an error of the form "line N: ..."; blank lines are
// skipped.
func ParseMountInfo(r io.Reader) ([]Mount, error) {
	var mounts []Mount
	br := bufio.NewReader(r) // not a Scanner: overlayfs lines can be longer than its token limit
	for n := 1; ; n++ {
		line, err := br.ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		if line = strings.TrimRight(line, "\n"); line != "" {
			m, perr := parseMountLine(line)
			if perr != nil {
				return nil, fmt.Errorf("line %d: %w", n, perr)
			}
			mounts = append(mounts, m)
		}
		if err != nil {
			return mounts, nil
		}
	}
}

// parseMountLine splits on single spaces, not on runs of blanks: the kernel
// escapes blanks inside fields, and a source can be empty, which shows as
// two spaces in a row.
func parseMountLine(line string) (Mount, error) {
	f := strings.Split(line, " ")
	// The number of optional fields varies, so find the "-" separator; it
	// cannot appear earlier, since root and mount point are absolute paths.
	sep := -1
	for i := 6; i < len(f); i++ {
		if f[i] == "-" {
			sep = i
			break
		}
	}
	if sep < 0 || len(f) < sep+4 {
		return Mount{}, fmt.Errorf("want 6+ fields, \"-\", then fstype, source and super options: %q", line)
	}
	id, err := strconv.Atoi(f[0])
	if err != nil {
		return Mount{}, fmt.Errorf("bad mount ID %q", f[0])
	}
	parent, err := strconv.Atoi(f[1])
	if err != nil {
		return Mount{}, fmt.Errorf("bad parent ID %q", f[1])
	}
	return Mount{
		ID:           id,
		ParentID:     parent,
		MajorMinor:   f[2],
		Root:         unescape(f[3]),
		MountPoint:   unescape(f[4]),
		MountOptions: f[5],
		FSType:       f[sep+1],
		Source:       unescape(f[sep+2]),
		SuperOptions: f[sep+3],
	}, nil
}

// unescape decodes the kernel's octal escapes (\040 space, \011 tab,
// \012 newline, \134 backslash); anything else is kept as written.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) && isOctalByte(s[i+1:i+4]) {
			b.WriteByte((s[i+1]-'0')<<6 | (s[i+2]-'0')<<3 | (s[i+3] - '0'))
			i += 3
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// isOctalByte reports whether d is three octal digits no larger than 0377.
func isOctalByte(d string) bool {
	return d[0] >= '0' && d[0] <= '3' &&
		d[1] >= '0' && d[1] <= '7' &&
		d[2] >= '0' && d[2] <= '7'
}

// ReadMountInfo reads and parses procRoot+"/self/mountinfo", so tests can
// point procRoot at a fixture.
func ReadMountInfo(procRoot string) ([]Mount, error) {
	path := filepath.Join(procRoot, "self", "mountinfo")
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	mounts, err := ParseMountInfo(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return mounts, nil
}

// FindMount returns the mount with the longest mount point that contains
// path, an absolute path with symlinks resolved. /mnt/a does not contain
// /mnt/ab. When a mount point appears more than once, the later entry wins:
// it was mounted on top and hides the earlier one.
func FindMount(mounts []Mount, path string) (Mount, bool) {
	path = filepath.Clean(path)
	best, bestLen := Mount{}, -1
	for _, m := range mounts {
		mp := filepath.Clean(m.MountPoint)
		// ">=": an equally long mount point that contains path is the same
		// mount point, and the later entry must win.
		if containsPath(mp, path) && len(mp) >= bestLen {
			best, bestLen = m, len(mp)
		}
	}
	return best, bestLen >= 0
}

// containsPath reports whether path is dir or below it, on whole path
// components.
func containsPath(dir, path string) bool {
	return dir == path || dir == "/" || strings.HasPrefix(path, dir+"/")
}

// OptionValue looks key up in a comma-separated option list such as
// "rw,relatime,wsize=1048576". A key=value option yields its value; a bare
// flag such as "noatime" yields "" and true. Commas inside double quotes
// (SELinux context="...") do not split.
func OptionValue(options, key string) (string, bool) {
	for _, opt := range splitOptions(options) {
		k, v, _ := strings.Cut(opt, "=")
		if k == key {
			return v, true
		}
	}
	return "", false
}

// splitOptions splits on commas outside double quotes.
func splitOptions(options string) []string {
	var opts []string
	start, quoted := 0, false
	for i := 0; i < len(options); i++ {
		switch options[i] {
		case '"':
			quoted = !quoted
		case ',':
			if !quoted {
				opts = append(opts, options[start:i])
				start = i + 1
			}
		}
	}
	return append(opts, options[start:])
}
