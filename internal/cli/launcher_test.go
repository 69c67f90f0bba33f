//go:build !mpi

package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

func TestLauncherWithoutMPIWarns(t *testing.T) {
	vars := map[string]string{"OMPI_COMM_WORLD_SIZE": "4", "OMPI_COMM_WORLD_RANK": "2"}
	e := &env{getenv: func(k string) string { return vars[k] }}
	w := e.launcherWarnings()
	if len(w) != 1 || !strings.Contains(w[0], "task 2 of 4") || !strings.Contains(w[0], "not aggregated") {
		t.Errorf("warnings %q: want one warning naming task 2 of 4", w)
	}
	e.getenv = func(string) string { return "" }
	if w := e.launcherWarnings(); len(w) != 0 {
		t.Errorf("warned without a launcher: %q", w)
	}
}

// The command runs in process with the environment it is given: a
// launcher's variables put the warning into the JSON report.
func TestLauncherWarningReachesTheReportInProcess(t *testing.T) {
	var out, errb bytes.Buffer
	e := testEnv(&out, &errb)
	e.getenv = func(k string) string {
		return map[string]string{"SLURM_NTASKS": "3", "SLURM_PROCID": "1"}[k]
	}
	args := append([]string{"iobench"}, smallSweep(t.TempDir(), "--format", "json")...)
	if err := run(context.Background(), e, args); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	doc := decodeJSON(t, out.String())
	if !slices.ContainsFunc(doc.Warnings, func(w string) bool { return strings.Contains(w, "task 1 of 3") }) {
		t.Errorf("warnings %q: want the launcher warning for task 1 of 3", doc.Warnings)
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
