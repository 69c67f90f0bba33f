package hostinfo

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// unlimited is the value at or above which a cgroup v1 limit means none
// (the kernel prints PAGE_COUNTER_MAX pages in bytes).
const unlimited = 1 << 62

// CgroupPaths are the memory controller's cgroup of a process, from the
// lines of /proc/PID/cgroup: v2 the unified ("0::/path"), v1 the
// "N:memory:/path" one; "" where the line is absent.
func CgroupPaths(r io.Reader) (v2, v1 string) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			v2 = parts[2]
		case strings.Contains(","+parts[1]+",", ",memory,"):
			v1 = parts[2]
		}
	}
	return v2, v1
}

// cgroupMemory is the memory limit of this process's cgroup and what the
// cgroup uses, in bytes; limit 0 when there is none or it is unreadable.
func cgroupMemory(procRoot, sysRoot string) (limit, usage uint64) {
	f, err := os.Open(filepath.Join(procRoot, "self", "cgroup"))
	if err != nil {
		return 0, 0
	}
	v2, v1 := CgroupPaths(f)
	f.Close()
	if v1 != "" {
		dir := filepath.Join(sysRoot, "fs", "cgroup", "memory", v1)
		if l, ok := readUint(filepath.Join(dir, "memory.limit_in_bytes")); ok && l < unlimited {
			u, _ := readUint(filepath.Join(dir, "memory.usage_in_bytes"))
			return l, u
		}
	}
	if v2 != "" {
		for _, root := range []string{filepath.Join(sysRoot, "fs", "cgroup"), filepath.Join(sysRoot, "fs", "cgroup", "unified")} {
			if l, ok := readUint(filepath.Join(root, v2, "memory.max")); ok {
				u, _ := readUint(filepath.Join(root, v2, "memory.current"))
				return l, u
			}
		}
	}
	return 0, 0
}

// readUint reads a file holding one number; "max" is no limit (false).
func readUint(path string) (uint64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	v, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	return v, err == nil
}

// UsableMemory is the memory a new allocation can take without swapping
// or the cgroup's OOM killer: MemAvailable, or what the cgroup's limit
// leaves when that is less (a Slurm job's memory.max). Zero when unknown.
func (h Host) UsableMemory() uint64 {
	if h.CgroupLimitBytes == 0 {
		return h.MemAvailableBytes
	}
	left := uint64(0)
	if h.CgroupLimitBytes > h.CgroupUsageBytes {
		left = h.CgroupLimitBytes - h.CgroupUsageBytes
	}
	if h.MemAvailableBytes == 0 {
		return left
	}
	return min(left, h.MemAvailableBytes)
}
