package iobench

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/iobench/iobench/record"
)

// A data file's name says who made it: host, process and a random part,
// .iobench-<host>-<pid>-<12 hex digits>-<what>.dat. A later run reads
// them back to find files of runs that were killed (SIGKILL, a node that
// crashed) and no longer exist. Files of another host are never taken for
// dead: their process cannot be seen from here.
var dataFileName = regexp.MustCompile(`^\.iobench-([A-Za-z0-9._]+?)-([0-9]+)-[0-9a-f]{12}-[A-Za-z0-9_.-]+\.dat$`)

// UniquePrefix is a data file prefix no other run on any host shares.
func UniquePrefix() (string, error) {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return fmt.Sprintf(".iobench-%s-%d-%s", nameHost(), os.Getpid(), hex.EncodeToString(b[:])), nil
}

func nameHost() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "unknown"
	}
	return record.FileNameHost(h)
}

// LeftoverState is what a leftover data file's run is known to be.
type LeftoverState int

const (
	RunGone   LeftoverState = iota // made on this host by a process that no longer exists
	RunAlive                       // its process (or one with its pid) is running here
	OtherHost                      // made on another host: cannot tell, never removed
)

func (s LeftoverState) String() string {
	return [...]string{"run gone", "run still alive", "other host"}[s]
}

// Leftover is a data file of an earlier iobench run found in a directory.
type Leftover struct {
	Name  string
	Host  string
	PID   int
	Bytes int64
	State LeftoverState
	id    FileID
}

// FindLeftovers lists the iobench data files in dir that other runs
// left, with what is known of their runs. Symlinks and anything but
// regular files are skipped, whatever their name.
func FindLeftovers(dir string) ([]Leftover, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	host := nameHost()
	var out []Leftover
	for _, e := range entries {
		l, ok := parseLeftover(e.Name(), host)
		if !ok || !e.Type().IsRegular() {
			continue
		}
		var st unix.Stat_t
		if unix.Lstat(OSFS{Dir: dir}.Path(l.Name), &st) != nil {
			continue // removed meanwhile
		}
		if l.id = statID(&st); l.id == (FileID{}) {
			continue
		}
		l.Bytes = st.Size
		out = append(out, l)
	}
	return out, nil
}

func parseLeftover(name, host string) (Leftover, bool) {
	m := dataFileName.FindStringSubmatch(name)
	if m == nil {
		return Leftover{}, false
	}
	pid, err := strconv.Atoi(m[2])
	if err != nil || pid <= 0 {
		return Leftover{}, false
	}
	l := Leftover{Name: name, Host: m[1], PID: pid, State: OtherHost}
	if l.Host == host {
		l.State = RunGone
		if pid == os.Getpid() || processExists(pid) {
			l.State = RunAlive
		}
	}
	return l, true
}

// processExists: a signal 0 reaches it, or it exists but is not ours.
func processExists(pid int) bool {
	err := unix.Kill(pid, 0)
	return err == nil || errors.Is(err, unix.EPERM)
}

// RemoveLeftover deletes a leftover of a run that is gone, if its name
// still leads to the file FindLeftovers saw. Signals go to another
// thread meanwhile, so an unlink(2) hung in the kernel cannot keep them
// from the handler (holdTermSignals).
func RemoveLeftover(dir string, l Leftover) error {
	if l.State != RunGone {
		return fmt.Errorf("%s: not removed: %s", OSFS{Dir: dir}.Path(l.Name), l.State)
	}
	defer holdTermSignals()()
	return OSFS{Dir: dir}.Remove(l.Name, l.id)
}

// Gone is the leftovers whose runs are gone.
func Gone(ls []Leftover) (gone []Leftover, bytes int64) {
	for _, l := range ls {
		if l.State == RunGone {
			gone = append(gone, l)
			bytes += l.Bytes
		}
	}
	return gone, bytes
}
