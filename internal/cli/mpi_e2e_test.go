//go:build mpi

package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/iobench/iobench/internal/testkit/testenv"
	"github.com/iobench/iobench/internal/testkit/testwait"
)

// mpiBinary is iobench built with -tags mpi once per test run, or a
// skip without mpirun.
func mpiBinary(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("mpirun"); err != nil {
		t.Skip("mpirun not installed (apt-get install openmpi-bin libopenmpi-dev)")
	}
	bin, err := testenv.Binary(filepath.Dir(iobenchBin), moduleRoot, "mpi")
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

func mpirun(t *testing.T, args ...string) result {
	t.Helper()
	base := []string{"--oversubscribe", "--bind-to", "none"}
	if os.Geteuid() == 0 {
		base = append(base, "--allow-run-as-root")
	}
	cmd := exec.Command("mpirun", append(base, args...)...)
	cmd.Env = append(os.Environ(), "OMPI_MCA_btl_vader_single_copy_mechanism=none")
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	testwait.Exit(t, "exit of mpirun", cmd.Process, exited, errb.String)
	return result{out.String(), errb.String(), cmd.ProcessState.ExitCode()}
}

type mpiDoc struct {
	MPI struct {
		Ranks          int      `json:"ranks"`
		Nodes          int      `json:"nodes"`
		Hosts          []string `json:"hosts"`
		SharedFile     bool     `json:"shared_file"`
		CountPerRank   bool     `json:"count_per_rank"`
		PerRankSamples string   `json:"per_rank_samples"`
		PerRank        []struct {
			WriteSize   int64   `json:"write_size"`
			Min         float64 `json:"min_mib_per_s"`
			Max         float64 `json:"max_mib_per_s"`
			SlowestRank int     `json:"slowest_rank"`
		} `json:"per_rank"`
	} `json:"mpi"`
	Results []struct {
		WriteSize int64   `json:"write_size"`
		MiBPerSec float64 `json:"mib_per_s"`
		Samples   []struct {
			Seconds float64   `json:"seconds"`
			Bytes   int64     `json:"bytes"`
			Start   time.Time `json:"start"`
			End     time.Time `json:"end"`
		} `json:"samples"`
	} `json:"results"`
}

func checkAggregate(t *testing.T, out string, ranks int, perRank int64, shared bool) {
	t.Helper()
	var doc mpiDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	m := doc.MPI
	if m.Ranks != ranks || m.Nodes != 1 || len(m.Hosts) != 1 || m.SharedFile != shared || len(m.PerRank) != len(doc.Results) ||
		!strings.HasPrefix(m.PerRankSamples, "summarised: ") {
		t.Errorf("mpi = %+v", m)
	}
	for _, r := range doc.Results {
		s := r.Samples[0]
		span := s.End.Sub(s.Start).Seconds()
		want := float64(s.Bytes) / span / (1 << 20)
		if s.Bytes != int64(ranks)*perRank || math.Abs(s.Seconds-span) > 1e-6 || math.Abs(r.MiBPerSec-want) > 1e-6*want {
			t.Errorf("size %d: bytes %d (want %d), seconds %v vs span %v, MiB/s %v vs %v",
				r.WriteSize, s.Bytes, int64(ranks)*perRank, s.Seconds, span, r.MiBPerSec, want)
		}
	}
}

func TestMPIAggregateOverThreeRanks(t *testing.T) {
	bin := mpiBinary(t)
	for _, shared := range []bool{false, true} {
		dir := t.TempDir()
		args := []string{"-np", "3", bin, "sweep", "--dir", dir, "--size", "8MiB", "--max", "1MiB", "--repeat", "1", "--format", "json", "--no-progress"}
		if shared {
			args = append(args, "--shared-file")
		}
		r := mpirun(t, args...)
		if r.code != 0 {
			t.Fatalf("shared=%v: exit %d\n%s", shared, r.code, r.stderr)
		}
		checkAggregate(t, r.stdout, 3, 8<<20, shared)
		if n := strings.Count(r.stderr, "live lines and bar are rank 0's own runs (per rank); the report aggregates all 3 ranks"); n != 1 {
			t.Errorf("shared=%v: the per-rank note %d times on stderr, want 1:\n%s", shared, n, r.stderr)
		}
		if left := dirEntries(t, dir); len(left) != 0 {
			t.Errorf("shared=%v: files left: %v", shared, left)
		}
	}
}

func TestMPIFailingRankStopsTheJob(t *testing.T) {
	bin := mpiBinary(t)
	dir := t.TempDir()
	notADir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notADir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	common := []string{"sweep", "--size", "8MiB", "--max", "1MiB", "--no-progress"}
	r := mpirun(t, append(append([]string{"-np", "2", bin}, common...), append([]string{"--dir", dir, ":", "-np", "1", bin}, append(common, "--dir", notADir)...)...)...)
	if r.code == 0 || !strings.Contains(r.stderr, "rank 2") || !strings.Contains(r.stderr, "is not a directory") {
		t.Errorf("exit %d, stderr:\n%s\nwant a failure naming rank 2 and its cause", r.code, r.stderr)
	}
	if left := dirEntries(t, dir); len(left) != 0 {
		t.Errorf("files left: %v", left)
	}
}

// A rank that runs out of space stops every rank, named with the cause,
// and every rank's file is removed; through MPI-IO too, whose collective
// calls the failed rank still makes. Open MPI's OMPIO hides the ENOSPC
// behind a write that reports success with 0 bytes; the binding finds it.
func TestMPIRankOutOfSpaceMidRun(t *testing.T) {
	bin := mpiBinary(t)
	for _, tc := range []struct {
		api  []string
		want string
	}{
		{nil, "ENOSPC"},
		{[]string{"--api", "mpiio", "--collective"}, "ENOSPC"},
	} {
		tiny := mountTmpfs(t, "size=4m")
		dir := t.TempDir()
		common := append([]string{"sweep", "--size", "8MiB", "--max", "1MiB", "--no-progress", "--force", "--profile", "generic"}, tc.api...)
		r := mpirun(t, append(append([]string{"-np", "2", bin}, common...), append([]string{"--dir", dir, ":", "-np", "1", bin}, append(common, "--dir", tiny)...)...)...)
		if r.code == 0 || !strings.Contains(r.stderr, "rank 2") || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr:\n%s\nwant a failure naming rank 2 and %s", tc.api, r.code, r.stderr, tc.want)
		}
		for _, d := range []string{dir, tiny} {
			if left := dirEntries(t, d); len(left) != 0 {
				t.Errorf("%v: files left in %s: %v", tc.api, d, left)
			}
		}
	}
}

func TestMPIRanksWithDifferentPlansStopBeforeWriting(t *testing.T) {
	bin := mpiBinary(t)
	tiny := mountTmpfs(t, "size=64m")
	dir := t.TempDir()
	common := []string{"sweep", "--size", "8MiB", "--max", "1MiB", "--no-progress"}
	r := mpirun(t, append(append([]string{"-np", "2", bin}, common...), append([]string{"--dir", dir, ":", "-np", "1", bin}, append(common, "--dir", tiny)...)...)...)
	if r.code == 0 || !strings.Contains(r.stderr, "rank 2") || !strings.Contains(r.stderr, "differs from rank 0's") {
		t.Errorf("exit %d, stderr:\n%s\nwant rank 2's plan (tmpfs profile) refused", r.code, r.stderr)
	}
}

// Adaptive rounds under MPI: rank 0 decides each round from every rank's
// runs, so all ranks run the same plan and the report says what ran.
func TestMPIAdaptiveRounds(t *testing.T) {
	bin := mpiBinary(t)
	dir := t.TempDir()
	r := mpirun(t, "-np", "3", bin, "sweep", "--dir", dir, "--size", "4MiB", "--max", "1MiB", "--repeat", "auto",
		"--time-budget", "30s", "--format", "json", "--no-progress")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	var doc struct {
		Adaptive struct {
			Rounds        int   `json:"rounds"`
			SizesPerRound []int `json:"sizes_per_round"`
		} `json:"adaptive"`
		Results []struct {
			Samples []struct {
				Round int `json:"round"`
			} `json:"samples"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.stdout)
	}
	a := doc.Adaptive
	if a.Rounds < 3 || len(a.SizesPerRound) != a.Rounds || a.SizesPerRound[0] != 11 {
		t.Fatalf("adaptive = %+v; want >= 3 rounds, the first of all 11 sizes", a)
	}
	perRound := make([]int, a.Rounds)
	for _, res := range doc.Results {
		for _, s := range res.Samples {
			perRound[s.Round-1]++
		}
	}
	for i, n := range perRound {
		if n != a.SizesPerRound[i] {
			t.Errorf("round %d: %d aggregate samples, the plan said %d sizes", i+1, n, a.SizesPerRound[i])
		}
	}
	if left := dirEntries(t, dir); len(left) != 0 {
		t.Errorf("files left: %v", left)
	}
}

// rankPID finds the process of one rank of a binary mpirun started.
func rankPID(bin string, rank int) int {
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procs {
		cmdline, _ := os.ReadFile(p + "/cmdline")
		env, _ := os.ReadFile(p + "/environ")
		if strings.HasPrefix(string(cmdline), bin+"\x00") &&
			strings.Contains("\x00"+string(env), fmt.Sprintf("\x00OMPI_COMM_WORLD_RANK=%d\x00", rank)) {
			pid, _ := strconv.Atoi(filepath.Base(p))
			return pid
		}
	}
	return 0
}

// signalled is a sweep of 3 ranks one of which got a signal.
type signalled struct {
	done   <-chan result // the result, when mpirun ends
	sent   time.Time     // when the signal went
	others []int         // the processes of the other ranks
}

// signalRank starts a long sweep of 3 ranks in dir and, once it runs,
// sends sig to rank.
func signalRank(t *testing.T, dir string, rank int, sig syscall.Signal, extra ...string) signalled {
	t.Helper()
	bin := mpiBinary(t)
	ended := make(chan result, 1)
	args := append([]string{"-np", "3", bin, "sweep", "--dir", dir, "--size", "64MiB", "--max", "1MiB",
		"--repeat", "40", "--sync", "none", "--no-progress", "--profile", "generic", "--force"}, extra...)
	go func() { ended <- mpirun(t, args...) }()
	testwait.Until(t, "data file of a rank", func() bool { return len(dirEntries(t, dir)) > 0 })
	time.Sleep(300 * time.Millisecond) // into the runs
	pids := make([]int, 3)
	for r := range pids {
		if pids[r] = rankPID(bin, r); pids[r] == 0 {
			t.Fatalf("rank %d not found", r)
		}
	}
	out := signalled{done: ended, sent: time.Now(), others: slices.Delete(slices.Clone(pids), rank, rank+1)}
	if err := syscall.Kill(pids[rank], sig); err != nil {
		t.Fatal(err)
	}
	return out
}

// A rank killed with SIGKILL cannot remove the files it created (its own,
// or the shared file of rank 0); the ranks mpirun then signals remove
// them, each says in one line which rank it is and that the killed rank
// is gone, and exits at once: the job cannot finish, and it would wait
// in a collective call for the launcher's SIGKILL, which not every
// launcher sends soon.
func TestMPISurvivorsRemoveTheFilesOfAKilledRank(t *testing.T) {
	// mpirun waits this many seconds (1 by default) for the survivors to
	// end, SIGTERMs them, and SIGKILLs them as long again later: an end
	// before that is theirs.
	const grace = 5
	t.Setenv("OMPI_MCA_odls_base_sigkill_timeout", strconv.Itoa(grace))
	for _, c := range []struct {
		rank  int
		extra []string
	}{{0, []string{"--shared-file"}}, {1, nil}, {0, nil}} {
		dir := t.TempDir()
		sig := signalRank(t, dir, c.rank, syscall.SIGKILL, c.extra...)
		testwait.Until(t, "end of the survivors", func() bool { return allEnded(sig.others) })
		if took := time.Since(sig.sent); took > grace*1500*time.Millisecond {
			t.Errorf("rank %d killed %v: the survivors ended %v later; want them to end without mpirun's SIGKILL", c.rank, c.extra, took.Round(time.Millisecond))
		}
		r := testwait.Recv(t, "end of mpirun", sig.done)
		if r.code == 0 {
			t.Errorf("rank %d killed %v: exit 0", c.rank, c.extra)
		}
		if left := dirEntries(t, dir); len(left) != 0 {
			t.Errorf("rank %d killed %v: files left: %v\n%s", c.rank, c.extra, left, r.stderr)
		}
		gone := fmt.Sprintf(", as rank %d (pid ", c.rank)
		if n := strings.Count(r.stderr, gone); n != 2 || !strings.Contains(r.stderr, "the data files are removed") {
			t.Errorf("rank %d killed %v: %d survivors said %q; want 2, with the files removed:\n%s", c.rank, c.extra, n, gone, r.stderr)
		}
	}
}

// allEnded: each process has exited (it is gone, or a zombie its parent
// has yet to reap).
func allEnded(pids []int) bool {
	for _, pid := range pids {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err == nil && !strings.Contains(string(stat), ") Z ") {
			return false
		}
	}
	return true
}

// With mpirun's own SIGKILL a second after its SIGTERM, as by default,
// every data file is removed, or named by a survivor.
func TestMPIKilledRankLeavesNoUnnamedFile(t *testing.T) {
	for _, rank := range []int{0, 1} {
		dir := t.TempDir()
		r := testwait.Recv(t, "end of mpirun", signalRank(t, dir, rank, syscall.SIGKILL, "--shared-file").done)
		for _, f := range dirEntries(t, dir) {
			if !strings.Contains(r.stderr, f) {
				t.Errorf("rank %d killed: %s left and named by no one:\n%s", rank, f, r.stderr)
			}
		}
	}
}

// An interrupt on one rank stops every rank as interrupted (exit 130),
// and rank 0 names the interrupted rank; the interrupt travels as a
// field, so no marker shows in the text.
func TestMPIInterruptedRankStopsEveryRank(t *testing.T) {
	dir := t.TempDir()
	r := testwait.Recv(t, "end of mpirun", signalRank(t, dir, 1, syscall.SIGINT).done)
	if r.code != 130 || !strings.Contains(r.stderr, "rank 1 (") || !strings.Contains(r.stderr, "interrupted") || strings.Contains(r.stderr, "!") {
		t.Errorf("exit %d, stderr:\n%s\nwant 130 and rank 1 named as interrupted", r.code, r.stderr)
	}
	if left := dirEntries(t, dir); len(left) != 0 {
		t.Errorf("files left: %v", left)
	}
}

// mpiioDoc is the part of the JSON report that says how MPI-IO ran.
type mpiioDoc struct {
	MPI struct {
		API       string `json:"api"`
		ReadShift int    `json:"read_shift"`
		MPIIO     *struct {
			Collective     bool   `json:"collective"`
			Comm           string `json:"comm"`
			HintsRequested []struct {
				Key, Value, Source string
			} `json:"hints_requested"`
			HintsInEffect []struct{ Key, Value string } `json:"hints_in_effect"`
			HintsEchoed   bool                          `json:"hints_echoed"`
		} `json:"mpiio"`
	} `json:"mpi"`
	Warnings []string `json:"warnings"`
	Results  []struct {
		Mode    string `json:"mode"`
		Samples []struct {
			Bytes int64 `json:"bytes"`
		} `json:"samples"`
	} `json:"results"`
}

// --api mpiio writes through MPI-IO in the four layouts, the hints of
// ROMIO_HINTS and --hint reach MPI_File_open and come back from
// MPI_File_get_info, and no file stays. The --total split gives rank 0
// one element more than the others, so at 64 KiB it makes one collective
// call more, which the others match with empty ones: a miscount hangs.
func TestMPIIOLayouts(t *testing.T) {
	bin := mpiBinary(t)
	hints := filepath.Join(t.TempDir(), "romio-hints")
	if err := os.WriteFile(hints, []byte("# test\nstriping_factor 4\ncb_nodes 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ROMIO_HINTS", hints)
	const count = 3*(4<<20)/8 + 1 // 4 MiB a rank, and 8 bytes more on rank 0
	for _, layout := range [][]string{nil, {"--collective"}, {"--shared-file"}, {"--shared-file", "--collective"}} {
		dir := t.TempDir()
		args := append([]string{"-np", "3", bin, "sweep", "--api", "mpiio", "--hint", "cb_nodes=2", "--dir", dir,
			"--count", strconv.Itoa(count), "--total", "--sizes", "64KiB,1MiB", "--repeat", "1", "--format", "json", "--no-progress"}, layout...)
		r := mpirun(t, args...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d\n%s", layout, r.code, r.stderr)
		}
		var doc mpiioDoc
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
			t.Fatalf("%v: not JSON: %v", layout, err)
		}
		m, shared, collective := doc.MPI.MPIIO, slices.Contains(layout, "--shared-file"), slices.Contains(layout, "--collective")
		if doc.MPI.API != "mpiio" || m == nil || m.Collective != collective || (m.Comm == "MPI_COMM_WORLD") != shared {
			t.Fatalf("%v: mpi = %+v, mpiio %+v", layout, doc.MPI, m)
		}
		got := fmt.Sprint(m.HintsRequested)
		if want := "[{striping_factor 4 ROMIO_HINTS=" + hints + "} {cb_nodes 2 --hint}]"; got != want {
			t.Errorf("%v: hints requested %s, want %s", layout, got, want)
		}
		if len(m.HintsInEffect) == 0 {
			t.Errorf("%v: no hints read back with MPI_File_get_info", layout)
		}
		for _, res := range doc.Results {
			if b := res.Samples[0].Bytes; b != count*8 {
				t.Errorf("%v: a run moved %d bytes, want %d", layout, b, count*8)
			}
		}
		if left := dirEntries(t, dir); len(left) != 0 {
			t.Errorf("%v: files left: %v", layout, left)
		}
	}
}

// --read-shift 1 has each rank read its neighbour's file; the report says
// so, warns that one node shares one page cache, and every file goes.
func TestMPIReadShift(t *testing.T) {
	bin := mpiBinary(t)
	for _, api := range []string{"posix", "mpiio"} {
		dir := t.TempDir()
		r := mpirun(t, "-np", "3", bin, "sweep", "--api", api, "--dir", dir, "--size", "4MiB", "--sizes", "64KiB,1MiB",
			"--mode", "both", "--read-shift", "1", "--repeat", "1", "--format", "json", "--no-progress")
		if r.code != 0 {
			t.Fatalf("%s: exit %d\n%s", api, r.code, r.stderr)
		}
		var doc mpiioDoc
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
			t.Fatalf("%s: not JSON: %v", api, err)
		}
		reads := 0
		for _, res := range doc.Results {
			if res.Mode == "read" && res.Samples[0].Bytes == 3*(4<<20) {
				reads++
			}
		}
		if doc.MPI.ReadShift != 1 || reads != 2 || !strings.Contains(strings.Join(doc.Warnings, "\n"), "one page cache") {
			t.Errorf("%s: read_shift %d, %d full read results, warnings %q", api, doc.MPI.ReadShift, reads, doc.Warnings)
		}
		if left := dirEntries(t, dir); len(left) != 0 {
			t.Errorf("%s: files left: %v", api, left)
		}
	}
}
