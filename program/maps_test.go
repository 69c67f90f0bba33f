package program

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A run's processes are sampled from its start: the shell's child,
// sleep, shows with the C library it mapped.
func TestWatchMapsSeesTheChildrensLibraries(t *testing.T) {
	var w *MapsWatch
	s := Spec{Argv: []string{"sh", "-c", "sleep 0.3; true"}, OnStart: func(pid int) { w = WatchMaps(pid, MapsEvery) }}
	if _, err := Run(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	maps := w.Stop()
	for exe, files := range maps {
		if filepath.Base(exe) == "sleep" && slices.ContainsFunc(files, func(f string) bool { return strings.Contains(filepath.Base(f), "libc.so") }) {
			return
		}
	}
	t.Errorf("no sleep with libc among the maps: %v", maps)
}

func TestStopOfNoWatch(t *testing.T) {
	var w *MapsWatch
	if got := w.Stop(); got != nil {
		t.Errorf("a watch never started gave %v", got)
	}
}
