package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/urfave/cli/v2"

	"github.com/iobench/iobench/iobench"
)

func (e *env) cleanCommand(onUsage cli.OnUsageErrorFunc) *cli.Command {
	return &cli.Command{
		Name:  "clean",
		Usage: "list and remove data files left by iobench runs that no longer exist (killed, or their node crashed)",
		Description: "Only files named as iobench names its data files, made on this host by a process that no longer\n" +
			"exists, are removed. Files of another host are listed and kept: run clean on that host.\n\n" +
			"   iobench clean --dir /gpfs/x --dry-run\n   iobench clean --dir /gpfs/x",
		Flags:        rowFlags(cleanRows()),
		Action:       e.cleanAction,
		OnUsageError: onUsage,
	}
}

// cleanOpts are clean's flags, read once.
type cleanOpts struct {
	dir    opt[string]
	dryRun opt[bool]
}

func cleanRows() []optRow[cleanOpts] {
	return []optRow[cleanOpts]{
		dirRow("directory to clean", ".", func(o *cleanOpts) *opt[string] { return &o.dir }),
		dryRunRow("list what would be removed; remove nothing", func(o *cleanOpts) *opt[bool] { return &o.dryRun }),
	}
}

func (e *env) cleanAction(c *cli.Context) error {
	var o cleanOpts
	if err := readRows(c, cleanRows(), &o); err != nil {
		return err
	}
	if c.Args().Present() {
		return usagef("unexpected argument %q", c.Args().First())
	}
	dir := o.dir.v
	if _, err := statDir(c, dir); err != nil {
		return err
	}
	found, err := iobench.FindLeftovers(dir)
	if err != nil {
		return fmt.Errorf("--dir: %w", err)
	}
	job := newCleaning(dir, found, o.dryRun.v)
	e.active.Store(job) // a signal names the files not removed
	defer e.active.Store(nil)
	err = job.run(c.Context, c.App.Writer)
	listSavedReports(c.App.Writer, stateDir(e.getenv))
	return err
}

// listSavedReports names the reports a sweep saved aside when its
// stdout failed: the user's to read and remove, so clean only lists them.
func listSavedReports(w io.Writer, dir string) {
	saved, _ := filepath.Glob(filepath.Join(dir, savedReportPrefix+"*"))
	for _, p := range saved {
		fmt.Fprintf(w, "saved report %s (a sweep whose stdout failed; remove it when read)\n", p)
	}
}

// cleaning is a clean in progress: the leftovers it found, and those of
// gone runs it has yet to remove, for a signal to name.
type cleaning struct {
	dir   string
	found []iobench.Leftover
	dry   bool

	mu      sync.Mutex
	pending map[string]bool // paths of gone runs' files not removed yet
	busy    chan struct{}   // closed once the removal in the kernel returns; nil: none
}

func newCleaning(dir string, found []iobench.Leftover, dry bool) *cleaning {
	c := &cleaning{dir: dir, found: found, dry: dry, pending: map[string]bool{}}
	for _, l := range found {
		if l.State == iobench.RunGone && !dry {
			c.pending[c.path(l)] = true
		}
	}
	return c
}

func (c *cleaning) path(l iobench.Leftover) string { return filepath.Join(c.dir, l.Name) }

// run removes (or, dry, lists) the leftovers of runs that are gone and
// names the ones it keeps, with why; a stop (ctx) ends it before the
// next removal, naming the files it did not remove.
func (c *cleaning) run(ctx context.Context, w io.Writer) error {
	if len(c.found) == 0 {
		fmt.Fprintf(w, "no iobench data files in %s\n", c.dir)
		return nil
	}
	var failed []string
	var freed int64
	var stopped error
	for _, l := range c.found {
		if stopped = c.interrupted(ctx); stopped != nil {
			break
		}
		verb := "keep  "
		switch {
		case l.State == iobench.RunGone && c.dry:
			verb = "would remove"
		case l.State == iobench.RunGone:
			if err := c.remove(l); err != nil {
				failed = append(failed, iobench.DescribePath(err))
				continue
			}
			verb, freed = "removed", freed+l.Bytes
		}
		fmt.Fprintf(w, "%-12s %s  %s (%d bytes)  %s\n", verb, l.Name, humanize.IBytes(uint64(l.Bytes)), l.Bytes, leftoverWhy(l))
	}
	if !c.dry {
		fmt.Fprintf(w, "freed %s (%d bytes)\n", humanize.IBytes(uint64(freed)), freed)
	}
	return errors.Join(stopped, cleanFailed(failed))
}

// remove removes one leftover, the signal handler seeing it in the kernel.
func (c *cleaning) remove(l iobench.Leftover) error {
	busy := make(chan struct{})
	c.mu.Lock()
	c.busy = busy
	c.mu.Unlock()
	err := iobench.RemoveLeftover(c.dir, l)
	c.mu.Lock()
	defer c.mu.Unlock()
	close(busy)
	c.busy = nil
	if err == nil {
		delete(c.pending, c.path(l))
	}
	return err
}

// interrupted is the error of a clean a signal stopped, naming the files
// it did not remove; nil if none stopped it.
func (c *cleaning) interrupted(ctx context.Context) error {
	if ctx.Err() == nil {
		return nil
	}
	err := fmt.Errorf("%w: %w", iobench.ErrInterrupted, context.Cause(ctx))
	if left := c.notRemoved(); len(left) > 0 {
		err = fmt.Errorf("%w; %d data file(s) of gone runs not removed; run iobench clean again:%s", err, len(left), indentedLines(left))
	}
	return err
}

func cleanFailed(failed []string) error {
	if len(failed) == 0 {
		return nil
	}
	return errors.New("clean: " + strings.Join(failed, "; "))
}

// notRemoved is the gone runs' files not removed, sorted.
func (c *cleaning) notRemoved() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := slices.Collect(maps.Keys(c.pending))
	slices.Sort(out)
	return out
}

// Waiting says what a stopped clean waits for.
func (c *cleaning) Waiting() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.busy != nil {
		return iobench.PhaseRemove.Waiting()
	}
	return "clean to stop"
}

// RemoveFiles does nothing: clean makes no files.
func (c *cleaning) RemoveFiles() {}

// Abandon is the second signal: it waits at most wait for the removal in
// the kernel and names every gone run's file not removed.
func (c *cleaning) Abandon(wait time.Duration) []string {
	c.mu.Lock()
	busy := c.busy
	c.mu.Unlock()
	if busy != nil {
		select {
		case <-busy:
		case <-time.After(wait):
		}
	}
	return c.notRemoved()
}

// indentedLines is paths, each on a line of its own, indented.
func indentedLines(paths []string) string {
	var b strings.Builder
	for _, p := range paths {
		b.WriteString("\n  " + p)
	}
	return b.String()
}

func leftoverWhy(l iobench.Leftover) string {
	switch l.State {
	case iobench.RunGone:
		return fmt.Sprintf("process %d on this host no longer exists", l.PID)
	case iobench.RunAlive:
		return fmt.Sprintf("process %d on this host is running", l.PID)
	}
	return fmt.Sprintf("made on host %s (process %d): run clean there", l.Host, l.PID)
}

// staleWarning is the one warning a sweep gives about files of dead runs
// in its directory, or "" when there are none.
func staleWarning(dir string) string {
	found, err := iobench.FindLeftovers(dir)
	if err != nil {
		return ""
	}
	gone, bytes := iobench.Gone(found)
	if len(gone) == 0 {
		return ""
	}
	files := "data files"
	if len(gone) == 1 {
		files = "data file"
	}
	return fmt.Sprintf("%d %s (%s, %d bytes) in %s left by iobench runs that no longer exist; remove with: iobench clean --dir %s",
		len(gone), files, humanize.IBytes(uint64(bytes)), bytes, dir, shellQuote(dir))
}

// shellQuote makes a path safe to paste into a shell command.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-+=:,@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
