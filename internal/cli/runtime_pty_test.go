//go:build linux

package cli

import (
	"os/exec"
	"testing"

	"github.com/iobench/iobench/libcheck"
)

// TestRuntimeBarOnATerminal runs adaptive runtime rounds on a
// pseudo-terminal: the bar follows the writer's runs, never goes back,
// says the time left, and every live line fits 80 columns.
func TestRuntimeBarOnATerminal(t *testing.T) {
	needCompiler(t, libcheck.Stdio)
	saved := savedSweep(t)
	cmd := exec.Command(iobenchBin, "runtime", "stdio", "--dir", t.TempDir(), "--size", "192MiB", "--buffers", "8KiB", "--convert", "native",
		"--repeat", "auto", "--time-budget", "4s", "--sync", "none", "--profile", "generic", "--from", saved, "-o", t.TempDir()+"/r.txt")
	screen := onTerminal(t, cmd)
	waitOnTerminal(t, cmd, screen)
	checkLiveLines(t, screen(), []string{"array ", "records "},
		"warm-up: one untimed run", "first run took", "at most --time-budget 4s", " r1 auto ", " left", "iobench: round 1 of ~")
}
