//go:build linux

package cli

import (
	"bytes"
	"io"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/iobench/iobench/internal/testkit/testenv"
)

// app -- PROG on a terminal: the program gets the terminal's foreground
// (it reads a line typed there), Ctrl-C ends it, not the shell around
// iobench, and iobench gives the foreground back: the shell that ran it
// reads the next line. Without the foreground given, the program's read
// stops it (SIGTTIN); without it taken back, the shell's does.
func TestAppOnATerminalGivesTheForegroundBack(t *testing.T) {
	testenv.Command(t, "strace")
	prog := `read x; echo "got $x"; echo ready; exec sleep 30`
	script := iobenchBin + ` app --curve-time 1s -- sh -c '` + prog + `'; echo "app: $?"; read y; echo "after $y"`
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = t.TempDir()
	var mu sync.Mutex
	var seen bytes.Buffer
	var tty io.Writer
	steps := []struct{ after, keys string }{{"ready", "\x03"}, {"app: ", "next\n"}}
	screen, w := typeOnTerminal(t, cmd, func(b []byte) {
		mu.Lock()
		defer mu.Unlock()
		seen.Write(b)
		if len(steps) > 0 && tty != nil && strings.Contains(seen.String(), steps[0].after) {
			tty.Write([]byte(steps[0].keys))
			steps = steps[1:]
		}
	})
	mu.Lock()
	tty = w
	tty.Write([]byte("hello\n")) // buffered by the terminal until the program reads it
	mu.Unlock()
	waitOnTerminal(t, cmd, screen)
	out := screen()
	for _, want := range []string{"got hello", "app: 130", "after next"} {
		if !strings.Contains(out, want) {
			t.Errorf("the terminal does not show %q:\n%s", want, out)
		}
	}
}
