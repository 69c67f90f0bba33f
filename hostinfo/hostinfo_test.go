package hostinfo

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseCPUModel(t *testing.T) {
	tests := []struct {
		name string
		in   func(t *testing.T) string
		want string
	}{
		{"x86", fixtureText("cpuinfo-x86"), "Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz"},
		{"POWER9", fixtureText("cpuinfo-power9"), "POWER9 (architected), altivec supported"},
		{"arm64 has neither", text("processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\nCPU part\t: 0xd0c\n"), ""},
		{"cpu MHz is not cpu", text("cpu MHz\t\t: 2500.000\ncpu family\t: 6\n"), ""},
		{"model name wins over an earlier cpu", text("cpu\t: generic\nmodel name\t: Named CPU\n"), "Named CPU"},
		{"value with colons", text("model name\t: Vendor: Model 9\n"), "Vendor: Model 9"},
		{"empty", text(""), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ParseCPUModel(strings.NewReader(tt.in(t))); got != tt.want {
				t.Errorf("ParseCPUModel = %q, want %q", got, tt.want)
			}
		})
	}
}

// text is an inline test input.
func text(s string) func(*testing.T) string {
	return func(*testing.T) string { return s }
}

// fixtureText is the content of testdata/name.
func fixtureText(name string) func(*testing.T) string {
	return func(t *testing.T) string {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
}

func TestParseMemInfo(t *testing.T) {
	tests := []struct {
		name    string
		in      func(t *testing.T) string
		want    MemInfo
		wantErr string
	}{
		{"fixture", fixtureText("meminfo"), MemInfo{
			TotalBytes: 16303252 * 1024, AvailableBytes: 11523180 * 1024, FreeBytes: 812344 * 1024,
		}, ""},
		{"no MemAvailable (Linux < 3.14)", text("MemTotal: 2048 kB\nMemFree: 1024 kB\n"),
			MemInfo{TotalBytes: 2 << 20, FreeBytes: 1 << 20}, ""},
		{"no unit means bytes", text("MemTotal: 4096\n"), MemInfo{TotalBytes: 4096}, ""},
		{"other lines are not parsed", text("Junk: x y z\nHugePages_Total: many\nMemTotal: 1 kB\n"),
			MemInfo{TotalBytes: 1024}, ""},
		{"empty", text(""), MemInfo{}, ""},
		{"bad number", text("MemTotal: 1 kB\nMemFree: lots kB\n"), MemInfo{}, `line 2: MemFree: bad number "lots"`},
		{"bad unit", text("MemAvailable: 1 MB\n"), MemInfo{}, `line 1: MemAvailable: want a number and kB, got "1 MB"`},
		{"no value", text("MemTotal:\n"), MemInfo{}, `line 1: MemTotal: want a number and kB, got ""`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseMemInfo(strings.NewReader(tt.in(t)))
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Errorf("ParseMemInfo error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseMemInfo mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// fakeProc makes a proc root holding the named testdata files, each under
// the name it has in /proc.
func fakeProc(t *testing.T, files map[string]string) string {
	t.Helper()
	proc := t.TempDir()
	for procName, fixture := range files {
		data, err := os.ReadFile(filepath.Join("testdata", fixture))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(proc, procName), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return proc
}

func TestReadWithProc(t *testing.T) {
	hostname, _ := os.Hostname()
	kernel, arch := uname()
	base := Host{Hostname: hostname, Kernel: kernel, Arch: arch, CPUs: runtime.NumCPU(), GoVersion: runtime.Version()}
	tests := []struct {
		name  string
		files map[string]string
		want  func(Host) Host // from base
	}{
		{"POWER", map[string]string{"cpuinfo": "cpuinfo-power9", "meminfo": "meminfo"}, func(h Host) Host {
			h.CPUModel = "POWER9 (architected), altivec supported"
			h.MemTotalBytes, h.MemAvailableBytes = 16303252*1024, 11523180*1024
			return h
		}},
		{"x86 without meminfo", map[string]string{"cpuinfo": "cpuinfo-x86"}, func(h Host) Host {
			h.CPUModel = "Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz"
			return h
		}},
		{"empty proc", nil, func(h Host) Host { return h }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ReadWithProc(fakeProc(t, tt.files))
			if diff := cmp.Diff(tt.want(base), got); diff != "" {
				t.Errorf("ReadWithProc mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReadMemInfo: MemAvailable in bytes; 0, not an error, on kernels
// before 3.14 that lack the line; malformed and missing files fail.
func TestReadMemInfo(t *testing.T) {
	const want uint64 = 11523180 * 1024
	got, err := readMemInfo(fakeProc(t, map[string]string{"meminfo": "meminfo"}))
	if err != nil || got.AvailableBytes != want {
		t.Errorf("readMemInfo(fixture) = %d, %v; want %d", got.AvailableBytes, err, want)
	}

	proc := t.TempDir()
	path := filepath.Join(proc, "meminfo")
	if err := os.WriteFile(path, []byte("MemTotal: 2048 kB\nMemFree: 1024 kB\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := readMemInfo(proc); err != nil || got.AvailableBytes != 0 || got.TotalBytes != 2048*1024 {
		t.Errorf("readMemInfo(old kernel) = %+v, %v; want total 2 MiB, available 0", got, err)
	}

	if err := os.WriteFile(path, []byte("MemAvailable: many kB\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readMemInfo(proc); err == nil || !strings.HasPrefix(err.Error(), path+": line 1: ") {
		t.Errorf("readMemInfo(malformed) error = %v, want prefix %q", err, path+": line 1: ")
	}

	if _, err := readMemInfo(t.TempDir()); !os.IsNotExist(err) {
		t.Errorf("readMemInfo(no meminfo) error = %v, want not-exist", err)
	}
}
