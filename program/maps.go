package program

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// MapsEvery is how often WatchMaps reads the processes' maps.
const MapsEvery = 50 * time.Millisecond

// MapsWatch samples /proc/PID/maps of a run's processes while it goes
// on: the files each executable had mapped (its shared objects among
// them), a source beside the
// trace's openat lines and the loader's (a library mapped from a
// descriptor passed in, or a trace cut short, shows only there). A
// process shorter than one interval may be missed.
type MapsWatch struct {
	root  int
	mu    sync.Mutex
	byExe map[string][]string
	quit  chan struct{}
	done  chan struct{}
}

// WatchMaps starts sampling root and its descendants every interval.
func WatchMaps(root int, every time.Duration) *MapsWatch {
	w := &MapsWatch{root: root, byExe: map[string][]string{}, quit: make(chan struct{}), done: make(chan struct{})}
	go w.loop(every)
	return w
}

func (w *MapsWatch) loop(every time.Duration) {
	defer close(w.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		w.sample()
		select {
		case <-w.quit:
			return
		case <-t.C:
		}
	}
}

// Stop ends the sampling and returns the files mapped, by the executable
// (as /proc/PID/exe names it) that mapped them. Nil-safe.
func (w *MapsWatch) Stop() map[string][]string {
	if w == nil {
		return nil
	}
	close(w.quit)
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.byExe
}

// sample reads the maps of every process under root now.
func (w *MapsWatch) sample() {
	for _, pid := range descendants(w.root) {
		exe, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
		if err != nil {
			continue
		}
		libs := mappedObjects("/proc/" + strconv.Itoa(pid) + "/maps")
		w.mu.Lock()
		for _, l := range libs {
			if !slices.Contains(w.byExe[exe], l) {
				w.byExe[exe] = append(w.byExe[exe], l)
			}
		}
		w.mu.Unlock()
	}
}

// descendants is root and every process under it, from the children
// lists of each thread (Linux's /proc/PID/task/TID/children).
func descendants(root int) []int {
	out := []int{root}
	for i := 0; i < len(out); i++ {
		tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(out[i]) + "/task/*/children")
		for _, t := range tasks {
			b, err := os.ReadFile(t)
			if err != nil {
				continue
			}
			for _, f := range strings.Fields(string(b)) {
				if pid, err := strconv.Atoi(f); err == nil && !slices.Contains(out, pid) {
					out = append(out, pid)
				}
			}
		}
	}
	return out
}

// mappedObjects are the files a maps file names (by absolute path).
func mappedObjects(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 {
			continue
		}
		p := fields[5]
		if filepath.IsAbs(p) && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}
