package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/iobench/iobench/internal/testkit/testenv"
	"github.com/iobench/iobench/program"
	"github.com/iobench/iobench/workload/strace"
)

// Two ranks' traces of a job that asked for three: merged, counted, kept.
func TestRankTracesAreMergedAndCounted(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"rank.0.n1.4100", "rank.1.n2.4100"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "workload", "strace", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		writeTestFile(t, filepath.Join(dir, name), data)
	}
	writeTestFile(t, filepath.Join(dir, "rank.2.n3.77"), nil) // a rank whose strace wrote nothing
	l, _, err := program.ParseLauncher(strings.Fields("mpirun -np 3 ./writer"), "")
	if err != nil {
		t.Fatal(err)
	}
	out := traceOut{ranks: dir, launch: l, forget: func() {}}
	tr, ranks, err := out.read()
	if err != nil {
		t.Fatal(err)
	}
	if ranks.Launcher != "mpirun" || ranks.Traced != 2 || ranks.Asked != 3 || ranks.Missing() != 1 {
		t.Errorf("ranks %+v: want 2 of 3 traced under mpirun", ranks)
	}
	if len(tr.Files) != 2 || tr.Files[0].Writes != 4 {
		t.Errorf("files %+v: want out.dat with both ranks' 4 writes, and rank 1's log", tr.Files)
	}
	keep := filepath.Join(t.TempDir(), "trace.txt")
	if err := out.keep(keep); err != nil {
		t.Fatal(err)
	}
	if got, _ := filepath.Glob(keep + ".rank.*"); len(got) != 2 {
		t.Errorf("kept %v: want the two ranks' traces", got)
	}
	out.remove()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the ranks' directory is still there: %v", err)
	}
}

func writeTestFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// tune's traced run of a candidate: the setting through -x, the tracer
// between the launcher and the program.
func TestTuneSettingsReachTheWrappedRanks(t *testing.T) {
	argv, _ := withSettings(strings.Fields("mpirun -np 2 ./prog in"), []string{"BS=65536"})
	l, ok, err := program.ParseLauncher(argv, "")
	if !ok || err != nil {
		t.Fatalf("ok %v, %v", ok, err)
	}
	got := l.Wrap(program.RankWrapper("/usr/bin/strace", strace.RecordFlags(), "/run/.iobench-ranks-1"))
	if !slices.Equal(got[:5], []string{"mpirun", "-x", "BS=65536", "-np", "2"}) || got[5] != "/bin/sh" {
		t.Errorf("argv %q: want the setting through -x, then the rank's shell", got)
	}
	if tail := got[len(got)-3:]; !slices.Equal(tail, []string{"--", "./prog", "in"}) {
		t.Errorf("argv ends %q: want strace's options ended by --, then the program", tail)
	}
}

// rankProgram writes out.RANK in calls of $BS bytes (4 KiB unless set).
const rankProgram = `bs=${BS:-4096}; dd if=/dev/zero of=out.$OMPI_COMM_WORLD_RANK bs=$bs count=$((262144 / bs)) status=none`

// mpirunArgv runs rankProgram on two ranks, as root too.
var mpirunArgv = []string{"mpirun", "--allow-run-as-root", "--oversubscribe", "-np", "2", "sh", "-c", rankProgram}

// app -- mpirun: both ranks' writes are seen, each rank traced inside
// the launcher, mpirun never; nothing is left behind but the outputs.
func TestAppTracesTheRanksOfMpirun(t *testing.T) {
	testenv.Full(t, "mpirun and strace")
	testenv.Command(t, "mpirun")
	testenv.Command(t, "strace")
	dir := t.TempDir()
	t.Chdir(dir)
	tmp := t.TempDir()
	report, keep := filepath.Join(tmp, "app.json"), filepath.Join(tmp, "trace.txt")
	args := append([]string{"app", "--curve-time", "2s", "--format", "json", "-o", report, "--trace", keep, "--"}, mpirunArgv...)
	if _, stderr, code := runCLI(t, args...); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var doc struct {
		Program struct {
			Exe   string `json:"exe"`
			Ranks struct {
				Launcher      string
				Traced, Asked int
			} `json:"ranks"`
		} `json:"program"`
		Inputs []struct {
			Files []struct {
				Path   string `json:"path"`
				Writes int64  `json:"writes"`
			} `json:"files"`
		} `json:"inputs"`
	}
	readJSON(t, report, &doc)
	if p := doc.Program; filepath.Base(p.Exe) != "dd" || p.Ranks.Launcher != "mpirun" || p.Ranks.Traced != 2 || p.Ranks.Asked != 2 {
		t.Errorf("program %+v: want dd, 2 of 2 ranks traced under mpirun", p)
	}
	written := map[string]int64{}
	for _, f := range doc.Inputs[0].Files {
		written[filepath.Base(f.Path)] = f.Writes
	}
	if written["out.0"] != 64 || written["out.1"] != 64 {
		t.Errorf("writes by file %v: want 64 to each rank's out.0 and out.1", written)
	}
	checkRankTraces(t, keep)
	if ents := dirEntries(t, dir); !slices.Equal(ents, []string{"out.0", "out.1"}) {
		t.Errorf("left in the working directory: %v, want the ranks' outputs alone", ents)
	}
}

// checkRankTraces checks the kept traces: one per rank, none of mpirun.
func checkRankTraces(t *testing.T, keep string) {
	t.Helper()
	traces, _ := filepath.Glob(keep + ".rank.*")
	if len(traces) != 2 {
		t.Fatalf("kept traces %v: want one per rank", traces)
	}
	for _, p := range traces {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(string(data), "\n")
		if strings.Contains(string(data), "orterun") || strings.Contains(string(data), "orted") || !strings.Contains(first, `/sh", [`) {
			t.Errorf("%s begins %q: want the rank's sh, nothing of mpirun's", p, first)
		}
	}
}

// tune -- mpirun: a setting reaches the ranks through -x and changes
// their calls in the traced run; one that changes nothing is said so.
func TestTuneTracesTheRanksOfMpirun(t *testing.T) {
	testenv.Full(t, "mpirun, strace and many runs of a program")
	testenv.Command(t, "mpirun")
	testenv.Command(t, "strace")
	t.Chdir(t.TempDir())
	out := filepath.Join(t.TempDir(), "tune.json")
	args := append([]string{"tune", "--curve-time", "2s", "--time-budget", "10s", "--set", "BS=65536", "--set", "UNUSED=1",
		"--format", "json", "-o", out, "--"}, mpirunArgv...)
	if _, stderr, code := runCLI(t, args...); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var doc struct {
		Arms []struct {
			Name, Effect string
			NoEffect     bool `json:"no_effect"`
		} `json:"arms"`
	}
	readJSON(t, out, &doc)
	arms := map[string]int{}
	for i, a := range doc.Arms {
		arms[a.Name] = i
	}
	bs, okBS := arms["BS=65536"]
	unused, okUnused := arms["UNUSED=1"]
	if !okBS || !okUnused {
		t.Fatalf("arms %+v: want BS=65536 and UNUSED=1 among them", doc.Arms)
	}
	if a := doc.Arms[bs]; a.NoEffect || !strings.Contains(a.Effect, "from 4096 B (64 calls) to 65536 B (4 calls)") {
		t.Errorf("BS=65536: %+v: want the ranks' calls changed", a)
	}
	if a := doc.Arms[unused]; !a.NoEffect {
		t.Errorf("UNUSED=1: %+v: want no effect", a)
	}
}

// fakeSrun starts "srun -n N PROG..." as N tasks, as Slurm would, and
// anything else as the program after its first argument.
const fakeSrun = `#!/bin/sh
if [ "$1" != -n ]; then shift; exec "$@"; fi
n=$2; shift 2; i=0
while [ $i -lt $n ]; do SLURM_PROCID=$i "$@" & i=$((i+1)); done
wait
`

// A launcher found on PATH by its name: an srun the ranks are traced
// under, and one whose option iobench does not know, traced whole.
func TestAppRanksOfSrunAndAnUnknownOption(t *testing.T) {
	testenv.Full(t, "strace and a quick sweep")
	testenv.Command(t, "strace")
	bin := t.TempDir()
	writeTestFile(t, filepath.Join(bin, "srun"), []byte(fakeSrun))
	os.Chmod(filepath.Join(bin, "srun"), 0o755)
	t.Setenv("PATH", bin+":"+os.Getenv("PATH"))
	prog := `dd if=/dev/zero of=out.$SLURM_PROCID bs=4096 count=16 status=none`
	for _, tt := range []struct {
		argv      []string
		ranks     int
		stderrHas string
	}{
		{[]string{"srun", "-n", "3", "sh", "-c", prog}, 3, ""},
		{[]string{"srun", "--frobnicate", "sh", "-c", strings.ReplaceAll(prog, "$SLURM_PROCID", "0")}, 0,
			"srun: --frobnicate: an option iobench does not know, so it cannot tell whether it takes a value; traced the launcher with strace -f instead"},
	} {
		dir := t.TempDir()
		t.Chdir(dir)
		report := filepath.Join(t.TempDir(), "app.json")
		args := append([]string{"app", "--curve-time", "1s", "--untraced-below", "0", "--format", "json", "-o", report, "--"}, tt.argv...)
		_, stderr, code := runCLI(t, args...)
		if code != 0 || !strings.Contains(stderr, tt.stderrHas) {
			t.Fatalf("%v: exit %d, want 0 and %q on stderr\n%s", tt.argv, code, tt.stderrHas, stderr)
		}
		var doc struct {
			Program struct {
				Ranks *struct{ Traced, Asked int } `json:"ranks"`
				Notes []string                     `json:"notes"`
			} `json:"program"`
		}
		readJSON(t, report, &doc)
		switch r := doc.Program.Ranks; {
		case tt.ranks == 0 && (r != nil || !slices.ContainsFunc(doc.Program.Notes, func(n string) bool { return strings.Contains(n, "--frobnicate") })):
			t.Errorf("%v: ranks %+v, notes %q: want no ranks, and a note naming the option", tt.argv, r, doc.Program.Notes)
		case tt.ranks > 0 && (r == nil || r.Traced != tt.ranks || r.Asked != tt.ranks):
			t.Errorf("%v: ranks %+v: want %d of %d", tt.argv, r, tt.ranks, tt.ranks)
		}
		if ents := dirEntries(t, dir); slices.ContainsFunc(ents, func(e string) bool { return strings.HasPrefix(e, rankTraceDir) }) {
			t.Errorf("%v: left %v", tt.argv, ents)
		}
	}
}
