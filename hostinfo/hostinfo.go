package hostinfo

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// Host describes the machine. Memory sizes are bytes.
type Host struct {
	Hostname          string `json:"hostname"`
	Kernel            string `json:"kernel"`    // `uname -sr` style: "Linux 6.1.0-18-amd64"
	Arch              string `json:"arch"`      // `uname -m`: "x86_64", "ppc64le"
	CPUModel          string `json:"cpu_model"` // /proc/cpuinfo "model name", or "cpu" on POWER
	CPUs              int    `json:"cpus"`      // runtime.NumCPU(): CPUs this process may use
	MemTotalBytes     uint64 `json:"mem_total_bytes"`
	MemAvailableBytes uint64 `json:"mem_available_bytes"`
	// CgroupLimitBytes is the memory limit of the process's cgroup
	// (memory.max, memory.limit_in_bytes), 0 for none; CgroupUsageBytes
	// what the cgroup used at start.
	CgroupLimitBytes uint64 `json:"cgroup_memory_limit_bytes,omitempty"`
	CgroupUsageBytes uint64 `json:"cgroup_memory_usage_bytes,omitempty"`
	GoVersion        string `json:"go_version"`
}

// MemInfo holds the /proc/meminfo lines hostinfo uses, in bytes. A line
// that is absent leaves its field zero.
type MemInfo struct {
	TotalBytes     uint64 // MemTotal
	AvailableBytes uint64 // MemAvailable: the kernel's estimate of memory usable without swapping
	FreeBytes      uint64 // MemFree: unused memory, not counting reclaimable page cache
}

// Read describes this machine, reading /proc. It never fails: facts it
// cannot read are left empty or zero.
func Read() Host {
	h := ReadWithProc("/proc")
	h.CgroupLimitBytes, h.CgroupUsageBytes = cgroupMemory("/proc", "/sys")
	return h
}

// ReadWithProc is Read with cpuinfo and meminfo read under procRoot.
func ReadWithProc(procRoot string) Host {
	h := Host{CPUs: runtime.NumCPU(), GoVersion: runtime.Version()}
	h.Hostname, _ = os.Hostname() // empty when unknown
	h.Kernel, h.Arch = uname()
	if f, err := os.Open(filepath.Join(procRoot, "cpuinfo")); err == nil {
		h.CPUModel = ParseCPUModel(f)
		f.Close()
	}
	if mem, err := readMemInfo(procRoot); err == nil {
		h.MemTotalBytes, h.MemAvailableBytes = mem.TotalBytes, mem.AvailableBytes
	}
	return h
}

// readMemInfo reads and parses procRoot+"/meminfo".
func readMemInfo(procRoot string) (MemInfo, error) {
	path := filepath.Join(procRoot, "meminfo")
	f, err := os.Open(path)
	if err != nil {
		return MemInfo{}, err
	}
	defer f.Close()
	mem, err := ParseMemInfo(f)
	if err != nil {
		return MemInfo{}, fmt.Errorf("%s: %w", path, err)
	}
	return mem, nil
}

// ParseMemInfo parses the format of /proc/meminfo ("MemTotal:  16303252 kB"),
// converting kB (which the kernel means as KiB) to bytes. Lines other than
// MemTotal, MemAvailable and MemFree are not looked at; a malformed one of
// those is an error of the form "line N: ...".
func ParseMemInfo(r io.Reader) (MemInfo, error) {
	var mem MemInfo
	fields := map[string]*uint64{
		"MemTotal":     &mem.TotalBytes,
		"MemAvailable": &mem.AvailableBytes,
		"MemFree":      &mem.FreeBytes,
	}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		key, value, _ := strings.Cut(sc.Text(), ":")
		dst, ok := fields[key]
		if !ok {
			continue
		}
		bytes, err := parseMemValue(value)
		if err != nil {
			return MemInfo{}, fmt.Errorf("line %d: %s: %w", n, key, err)
		}
		*dst = bytes
	}
	return mem, sc.Err()
}

// parseMemValue turns " 16303252 kB" into bytes.
func parseMemValue(value string) (uint64, error) {
	f := strings.Fields(value)
	if len(f) == 0 || len(f) > 2 || (len(f) == 2 && f[1] != "kB") {
		return 0, fmt.Errorf("want a number and kB, got %q", strings.TrimSpace(value))
	}
	v, err := strconv.ParseUint(f[0], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("bad number %q", f[0])
	}
	if len(f) == 2 {
		v *= 1024
	}
	return v, nil
}

// ParseCPUModel returns the CPU model from /proc/cpuinfo text: the first
// "model name" (x86, 32-bit Arm) or, failing that, the first "cpu" (POWER:
// "POWER9 (architected), altivec supported"). It returns "" when neither is
// present, as on arm64.
func ParseCPUModel(r io.Reader) string {
	var cpu string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		key, value, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		// Keys are padded with tabs; x86 also has "cpu MHz" and "cpu
		// family", which must not match "cpu".
		switch strings.TrimSpace(key) {
		case "model name":
			return strings.TrimSpace(value)
		case "cpu":
			if cpu == "" {
				cpu = strings.TrimSpace(value)
			}
		}
	}
	return cpu
}
