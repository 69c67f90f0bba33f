package iobench

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"
)

// fileTable is the data files one writer created and still holds, each
// by the identity Create gave it, and those it could not remove. Only a
// file in the table is ever removed, so a name another process reused is
// never touched. A signal handler's goroutine removes or abandons the
// files while the writer runs; mu is never held across a system call, so
// a call hung in the kernel cannot keep a second Ctrl-C from listing them.
type fileTable struct {
	fs    FS
	phase *livePhase // PhaseRemove while a removal is in the kernel

	mu       sync.Mutex
	files    map[string]FileID // created and not yet removed
	left     []LeftFile        // could not be removed
	creating sync.WaitGroup    // creates in the kernel, for abandon
	removing sync.WaitGroup    // removals under way, for abandon
	closed   bool              // removeAll ran: create nothing more

	kept string // the file --keep holds; the writer's goroutine only
}

func newFileTable(fs FS, phase *livePhase) *fileTable {
	return &fileTable{fs: fs, phase: phase, files: map[string]FileID{}}
}

// create makes a new data file named base-<attempt>.dat, with the next
// attempt while the name is taken.
func (t *fileTable) create(base string, direct bool) (string, File, error) {
	var lastErr error
	for attempt := 0; attempt < 10; attempt++ {
		name := fmt.Sprintf("%s-%d.dat", base, attempt)
		f, err := t.createTracked(name, direct)
		if err == nil {
			return name, f, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return name, nil, err
		}
		lastErr = err
	}
	return "", nil, lastErr
}

// createTracked creates a file and records it, so removeAll never misses
// a file and no file is made after it ran.
func (t *fileTable) createTracked(name string, direct bool) (File, error) {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil, ErrInterrupted
	}
	t.files[name] = inFlight
	t.creating.Add(1)
	defer t.creating.Done()
	t.mu.Unlock()
	f, id, err := t.fs.Create(name, direct)
	t.mu.Lock()
	closed := t.closed
	switch {
	case err != nil:
		delete(t.files, name)
	case closed: // removeAll ran while the create was in the kernel
		delete(t.files, name)
	default:
		t.files[name] = id
	}
	t.mu.Unlock()
	if err == nil && closed {
		f.Close()
		t.removeUntracked(name, id)
		return nil, ErrInterrupted
	}
	return f, err
}

// inFlight marks a file whose create has not returned yet.
var inFlight = FileID{}

// id is the identity Create gave a data file the table holds.
func (t *fileTable) id(name string) FileID {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.files[name]
}

func (t *fileTable) forget(name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.files, name)
}

// remove deletes a data file, but only one the table holds.
func (t *fileTable) remove(name string) error {
	t.mu.Lock()
	id, held := t.files[name]
	if !held || id == inFlight {
		t.mu.Unlock()
		return nil
	}
	delete(t.files, name)
	t.removing.Add(1)
	defer t.removing.Done()
	t.mu.Unlock()
	if err := t.removeUntracked(name, id); err != nil {
		return fmt.Errorf("removing data file: %w", describedError{err})
	}
	return nil
}

// removeUntracked removes one file no longer in the table and records it
// as left behind when that fails; a file already gone is not a leftover.
func (t *fileTable) removeUntracked(name string, id FileID) error {
	t.phase.set(PhaseRemove)
	defer t.phase.set(PhaseIdle)
	err := t.fs.Remove(name, id)
	if err == nil || errors.Is(err, os.ErrNotExist) {
		return nil
	}
	t.mu.Lock()
	t.left = append(t.left, LeftFile{Path: t.path(name), Err: DescribePath(err)})
	t.mu.Unlock()
	return err
}

// close has the table create no file: RemoveFiles ran before the
// writer started.
func (t *fileTable) close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.closed = true
}

// leftFiles are the data files that could not be removed, with the cause.
func (t *fileTable) leftFiles() []LeftFile {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.left)
}

// removeAll removes the held files, calling done with each one's name
// once its removal returned.
func (t *fileTable) removeAll(done func(name string)) {
	defer holdTermSignals()()
	t.mu.Lock()
	t.closed = true
	held := map[string]FileID{}
	for n, id := range t.files {
		if id != inFlight { // its creator removes it when Create returns
			held[n] = id
			delete(t.files, n)
		}
	}
	if len(held) > 0 { // after Abandon took every file, none: no Add races its Wait
		t.removing.Add(1)
		defer t.removing.Done()
	}
	t.mu.Unlock()
	for n, id := range held {
		_ = t.removeUntracked(n, id)
		if done != nil {
			done(n)
		}
	}
}

// abandon is Runner.Abandon for the table's files.
func (t *fileTable) abandon(wait time.Duration) []string {
	t.mu.Lock()
	pending := map[string]bool{}
	for n := range t.files {
		pending[n] = true
	}
	t.mu.Unlock()
	var mu sync.Mutex
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t.removeAll(func(n string) {
			mu.Lock()
			delete(pending, n)
			mu.Unlock()
		})
		// A create in flight removes its own file once it returns (or
		// records it as left), and the sweep's own teardown may be
		// removing some: wait for those too.
		t.creating.Wait()
		t.removing.Wait()
		mu.Lock()
		clear(pending)
		mu.Unlock()
	}()
	select {
	case <-finished:
	case <-time.After(wait):
	}
	mu.Lock()
	defer mu.Unlock()
	var out []string
	for n := range pending {
		out = append(out, t.path(n))
	}
	t.mu.Lock()
	for _, l := range t.left {
		out = append(out, l.Path)
	}
	t.mu.Unlock()
	slices.Sort(out)
	return slices.Compact(out)
}

// hold adds a file another process created, by the identity it has
// here, so that removeAll removes it too; a closed table holds nothing.
func (t *fileTable) hold(name string, id FileID) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.closed && id != (FileID{}) {
		t.files[name] = id
	}
}

// keep holds name back for --keep instead of removing it, and removes
// the file it held before.
func (t *fileTable) keep(name string) error {
	var err error
	if t.kept != "" && t.kept != name {
		err = t.remove(t.kept)
	}
	t.kept = name
	return err
}

// dropKept removes name if --keep held it: a file made anew for the next
// run under the same name.
func (t *fileTable) dropKept(name string) error {
	if t.kept != name {
		return nil
	}
	t.kept = ""
	return t.remove(name)
}

// keepLast takes the file --keep holds, or else the first of others that
// is named, out of the table, so the sweep's last removal leaves it, and
// returns its path; "" if there is none.
func (t *fileTable) keepLast(others ...string) string {
	for _, name := range others {
		if t.kept == "" {
			t.kept = name
		}
	}
	if t.kept == "" {
		return ""
	}
	t.forget(t.kept)
	return t.path(t.kept)
}

// path is a data file's name as errors and reports show it: its full
// path where the file system has one.
func (t *fileTable) path(name string) string {
	if o, ok := t.fs.(Pather); ok {
		return o.Path(name)
	}
	return name
}
