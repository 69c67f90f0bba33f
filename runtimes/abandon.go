package runtimes

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// current is the writer process running now and the file it writes, so
// that a second Ctrl-C can kill it and remove the file at once. A writer
// started by a Launcher has no process here, only its files.
type current struct {
	mu        sync.Mutex
	proc      *os.Process
	exited    chan struct{} // closed once the writer's Wait returned
	dir, name string
	launched  []string // the files of a launched writer
}

// setFiles records the files of a writer a Launcher started.
func (c *current) setFiles(paths []string) {
	c.mu.Lock()
	c.launched = paths
	c.mu.Unlock()
}

// set records the started writer; the caller closes the channel it
// returns when the writer has exited.
func (c *current) set(proc *os.Process, dir, name string) chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.proc, c.exited, c.dir, c.name = proc, make(chan struct{}), dir, name
	return c.exited
}

// clear forgets the run once its file is removed.
func (c *current) clear() {
	c.mu.Lock()
	c.proc, c.exited, c.dir, c.name, c.launched = nil, nil, "", "", nil
	c.mu.Unlock()
}

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
	proc, exited, dir, name, launched := w.cur.proc, w.cur.exited, w.cur.dir, w.cur.name, w.cur.launched
	w.cur.mu.Unlock()
	defer os.RemoveAll(w.dir) // the compiled writer: the process exits next
	if proc == nil {
		return removeLaunched(launched)
	}
	_ = proc.Kill() // already gone is fine: the file is what matters
	var timeout <-chan time.Time
	if wait > 0 {
		timeout = time.After(wait)
	}
	done := make(chan error, 1)
	go func() {
		// A writer killed inside open(O_CREAT|O_EXCL) may still create
		// the file: remove it once the writer is gone.
		<-exited
		done <- removeData(dir, name)
	}()
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

// removeLaunched removes a launched writer's files, which the job that
// runs it may still be writing: what cannot be removed is returned.
func removeLaunched(paths []string) []string {
	var left []string
	for _, p := range paths {
		if removeData(filepath.Dir(p), filepath.Base(p)) != nil {
			left = append(left, p)
		}
	}
	return left
}
