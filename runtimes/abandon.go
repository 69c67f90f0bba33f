package runtimes

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// current is the writer process running now and the file it writes, so
// that a second Ctrl-C can kill it and remove the file at once.
type current struct {
	mu        sync.Mutex
	proc      *os.Process
	dir, name string
}

func (c *current) set(proc *os.Process, dir, name string) {
	c.mu.Lock()
	c.proc, c.dir, c.name = proc, dir, name
	c.mu.Unlock()
}

func (c *current) clear() { c.set(nil, "", "") }

// Waiting says what the first signal waits for: the writer to stop and
// its file to go.
func (w *Writer) Waiting() string {
	w.cur.mu.Lock()
	defer w.cur.mu.Unlock()
	if w.cur.proc == nil {
		return "the " + string(w.rt) + " writer to stop"
	}
	return fmt.Sprintf("the %s writer (process %d) to stop and its file to be removed", w.rt, w.cur.proc.Pid)
}

// RemoveFiles kills the writer running now and removes its file.
func (w *Writer) RemoveFiles() { w.Abandon(0) }

// Abandon kills the writer running now and removes its data file within
// wait (0: however long removal takes), and the compiled writer; it
// returns the data file if it could not be removed. The writer is not
// usable afterwards.
func (w *Writer) Abandon(wait time.Duration) []string {
	w.cur.mu.Lock()
	proc, dir, name := w.cur.proc, w.cur.dir, w.cur.name
	w.cur.mu.Unlock()
	defer os.RemoveAll(w.dir) // the compiled writer: the process exits next
	if proc == nil {
		return nil
	}
	_ = proc.Kill() // already gone is fine: the file is what matters
	done := make(chan error, 1)
	go func() { done <- removeData(dir, name) }()
	var timeout <-chan time.Time
	if wait > 0 {
		timeout = time.After(wait)
	}
	select {
	case err := <-done:
		if err == nil {
			return nil
		}
	case <-timeout:
	}
	if _, err := os.Lstat(filepath.Join(dir, name)); os.IsNotExist(err) {
		return nil
	}
	return []string{filepath.Join(dir, name)}
}
