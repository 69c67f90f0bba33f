package cli

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"github.com/iobench/iobench/internal/progress"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/mpi"
)

// env is what a command takes from its process, passed to run so that
// the whole command runs in a test: where it writes, the environment it
// reads, the MPI world, and the sweep in progress the signal handler
// reports on. The package has no other state.
type env struct {
	stdout, stderr io.Writer           // rank 0's streams; other ranks' discard
	console        io.Writer           // this process's stderr on every rank: signal messages
	getenv         func(string) string // the environment (os.Getenv)
	world          *mpi.World          // the MPI world; nil when not under MPI
	active         activeJob           // the job in progress, for the signal handler
	cleanups       cleanups            // what a second signal removes besides the job's files
	joined         atomic.Bool         // this rank made the MPI job's first collective calls
	cluster        atomic.Pointer[mpiJob]
	display        atomic.Pointer[progress.Live] // the bar a signal's message must not be glued to
}

// showing makes d the display signal messages clear, until the
// returned func is called.
func (e *env) showing(d *progress.Live) func() {
	e.display.Store(d)
	return func() { e.display.Store(nil) }
}

// say writes a signal's message to the console on lines of its own,
// the bar cleared first; last: no bar after it, the process exits.
func (e *env) say(text string, last bool) {
	if d := e.display.Load(); d != nil {
		d.Interject(e.console, text, last)
		return
	}
	fmt.Fprint(e.console, text)
}

// cleanups are removals of a command's own scratch (a compiled writer's
// directory) that must also happen when a second signal exits at once.
type cleanups struct {
	mu  sync.Mutex
	fns map[int]func()
	n   int
}

// add registers f and returns the function that unregisters it.
func (c *cleanups) add(f func()) (remove func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fns == nil {
		c.fns = map[int]func(){}
	}
	c.n++
	id := c.n
	c.fns[id] = f
	return func() {
		c.mu.Lock()
		delete(c.fns, id)
		c.mu.Unlock()
	}
}

// run calls every registered cleanup once.
func (c *cleanups) run() {
	c.mu.Lock()
	fns := c.fns
	c.fns = nil
	c.mu.Unlock()
	for _, f := range fns {
		f()
	}
}

// stoppable is the job in progress as the signal handler sees it: a
// sweep's runner or a runtime's writer.
type stoppable interface {
	Waiting() string                     // what the first signal waits for
	RemoveFiles()                        // remove the data files now (a launcher's SIGKILL follows)
	Abandon(wait time.Duration) []string // the second signal: the files not removed within wait
}

// activeJob holds the job in progress; nil when there is none.
type activeJob struct {
	mu   sync.Mutex
	job  stoppable
	last stoppable // the job in progress, or the last one to end
}

func (r *activeJob) Store(job stoppable) {
	r.mu.Lock()
	r.job = job
	if job != nil {
		r.last = job
	}
	r.mu.Unlock()
}

func (r *activeJob) Load() stoppable {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.job
}

// Last is the job in progress, or else the last one that ran: one that
// ended may hold files it could not remove and has not reported yet.
func (r *activeJob) Last() stoppable {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last
}

// sweepRun is a sweep's runner as a stoppable.
type sweepRun struct{ *iobench.Runner }

func (s sweepRun) Waiting() string { return s.Phase().Waiting() }

// processEnv is the environment of this process as main starts it: rank
// 0 prints, the other ranks' failures reach it through the cluster. A
// nil w (MPI failed to start) prints as rank 0.
func processEnv(w *mpi.World) *env {
	e := &env{stdout: os.Stdout, stderr: os.Stderr, console: os.Stderr, getenv: os.Getenv, world: w}
	if w != nil && w.Rank() != 0 {
		e.stdout, e.stderr = io.Discard, io.Discard
	}
	return e
}

// launcherWarnings go into every report of a build without MPI that a
// launcher (mpirun, srun) started as one of several tasks: each measures
// alone, so the results are not aggregated.
func (e *env) launcherWarnings() []string {
	n := mpi.LauncherSize(e.getenv)
	if mpi.Enabled() || n < 2 {
		return nil
	}
	return []string{fmt.Sprintf("started as task %d of %d by a launcher, but this iobench was built without MPI (go build -tags mpi): the tasks run independently and their results are not aggregated",
		mpi.LauncherRank(e.getenv), n)}
}

// ranks is the number of processes in the MPI job: 1 without one.
func (e *env) ranks() int {
	if e.world == nil {
		return 1
	}
	return e.world.Size()
}

// closeStdio makes the standard streams the process started without
// fail as a closed pipe does: a report meant for stdout is then saved
// aside and the exit is 1, never 0 with the report gone.
func (e *env) closeStdio(closed stdioClosed) {
	if closed.stdout {
		e.stdout = closedStream{"stdout"}
	}
	if closed.stderr {
		e.stderr, e.console = io.Discard, io.Discard
	}
}

// stdioClosed says which standard streams were closed at start (>&-).
type stdioClosed struct{ stdout, stderr bool }

// closedStream is a standard stream the process started without.
type closedStream struct{ name string }

func (c closedStream) Write([]byte) (int, error) {
	return 0, fmt.Errorf("%s is closed (the command was started with it closed; give -o FILE to keep the report)", c.name)
}

// startedClosed says which of stdout and stderr the process started
// without (>&-). Go's runtime gives such a descriptor /dev/null, opened
// for reading and writing, so that no file takes its number; a shell's
// >/dev/null opens it for writing only. So /dev/null open for both is
// taken for a closed stream: the report then goes to a file, not nowhere.
func startedClosed() stdioClosed {
	return stdioClosed{stdout: nullForBoth(1), stderr: nullForBoth(2)}
}

// nullForBoth says whether descriptor fd is /dev/null open for reading
// and writing.
func nullForBoth(fd int) bool {
	var st, null unix.Stat_t
	if unix.Fstat(fd, &st) != nil || unix.Stat("/dev/null", &null) != nil {
		return false
	}
	if st.Mode&unix.S_IFMT != unix.S_IFCHR || st.Rdev != null.Rdev {
		return false
	}
	flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	return err == nil && flags&unix.O_ACCMODE == unix.O_RDWR
}
