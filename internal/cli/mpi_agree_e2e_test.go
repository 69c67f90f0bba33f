//go:build mpi

package cli

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// withFlag is args with flag set to value: in place when args has it,
// else added; a value of "" adds the flag alone (a switch).
func withFlag(args []string, flag, value string) []string {
	out := slices.Clone(args)
	if i := slices.Index(out, flag); i >= 0 && value != "" {
		out[i+1] = value
		return out
	}
	out = append(out, flag)
	if value != "" {
		out = append(out, value)
	}
	return out
}

// oddRankArgs are mpirun's arguments for 3 ranks, one of them (the last,
// or 0) started with odd, the others with common.
func oddRankArgs(bin string, common, odd []string, oddRank int) []string {
	if oddRank == 0 {
		return append(append(append([]string{"-np", "1", bin}, odd...), ":", "-np", "2", bin), common...)
	}
	return append(append(append([]string{"-np", "2", bin}, common...), ":", "-np", "1", bin), odd...)
}

// Ranks given other flags than rank 0, or one that the parser refuses,
// stop every rank within seconds, before any data file is made, with one
// line naming the odd rank and the flag; no report reads as valid. Ranks
// given another --format, -o, --shared-file or --api waited for each
// other for ever; another --size made a report of mixed sizes.
func TestMPIRanksGivenOtherFlagsStopAtOnce(t *testing.T) {
	bin := mpiBinary(t)
	out := filepath.Join(t.TempDir(), "report.json")
	for _, c := range []struct {
		flag, value string
		oddRank     int // 2: the last rank; 0: rank 0 against the others
		want        string
	}{
		{"--size", "16MiB", 2, `--size "16MiB" (rank 0: "8MiB")`},
		{"--fsync", "", 2, `--fsync "true" (rank 0: "false")`},
		{"--shared-file", "", 2, `--shared-file "true"`},
		{"--format", "json", 2, `--format "json" (rank 0: "text")`},
		{"--format", "json", 0, `ranks 1-2 (`},
		{"--total", "", 2, `--total "true"`},
		{"--api", "mpiio", 2, `--api "mpiio"`},
		{"-o", out, 2, `--output "` + out + `"`},
		{"--dry-run", "", 2, `--dry-run "true"`},
		{"--formt", "json", 2, "--formt"},
		{"--stride", "x", 2, "--stride"},
	} {
		dir := t.TempDir()
		common := []string{"sweep", "--dir", dir, "--size", "8MiB", "--max", "1MiB", "--repeat", "1", "--no-progress", "--profile", "generic"}
		start := time.Now()
		r := mpirun(t, oddRankArgs(bin, common, withFlag(common, c.flag, c.value), c.oddRank)...)
		took := time.Since(start)
		name := c.flag + " " + c.value
		if r.code == 0 || took > 30*time.Second || !strings.Contains(r.stderr, c.want) {
			t.Errorf("rank %d given %s: exit %d after %v; want a failure within seconds naming %q:\n%s", c.oddRank, name, r.code, took.Round(time.Millisecond), c.want, r.stderr)
		}
		lines := 0
		for _, l := range strings.Split(r.stderr, "\n") {
			if strings.HasPrefix(l, "iobench: ") && !strings.HasPrefix(l, "iobench: profile ") {
				lines++
			}
		}
		if lines != 1 || !strings.Contains(r.stderr, "iobench: rank") {
			t.Errorf("rank %d given %s: %d lines from iobench; want one naming the rank:\n%s", c.oddRank, name, lines, r.stderr)
		}
		if strings.Contains(r.stdout, "results") || strings.Contains(r.stdout, "MiB/s") {
			t.Errorf("rank %d given %s: a report on stdout:\n%s", c.oddRank, name, r.stdout)
		}
		if left := dirEntries(t, dir); len(left) != 0 {
			t.Errorf("rank %d given %s: files left: %v", c.oddRank, name, left)
		}
	}
}

// The same size in another spelling is the same setting: ranks given
// --size 8388608 against rank 0's 8MiB run the sweep together.
func TestMPIRanksCompareParsedSettings(t *testing.T) {
	bin := mpiBinary(t)
	dir := t.TempDir()
	common := []string{"sweep", "--dir", dir, "--size", "8MiB", "--max", "1MiB", "--repeat", "1", "--no-progress", "--profile", "generic", "--sync", "none"}
	r := mpirun(t, oddRankArgs(bin, common, withFlag(withFlag(common, "--size", "8388608"), "--max", "1024KiB"), 2)...)
	if r.code != 0 || strings.Contains(r.stderr, "given other values") {
		t.Errorf("--size 8388608 --max 1024KiB against 8MiB, 1MiB: exit %d; want the sweep to run:\n%s", r.code, r.stderr)
	}
}
