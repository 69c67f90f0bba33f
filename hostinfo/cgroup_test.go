package hostinfo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCgroupPaths(t *testing.T) {
	v2, v1 := CgroupPaths(strings.NewReader("9:name=systemd:/\n4:memory:/slurm/uid_1000/job_42\n0::/user.slice\n"))
	if v2 != "/user.slice" || v1 != "/slurm/uid_1000/job_42" {
		t.Errorf("v2 %q, v1 %q", v2, v1)
	}
	if v2, v1 := CgroupPaths(strings.NewReader("0::/system.slice/slurmstepd.scope/job_7\n")); v2 != "/system.slice/slurmstepd.scope/job_7" || v1 != "" {
		t.Errorf("v2 only: %q, %q", v2, v1)
	}
}

// A Slurm job's cgroup limit, v2 or v1, caps the usable memory below
// MemAvailable; "max" and v1's huge number are no limit.
func TestCgroupMemory(t *testing.T) {
	for _, tc := range []struct {
		name, cgroup string
		files        map[string]string
		limit, usage uint64
	}{
		{"v2", "0::/job\n", map[string]string{"fs/cgroup/job/memory.max": "4294967296\n", "fs/cgroup/job/memory.current": "1073741824\n"}, 4 << 30, 1 << 30},
		{"v2 max", "0::/job\n", map[string]string{"fs/cgroup/job/memory.max": "max\n"}, 0, 0},
		{"v1", "4:memory:/job\n0::/\n", map[string]string{"fs/cgroup/memory/job/memory.limit_in_bytes": "2147483648", "fs/cgroup/memory/job/memory.usage_in_bytes": "0"}, 2 << 30, 0},
		{"v1 unlimited", "4:memory:/job\n", map[string]string{"fs/cgroup/memory/job/memory.limit_in_bytes": "9223372036854771712"}, 0, 0},
	} {
		proc, sys := t.TempDir(), t.TempDir()
		write(t, filepath.Join(proc, "self", "cgroup"), tc.cgroup)
		for p, v := range tc.files {
			write(t, filepath.Join(sys, p), v)
		}
		if l, u := cgroupMemory(proc, sys); l != tc.limit || u != tc.usage {
			t.Errorf("%s: limit %d usage %d, want %d %d", tc.name, l, u, tc.limit, tc.usage)
		}
	}
	h := Host{MemAvailableBytes: 20 << 30, CgroupLimitBytes: 4 << 30, CgroupUsageBytes: 1 << 30}
	if got := h.UsableMemory(); got != 3<<30 {
		t.Errorf("UsableMemory = %d, want the cgroup's 3 GiB left", got)
	}
	if got := (Host{MemAvailableBytes: 2 << 30}).UsableMemory(); got != 2<<30 {
		t.Errorf("no cgroup limit: %d, want MemAvailable", got)
	}
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
