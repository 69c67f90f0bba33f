//go:build mpi

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/iobench/iobench/mpi"
)

// In the MPI build, what MPI-IO cannot do, bad hints and a bad read shift
// are usage errors before any I/O. In process, without mpirun.
func TestMPIIOUsageErrors(t *testing.T) {
	dir := t.TempDir()
	hints := filepath.Join(t.TempDir(), "hints")
	if err := os.WriteFile(hints, []byte("striping_factor 4\nlonely\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		env  string // ROMIO_HINTS
		args []string
		want string
	}{
		{"", []string{"--api", "mpiio", "--direct", "--min", "4KiB"}, "--direct: MPI-IO has no O_DIRECT; use --api posix"},
		{"", []string{"--api", "mpiio", "--hint", "cb_nodes"}, `--hint: "cb_nodes" is not key=value`},
		{"", []string{"--api", "mpiio", "--hint", "cb nodes=2"}, `--hint: hint key "cb nodes" contains a space`},
		{hints, []string{"--api", "mpiio"}, "ROMIO_HINTS: " + hints + `:2: "lonely" is not "key value"`},
		{hints + ".missing", []string{"--api", "mpiio"}, "ROMIO_HINTS: the hints file: open " + hints + ".missing"},
		{"", []string{"--read-shift", "1"}, "--read-shift: applies to read runs; use it with --mode read or both"},
		{"", []string{"--mode", "read", "--read-shift", "-1"}, "--read-shift: -1 must be 0"},
	} {
		t.Setenv("ROMIO_HINTS", tc.env)
		_, errOut, code := runCLI(t, smallSweep(dir, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line containing %q", tc.args, code, errOut, tc.want)
		}
	}
	if left := dirEntries(t, dir); len(left) != 0 {
		t.Errorf("bad input touched --dir: %v", left)
	}
}

// --hint values after ROMIO_HINTS ones replace them in place.
func TestMPIHintOrder(t *testing.T) {
	var a ioAPI
	a.add(mpiHints("striping_factor", "4", "cb_nodes", "2"), "ROMIO_HINTS=/h")
	a.add(mpiHints("striping_factor", "8"), "--hint")
	got := []string{}
	for _, h := range a.hints {
		got = append(got, h.String()+" "+h.Source)
	}
	if want := "striping_factor=8 --hint,cb_nodes=2 ROMIO_HINTS=/h"; strings.Join(got, ",") != want {
		t.Errorf("hints %v, want %s", got, want)
	}
}

// mpiHints pairs up keys and values.
func mpiHints(kv ...string) []mpi.Hint {
	var out []mpi.Hint
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, mpi.Hint{Key: kv[i], Value: kv[i+1]})
	}
	return out
}
