package iobench

import (
	"strings"
	"testing"

	"github.com/iobench/iobench/fsinfo"
)

func TestPreflight(t *testing.T) {
	dir := t.TempDir()
	roomy := fsinfo.Info{ResolvedDir: dir, AvailBytes: 1 << 40, TotalBytes: 1 << 41, Type: "ext4"}
	c := DefaultConfig() // 2 GB array
	c.Dir = dir
	for _, tc := range []struct {
		name   string
		mutate func(*Config, *fsinfo.Info, *uint64)
		want   string // "" for no error
	}{
		{"fits", func(*Config, *fsinfo.Info, *uint64) {}, ""},
		{"array larger than memory", func(_ *Config, _ *fsinfo.Info, mem *uint64) { *mem = 1 << 30 },
			"Source: the array source needs 1.9 GiB of memory but only 1.0 GiB is available; use Source window (about 128 MiB)"},
		{"window fits", func(c *Config, _ *fsinfo.Info, mem *uint64) { c.Source, *mem = SourceWindow, 1<<30 }, ""},
		{"no room", func(_ *Config, fs *fsinfo.Info, _ *uint64) { fs.AvailBytes = 1 << 30 }, "has 1.0 GiB available, the sweep needs"},
		{"no room but forced", func(c *Config, fs *fsinfo.Info, _ *uint64) { fs.AvailBytes, c.Force = 1<<30, true }, ""},
		{"two ranks need twice", func(c *Config, fs *fsinfo.Info, _ *uint64) { fs.AvailBytes, c.Ranks = 3<<30, 2 }, "the sweep needs"},
		{"read-only", func(_ *Config, fs *fsinfo.Info, _ *uint64) { fs.ReadOnly = true }, "is on a read-only file system"},
	} {
		cfg, fs, mem := c, roomy, uint64(16<<30)
		tc.mutate(&cfg, &fs, &mem)
		err := Preflight(cfg, fs, mem)
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: Preflight = %v, want %q", tc.name, err, tc.want)
		}
	}
}

// --drop-caches that cannot work fails before the first run, naming the
// switch and the errno; writes-only sweeps never touch it.
func TestPreflightDropCachesNeedsTheSwitch(t *testing.T) {
	dir := t.TempDir()
	old := dropCachesPath
	defer func() { dropCachesPath = old }()
	dropCachesPath = dir + "/no-such-switch"
	roomy := fsinfo.Info{ResolvedDir: dir, AvailBytes: 1 << 40, TotalBytes: 1 << 41, Type: "ext4"}
	c := DefaultConfig()
	c.Dir, c.Drop, c.Mode = dir, DropCaches, ModeBoth
	err := Preflight(c, roomy, 16<<30)
	if err == nil || !strings.Contains(err.Error(), "Drop: cannot write "+dropCachesPath) || !strings.Contains(err.Error(), "(ENOENT)") {
		t.Errorf("Preflight = %v, want the Drop refusal with ENOENT", err)
	}
	c.Mode = ModeWrite
	if err := Preflight(c, roomy, 16<<30); err != nil {
		t.Errorf("write-only sweep: %v", err)
	}
}

// --direct is refused, not silently ignored, where O_DIRECT does not exist.
func TestDirectIsRefusedWhereItDoesNotExist(t *testing.T) {
	c := smallConfig()
	c.Direct, c.Count, c.Sizes = true, 4096, []int64{4096, 8192}
	err := c.Validate()
	if directFlag == 0 && (err == nil || !strings.Contains(err.Error(), "--direct")) {
		t.Errorf("--direct without O_DIRECT: %v, want a refusal naming --direct", err)
	}
	if directFlag != 0 && err != nil {
		t.Errorf("--direct with O_DIRECT: %v", err)
	}
}
