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
// never touched. A file stays in the table until its removal returned, so
// one whose unlink(2) hangs is still named. A signal handler's goroutine
// removes or abandons the files while the writer runs; mu is never held
// across a system call, so a call hung in the kernel cannot keep a second
// Ctrl-C from listing them.
type fileTable struct {
	fs    FS
	phase *livePhase // PhaseRemove while a removal is in the kernel

	mu        sync.Mutex
	dir       FileID            // the directory the files are made in; none without one
	files     map[string]FileID // created and not yet removed
	unlinking map[string]bool   // files whose removal is under way
	left      []LeftFile        // could not be removed
	closed    bool              // removeAll ran: create nothing more
	changed   chan struct{}     // closed and renewed when a file leaves files

	kept string // the file --keep holds; the writer's goroutine only
}

func newFileTable(fs FS, phase *livePhase) *fileTable {
	return &fileTable{fs: fs, phase: phase, files: map[string]FileID{}, unlinking: map[string]bool{}, changed: make(chan struct{})}
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
	t.mu.Unlock()
	f, id, err := t.fs.Create(name, direct)
	t.mu.Lock()
	closed := t.closed
	switch {
	case err != nil:
		t.drop(name)
	case closed: // removeAll ran while the create was in the kernel
		t.files[name], t.unlinking[name] = id, true
	default:
		t.files[name] = id
	}
	t.mu.Unlock()
	if err == nil && closed {
		f.Close()
		_ = t.unlink(name, id)
		return nil, ErrInterrupted
	}
	return f, err
}

// inFlight marks a file whose create has not returned yet.
var inFlight = FileID{}

// drop takes name out of the table, with t.mu held.
func (t *fileTable) drop(name string) {
	if _, held := t.files[name]; !held {
		return
	}
	delete(t.files, name)
	delete(t.unlinking, name)
	close(t.changed)
	t.changed = make(chan struct{})
}

// pinDir records the directory the files are made in, where the file
// system has one, so that one swapped for another directory (or a
// symlink to one) mid-run is told from a file that is gone.
func (t *fileTable) pinDir() error {
	o, ok := localOS(t.fs)
	if !ok {
		return nil
	}
	id, _, err := o.dirNow()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.dir = id
	return err
}

// dirReplaced is a ReplacedError once the directory's path no longer
// leads to the directory the files were made in.
func (t *fileTable) dirReplaced() error {
	o, ok := localOS(t.fs)
	t.mu.Lock()
	was := t.dir
	t.mu.Unlock()
	if !ok || was == (FileID{}) {
		return nil
	}
	id, now, err := o.dirNow()
	if err == nil && id == was {
		return nil
	}
	if err != nil {
		now = "unreachable: " + Describe(err)
	}
	return &ReplacedError{Path: o.Dir, Want: was, Now: now, Dir: true}
}

// id is the identity Create gave a data file the table holds.
func (t *fileTable) id(name string) FileID {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.files[name]
}

func (t *fileTable) forget(name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.drop(name)
}

// remove deletes a data file, but only one the table holds.
func (t *fileTable) remove(name string) error {
	id, ok := t.claim(name)
	if !ok {
		return nil
	}
	if err := t.unlink(name, id); err != nil {
		return fmt.Errorf("removing data file: %w", describedError{err})
	}
	return nil
}

// claim marks a held file as being removed by the caller: not one whose
// create or removal is under way.
func (t *fileTable) claim(name string) (FileID, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	id, held := t.files[name]
	if !held || id == inFlight || t.unlinking[name] {
		return FileID{}, false
	}
	t.unlinking[name] = true
	return id, true
}

// unlink removes a claimed file, then takes it out of the table, as left
// behind when the removal failed. A file already gone is not left behind,
// unless its directory was replaced: then it is where it was, out of
// reach of its name.
func (t *fileTable) unlink(name string, id FileID) error {
	t.phase.set(PhaseRemove)
	err := t.fs.Remove(name, id)
	t.phase.set(PhaseIdle)
	if errors.Is(err, os.ErrNotExist) {
		err = t.dirReplaced()
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if err != nil {
		t.left = append(t.left, LeftFile{Path: t.path(name), Err: DescribePath(err)})
	}
	t.drop(name)
	return err
}

// removeAdopted removes a file another process created (a killed peer's),
// held in the table meanwhile so that a removal that hangs names it.
func (t *fileTable) removeAdopted(name string, id FileID) error {
	t.mu.Lock()
	if _, held := t.files[name]; held {
		t.mu.Unlock()
		return nil
	}
	t.files[name], t.unlinking[name] = id, true
	t.mu.Unlock()
	return t.unlink(name, id)
}

// close has the table create no file: RemoveFiles ran before the
// writer started, or Abandon.
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

// removeAll removes the held files; a create or removal under way
// removes its own file.
func (t *fileTable) removeAll() {
	defer holdTermSignals()()
	t.mu.Lock()
	t.closed = true
	claimed := map[string]FileID{}
	for n, id := range t.files {
		if id != inFlight && !t.unlinking[n] {
			claimed[n] = id
			t.unlinking[n] = true
		}
	}
	t.mu.Unlock()
	for n, id := range claimed {
		_ = t.unlink(n, id)
	}
}

// abandon is Runner.Abandon for the table's files: it removes them in
// another goroutine, waits at most wait for every create and removal
// under way to return, and names each file not confirmed removed.
func (t *fileTable) abandon(wait time.Duration) []string {
	t.close()
	go t.removeAll()
	deadline := time.After(wait)
	for {
		held, changed := t.holding()
		if !held {
			break
		}
		select {
		case <-changed:
		case <-deadline:
			return t.unconfirmed()
		}
	}
	return t.unconfirmed()
}

// holding reports whether any file is still held, and a channel closed
// once one leaves the table.
func (t *fileTable) holding() (bool, <-chan struct{}) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.files) > 0, t.changed
}

// unconfirmed is the paths of the files held or left behind.
func (t *fileTable) unconfirmed() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for n := range t.files {
		out = append(out, t.path(n))
	}
	for _, l := range t.left {
		out = append(out, l.Path)
	}
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
