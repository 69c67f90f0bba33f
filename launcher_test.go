//go:build !mpi

package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestLauncherWithoutMPIWarns(t *testing.T) {
	defer func() { launcherWarnings = nil }()
	env := map[string]string{"OMPI_COMM_WORLD_SIZE": "4", "OMPI_COMM_WORLD_RANK": "2"}
	warnUnaggregated(func(k string) string { return env[k] })
	if len(launcherWarnings) != 1 || !strings.Contains(launcherWarnings[0], "task 2 of 4") || !strings.Contains(launcherWarnings[0], "not aggregated") {
		t.Errorf("warnings %q: want one warning naming task 2 of 4", launcherWarnings)
	}
	launcherWarnings = nil
	warnUnaggregated(func(string) string { return "" })
	if len(launcherWarnings) != 0 {
		t.Errorf("warned without a launcher: %q", launcherWarnings)
	}
}

// Each task of a launcher prints the warning once (it printed it twice).
func TestLauncherWarningIsPrintedOncePerTask(t *testing.T) {
	cmd := exec.Command(iobenchBin, smallSweep(t.TempDir(), "--repeat", "1")...)
	cmd.Env = append(os.Environ(), "OMPI_COMM_WORLD_SIZE=2", "OMPI_COMM_WORLD_RANK=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if n := strings.Count(string(out), "iobench: warning: started as task 1 of 2 by a launcher"); n != 1 {
		t.Errorf("the launcher warning on stderr %d times, want 1:\n%s", n, out)
	}
}
