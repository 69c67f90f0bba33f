package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/iobench/iobench/internal/testkit/testenv"
)

// variantsDoc is what the JSON report adds for variants and jobs.
type variantsDoc struct {
	Config struct {
		Jobs     int `json:"jobs"`
		Variants []struct {
			Name    string `json:"name"`
			Convert string `json:"convert"`
		} `json:"variants"`
	} `json:"config"`
	Results []struct {
		Variant   string `json:"variant"`
		WriteSize int64  `json:"write_size"`
		Samples   []struct {
			Variant string `json:"variant"`
			Bytes   int64  `json:"bytes"`
		} `json:"samples"`
	} `json:"results"`
	Variants []struct {
		Name string `json:"name"`
		Knee struct {
			Found bool `json:"found"`
		} `json:"knee"`
	} `json:"variants"`
	Ratios []struct {
		Variant   string  `json:"variant"`
		WriteSize int64   `json:"write_size"`
		Ratio     float64 `json:"ratio"`
		CILow     float64 `json:"ci_low"`
		CIHigh    float64 `json:"ci_high"`
	} `json:"ratios"`
	Jobs *struct {
		Jobs       int  `json:"jobs"`
		SharedFile bool `json:"shared_file"`
		PerJob     []struct {
			SlowestJob int `json:"slowest_job"`
		} `json:"per_job"`
	} `json:"jobs"`
	Knee struct {
		WriteSize int64 `json:"write_size"`
	} `json:"knee"`
}

func TestConvertVariantsInOneSweepJSON(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runCLI(t, smallSweep(dir, "--format", "json", "--repeat", "2", "--min", "64KiB", "--convert", "native,big-endian")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc variantsDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Config.Variants) != 2 || doc.Config.Variants[1].Name != "convert=big-endian" || doc.Config.Variants[1].Convert != "big-endian" {
		t.Errorf("config.variants = %+v", doc.Config.Variants)
	}
	if len(doc.Variants) != 2 || doc.Variants[0].Name != "convert=native" {
		t.Errorf("variants = %+v", doc.Variants)
	}
	if len(doc.Results) != 2*5 {
		t.Fatalf("%d result rows, want 10 (2 variants x 5 sizes)", len(doc.Results))
	}
	for _, row := range doc.Results {
		if row.Variant == "" || len(row.Samples) != 2 {
			t.Errorf("row %+v: want a variant and 2 samples", row)
		}
		for _, s := range row.Samples {
			if s.Variant != row.Variant || s.Bytes != 4<<20 {
				t.Errorf("sample %+v in the %s row", s, row.Variant)
			}
		}
	}
	if len(doc.Ratios) != 5 {
		t.Fatalf("%d ratios, want 5", len(doc.Ratios))
	}
	for _, r := range doc.Ratios {
		if r.Variant != "convert=big-endian" || !(r.CILow <= r.Ratio && r.Ratio <= r.CIHigh) || r.Ratio <= 0 {
			t.Errorf("ratio %+v", r)
		}
	}
	if !strings.Contains(errOut, "x 2 variants interleaved (v1 convert=native, v2 convert=big-endian)") || !strings.Contains(errOut, " v2 ") {
		t.Errorf("stderr does not show the variants:\n%s", errOut)
	}
	if left := dirEntries(t, dir); len(left) != 0 {
		t.Errorf("files left: %v", left)
	}
	// The saved report reads back, plots a curve per variant, compares.
	saved := filepath.Join(t.TempDir(), "v.json")
	if err := os.WriteFile(saved, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	text, errOut, code := runCLI(t, "analyze", saved)
	if code != 0 || !strings.Contains(text, "\nwrite, convert=big-endian\n") || !strings.Contains(text, "each variant over convert=native") {
		t.Errorf("analyze: exit %d, %s\n%s", code, errOut, text)
	}
	svg := filepath.Join(t.TempDir(), "v.svg")
	if _, errOut, code := runCLI(t, "plot", saved, "-o", svg); code != 0 {
		t.Fatalf("plot: exit %d: %s", code, errOut)
	}
	if b, _ := os.ReadFile(svg); !strings.Contains(string(b), "convert=big-endian") || !strings.Contains(string(b), "convert=native") {
		t.Error("the plot's legend does not name both variants")
	}
	cmp, _, code := runCLI(t, "compare", saved)
	if code != 0 || !strings.Contains(cmp, "B/A") {
		t.Errorf("compare of one variants report: exit %d\n%s", code, cmp)
	}
}

func TestVariantAndJobsUsageErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--convert", "native,bogus"}, `--convert: `},
		{[]string{"--convert", "native,native"}, `--convert: "native" is listed twice`},
		{[]string{"--type", "float64,int32,float64"}, `--type: "float64" is listed twice`},
		{[]string{"--direct=false,maybe"}, `"maybe" is not true, false`},
		{[]string{"--direct=false,true"}, "--direct: write size 1024 bytes is not a multiple of 4096"},
		{[]string{"--type", "float64,complex128", "--size", "4104", "--max", "2KiB"}, "--type: the data (4104 bytes per run) is not a whole number of 16-byte complex128 elements"},
		{[]string{"--jobs", "0"}, "--jobs: 0 must be between 1 and 1024"},
		{[]string{"--jobs", "2", "--keep"}, "--keep: keeps one data file; it is not available with --jobs above 1"},
		{[]string{"--jobs", "2", "--total"}, "--total: splits --count/--size across MPI ranks"},
	} {
		_, errOut, code := runCLI(t, smallSweep(dir, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q; want 2 and one line with %q", tc.args, code, errOut, tc.want)
		}
	}
}

func TestDirectAsABooleanStillWorks(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := runCLI(t, smallSweep(dir, "--direct", "--min", "4KiB", "--dry-run")...)
	if code != 0 || !strings.Contains(out, "dry run") {
		t.Fatalf("--direct alone: exit %d: %s", code, errOut)
	}
	out, errOut, code = runCLI(t, smallSweep(dir, "--direct=both", "--min", "4KiB", "--dry-run")...)
	if code != 0 || !strings.Contains(out, "v2 direct=true") {
		t.Errorf("--direct=both: exit %d: %s\n%s", code, errOut, out)
	}
}

func TestJobsRunLeavesNoFiles(t *testing.T) {
	for _, shared := range []bool{false, true} {
		dir := t.TempDir()
		args := []string{"--format", "json", "--repeat", "2", "--min", "64KiB", "--jobs", "2"}
		if shared {
			args = append(args, "--shared-file")
		}
		out, errOut, code := runCLI(t, smallSweep(dir, args...)...)
		if code != 0 {
			t.Fatalf("shared %v: exit %d: %s", shared, code, errOut)
		}
		var doc variantsDoc
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		if doc.Config.Jobs != 2 || doc.Jobs == nil || doc.Jobs.Jobs != 2 || doc.Jobs.SharedFile != shared || len(doc.Jobs.PerJob) != 10 {
			t.Errorf("shared %v: config.jobs %d, jobs %+v", shared, doc.Config.Jobs, doc.Jobs)
		}
		for _, row := range doc.Results {
			for _, s := range row.Samples {
				if s.Bytes != 2*4<<20 {
					t.Errorf("shared %v: an aggregate of %d bytes, want both jobs' 8 MiB", shared, s.Bytes)
				}
			}
		}
		if left := dirEntries(t, dir); len(left) != 0 {
			t.Errorf("shared %v: files left: %v", shared, left)
		}
	}
}

// TestInterruptedJobsLeaveNoFiles: Ctrl-C during a --jobs sweep stops
// every job, reports what was measured and removes every job's file.
func TestInterruptedJobsLeaveNoFiles(t *testing.T) {
	testenv.Full(t, "signals to the built binary")
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		dir := t.TempDir()
		prefill(t, dir)
		before := snapshot(t, dir)
		r := startSweep(t, dir, 200, 2, "--jobs", "3", "--format", "json")
		if err := r.cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		if sig == syscall.SIGTERM { // a second signal: exit at once, files removed
			_ = r.cmd.Process.Signal(syscall.SIGINT)
		}
		if code := r.wait(t); code != 130 {
			t.Errorf("%v: exit code %d, want 130", sig, code)
		}
		if sig == syscall.SIGINT {
			doc := decodeJSON(t, r.out.String())
			if !doc.Incomplete || !strings.Contains(doc.Error, "interrupted") {
				t.Errorf("partial report: incomplete %v, error %q", doc.Incomplete, doc.Error)
			}
		}
		assertUntouched(t, dir, before)
	}
}

// Read runs of a later variant must not change the data the variants
// share: with --verify every write checks what it wrote (it failed when
// a big-endian read unpacked the native file into the shared array).
func TestVariantReadsLeaveTheSourceAlone(t *testing.T) {
	for _, v := range [][]string{{"--convert", "native,big-endian"}, {"--type", "int32,float64"}} {
		dir := t.TempDir()
		args := append(smallSweep(dir, "--mode", "both", "--verify", "--repeat", "2", "--min", "64KiB"), v...)
		if _, errOut, code := runCLI(t, args...); code != 0 {
			t.Errorf("%v: exit %d: %s", v, code, errOut)
		}
		if left := dirEntries(t, dir); len(left) != 0 {
			t.Errorf("%v: files left: %v", v, left)
		}
	}
}
