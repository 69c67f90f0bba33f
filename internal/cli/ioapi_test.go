//go:build !mpi

package cli

import (
	"strings"
	"testing"
)

// Without the MPI build, MPI-IO and the read shift are usage errors that
// name the build, and the flags that go with --api mpiio need it.
func TestMPIIOFlagsNeedTheMPIBuild(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--api", "mpiio"}, "--api mpiio: needs the MPI build of iobench (go build -tags mpi)"},
		{[]string{"--api", "hdf5"}, `--api: unknown value "hdf5" (valid: posix, mpiio)`},
		{[]string{"--collective"}, "--collective: applies to --api mpiio"},
		{[]string{"--hint", "cb_nodes=2"}, "--hint: applies to --api mpiio"},
		{[]string{"--mode", "read", "--read-shift", "1"}, "--read-shift: reads another MPI rank's file; it needs the MPI build of iobench (go build -tags mpi)"},
	} {
		_, errOut, code := runCLI(t, smallSweep(dir, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line containing %q", tc.args, code, errOut, tc.want)
		}
	}
	if left := dirEntries(t, dir); len(left) != 0 {
		t.Errorf("bad input touched --dir: %v", left)
	}
}
