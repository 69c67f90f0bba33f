package cli

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/iobench/iobench/iobench"
)

func TestIOFlagsBadInputIsAUsageError(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--time-limit", "soon"}, `--time-limit: "soon" is not a duration such as 30s, 5m or 1h30m`},
		{[]string{"--time-limit", "-3s"}, `--time-limit: -3s must be positive`},
		{[]string{"--data", "sine"}, `--data: unknown value "sine" (valid: ramp, random, zero)`},
		{[]string{"--data="}, `--data: the value is empty`},
		{[]string{"--flush", "msync"}, `--flush: unknown value "msync" (valid: fsync, fdatasync, none)`},
		{[]string{"--flush", "none", "--fsync"}, `--flush: "none" contradicts --fsync=true (--fsync is --flush fsync); give one`},
		{[]string{"--flush", "fsync", "--fsync=false"}, `--flush: "fsync" contradicts --fsync=false`},
		{[]string{"--open-sync", "rsync"}, `--open-sync: unknown value "rsync" (valid: dsync, sync)`},
		{[]string{"--overwrite", "--mode", "read"}, `--overwrite: applies to write runs; use it with --mode write or both`},
		{[]string{"--preallocate", "--mode", "read"}, `--preallocate: applies to write runs`},
		{[]string{"--open-sync", "dsync", "--mode", "read"}, `--open-sync: applies to write runs`},
		{[]string{"--flush", "fdatasync", "--mode", "read"}, `--flush: applies to write runs`},
		{[]string{"--overwrite", "--shared-file"}, `--overwrite: applies to a file per rank; it is not available with --shared-file`},
		{[]string{"--preallocate", "--shared-file"}, `--preallocate: applies to a file per rank`},
	} {
		_, errOut, code := runCLI(t, smallSweep(dir, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line containing %q", tc.args, code, errOut, tc.want)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("a refused sweep left %v", ents)
	}
}

// TestFlushOverridesTheProfile: the ext4 profile turns fsync
// on; --flush overrides it, and --fsync still means --flush fsync.
func TestFlushOverridesTheProfile(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args  []string
		flush string
		fsync bool
	}{
		{[]string{"--profile", "ext4"}, "fsync", true},
		{[]string{"--profile", "ext4", "--flush", "fdatasync"}, "fdatasync", false},
		{[]string{"--profile", "ext4", "--flush", "none"}, "none", false},
		{[]string{"--profile", "generic", "--fsync"}, "fsync", true},
		{[]string{"--profile", "generic"}, "none", false},
	} {
		out, errOut, code := runCLI(t, smallSweep(dir, append(tc.args, "--min", "256KiB", "--repeat", "1", "--format", "json")...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, errOut)
		}
		var doc struct {
			Config struct {
				Flush string `json:"flush"`
				Fsync bool   `json:"fsync"`
			} `json:"config"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		if doc.Config.Flush != tc.flush || doc.Config.Fsync != tc.fsync {
			t.Errorf("%v: flush %q fsync %v; want %q, %v", tc.args, doc.Config.Flush, doc.Config.Fsync, tc.flush, tc.fsync)
		}
	}
}

func TestIOFlagsEndToEnd(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runCLI(t, smallSweep(dir, "--min", "128KiB", "--repeat", "1", "--data", "random", "--seed", "3", "--verify",
		"--latency", "--flush", "fdatasync", "--open-sync", "dsync", "--preallocate", "--overwrite", "--time-limit", "1h", "--format", "json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Config struct {
			Data, Flush string
			OpenSync    string  `json:"open_sync"`
			TimeLimit   float64 `json:"time_limit_seconds"`
			Preallocate bool
			Overwrite   bool
			Latency     bool
		} `json:"config"`
		Results []struct {
			WriteSize int64 `json:"write_size"`
			Latency   *struct {
				P50 float64 `json:"p50_us"`
				P99 float64 `json:"p99_us"`
				Max float64 `json:"max_us"`
			} `json:"latency"`
		} `json:"results"`
		Verified *struct{ Files int } `json:"verified"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	c := doc.Config
	if c.Data != "random" || c.Flush != "fdatasync" || c.OpenSync != "dsync" || c.TimeLimit != 3600 || !c.Preallocate || !c.Overwrite || !c.Latency {
		t.Errorf("config %+v", c)
	}
	for _, r := range doc.Results {
		if l := r.Latency; l == nil || l.P50 <= 0 || l.P50 > l.P99 || l.P99 > l.Max {
			t.Errorf("size %d: latency %+v", r.WriteSize, l)
		}
	}
	if doc.Verified == nil || doc.Verified.Files != 6 { // the overwritten file's lay-out, the warm-up, 4 runs
		t.Errorf("verified %+v, want 6 files", doc.Verified)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left in the directory: %v", ents)
	}
}

func TestTimeLimitTextSaysWhatWasCut(t *testing.T) {
	dir := t.TempDir()
	// A million 1 KiB calls take seconds on any machine, so the 1 ms
	// limit cuts the run however late a loaded machine fires its timer;
	// the window source keeps the gigabyte out of memory.
	out, errOut, code := runCLI(t, smallSweep(dir, "--size", "1GiB", "--max", "1KiB", "--source", "window", "--time-limit", "1ms", "--repeat", "1", "--profile", "generic")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "time limit 1ms cut runs short at 1 KiB (1 of 1 runs, which moved") || !strings.Contains(out, "each run stops after 1ms (--time-limit)") {
		t.Errorf("text does not say what the time limit cut:\n%s", out)
	}
}

// --latency-all times every call: the report says so, and each size's
// timed calls are all its calls, with the bound equal to the max.
func TestLatencyAllTimesEveryCallEndToEnd(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runCLI(t, smallSweep(dir, "--repeat", "1", "--latency-all", "--format", "json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Config struct {
			Latency    bool
			LatencyAll bool `json:"latency_all"`
		} `json:"config"`
		Results []struct {
			WriteSize int64 `json:"write_size"`
			Latency   *iobench.LatencySummary
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if !doc.Config.Latency || !doc.Config.LatencyAll {
		t.Errorf("config %+v, want latency and latency_all", doc.Config)
	}
	for _, r := range doc.Results {
		if l := r.Latency; l == nil || l.TimedCalls != l.Calls || l.Calls == 0 || l.MaxBound != l.Max || l.Clock <= 0 {
			t.Errorf("size %d: latency %+v, want every call timed and the clock's cost", r.WriteSize, l)
		}
	}
}
