//go:build mpi

package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// End-to-end tests of the run-I/O flags (--time-limit, --data, --flush,
// --open-sync, --preallocate, --overwrite, --latency) under mpirun with 3
// ranks, a file per rank and --shared-file. The assertions follow how
// iobench.Aggregate merges the ranks' runs: bytes, calls and latency
// histograms add up, a run is time-limited if any rank's was, and the
// run's MiB/s is all bytes over the span from the first start to the
// last end. Where strace is installed, the system calls the ranks make
// are counted too: the flush, the open flags, fallocate, and one file
// per rank overwritten.

const rioRanks = 3

// rioBinary is mpiBinary built once for all the tests of this file, next
// to the binary TestMain builds (and removes), or a skip without mpirun.
func rioBinary(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("mpirun"); err != nil {
		t.Skip("mpirun not installed (apt-get install openmpi-bin libopenmpi-dev)")
	}
	return mpiBinary(t)
}

type rioLatency struct {
	Calls      int64      `json:"calls"`
	Timed      int64      `json:"timed_calls"`
	MaxNs      int64      `json:"max_ns"`
	MaxBoundNs int64      `json:"max_bound_ns"`
	Buckets    [][2]int64 `json:"buckets"`
}

type rioSample struct {
	Round       int         `json:"round"`
	Seconds     float64     `json:"seconds"`
	Bytes       int64       `json:"bytes"`
	Calls       int64       `json:"calls"`
	ShortWrites int64       `json:"short_writes"`
	EINTR       int64       `json:"eintr_retries"`
	Start       time.Time   `json:"start"`
	End         time.Time   `json:"end"`
	TimeLimited bool        `json:"time_limited"`
	Latency     *rioLatency `json:"latency"`
}

type rioResult struct {
	Mode            string  `json:"mode"`
	WriteSize       int64   `json:"write_size"`
	MiBPerSec       float64 `json:"mib_per_s"`
	WriteCalls      int64   `json:"write_calls"`
	TimeLimitedRuns int     `json:"time_limited_runs"`
	Latency         *struct {
		Calls      int64   `json:"calls"`
		TimedCalls int64   `json:"timed_calls"`
		P50        float64 `json:"p50_us"`
		P90        float64 `json:"p90_us"`
		P99        float64 `json:"p99_us"`
		Max        float64 `json:"max_us"`
		MaxBound   float64 `json:"max_bound_us"`
	} `json:"latency"`
	Samples []rioSample `json:"samples"`
}

// rioDoc is the part of the JSON report the run-I/O flags change.
type rioDoc struct {
	Config struct {
		TotalBytes       int64   `json:"total_bytes"`
		Seed             uint64  `json:"seed"`
		Mode             string  `json:"mode"`
		Data             string  `json:"data"`
		Flush            string  `json:"flush"`
		Fsync            bool    `json:"fsync"`
		OpenSync         string  `json:"open_sync"`
		Preallocate      bool    `json:"preallocate"`
		Overwrite        bool    `json:"overwrite"`
		Latency          bool    `json:"latency"`
		Verify           bool    `json:"verify"`
		TimeLimitSeconds float64 `json:"time_limit_seconds"`
	} `json:"config"`
	Incomplete bool `json:"incomplete"`
	Verified   *struct {
		Files    int64 `json:"files"`
		Elements int64 `json:"elements"`
		Bytes    int64 `json:"bytes"`
	} `json:"verified"`
	MPI struct {
		Ranks      int  `json:"ranks"`
		SharedFile bool `json:"shared_file"`
		PerRank    []struct {
			Mode      string  `json:"mode"`
			WriteSize int64   `json:"write_size"`
			Round     int     `json:"round"`
			Min       float64 `json:"min_mib_per_s"`
			Median    float64 `json:"median_mib_per_s"`
			Max       float64 `json:"max_mib_per_s"`
		} `json:"per_rank"`
	} `json:"mpi"`
	Results []rioResult `json:"results"`

	raw string // the report as printed
}

// runs is the number of aggregate runs in the report.
func (d rioDoc) runs() int {
	n := 0
	for _, r := range d.Results {
		n += len(r.Samples)
	}
	return n
}

// rioTrace is what strace saw every rank do to iobench's data files.
type rioTrace struct {
	opens     []rioOpen
	fsync     int
	fdatasync int
	fallocate []int64 // lengths
}

type rioOpen struct {
	path, flags string
}

func (o rioOpen) has(flag string) bool { return slices.Contains(strings.Split(o.flags, "|"), flag) }

// count is the number of opens for which every one of want holds.
func (tr *rioTrace) count(want ...func(rioOpen) bool) int {
	n := 0
	for _, o := range tr.opens {
		if !slices.ContainsFunc(want, func(f func(rioOpen) bool) bool { return !f(o) }) {
			n++
		}
	}
	return n
}

func with(flag string) func(rioOpen) bool    { return func(o rioOpen) bool { return o.has(flag) } }
func without(flag string) func(rioOpen) bool { return func(o rioOpen) bool { return !o.has(flag) } }
func named(part string) func(rioOpen) bool {
	return func(o rioOpen) bool { return strings.Contains(filepath.Base(o.path), part) }
}
func notNamed(part string) func(rioOpen) bool {
	return func(o rioOpen) bool { return !strings.Contains(filepath.Base(o.path), part) }
}

// timedWrites counts the opens for writing inside the timing for which
// every one of want holds, without --preallocate: every open for writing
// but rank 0's creation of the shared file before each run.
func (tr *rioTrace) timedWrites(want ...func(rioOpen) bool) int {
	return tr.count(append([]func(rioOpen) bool{with("O_WRONLY"), without("O_CREAT")}, want...)...) +
		tr.count(append([]func(rioOpen) bool{with("O_WRONLY"), with("O_CREAT"), notNamed("-shared.dat")}, want...)...)
}

var (
	rioOpenRe      = regexp.MustCompile(`^openat\(AT_FDCWD, "([^"]*)", ([A-Z0-9_|]+)(?:, 0?\d+)?\) = (\d+)`)
	rioFsyncRe     = regexp.MustCompile(`^fsync\(\d+\)\s+= 0`)
	rioFdatasyncRe = regexp.MustCompile(`^fdatasync\(\d+\)\s+= 0`)
	rioFallocRe    = regexp.MustCompile(`^fallocate\(\d+, 0, 0, (\d+)\)\s+= 0`)
)

// parseRIOTrace reads the files strace -ff wrote (one per thread), keeping
// the opens of iobench's data files in dir.
func parseRIOTrace(t *testing.T, prefix, dir string) *rioTrace {
	t.Helper()
	files, _ := filepath.Glob(prefix + ".*")
	if len(files) == 0 {
		t.Fatalf("strace wrote no %s.* files", prefix)
	}
	tr := &rioTrace{}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			switch {
			case rioFsyncRe.MatchString(line):
				tr.fsync++
			case rioFdatasyncRe.MatchString(line):
				tr.fdatasync++
			}
			if m := rioFallocRe.FindStringSubmatch(line); m != nil {
				n, _ := strconv.ParseInt(m[1], 10, 64)
				tr.fallocate = append(tr.fallocate, n)
			}
			if m := rioOpenRe.FindStringSubmatch(line); m != nil {
				base := filepath.Base(m[1])
				if filepath.Dir(m[1]) == dir && strings.HasPrefix(base, ".iobench-") && strings.HasSuffix(base, ".dat") {
					tr.opens = append(tr.opens, rioOpen{m[1], m[2]})
				}
			}
		}
		f.Close()
	}
	return tr
}

// rioSweep runs a sweep of 3 ranks over 64 KiB and 1 MiB writes in a new
// directory, with extra flags (which give --size and --repeat), and
// checks that it succeeded, reports 3 ranks and left no file behind.
// With trace, the ranks run under strace (the test skips without it);
// the trace is nil otherwise.
func rioSweep(t *testing.T, bin string, trace bool, extra ...string) (rioDoc, *rioTrace) {
	t.Helper()
	dir := t.TempDir()
	args := []string{"-np", strconv.Itoa(rioRanks)}
	var prefix string
	if trace {
		if _, err := exec.LookPath("strace"); err != nil {
			t.Skip("strace is not installed (apt-get install strace; scripts/test.sh does): this test checks the system calls")
		}
		prefix = filepath.Join(t.TempDir(), "trace")
		args = append(args, "strace", "-f", "-ff", "-qq", "-o", prefix, "-e", "trace=openat,fsync,fdatasync,fallocate")
	}
	args = append(append(args, bin, "sweep", "--dir", dir, "--sizes", "64KiB,1MiB", "--sync", "none",
		"--format", "json", "--no-progress"), extra...)
	r := mpirun(t, args...)
	if r.code != 0 {
		t.Fatalf("%v: exit %d\n%s", extra, r.code, r.stderr)
	}
	var doc rioDoc
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("%v: not JSON: %v\n%s", extra, err, r.stdout)
	}
	doc.raw = r.stdout
	if doc.MPI.Ranks != rioRanks || doc.Incomplete || doc.MPI.SharedFile != slices.Contains(extra, "--shared-file") {
		t.Errorf("%v: ranks %d, incomplete %v, shared_file %v", extra, doc.MPI.Ranks, doc.Incomplete, doc.MPI.SharedFile)
	}
	if len(doc.Results) == 0 || len(doc.MPI.PerRank) != doc.runs() {
		t.Errorf("%v: %d results, %d per-rank rows for %d runs", extra, len(doc.Results), len(doc.MPI.PerRank), doc.runs())
	}
	for _, p := range doc.MPI.PerRank {
		if !(p.Min > 0 && p.Min <= p.Median && p.Median <= p.Max) {
			t.Errorf("%v: per-rank spread %+v", extra, p)
		}
	}
	if left := dirEntries(t, dir); len(left) != 0 {
		t.Errorf("%v: files left: %v", extra, left)
	}
	var tr *rioTrace
	if prefix != "" {
		tr = parseRIOTrace(t, prefix, dir)
	}
	return doc, tr
}

// checkRIORates checks each run's figures against its own bytes and span,
// and each size's MiB/s as the median of its runs.
func checkRIORates(t *testing.T, name string, doc rioDoc) {
	t.Helper()
	for _, r := range doc.Results {
		rates := make([]float64, 0, len(r.Samples))
		for _, s := range r.Samples {
			span := s.End.Sub(s.Start).Seconds()
			if math.Abs(s.Seconds-span) > 1e-6 || s.Seconds <= 0 {
				t.Errorf("%s: %s %d: seconds %v, span %v", name, r.Mode, r.WriteSize, s.Seconds, span)
			}
			// Every call but a retry moves a whole write (the data is a
			// whole number of writes), so the calls follow from the bytes.
			if s.Bytes%r.WriteSize != 0 || s.Calls != s.Bytes/r.WriteSize+s.ShortWrites+s.EINTR {
				t.Errorf("%s: %s %d: %d bytes in %d calls (%d short, %d EINTR)", name, r.Mode, r.WriteSize, s.Bytes, s.Calls, s.ShortWrites, s.EINTR)
			}
			rates = append(rates, float64(s.Bytes)/s.Seconds/(1<<20))
		}
		slices.Sort(rates)
		n := len(rates)
		median := (rates[(n-1)/2] + rates[n/2]) / 2
		if math.Abs(r.MiBPerSec-median) > 1e-9*median {
			t.Errorf("%s: %s %d: MiB/s %v, the median of its runs is %v", name, r.Mode, r.WriteSize, r.MiBPerSec, median)
		}
	}
}

// checkRIOFull checks that no run was cut short: every run moved every
// rank's perRank bytes.
func checkRIOFull(t *testing.T, name string, doc rioDoc, perRank int64) {
	t.Helper()
	checkRIORates(t, name, doc)
	for _, r := range doc.Results {
		if r.TimeLimitedRuns != 0 {
			t.Errorf("%s: %d: time_limited_runs %d, want 0", name, r.WriteSize, r.TimeLimitedRuns)
		}
		for _, s := range r.Samples {
			if s.Bytes != rioRanks*perRank || s.TimeLimited {
				t.Errorf("%s: %s %d: bytes %d (want %d), time_limited %v", name, r.Mode, r.WriteSize, s.Bytes, rioRanks*perRank, s.TimeLimited)
			}
		}
	}
}

// A run far longer than --time-limit is cut on every rank: the aggregate
// says so, moved less than all ranks' data (at least one call a rank),
// lasted at least the limit, and its MiB/s is what it moved over its
// span; read runs are cut as write runs are. A limit no run reaches cuts
// nothing. The text line of the cut runs compares what they moved with
// what all ranks would have moved.
func TestMPIRunIOTimeLimit(t *testing.T) {
	bin := rioBinary(t)
	const perRank = 32 << 20 // 96 MiB in 1 ms: far beyond any disk
	for _, tc := range []struct {
		name  string
		extra []string
		modes []string
	}{
		{"file per rank", []string{"--mode", "both"}, []string{"write", "read"}},
		{"shared file", []string{"--shared-file"}, []string{"write"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, _ := rioSweep(t, bin, false, append([]string{"--size", "32MiB", "--repeat", "2", "--time-limit", "1ms"}, tc.extra...)...)
			if doc.Config.TimeLimitSeconds != 0.001 {
				t.Errorf("config.time_limit_seconds %v, want 0.001", doc.Config.TimeLimitSeconds)
			}
			checkRIORates(t, tc.name, doc)
			var modes []string
			for _, r := range doc.Results {
				if !slices.Contains(modes, r.Mode) {
					modes = append(modes, r.Mode)
				}
				limited := 0
				for _, s := range r.Samples {
					if s.TimeLimited {
						limited++
					}
					if !s.TimeLimited || s.Bytes >= rioRanks*perRank || s.Bytes < rioRanks*r.WriteSize || s.Seconds < 0.001 {
						t.Errorf("%s %d round %d: time_limited %v, %d bytes of %d, %v s; want cut, at least one call a rank, at least the limit",
							r.Mode, r.WriteSize, s.Round, s.TimeLimited, s.Bytes, rioRanks*perRank, s.Seconds)
					}
				}
				if r.TimeLimitedRuns != limited || len(r.Samples) != 2 {
					t.Errorf("%s %d: time_limited_runs %d, %d of %d runs marked", r.Mode, r.WriteSize, r.TimeLimitedRuns, limited, len(r.Samples))
				}
			}
			if !slices.Equal(modes, tc.modes) || len(doc.Results) != 2*len(tc.modes) {
				t.Errorf("modes %v in %d results, want %v", modes, len(doc.Results), tc.modes)
			}
			if tc.name != "file per rank" {
				return
			}
			t.Run("text line counts all ranks", func(t *testing.T) {
				checkTimeLimitLine(t, bin, doc.raw, 4)
			})
		})
	}
	t.Run("limit not reached", func(t *testing.T) {
		doc, _ := rioSweep(t, bin, false, "--size", "4MiB", "--repeat", "1", "--time-limit", "1m")
		if doc.Config.TimeLimitSeconds != 60 {
			t.Errorf("config.time_limit_seconds %v, want 60", doc.Config.TimeLimitSeconds)
		}
		checkRIOFull(t, "--time-limit 1m", doc, 4<<20)
	})
}

// checkTimeLimitLine has analyze render the JSON report of a sweep
// whose runs were all cut (the same text the sweep prints), and checks
// that the text compares what each cut row moved, all ranks' bytes, with
// the data of all ranks (3 x 32 MiB), not with one rank's; rows is the
// number of rows (direction and size) cut. render.TimeLimitLine compares
// with Config.TotalBytes, one rank's, and prints "moved 22 MiB of 16 MiB".
func checkTimeLimitLine(t *testing.T, bin, report string, rows int) {
	t.Helper()
	js := filepath.Join(t.TempDir(), "cut.json")
	if err := os.WriteFile(js, []byte(report), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "analyze", js).CombinedOutput()
	if err != nil {
		t.Fatalf("analyze: %v\n%s", err, out)
	}
	var lines []string
	wrapped := false // the text goes on with a line indented two spaces
	for l := range strings.SplitSeq(string(out), "\n") {
		switch {
		case strings.HasPrefix(l, "time limit 1ms cut runs short at "):
			lines, wrapped = append(lines, l), true
		case wrapped && strings.HasPrefix(l, "  "):
			lines[len(lines)-1] += " " + strings.TrimSpace(l)
		default:
			wrapped = false
		}
	}
	text := strings.Join(lines, "\n")
	if len(lines) == 0 {
		t.Fatalf("no time-limit line in:\n%s", out)
	}
	if n := strings.Count(text, " of 96 MiB)"); n != rows {
		t.Errorf("the time-limit lines compare %d of the %d cut rows with the 96 MiB all 3 ranks would have moved:\n%s", n, rows, text)
	}
}

// --latency under MPI: each aggregate run's histogram merges every rank's,
// so its calls are all ranks' write calls and it holds the calls each
// rank timed (at least its first); each size merges its runs. With
// --latency-all every call is timed.
func TestMPIRunIOLatency(t *testing.T) {
	bin := rioBinary(t)
	const perRank = 4 << 20
	for _, tc := range []struct {
		name  string
		extra []string
		all   bool
	}{
		{"file per rank", []string{"--latency"}, false},
		{"shared file", []string{"--latency", "--shared-file"}, false},
		{"every call", []string{"--latency-all"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, _ := rioSweep(t, bin, false, append([]string{"--size", "4MiB", "--repeat", "2"}, tc.extra...)...)
			checkRIOFull(t, tc.name, doc, perRank)
			if !doc.Config.Latency {
				t.Errorf("config.latency false")
			}
			for _, r := range doc.Results {
				var calls, timed, maxNs int64
				for _, s := range r.Samples {
					l := s.Latency
					if l == nil {
						t.Fatalf("%d round %d: no latency", r.WriteSize, s.Round)
					}
					if want := rioRanks * perRank / r.WriteSize; l.Calls != s.Calls || s.Calls != want {
						t.Errorf("%d round %d: latency.calls %d, calls %d, want the %d write calls of all ranks", r.WriteSize, s.Round, l.Calls, s.Calls, want)
					}
					if l.Timed < rioRanks || l.Timed > l.Calls || tc.all && l.Timed != l.Calls {
						t.Errorf("%d round %d: %d of %d calls timed (all: %v; each rank times its first)", r.WriteSize, s.Round, l.Timed, l.Calls, tc.all)
					}
					var counted, low int64
					for i, b := range l.Buckets {
						if b[1] <= 0 || i > 0 && b[0] <= low {
							t.Errorf("%d round %d: bucket %d %v after lower bound %d", r.WriteSize, s.Round, i, b, low)
						}
						low, counted = b[0], counted+b[1]
					}
					if counted != l.Timed || l.MaxNs < low || l.MaxBoundNs < l.MaxNs {
						t.Errorf("%d round %d: buckets count %d of %d timed; max %d ns, last bucket from %d, bound %d", r.WriteSize, s.Round, counted, l.Timed, l.MaxNs, low, l.MaxBoundNs)
					}
					calls, timed, maxNs = calls+l.Calls, timed+l.Timed, max(maxNs, l.MaxNs)
				}
				l := r.Latency
				if l == nil {
					t.Fatalf("%d: no latency summary", r.WriteSize)
				}
				if l.Calls != calls || l.TimedCalls != timed || l.Max != float64(maxNs)/1e3 {
					t.Errorf("%d: summary calls %d timed %d max %v µs; the runs add up to %d, %d, %v", r.WriteSize, l.Calls, l.TimedCalls, l.Max, calls, timed, float64(maxNs)/1e3)
				}
				if !(l.P50 > 0 && l.P50 <= l.P90 && l.P90 <= l.P99 && l.P99 <= l.Max && l.Max <= l.MaxBound) {
					t.Errorf("%d: p50 %v p90 %v p99 %v max %v bound %v", r.WriteSize, l.P50, l.P90, l.P99, l.Max, l.MaxBound)
				}
				if tc.all && (l.TimedCalls != l.Calls || l.MaxBound != l.Max) {
					t.Errorf("%d: --latency-all timed %d of %d calls, bound %v, max %v", r.WriteSize, l.TimedCalls, l.Calls, l.MaxBound, l.Max)
				}
			}
		})
	}
}

// --data random under MPI: every rank writes rank 0's seed's stream and
// --verify reads back every file of every rank, the warm-up's too.
func TestMPIRunIODataRandomVerify(t *testing.T) {
	bin := rioBinary(t)
	const perRank = 4 << 20
	doc, _ := rioSweep(t, bin, false, "--size", "4MiB", "--repeat", "1", "--data", "random", "--seed", "7", "--verify")
	checkRIOFull(t, "random, verify", doc, perRank)
	if c := doc.Config; c.Data != "random" || !c.Verify || c.Seed != 7 {
		t.Errorf("config data %q verify %v seed %d", c.Data, c.Verify, c.Seed)
	}
	files := int64(rioRanks * (1 + 2)) // warm-up and 2 runs on each rank
	if v := doc.Verified; v == nil || v.Files != files || v.Bytes != files*perRank || v.Elements != v.Bytes/8 {
		t.Errorf("verified %+v, want %d files of %d bytes", v, files, perRank)
	}
	doc, _ = rioSweep(t, bin, false, "--size", "4MiB", "--repeat", "1", "--data", "random", "--shared-file")
	checkRIOFull(t, "random, shared file", doc, perRank)
	if doc.Config.Data != "random" || doc.Verified != nil {
		t.Errorf("shared file: config.data %q, verified %+v", doc.Config.Data, doc.Verified)
	}
}

// --preallocate and --overwrite with a file per rank: the data moved and
// verified, and what the ranks did: fallocate of every file before its
// run, and with --overwrite one file a rank, created once, never
// truncated, opened by the warm-up and every run. A time-limited run
// overwrites the start of the file, and --verify checks what it wrote.
func TestMPIRunIOPreallocateOverwrite(t *testing.T) {
	bin := rioBinary(t)
	const perRank = 4 << 20
	for _, tc := range []struct {
		name               string
		extra              []string
		preallocate, overw bool
	}{
		{"preallocate", []string{"--preallocate"}, true, false},
		{"overwrite", []string{"--overwrite"}, false, true},
		{"overwrite preallocate random", []string{"--overwrite", "--preallocate", "--data", "random"}, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, tr := rioSweep(t, bin, true, append([]string{"--size", "4MiB", "--repeat", "1", "--verify", "--flush", "fsync"}, tc.extra...)...)
			checkRIOFull(t, tc.name, doc, perRank)
			if c := doc.Config; c.Preallocate != tc.preallocate || c.Overwrite != tc.overw || !c.Verify || c.Flush != "fsync" {
				t.Errorf("config preallocate %v overwrite %v verify %v flush %q", c.Preallocate, c.Overwrite, c.Verify, c.Flush)
			}
			passes := int64(1 + 2) // warm-up and 2 runs
			if tc.overw {
				passes++ // laying out the file
			}
			if v := doc.Verified; v == nil || v.Files != rioRanks*passes || v.Bytes != rioRanks*passes*perRank {
				t.Errorf("verified %+v, want %d files of %d bytes", v, rioRanks*passes, perRank)
			}
			creates := tr.count(with("O_WRONLY"), with("O_CREAT"), with("O_EXCL"))
			reopens := tr.count(with("O_WRONLY"), without("O_CREAT"))
			reads := tr.count(without("O_WRONLY"), without("O_RDWR"))
			// A file per pass on each rank (warm-up, 2 runs), created inside
			// the timing; with --preallocate created, fallocated, reopened.
			// With --overwrite one file a rank: created and written in full
			// (with --preallocate: created, fallocated, reopened), then
			// reopened by the warm-up and each run.
			wantCreates, wantReopens, wantAllocs := rioRanks*3, 0, 0
			switch {
			case tc.overw && tc.preallocate:
				wantCreates, wantReopens, wantAllocs = rioRanks, rioRanks*4, rioRanks
			case tc.overw:
				wantCreates, wantReopens = rioRanks, rioRanks*3
			case tc.preallocate:
				wantReopens, wantAllocs = rioRanks*3, rioRanks*3
			}
			allocs := 0
			for _, n := range tr.fallocate {
				if n == perRank {
					allocs++
				}
			}
			if creates != wantCreates || tr.count(with("O_CREAT")) != creates || reopens != wantReopens || allocs != wantAllocs || len(tr.fallocate) != wantAllocs {
				t.Errorf("creates %d (want %d), reopens for writing %d (want %d), fallocate %v (want %d of %d)\n%v",
					creates, wantCreates, reopens, wantReopens, tr.fallocate, wantAllocs, perRank, tr.opens)
			}
			if n := tr.count(with("O_TRUNC")); n != 0 || reads != int(rioRanks*passes) || tr.fsync != int(rioRanks*passes) || tr.fdatasync != 0 {
				t.Errorf("O_TRUNC %d, reads for verify %d (want %d), fsync %d (want %d), fdatasync %d",
					n, reads, rioRanks*passes, tr.fsync, rioRanks*passes, tr.fdatasync)
			}
			if tc.overw {
				files := map[string]bool{}
				for _, o := range tr.opens {
					files[o.path] = true
				}
				if n := tr.count(with("O_WRONLY"), notNamed("-overwrite")); n != 0 || len(files) != rioRanks {
					t.Errorf("%d write opens of files other than the overwrite files; %d files opened, want %d\n%v", n, len(files), rioRanks, tr.opens)
				}
			}
		})
	}
	t.Run("overwrite cut by the time limit", func(t *testing.T) {
		const perRank = 32 << 20
		doc, _ := rioSweep(t, bin, false, "--size", "32MiB", "--repeat", "1", "--overwrite", "--preallocate", "--data", "random",
			"--verify", "--time-limit", "1ms")
		checkRIORates(t, "overwrite, time limit", doc)
		var moved int64
		for _, r := range doc.Results {
			for _, s := range r.Samples {
				moved += s.Bytes
				if !s.TimeLimited || s.Bytes >= rioRanks*perRank || r.TimeLimitedRuns != 1 {
					t.Errorf("%d: time_limited %v (%d runs), %d bytes of %d", r.WriteSize, s.TimeLimited, r.TimeLimitedRuns, s.Bytes, rioRanks*perRank)
				}
			}
		}
		// The layout is written in full; the warm-up (1 MiB calls) is cut
		// after at least one call on each rank.
		lo, hi := moved+rioRanks*perRank+rioRanks*(1<<20), moved+2*rioRanks*perRank
		if v := doc.Verified; v == nil || v.Files != rioRanks*4 || v.Bytes < lo || v.Bytes > hi || v.Elements*8 != v.Bytes {
			t.Errorf("verified %+v, want %d files and %d to %d bytes", v, rioRanks*4, lo, hi)
		}
	})
}

// --flush and --open-sync, a file per rank and shared: the report says
// what ran (an explicit --flush wins over the ext4 profile's fsync), and
// the ranks flush each timed pass with exactly that call and open the
// files they write with O_DSYNC only when asked.
func TestMPIRunIOFlushAndOpenSync(t *testing.T) {
	bin := rioBinary(t)
	for _, tc := range []struct {
		name            string
		extra           []string
		flush, openSync string
	}{
		{"fdatasync dsync, file per rank", []string{"--flush", "fdatasync", "--open-sync", "dsync"}, "fdatasync", "dsync"},
		{"fdatasync dsync, shared file", []string{"--flush", "fdatasync", "--open-sync", "dsync", "--shared-file"}, "fdatasync", "dsync"},
		{"none, file per rank", []string{"--flush", "none"}, "none", ""},
		{"none, shared file", []string{"--flush", "none", "--shared-file"}, "none", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, tr := rioSweep(t, bin, true, append([]string{"--size", "4MiB", "--repeat", "1"}, tc.extra...)...)
			checkRIOFull(t, tc.name, doc, 4<<20)
			if c := doc.Config; c.Flush != tc.flush || c.Fsync || c.OpenSync != tc.openSync {
				t.Errorf("config flush %q fsync %v open_sync %q, want %q false %q", c.Flush, c.Fsync, c.OpenSync, tc.flush, tc.openSync)
			}
			shared := slices.Contains(tc.extra, "--shared-file")
			// Timed passes on each rank: the warm-up (its own file, also
			// with --shared-file) and 2 runs.
			timed := rioRanks * 3
			wantFdatasync := 0
			if tc.flush == "fdatasync" {
				wantFdatasync = timed
			}
			timedOpens, dsync := tr.timedWrites(), tr.timedWrites(with("O_DSYNC"))
			if shared {
				if n := tr.count(named("-shared.dat"), with("O_CREAT")); n != 2 { // rank 0, before each run
					t.Errorf("the shared file created %d times, want 2", n)
				}
				if n := tr.count(named("-shared.dat"), with("O_WRONLY"), without("O_CREAT")); n != rioRanks*2 {
					t.Errorf("the shared file opened %d times for writing, want %d", n, rioRanks*2)
				}
			}
			switch {
			case timedOpens != timed:
				t.Errorf("%d timed opens for writing, want %d\n%v", timedOpens, timed, tr.opens)
			case tr.fdatasync != wantFdatasync || tr.fsync != 0:
				t.Errorf("fdatasync %d (want %d), fsync %d (want 0)", tr.fdatasync, wantFdatasync, tr.fsync)
			case tc.openSync == "dsync" && dsync != timed, tc.openSync == "" && tr.count(with("O_DSYNC")) != 0:
				t.Errorf("%d timed opens for writing with O_DSYNC; open_sync %q, %d timed opens\n%v", dsync, tc.openSync, timed, tr.opens)
			case tr.count(with("O_SYNC")) != 0 || tr.count(without("O_WRONLY"), with("O_DSYNC")) != 0:
				t.Errorf("O_SYNC opens, or reads with O_DSYNC: %v", tr.opens)
			}
		})
	}
}

// Combinations that cannot run are refused on every rank before any I/O:
// exit 2, one line from rank 0 naming every rank and the flag, no report,
// no file.
func TestMPIRunIORefusedCombinations(t *testing.T) {
	bin := rioBinary(t)
	for _, tc := range []struct {
		extra []string
		want  string
	}{
		{[]string{"--preallocate", "--shared-file"}, "--preallocate: applies to a file per rank; it is not available with --shared-file"},
		{[]string{"--overwrite", "--shared-file"}, "--overwrite: applies to a file per rank; it is not available with --shared-file"},
		{[]string{"--data", "random", "--verify", "--shared-file"}, "--verify: checks a file per rank; it is not available with --shared-file"},
		{[]string{"--flush", "none", "--fsync"}, `--flush: "none" contradicts --fsync=true`},
		{[]string{"--time-limit", "0s"}, `--time-limit: 0s must be positive`},
		{[]string{"--mode", "read", "--open-sync", "dsync"}, "--open-sync: applies to write runs"},
	} {
		dir := t.TempDir()
		r := mpirun(t, append([]string{"-np", strconv.Itoa(rioRanks), bin, "sweep", "--dir", dir, "--size", "4MiB", "--sizes", "64KiB,1MiB",
			"--repeat", "1", "--format", "json", "--no-progress"}, tc.extra...)...)
		var lines []string
		for l := range strings.SplitSeq(r.stderr, "\n") {
			if strings.HasPrefix(l, "iobench:") {
				lines = append(lines, l)
			}
		}
		every := fmt.Sprintf("iobench: ranks 0-%d (", rioRanks-1) // one entry for all ranks' one error
		if r.code != 2 || r.stdout != "" || len(lines) != 1 || !strings.HasPrefix(lines[0], every) || !strings.Contains(lines[0], tc.want) {
			t.Errorf("%v: exit %d, stdout %q, iobench lines %q; want exit 2 and one line with %q", tc.extra, r.code, r.stdout, lines, tc.want)
		}
		if left := dirEntries(t, dir); len(left) != 0 {
			t.Errorf("%v: files left: %v", tc.extra, left)
		}
	}
}
