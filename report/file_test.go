package report_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/internal/fixture"
	"github.com/iobench/iobench/report/render"
)

// A report file gets the mode a plain create would: 0666 less the umask
// (0644 under the common 022), so colleagues can read a shared report.
func TestWriteNewFileHonoursTheUmask(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	path := filepath.Join(t.TempDir(), "r.json")
	if err := report.WriteNewFile(path, render.JSON, fixture.Ext4()); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Mode().Perm(); got != 0o644 {
		t.Errorf("mode %v, want -rw-r--r--", got)
	}
	if err := report.WriteNewFile(path, render.JSON, fixture.Ext4()); err == nil {
		t.Error("a second write replaced the report; want a refusal")
	}
}
