package hostinfo

import (
	"os/exec"
	"strings"
	"testing"
)

// uname1 runs `uname flag`, skipping the test when uname is missing.
func uname1(t *testing.T, flag string) string {
	t.Helper()
	if _, err := exec.LookPath("uname"); err != nil {
		t.Skip("uname(1) not found")
	}
	out, err := exec.Command("uname", flag).Output()
	if err != nil {
		t.Fatalf("uname %s: %v", flag, err)
	}
	return strings.TrimSpace(string(out))
}

func TestReadThisMachine(t *testing.T) {
	h := Read()
	if want := uname1(t, "-sr"); h.Kernel != want {
		t.Errorf("Kernel = %q, `uname -sr` prints %q", h.Kernel, want)
	}
	if want := uname1(t, "-m"); h.Arch != want {
		t.Errorf("Arch = %q, `uname -m` prints %q", h.Arch, want)
	}
	if h.Hostname == "" || h.MemTotalBytes == 0 || h.MemAvailableBytes == 0 || h.MemAvailableBytes > h.MemTotalBytes {
		t.Errorf("Read() = %+v: want hostname and 0 < available <= total memory", h)
	}
}
