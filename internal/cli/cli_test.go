package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"

	"github.com/iobench/iobench/internal/testkit/testenv"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/units"
)

// runCLI runs the command in-process and returns stdout, stderr and the
// exit code main would use.
func runCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), testEnv(&out, &errb), append([]string{"iobench"}, args...))
	code := exitCode(err, &errb)
	return out.String(), errb.String(), code
}

// smallSweep is a quick sweep: 4 MiB of data, 1 KiB .. 1 MiB. A default
// that extra gives again is left out: a flag may be given only once.
func smallSweep(dir string, extra ...string) []string {
	args := []string{"sweep", "--dir", dir}
	for _, d := range [][]string{{"--size", "4MiB"}, {"--max", "1MiB"}, {"--sync", "none"}, {"--no-progress"}} {
		if !slices.Contains(extra, d[0]) {
			args = append(args, d...)
		}
	}
	return append(args, extra...)
}

func dirEntries(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

type jsonDoc struct {
	FS struct {
		BlockSize int64  `json:"block_size"`
		Type      string `json:"type"`
		Magic     int64  `json:"magic"`
	} `json:"fs"`
	Config struct {
		Count       int64  `json:"count"`
		ElementType string `json:"element_type"`
		TotalBytes  int64  `json:"total_bytes"`
		Source      string `json:"source"`
		Sync        string `json:"sync"`
		Fsync       bool   `json:"fsync"`
		Repeat      int    `json:"repeat"`
	} `json:"config"`
	Results []struct {
		WriteSize  int64   `json:"write_size"`
		MiBPerSec  float64 `json:"mib_per_s"`
		Min        float64 `json:"min_mib_per_s"`
		Max        float64 `json:"max_mib_per_s"`
		WriteCalls int64   `json:"write_calls"`
		Samples    []struct {
			Seconds float64 `json:"seconds"`
			Bytes   int64   `json:"bytes"`
		} `json:"samples"`
	} `json:"results"`
	Knee struct {
		Found     bool    `json:"found"`
		WriteSize int64   `json:"write_size"`
		MiBPerSec float64 `json:"mib_per_s"`
		Plateau   float64 `json:"plateau_mib_per_s"`
		Fraction  float64 `json:"fraction"`
		Shape     string  `json:"shape"`
		Reason    string  `json:"reason"`
	} `json:"knee"`
	Warnings   []string `json:"warnings"`
	WarmupRan  bool     `json:"warmup_ran"`
	Incomplete bool     `json:"incomplete"`
	Error      string   `json:"error"`
	Tool       struct {
		Version string `json:"version"`
	} `json:"tool"`
	Command   []string `json:"command"`
	StartTime string   `json:"start_time"`
	Host      struct {
		Hostname string `json:"hostname"`
	} `json:"host"`
}

func decodeJSON(t *testing.T, s string) jsonDoc {
	t.Helper()
	var doc jsonDoc
	if err := json.Unmarshal([]byte(s), &doc); err != nil {
		t.Fatalf("stdout is not one JSON document: %v\n%s", err, s)
	}
	return doc
}

func TestSweepJSON(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runCLI(t, smallSweep(dir, "--format", "json", "--repeat", "1")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	doc := decodeJSON(t, out)
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	if doc.FS.BlockSize != int64(st.Bsize) || doc.FS.Magic != int64(st.Type) || doc.FS.Type == "" {
		t.Errorf("fs = %+v, want block_size %d magic %d", doc.FS, st.Bsize, st.Type)
	}
	if len(doc.Results) != 11 || doc.Results[0].WriteSize != 1024 || doc.Results[10].WriteSize != 1<<20 {
		t.Fatalf("got %d results, want 11 from 1024 to 1048576", len(doc.Results))
	}
	for _, r := range doc.Results {
		if r.MiBPerSec <= 0 || len(r.Samples) != 1 || r.Samples[0].Bytes != 4<<20 || r.WriteCalls != (4<<20)/r.WriteSize {
			t.Errorf("row %+v: want positive MiB/s, one 4 MiB sample, %d calls", r, (4<<20)/r.WriteSize)
		}
	}
	c := doc.Config
	if c.Count != 4<<20/8 || c.ElementType != "float64" || c.TotalBytes != 4<<20 || c.Source != "array" || c.Sync != "none" || c.Repeat != 1 {
		t.Errorf("config = %+v", c)
	}
	// A 4 MiB sweep is noisy: the knee may be missing, but never unexplained.
	k := doc.Knee
	if k.Shape == "" || k.Plateau <= 0 || k.Fraction != 0.95 || (k.Found != (k.WriteSize > 0)) || (!k.Found && k.Reason == "") {
		t.Errorf("knee = %+v, want a shape, plateau, fraction, and a size or a reason", k)
	}
	if !doc.WarmupRan || doc.Incomplete || doc.Tool.Version == "" || len(doc.Command) == 0 || doc.StartTime == "" || doc.Host.Hostname == "" {
		t.Errorf("meta: warmup %v incomplete %v tool %q command %v start %q host %q", doc.WarmupRan, doc.Incomplete, doc.Tool.Version, doc.Command, doc.StartTime, doc.Host.Hostname)
	}
	if left := dirEntries(t, dir); len(left) != 0 {
		t.Errorf("files left in --dir: %v", left)
	}
}

// --repeat auto runs every size in round 1, at least 3 rounds, fewer
// sizes after round 1 unless the curve gives no knee, and reports what
// it did with the knee's interval and status.
func TestSweepRepeatAutoJSON(t *testing.T) {
	testenv.Full(t, "an adaptive sweep of seconds")
	dir := t.TempDir()
	out, errOut, code := runCLI(t, smallSweep(dir, "--format", "json", "--repeat", "auto", "--time-budget", "20s")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Config struct {
			Repeat     int     `json:"repeat"`
			RepeatAuto bool    `json:"repeat_auto"`
			TimeBudget float64 `json:"time_budget_seconds"`
		} `json:"config"`
		Adaptive *struct {
			Rounds        int     `json:"rounds"`
			SizesPerRound []int   `json:"sizes_per_round"`
			BudgetSeconds float64 `json:"budget_seconds"`
			FromFlag      bool    `json:"budget_from_flag"`
			Stop          string  `json:"stop"`
		} `json:"adaptive"`
		Knee struct {
			Found       bool   `json:"found"`
			Established *bool  `json:"established"`
			Status      string `json:"status"`
			CILow       int64  `json:"ci_low_write_size"`
			CIHigh      int64  `json:"ci_high_write_size"`
			WriteSize   int64  `json:"write_size"`
		} `json:"knee"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	a := doc.Adaptive
	if a == nil || !doc.Config.RepeatAuto {
		t.Fatalf("no adaptive block or repeat_auto false: %s", out)
	}
	if a.Rounds < iobench.MinAutoRounds || len(a.SizesPerRound) != a.Rounds || a.SizesPerRound[0] != 11 || doc.Config.Repeat != a.Rounds {
		t.Errorf("adaptive = %+v, config.repeat %d: want >= %d rounds, round 1 of all 11 sizes", *a, doc.Config.Repeat, iobench.MinAutoRounds)
	}
	if a.BudgetSeconds != 20 || !a.FromFlag || a.Stop == "" {
		t.Errorf("adaptive = %+v: want the 20 s budget from the flag and a stop reason", *a)
	}
	k := doc.Knee
	if k.Established == nil || k.Status == "" || k.Found && (k.CILow > k.WriteSize || k.CIHigh < k.WriteSize) {
		t.Errorf("knee = %+v: want established, a status, and an interval around the knee", k)
	}
	if left := dirEntries(t, dir); len(left) != 0 {
		t.Errorf("files left in --dir: %v", left)
	}
}

func TestNoCommandRunsTheSweep(t *testing.T) {
	dir := t.TempDir()
	args := smallSweep(dir, "--format", "json")[1:]
	out, errOut, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if doc := decodeJSON(t, out); len(doc.Results) != 11 {
		t.Errorf("got %d results, want 11", len(doc.Results))
	}
}

func TestTextReport(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runCLI(t, smallSweep(dir, "--repeat", "1")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"f_bsize", "st_blksize", "mounted at", "1 KiB", "1048576", "MiB/s", "knee:", "% plateau"} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, " r1/1 ") {
		t.Errorf("stderr lacks the per-run lines:\n%s", errOut)
	}
	if n := strings.Count(errOut, "iobench: first run took "); n != 1 || !strings.Contains(errOut, "the 11 runs should take about ") {
		t.Errorf("want one time estimate after the first run, got %d:\n%s", n, errOut)
	}
}

func TestCSVHasARowPerRun(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runCLI(t, smallSweep(dir, "--format", "csv", "--repeat", "2", "--max", "4KiB")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 1+3*2 || !strings.HasPrefix(lines[0], "mode,write_size,round") {
		t.Errorf("CSV has %d lines, want header + 6 runs:\n%s", len(lines), out)
	}
}

func TestOutputFileIsWrittenAndNeverOverwritten(t *testing.T) {
	dir := t.TempDir()
	outFile := filepath.Join(t.TempDir(), "r.json")
	_, errOut, code := runCLI(t, smallSweep(dir, "--format", "json", "-o", outFile, "--max", "4KiB")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(outFile)
	if err != nil {
		t.Fatal(err)
	}
	decodeJSON(t, string(data))
	_, errOut, code = runCLI(t, smallSweep(dir, "--format", "json", "-o", outFile)...)
	if code != 2 || !strings.Contains(errOut, "already exists") {
		t.Errorf("second run: exit %d, stderr %q; want 2 and 'already exists'", code, errOut)
	}
	if again, _ := os.ReadFile(outFile); !bytes.Equal(again, data) {
		t.Error("the existing report was changed")
	}
}

func TestBadInputIsAUsageError(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	loops := t.TempDir()
	loop := filepath.Join(loops, "loop1")
	if os.Symlink(filepath.Join(loops, "loop2"), loop) != nil || os.Symlink(loop, filepath.Join(loops, "loop2")) != nil {
		t.Fatal("cannot make a symlink loop")
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--dir", dir, "--min", "3KiB"}, `--min: "3KiB" is not a power of two`},
		{[]string{"--dir", dir, "--min", "1MiB", "--max", "4KiB"}, `--min: "1MiB" is larger than --max "4KiB"`},
		{[]string{"--dir", dir, "--count", "0"}, `--count: 0 must be positive`},
		{[]string{"--dir", dir, "--count", "-5"}, `--count: -5 must be positive`},
		{[]string{"--dir", dir, "--count", "10", "--size", "1MiB"}, "--count and --size: give one, not both"},
		{[]string{"--dir", dir, "--size", "1MiB", "--max", "64MiB"}, "--max: write size 67108864 bytes is larger than the data (1048576 bytes)"},
		{[]string{"--dir", dir, "--size", "1MiB", "--sizes", "2MiB"}, "--sizes: write size 2097152 bytes is larger than the data (1048576 bytes)"},
		{[]string{"--dir", dir, "--min", "1", "--max", "2"}, "--min: write size 1 bytes is not a whole number of 8-byte float64 elements"},
		{[]string{"--dir", dir, "--count", "1e30"}, `--count: "1e30" is too large`},
		{[]string{"--dir", dir, "--sizes", "0"}, `--sizes: "0" must be positive`},
		{[]string{"--dir", dir, "--knee-fraction", "NaN"}, `--knee-fraction: NaN must be in (0, 1]`},
		{[]string{"--dir", dir, "--repeat", "1000000000"}, `--repeat: 1000000000 is more than 10000 rounds`},
		{[]string{"--dir", dir, "--stride", "2305843009213693952", "--size", "8KiB", "--sizes", "8KiB"}, `--stride: 2305843009213693952 is too large`},
		{[]string{"--dir", dir, "--verify", "--shared-file"}, `--verify: checks a file per rank`},
		{[]string{"--dir", dir, "--drop-caches"}, `--drop-caches: applies to read runs`},
		{[]string{"--dir", dir, "-o", filepath.Join(dir, "nodir", "r.json")}, `--output: directory`},
		{[]string{"--dir", dir, "--convert", "middle-endian"}, `--convert: `},
		{[]string{"--dir", dir, "--type", "int128"}, `--type: `},
		{[]string{"--dir", dir, "--format", "xml"}, `--format: unknown format "xml"`},
		{[]string{"--dir", dir, "--source", "disk"}, `--source: unknown value "disk"`},
		{[]string{"--dir", filepath.Join(dir, "nope")}, `does not exist`},
		{[]string{"--dir", file}, `is not a directory`},
		{[]string{"--dir", dir, "--sizes", "4KiB,banana"}, `--sizes: "banana" is not a byte size`},
		{[]string{"--dir", dir, "--repeat", "x"}, `--repeat: "x" is not a number of rounds or auto`},
		{[]string{"--dir", dir, "--repeat", "autox"}, `--repeat: "autox" is not a number of rounds or auto`},
		{[]string{"--dir", dir, "--count", "1_000"}, `--count: "1_000" is not a whole number like 250000000 or 2.5e8`},
		{[]string{"--dir", dir, "--count", "0x1p10"}, `--count: "0x1p10" is not a whole number like 250000000 or 2.5e8`},
		{[]string{"--dir", dir, "--profile", ""}, `--profile: "" is empty (valid: auto, ext4`},
		{[]string{"--dir", dir, "--size", "1MiB", "--size=2MiB"}, `--size: given twice ("1MiB", then "2MiB"); give it once`},
		{[]string{"--dir", dir, "--fsync", "--fsync=false"}, `--fsync: given twice ("true", then "false"); give it once`},
		{[]string{"--dir", dir, "--repeat", "0"}, `--repeat: 0 must be at least 1 (or --repeat auto)`},
		{[]string{"--dir", dir, "--repeat", "-3"}, `--repeat: -3 must be at least 1 (or --repeat auto)`},
		{[]string{"--dir", dir, "--time-budget", "-1s"}, `--time-budget: -1s must be positive`},
		{[]string{"--dir", dir, "--time-budget", "0s"}, `--time-budget: 0s must be positive`},
		{[]string{"--dir", dir, "--time-budget", "10"}, `--time-budget: "10" is not a duration`},
		{[]string{"--dir", dir, "--repeat", "3", "--time-budget", "1m"}, `--time-budget: 1m0s needs --repeat auto`},
		{[]string{"--dir", dir, "--bogus"}, `bogus`},
		{[]string{"--dir", strings.Repeat("a", 300)}, `the path, or a name in it, is longer than the file system allows (ENAMETOOLONG)`},
		{[]string{"--dir", loop}, `leads into a loop of symbolic links (ELOOP)`},
		{[]string{"--dir", dir, "stray"}, `unexpected argument "stray"`},
		{[]string{"--dir", dir, "--stride", "abc"}, `--stride: "abc" is not a whole number`},
		{[]string{"--dir", dir, "--seed", "-1"}, `--seed: "-1" is not a whole number of 0 or more`},
		{[]string{"--dir", dir, "--warmup=perhaps"}, `--warmup: "perhaps" is not true or false`},
	} {
		_, errOut, code := runCLI(t, tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line containing %q", tc.args, code, errOut, tc.want)
		}
	}
	if left := dirEntries(t, dir); len(left) != 1 {
		t.Errorf("bad input touched --dir: %v", left)
	}
}

// Without --dir a sweep or a runtime check would write gigabytes into
// whatever directory the shell is in (on a cluster, a home with a quota).
func TestNoDirIsRefusedWithoutWriting(t *testing.T) {
	here := t.TempDir()
	t.Chdir(here)
	for _, args := range [][]string{{"sweep", "--size", "4MiB"}, {"--size", "4MiB"}, {"runtime", "stdio", "--size", "4MiB"}} {
		_, errOut, code := runCLI(t, args...)
		if code != 2 || !strings.Contains(errOut, "--dir: not given") || !strings.Contains(errOut, "--dir .") ||
			strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line naming --dir and --dir .", args, code, errOut)
		}
	}
	if _, errOut, code := runCLI(t, "sweep", "--dry-run", "--size", "4MiB"); code != 0 {
		t.Errorf("--dry-run without --dir: exit %d: %s", code, errOut)
	}
	if left := dirEntries(t, here); len(left) != 0 {
		t.Errorf("a refused run wrote %v into the current directory", left)
	}
}

func TestInfoWritesNothing(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runCLI(t, "info", "--dir", dir, "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	doc := decodeJSON(t, out)
	if doc.FS.BlockSize <= 0 {
		t.Errorf("info JSON block_size = %d", doc.FS.BlockSize)
	}
	if len(doc.Command) == 0 || doc.Command[1] != "info" || strings.HasPrefix(doc.StartTime, "0001-") {
		t.Errorf("info JSON command %q, start_time %q: want the command line and the time it ran", doc.Command, doc.StartTime)
	}
	if left := dirEntries(t, dir); len(left) != 0 {
		t.Errorf("info wrote %v", left)
	}
}

func TestFlagsAfterFileNames(t *testing.T) {
	commands := newApp(testEnv(io.Discard, io.Discard)).Commands
	for _, tc := range []struct{ in, want []string }{
		{[]string{"iobench", "analyze", "a.csv", "--knee-fraction", "0.9"}, []string{"iobench", "analyze", "--knee-fraction", "0.9", "--", "a.csv"}},
		{[]string{"iobench", "plot", "a.json", "--format", "png", "-o", "-"}, []string{"iobench", "plot", "--format", "png", "-o", "-", "--", "a.json"}},
		{[]string{"iobench", "plot", "a.json", "-o", "c.svg"}, []string{"iobench", "plot", "-o", "c.svg", "--", "a.json"}},
		{[]string{"iobench", "analyze", "-", "--format=json"}, []string{"iobench", "analyze", "--format=json", "--", "-"}},
		{[]string{"iobench", "compare", "a.json", "--", "-b.json"}, []string{"iobench", "compare", "--", "a.json", "-b.json"}},
		{[]string{"iobench", "sweep", "--dir", "x"}, []string{"iobench", "sweep", "--dir", "x"}},
	} {
		if diff := cmp.Diff(tc.want, flagsFirst(tc.in, commands)); diff != "" {
			t.Errorf("flagsFirst(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

func TestPlotCompareAndAnalyzeSavedReports(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(t.TempDir(), "a.json")
	if _, errOut, code := runCLI(t, smallSweep(dir, "--format", "json", "-o", saved)...); code != 0 {
		t.Fatalf("sweep: %s", errOut)
	}
	svg := filepath.Join(filepath.Dir(saved), "c.svg")
	if _, errOut, code := runCLI(t, "plot", saved, saved, "-o", svg); code != 0 {
		t.Fatalf("plot: exit %d %s", code, errOut)
	}
	if data, err := os.ReadFile(svg); err != nil || !bytes.Contains(data, []byte("<svg")) {
		t.Errorf("plot wrote no SVG (%v)", err)
	}
	out, errOut, code := runCLI(t, "compare", saved, saved)
	if code != 0 || !strings.Contains(out, "1.00x") {
		t.Errorf("compare: exit %d %s\n%s", code, errOut, out)
	}
	out, errOut, code = runCLI(t, "analyze", saved, "--format", "json")
	if code != 0 {
		t.Fatalf("analyze: exit %d %s", code, errOut)
	}
	if doc := decodeJSON(t, out); len(doc.Results) != 11 || doc.Knee.Shape == "" {
		t.Errorf("analyze JSON: %d results, knee %+v", len(doc.Results), doc.Knee)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte("{\n  \"tool\": {\n  oops\n}"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"analyze", "compare"} {
		_, errOut, code = runCLI(t, cmd, bad)
		if code != 1 || !strings.Contains(errOut, "bad.json") || !strings.Contains(errOut, "3") {
			t.Errorf("%s on a malformed file: exit %d, %q; want 1 naming the file and line", cmd, code, errOut)
		}
	}
}

// TestSizeSuffixesAreBinary: --sizes 4K,64K,1M measures 4096-, 65536- and
// 1048576-byte writes, as dd, fio and IOR read them, and --min/--max take
// the same spelling.
func TestSizeSuffixesAreBinary(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want []int64
	}{
		{[]string{"--sizes", "4K,64k,1M"}, []int64{4096, 65536, 1 << 20}},
		{[]string{"--min", "256K", "--max", "1m"}, []int64{262144, 524288, 1 << 20}},
	} {
		full := append([]string{"sweep", "--dir", dir, "--size", "4M", "--sync", "none", "--no-progress", "--format", "json"}, tc.args...)
		out, errOut, code := runCLI(t, full...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, errOut)
		}
		doc := decodeJSON(t, out)
		var got []int64
		for _, r := range doc.Results {
			got = append(got, r.WriteSize)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" || doc.Config.TotalBytes != 4<<20 {
			t.Errorf("%v: write sizes (-want +got):\n%s; total_bytes %d", tc.args, diff, doc.Config.TotalBytes)
		}
	}
}

func TestDecimalSizeUnitsAreRefused(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--sizes", "4KB"}, `--sizes: "4KB" uses a decimal unit; write 4KiB (4096 bytes) or 4000`},
		{[]string{"--min", "1MB"}, `--min: "1MB" uses a decimal unit; write 1MiB (1048576 bytes) or 1000000`},
		{[]string{"--size", "2GB"}, `--size: "2GB" uses a decimal unit; write 2GiB (2147483648 bytes) or 2000000000`},
		{[]string{"--max", "64mb"}, `--max: "64mb" uses a decimal unit`},
		{[]string{"--sizes", "4K,0x10"}, `--sizes: "0x10" is not a byte size`},
	} {
		_, errOut, code := runCLI(t, append([]string{"sweep", "--dir", dir}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line containing %q", tc.args, code, errOut, tc.want)
		}
	}
}

// plot and compare read through analyze's validated reader: a row it
// rejects fails them too, naming the file and line.
func TestPlotAndCompareRejectWhatAnalyzeRejects(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	csv := "mode,write_size,round,seconds,bytes\nwrite,4096,1,0.5,1048576\nwrite,-4096,1,0.5,1048576\n"
	if err := os.WriteFile(bad, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "bad.csv:3: write_size"
	for _, args := range [][]string{
		{"analyze", bad},
		{"compare", bad, bad},
		{"plot", "-o", filepath.Join(dir, "p.svg"), bad},
	} {
		_, errOut, code := runCLI(t, args...)
		if code != 1 || !strings.Contains(errOut, want) {
			t.Errorf("%v: exit %d, stderr %q; want 1 and %q", args, code, errOut, want)
		}
	}
}

// help, --version, shell completion and the man page, from urfave/cli's
// own generators.
func TestHelpVersionCompletionMan(t *testing.T) {
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"help", "sweep"}, []string{"iobench sweep", "--dir", "--time-budget"}},
		{[]string{"--version"}, []string{"iobench " + version, "revision: ", "go: " + runtime.Version()}},
		{[]string{"completion", "bash"}, []string{"PROG=iobench", "--generate-bash-completion", "complete -o bashdefault"}},
		{[]string{"completion", "zsh"}, []string{"#compdef iobench", "compdef _cli_zsh_autocomplete iobench"}},
		{[]string{"completion", "fish"}, []string{"complete -c iobench", "sweep"}},
		{[]string{"man"}, []string{".TH iobench 1", "sweep"}},
	}
	for _, tt := range tests {
		out, errOut, code := runCLI(t, tt.args...)
		if code != 0 {
			t.Errorf("%v: exit %d: %s", tt.args, code, errOut)
		}
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: output lacks %q:\n%.400s", tt.args, w, out)
			}
		}
	}
	// The scripts ask the binary itself for candidates.
	if r := runBinary(t, "--generate-bash-completion"); !strings.Contains(r.stdout, "completion\n") || !strings.Contains(r.stdout, "sweep\n") {
		t.Errorf("--generate-bash-completion lists %q; want the commands", r.stdout)
	}
	if _, errOut, code := runCLI(t, "completion", "tcsh"); code != 2 || !strings.Contains(errOut, `unknown shell "tcsh"`) {
		t.Errorf("completion tcsh: exit %d, %q; want 2 and the valid shells", code, errOut)
	}
}

// --dry-run prints the plan and writes nothing; with --seed its round 1
// is the order the real sweep then runs.
func TestDryRunPrintsThePlanTheSweepRuns(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runCLI(t, smallSweep(dir, "--dry-run", "--repeat", "2", "--seed", "7")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"dry run: nothing is written", "plan: 11 write sizes (1 KiB to 1 MiB) x 4.0 MiB per run (4194304 bytes), 2 rounds: 22 runs, 88 MiB written to"} {
		if !strings.Contains(out, want) {
			t.Errorf("dry run lacks %q:\n%s", want, out)
		}
	}
	if left := dirEntries(t, dir); len(left) != 0 {
		t.Errorf("a dry run wrote %v", left)
	}
	var planned string
	for _, line := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(line, "round 1:  "); ok {
			planned = rest
		}
	}
	jsonOut, errOut, code := runCLI(t, smallSweep(dir, "--format", "json", "--repeat", "2", "--seed", "7")...)
	if code != 0 {
		t.Fatalf("sweep: exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "iobench: plan: 11 write sizes") {
		t.Errorf("no plan line before the first run:\n%s", errOut)
	}
	var doc struct {
		Results []struct {
			Samples []struct {
				WriteSize int64 `json:"write_size"`
				Round     int   `json:"round"`
				Seq       int   `json:"seq"`
			} `json:"samples"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(jsonOut), &doc); err != nil {
		t.Fatal(err)
	}
	ran := make([]string, 11)
	for _, r := range doc.Results {
		for _, s := range r.Samples {
			if s.Round == 1 {
				ran[s.Seq-1] = "write " + units.FormatSize(s.WriteSize)
			}
		}
	}
	if got := strings.Join(ran, ", "); got != planned {
		t.Errorf("round 1 ran\n  %s\nthe dry run planned\n  %s", got, planned)
	}
}

// analyze, plot and compare take --format and -o alike; -o never
// overwrites, and their help says - reads stdin.
func TestSavedResultCommandsTakeFormatAndOutputAlike(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "a.json")
	if _, errOut, code := runCLI(t, smallSweep(t.TempDir(), "--format", "json", "-o", saved)...); code != 0 {
		t.Fatalf("sweep: %s", errOut)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"analyze", saved, "--format", "markdown", "-o", filepath.Join(dir, "a.md")}, "| size"},
		{[]string{"compare", saved, saved, "--format", "markdown", "-o", filepath.Join(dir, "c.md")}, "| B/A |"},
		{[]string{"compare", saved, saved, "-o", filepath.Join(dir, "c.txt")}, "1.00x"},
		{[]string{"plot", saved, "--format", "svg", "-o", filepath.Join(dir, "p.out")}, "<svg"},
	} {
		out := c.args[len(c.args)-1]
		if stdout, errOut, code := runCLI(t, c.args...); code != 0 || stdout != "" {
			t.Fatalf("%v: exit %d, stdout %q, %s", c.args, code, stdout, errOut)
		}
		if b, err := os.ReadFile(out); err != nil || !strings.Contains(string(b), c.want) {
			t.Errorf("%v: %s lacks %q (%v)", c.args, out, c.want, err)
		}
		if _, errOut, code := runCLI(t, c.args...); code != 2 || !strings.Contains(errOut, "--output") {
			t.Errorf("%v again: exit %d %q, want a refusal to overwrite", c.args, code, errOut)
		}
	}
	if out, _, code := runCLI(t, "plot", saved, "--format", "png", "-o", "-"); code != 0 || !strings.HasPrefix(out, "\x89PNG") {
		t.Errorf("plot -o - --format png: exit %d, %d bytes", code, len(out))
	}
	for args, want := range map[[2]string]string{
		{"gif", filepath.Join(dir, "x.svg")}: `--format: unknown plot format "gif" (valid: svg, png)`,
		{"", "-"}:                            "--format: give svg or png to write the plot to stdout (-o -)",
	} {
		cmd := []string{"plot", saved, "-o", args[1]}
		if args[0] != "" {
			cmd = append(cmd, "--format", args[0])
		}
		if _, errOut, code := runCLI(t, cmd...); code != 2 || !strings.Contains(errOut, want) {
			t.Errorf("%v: exit %d %q, want %q", cmd, code, errOut, want)
		}
	}
	if _, errOut, code := runCLI(t, "compare", saved, "--format", "json"); code != 2 || !strings.Contains(errOut, `--format: unknown format "json" for compare`) {
		t.Errorf("compare --format json: exit %d %q", code, errOut)
	}
	for _, cmd := range []string{"analyze", "plot", "compare"} {
		if out, _, _ := runCLI(t, "help", cmd); !strings.Contains(out, "(- reads stdin)") || !strings.Contains(out, "--output value, -o value") || !strings.Contains(out, "--format") {
			t.Errorf("help %s:\n%s", cmd, out)
		}
	}
}

// The sweep's help groups its flags and shows examples; no default is
// shown twice.
func TestSweepHelpIsGroupedWithExamples(t *testing.T) {
	out, _, code := runCLI(t, "help", "sweep")
	for _, want := range []string{"   data\n", "   sizes\n", "   timing\n", "   conversion\n", "   output\n", "   under MPI\n", "iobench sweep --dir /gpfs/x --dry-run"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("help sweep lacks %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Count(line, "(default:") > 1 {
			t.Errorf("a default shown twice: %s", line)
		}
	}
	for _, cmd := range []string{"analyze", "plot", "compare"} {
		if out, _, _ := runCLI(t, "help", cmd); !strings.Contains(out, "DESCRIPTION:\n   iobench "+cmd) {
			t.Errorf("help %s has no examples:\n%s", cmd, out)
		}
	}
}

// A colleague's paste of the reference program (prompt, blank lines, no
// header) is one command away from a chart and a table.
func TestPlotAndCompareTakeAPaste(t *testing.T) {
	dir := t.TempDir()
	paste := filepath.Join(dir, "paste.txt")
	if err := os.WriteFile(paste, []byte("$ ./a.out\n\nbs =       1024, 100.00 MiB/s\nbs =       2048, 180.00 MiB/s\nbs =       4096, 300.00 MiB/s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runCLI(t, "plot", paste, "-o", filepath.Join(dir, "p.svg")); code != 0 {
		t.Errorf("plot: exit %d %s", code, errOut)
	}
	if out, errOut, code := runCLI(t, "compare", paste, paste); code != 0 || !strings.Contains(out, "1.00x") {
		t.Errorf("compare: exit %d %s\n%s", code, errOut, out)
	}
}

// With fewer than 3 sizes there is no plateau: the column says "-", not 0%.
func TestTwoSizesShowNoPlateauShare(t *testing.T) {
	out, errOut, code := runCLI(t, "sweep", "--dir", t.TempDir(), "--size", "4MiB", "--sizes", "16KiB,32KiB", "--repeat", "1", "--sync", "none", "--no-progress")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	rows := 0
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 2 && f[1] == "KiB" && (f[0] == "16" && f[2] == "16384" || f[0] == "32" && f[2] == "32768") {
			rows++
			if f[len(f)-1] != "-" || strings.Contains(l, "0%") {
				t.Errorf("row %q: want a - share and no bar", l)
			}
		}
	}
	if rows != 2 {
		t.Errorf("found %d table rows, want 2:\n%s", rows, out)
	}
}

// applyRows decodes recommendation.apply[] with exactly its fields.
func applyRows(t *testing.T, out string) (basis string, rows []map[string]any) {
	t.Helper()
	var doc struct {
		Recommendation struct {
			Basis string           `json:"basis"`
			Apply []map[string]any `json:"apply"`
		} `json:"recommendation"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("stdout is not one JSON document: %v\n%s", err, out)
	}
	return doc.Recommendation.Basis, doc.Recommendation.Apply
}

// TestForChoosesTheRuntimes: recommendation.apply[] has a row per
// setting with runtime, setting, value, measured and note; --for keeps
// the runtimes named, in analyze and sweep alike; an unknown name is a
// usage error that names --for.
func TestForChoosesTheRuntimes(t *testing.T) {
	saved := filepath.Join(moduleRoot, "analyze", "testdata", "pr91030-small.json")
	runtimes := func(rows []map[string]any) []string {
		var out []string
		for _, r := range rows {
			if rt, _ := r["runtime"].(string); !slices.Contains(out, rt) {
				out = append(out, rt)
			}
		}
		return out
	}
	out, errOut, code := runCLI(t, "analyze", saved, "--format", "json")
	if code != 0 {
		t.Fatalf("analyze: exit %d %s", code, errOut)
	}
	basis, rows := applyRows(t, out)
	if basis != "knee" || len(rows) == 0 {
		t.Fatalf("analyze %s: basis %q, %d apply rows; want a knee and rows", saved, basis, len(rows))
	}
	for _, r := range rows {
		keys := slices.Sorted(maps.Keys(r))
		if diff := cmp.Diff([]string{"measured", "note", "runtime", "setting", "value"}, keys); diff != "" {
			t.Errorf("apply row fields (-want +got):\n%s", diff)
		}
		if r["measured"] != false || !strings.Contains(r["note"].(string), "Not measured through") {
			t.Errorf("a sweep measures write(2) only, but %v %v says measured=%v: %q", r["runtime"], r["setting"], r["measured"], r["note"])
		}
	}
	want := []string{"libgfortran", "intel-fortran", "stdio", "romio", "ompio", "hdf5", "pnetcdf"}
	if diff := cmp.Diff(want, runtimes(rows)); diff != "" {
		t.Errorf("analyze apply runtimes (-want +got):\n%s", diff)
	}
	out, errOut, code = runCLI(t, "analyze", saved, "--format", "json", "--for", "hdf5,gfortran")
	if code != 0 {
		t.Fatalf("analyze --for: exit %d %s", code, errOut)
	}
	if _, rows := applyRows(t, out); !slices.Equal(runtimes(rows), []string{"libgfortran", "hdf5"}) {
		t.Errorf("analyze --for hdf5,gfortran: runtimes %v", runtimes(rows))
	}
	out, _, _ = runCLI(t, "analyze", saved, "--for", "gpfs")
	if !strings.Contains(out, "how to apply it: nothing for gpfs on this file system") || strings.Contains(out, "export FORT_") {
		t.Errorf("analyze --for gpfs on ext4 text:\n%s", out)
	}

	dir := t.TempDir()
	out, errOut, code = runCLI(t, smallSweep(dir, "--format", "json", "--repeat", "1", "--for", "stdio")...)
	if code != 0 {
		t.Fatalf("sweep --for stdio: exit %d %s", code, errOut)
	}
	if basis, rows := applyRows(t, out); basis == "knee" && !slices.Equal(runtimes(rows), []string{"stdio"}) ||
		basis != "knee" && len(rows) != 0 {
		t.Errorf("sweep --for stdio: basis %q, runtimes %v", basis, runtimes(rows))
	}

	const valid = `(valid: libgfortran, intel-fortran, stdio, romio, ompio, hdf5, pnetcdf, lustre, gpfs)`
	for _, args := range [][]string{
		smallSweep(dir, "--for", "x"),
		smallSweep(dir, "--for", "hdf5,x", "--dry-run"),
		{"analyze", saved, "--for", "x"},
	} {
		_, errOut, code := runCLI(t, args...)
		if want := `iobench: --for: unknown runtime "x" ` + valid + "\n"; code != 2 || errOut != want {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", args, code, errOut, want)
		}
	}
	if left := dirEntries(t, dir); len(left) != 0 {
		t.Errorf("sweeps left files in --dir: %v", left)
	}
}
