//go:build linux

package cli

import (
	"bytes"
	"io"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"unicode/utf8"

	"github.com/creack/pty"

	"github.com/iobench/iobench/internal/testkit/testenv"
	"github.com/iobench/iobench/internal/testkit/testwait"
)

// The bar is tried on a real pseudo-terminal: iobench sees a terminal on
// stderr and draws, and the test reads what a user would see.
func TestProgressBarOnATerminal(t *testing.T) {
	cmd := exec.Command(iobenchBin, "sweep", "--dir", t.TempDir(), "--size", "512MiB", "--sizes", "4KiB,8KiB",
		"--repeat", "auto", "--time-budget", "6s", "--sync", "none", "--profile", "generic", "--format", "json", "-o", t.TempDir()+"/r.json")
	screen := onTerminal(t, cmd)
	waitOnTerminal(t, cmd, screen)
	checkBar(t, screen())
}

// waitOnTerminal waits for cmd, started by onTerminal; a failure shows
// the terminal.
func waitOnTerminal(t *testing.T, cmd *exec.Cmd, screen func() string) {
	t.Helper()
	var err error
	exited := make(chan struct{})
	go func() { err = cmd.Wait(); close(exited) }()
	testwait.Exit(t, "exit of "+cmd.Args[1]+" on a pty", cmd.Process, exited, screen)
	if err != nil {
		t.Fatalf("%s: %v\n%s", cmd.Args[1], err, screen())
	}
}

// onTerminal starts cmd on an 80-column pseudo-terminal; the function it
// returns waits for the output to end and gives what the terminal showed;
// watch sees it as it comes.
func onTerminal(t *testing.T, cmd *exec.Cmd, watch ...func([]byte)) func() string {
	t.Helper()
	screen, _ := typeOnTerminal(t, cmd, watch...)
	return screen
}

// typeOnTerminal is onTerminal with the terminal's side to type on.
func typeOnTerminal(t *testing.T, cmd *exec.Cmd, watch ...func([]byte)) (func() string, io.Writer) {
	t.Helper()
	testenv.Full(t, "a terminal and seconds of drawing")
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 80})
	if err != nil {
		t.Skip("no pseudo-terminal:", err)
	}
	t.Cleanup(func() { tty.Close() })
	var screen bytes.Buffer
	copied := make(chan struct{})
	var w io.Writer = &screen
	for _, f := range watch {
		w = io.MultiWriter(w, watcher(f))
	}
	go func() { _, _ = io.Copy(w, tty); close(copied) }()
	return func() string {
		<-copied // the child's exit ends the terminal's output (EIO)
		return screen.String()
	}, tty
}

// watcher sees the terminal's output as it comes.
type watcher func([]byte)

func (f watcher) Write(b []byte) (int, error) { f(b); return len(b), nil }

var (
	ansi    = regexp.MustCompile(`\x1b\[[0-9;]*[A-Za-z]`)
	percent = regexp.MustCompile(`\] +(\d+)%  (\S+) left`)
)

// checkBar: the bar's percentage never goes back, every bar of the timed
// runs says the time left, the fill and warm-up show progress, and no bar
// or run line is wider than 80 columns.
func checkBar(t *testing.T, out string) {
	t.Helper()
	checkLiveLines(t, out, []string{"write "}, "filling the array", "warm-up (untimed)", "round 1 of ~")
}

// checkLiveLines: the bar's percentage never goes back, each draw after
// the first run says how long is left, no bar or run line (one that
// starts with a runPrefix) is wider than 80 columns, and out shows each
// of wants.
func checkLiveLines(t *testing.T, out string, runPrefixes []string, wants ...string) {
	t.Helper()
	last, draws, ran := -1, 0, false
	for _, seg := range strings.FieldsFunc(ansi.ReplaceAllString(out, ""), func(r rune) bool { return r == '\r' || r == '\n' }) {
		seg = strings.TrimRight(seg, " ")
		m := percent.FindStringSubmatch(seg)
		run := slices.ContainsFunc(runPrefixes, func(p string) bool { return strings.HasPrefix(seg, p) })
		ran = ran || run
		if w := utf8.RuneCountInString(seg); (m != nil || run) && w > 80 {
			t.Errorf("a live line of %d columns: %q", w, seg)
		}
		if m == nil {
			continue
		}
		p, _ := strconv.Atoi(m[1])
		if p < last {
			t.Errorf("the bar went back from %d%% to %d%%: %q", last, p, seg)
		}
		if ran && m[2] == "?" {
			t.Errorf("a bar after the first run with no time left: %q", seg)
		}
		last, draws = p, draws+1
	}
	if draws < 3 {
		t.Errorf("the bar was drawn %d times, want several:\n%q", draws, out)
	}
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("no %q shown:\n%q", want, out)
		}
	}
}

// With stdout and stderr on one terminal a warning shows once, in the
// report, not also on stderr.
func TestWarningsShowOnceOnATerminal(t *testing.T) {
	cmd := exec.Command(iobenchBin, "sweep", "--dir", t.TempDir(), "--size", "4MiB", "--sizes", "4KiB,8KiB,16KiB",
		"--repeat", "1", "--sync", "none", "--profile", "generic")
	screen := onTerminal(t, cmd)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("sweep: %v\n%s", err, screen())
	}
	if out := screen(); strings.Count(out, "fits in RAM") != 1 {
		t.Errorf("the page-cache warning %d times on the terminal, want 1:\n%s", strings.Count(out, "fits in RAM"), out)
	}
}

// TestInterruptMessageOnALineOfItsOwn: Ctrl-C while the bar is drawn
// clears the bar before the message: before, it was glued to the bar's
// end ("3s lefti" / "obench: interrupt: ...").
func TestInterruptMessageOnALineOfItsOwn(t *testing.T) {
	cmd := exec.Command(iobenchBin, "sweep", "--dir", t.TempDir(), "--size", "512MiB", "--sizes", "4KiB,8KiB",
		"--repeat", "auto", "--time-budget", "20s", "--sync", "none", "--profile", "generic", "--format", "json", "-o", t.TempDir()+"/r.json")
	var mu sync.Mutex
	var seen strings.Builder
	screen := onTerminal(t, cmd, func(b []byte) { mu.Lock(); seen.Write(b); mu.Unlock() })
	testwait.Until(t, "the bar", func() bool { mu.Lock(); defer mu.Unlock(); return strings.Contains(seen.String(), " left") })
	_ = cmd.Process.Signal(syscall.SIGINT)
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	testwait.Exit(t, "exit after Ctrl-C", cmd.Process, exited, screen)
	s := screen()
	i := strings.Index(s, "iobench: interrupt: stopping")
	if i < 0 || !(strings.HasSuffix(s[:i], "\r\x1b[K") || strings.HasSuffix(s[:i], "\n")) {
		t.Errorf("the interrupt message does not start a line of its own:\n%q", s)
	}
}
