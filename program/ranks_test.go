package program

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRankWrapperArgv(t *testing.T) {
	l, _, err := ParseLauncher(strings.Fields("mpirun -x A=1 -np 2 ./writer out : -np 1 ./reader"), "")
	if err != nil {
		t.Fatal(err)
	}
	w := RankWrapper("/usr/bin/strace", []string{"-f", "-T"}, "/scratch/run/.iobench-ranks-1")
	got := l.Wrap(w)
	wrapper := []string{"/bin/sh", "-c", rankScript, "iobench-rank", "/scratch/run/.iobench-ranks-1", "/usr/bin/strace", "-f", "-T", "--"}
	want := append(append(append([]string{"mpirun", "-x", "A=1", "-np", "2"}, wrapper...), "./writer", "out", ":", "-np", "1"), wrapper...)
	want = append(want, "./reader")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("wrapped (-want +got):\n%s", diff)
	}
}

// A rank on a node without the directory, or without strace, runs the
// program untraced: the job runs, the trace is missing.
func TestRankWrapperRunsUntracedWhereItCannotTrace(t *testing.T) {
	dir := t.TempDir()
	for name, w := range map[string][]string{
		"no directory": RankWrapper("/bin/true", []string{"-f"}, filepath.Join(dir, "missing")),
		"no strace":    RankWrapper(filepath.Join(dir, "no-strace"), []string{"-f"}, dir),
	} {
		cmd := exec.Command(w[0], append(w[1:], "/bin/sh", "-c", `echo "ran $0 $1"`, "a", "b c")...)
		cmd.Env = []string{"PATH=" + dir}
		out, err := cmd.CombinedOutput()
		if err != nil || string(out) != "ran a b c\n" {
			t.Errorf("%s: %v, output %q: want the program run with its arguments", name, err, out)
		}
	}
	if got, err := RankTraces(dir); err != nil || len(got) != 0 {
		t.Errorf("traces %v, %v: want none", got, err)
	}
}

// Under strace, each rank writes a file named by its rank, host and pid.
func TestRankWrapperNamesTheTraceByRankAndHost(t *testing.T) {
	strace := needStrace(t)
	dir := t.TempDir()
	host, _ := os.Hostname()
	for _, rank := range []string{"0", "1"} {
		w := RankWrapper(strace, []string{"-f", "-e", "trace=write"}, dir)
		cmd := exec.Command(w[0], append(w[1:], "sh", "-c", "echo x >/dev/null")...)
		cmd.Env = append(os.Environ(), "OMPI_COMM_WORLD_RANK="+rank)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
	}
	got, err := RankTraces(dir)
	if err != nil || len(got) != 2 {
		t.Fatalf("traces %v, %v: want two", got, err)
	}
	for i, p := range got {
		if want := RankPrefix + []string{"0", "1"}[i] + "." + host + "."; !strings.HasPrefix(filepath.Base(p), want) {
			t.Errorf("trace %s: want a name beginning %s", p, want)
		}
	}
}
