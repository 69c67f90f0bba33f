package cli

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
)

// readSweepDoc is the part of a JSON report the read-path tests check.
type readSweepDoc struct {
	Config struct {
		TotalBytes int64  `json:"total_bytes"`
		Sync       string `json:"sync"`
		Mode       string `json:"mode"`
		Direct     bool   `json:"direct"`
		CacheDrop  string `json:"cache_drop"`
	} `json:"config"`
	Results []struct {
		Mode      string  `json:"mode"`
		WriteSize int64   `json:"write_size"`
		MiBPerSec float64 `json:"mib_per_s"`
		Samples   []struct {
			Bytes int64 `json:"bytes"`
		} `json:"samples"`
	} `json:"results"`
}

// The built binary's read paths with the default --sync (syncfs): every
// run moves the whole data set at a reported throughput, the report says
// how it read, and no data file is left.
func TestBinaryReadPaths(t *testing.T) {
	for _, c := range []struct {
		name  string
		extra []string
		root  bool     // --drop-caches needs root
		modes []string // the rows of each size, in order
	}{
		{"write and read", []string{"--mode", "both"}, false, []string{"write", "read"}},
		{"read with O_DIRECT", []string{"--mode", "read", "--direct"}, false, []string{"read"}},
		{"read after drop_caches", []string{"--mode", "read", "--drop-caches"}, true, []string{"read"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.root && os.Geteuid() != 0 {
				t.Skip("needs root to write /proc/sys/vm/drop_caches")
			}
			dir := t.TempDir()
			r := runBinary(t, append([]string{"sweep", "--dir", dir, "--size", "4MiB", "--sizes", "64KiB,1MiB",
				"--repeat", "1", "--profile", "generic", "--no-progress", "--format", "json"}, c.extra...)...)
			if r.code != 0 && slices.Contains(c.extra, "--direct") && strings.Contains(r.stderr, "O_DIRECT") {
				t.Skipf("this file system refuses O_DIRECT: %s", r.stderr)
			}
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			var doc readSweepDoc
			if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
				t.Fatalf("stdout is not one JSON report: %v\n%s", err, r.stdout)
			}
			wantDrop := map[bool]string{false: "fadvise", true: "drop_caches"}[slices.Contains(c.extra, "--drop-caches")]
			if cfg := doc.Config; cfg.Sync != "syncfs" || cfg.Mode != c.extra[1] || cfg.Direct != slices.Contains(c.extra, "--direct") || cfg.CacheDrop != wantDrop {
				t.Errorf("config %+v, want sync syncfs, mode %s, cache drop %s", cfg, c.extra[1], wantDrop)
			}
			checkReadRows(t, doc, c.modes, []int64{64 << 10, 1 << 20})
			if left := dirEntries(t, dir); len(left) != 0 {
				t.Errorf("files left: %v", left)
			}
		})
	}
}

// checkReadRows wants a row per mode and size (the writes first), each
// with one run that moved the whole data set at a measured speed.
func checkReadRows(t *testing.T, doc readSweepDoc, modes []string, sizes []int64) {
	t.Helper()
	if len(doc.Results) != len(modes)*len(sizes) {
		t.Fatalf("%d result rows, want %d (%v x %v)", len(doc.Results), len(modes)*len(sizes), modes, sizes)
	}
	for i, row := range doc.Results {
		mode, size := modes[i/len(sizes)], sizes[i%len(sizes)]
		if row.Mode != mode || row.WriteSize != size || row.MiBPerSec <= 0 || len(row.Samples) != 1 || row.Samples[0].Bytes != doc.Config.TotalBytes {
			t.Errorf("row %d: %+v, want %s at %d bytes, one run of %d bytes and its MiB/s", i, row, mode, size, doc.Config.TotalBytes)
		}
	}
}
