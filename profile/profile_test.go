package profile_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/iobench/iobench/fsinfo"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/profile"
	"github.com/iobench/iobench/units"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

const (
	kib = 1 << 10
	mib = 1 << 20
)

// testFlags are a CLI's words for the settings a profile sets.
var testFlags = map[string]iobench.Setting{
	"min": iobench.SetMinSize, "max": iobench.SetMaxSize, "sizes": iobench.SetSizes, "repeat": iobench.SetRepeat,
	"order": iobench.SetOrder, "fsync": iobench.SetFsync, "sync": iobench.SetSync, "count": iobench.SetCount,
	"size": iobench.SetCount, "source": iobench.SetSource, "warmup": iobench.SetWarmup, "profile": iobench.SetProfile,
}

// flags are the Overrides of the given flag names.
func flags(names ...string) profile.Overrides {
	given := profile.Overrides{}
	for _, n := range names {
		given[testFlags[n]] = true
	}
	return given
}

// proseName renders a setting in a CLI's prose: Count is --count or --size.
func proseName(s iobench.Setting) string {
	if s == iobench.SetCount {
		return "--count or --size"
	}
	return flagName(s)
}

// flagName renders a setting as a CLI's flag.
func flagName(s iobench.Setting) string {
	for name, set := range testFlags {
		if set == s && name != "size" {
			return "--" + name
		}
	}
	return string(s)
}

// inFlags renders an error's settings as a CLI's flags.
func inFlags(err error) string {
	var ce *iobench.ConfigError
	if errors.As(err, &ce) {
		return ce.Message(proseName)
	}
	return fmt.Sprint(err)
}

// fakeLfs is an Env with an lfs that prints out, recording its arguments.
func fakeLfs(out string, err error, args *[]string) profile.Env {
	return profile.Env{
		LookPath: func(file string) (string, error) { return "/usr/bin/" + file, nil },
		Output: func(name string, a ...string) ([]byte, error) {
			*args = append([]string{name}, a...)
			return []byte(out), err
		},
	}
}

var noLfs = profile.Env{
	LookPath: func(file string) (string, error) { return "", errors.New("executable file not found in $PATH") },
	Output: func(string, ...string) ([]byte, error) {
		return nil, errors.New("Output called without lfs")
	},
}

// cfgOpts lets a nil notes list equal an empty one.
var cfgOpts = cmpopts.EquateEmpty()

func TestAutoApply(t *testing.T) {
	gpfs16 := fsinfo.Info{Magic: fsinfo.MagicGPFS, BlockSize: 16 * mib, IOBlockSize: 16 * mib}
	tests := []struct {
		name      string
		fs        fsinfo.Info
		set       []string              // flags the user gave
		flagsCfg  func(*iobench.Config) // what those flags did to the plan
		env       profile.Env
		wantName  string
		wantWhy   string
		want      func(*iobench.Config) // the plan after Apply, from DefaultConfig
		wantNotes []string
	}{
		{
			name: "gpfs 16 MiB block size sweeps to 64 MiB", fs: gpfs16,
			wantName: "gpfs", wantWhy: "auto: file system type gpfs (f_type 0x47504653)",
			want: func(c *iobench.Config) {
				c.Sizes = units.PowersOfTwo(kib, 64*mib)
				autoRounds(c)
			},
			wantNotes: []string{"gpfs: f_bsize 16 MiB -> sweeping to 64 MiB"},
		},
		{
			name:     "gpfs 32 MiB block size sweeps to 128 MiB",
			fs:       fsinfo.Info{Magic: fsinfo.MagicGPFS, BlockSize: 32 * mib},
			wantName: "gpfs", wantWhy: "auto: file system type gpfs (f_type 0x47504653)",
			want: func(c *iobench.Config) {
				c.Sizes = units.PowersOfTwo(kib, 128*mib)
				autoRounds(c)
			},
			wantNotes: []string{"gpfs: f_bsize 32 MiB -> sweeping to 128 MiB"},
		},
		{
			name: "gpfs block size not a power of two rounds up",
			fs:   fsinfo.Info{Magic: fsinfo.MagicGPFS, BlockSize: 24 * mib, Type: "gpfs", MagicHex: "0x47504653"},
			want: func(c *iobench.Config) {
				c.Sizes = units.PowersOfTwo(kib, 128*mib)
				autoRounds(c)
			},
			wantName: "gpfs", wantWhy: "auto: file system type gpfs (f_type 0x47504653)",
			wantNotes: []string{"gpfs: f_bsize 24 MiB -> sweeping to 128 MiB"},
		},
		{
			name: "gpfs explicit --max wins, with a note", fs: gpfs16,
			set:      []string{"max"},
			flagsCfg: func(c *iobench.Config) { c.Sizes = units.PowersOfTwo(kib, mib) },
			wantName: "gpfs", wantWhy: "auto: file system type gpfs (f_type 0x47504653)",
			want: func(c *iobench.Config) {
				c.Sizes = units.PowersOfTwo(kib, mib)
				autoRounds(c)
			},
			wantNotes: []string{"gpfs: keeping --max 1 MiB, though f_bsize 16 MiB would sweep to 64 MiB; the knee may lie beyond --max"},
		},
		{
			name: "gpfs explicit --min, --repeat 1 and --fsync=false win", fs: gpfs16,
			set: []string{"min", "repeat", "fsync"},
			flagsCfg: func(c *iobench.Config) {
				c.Sizes = units.PowersOfTwo(64*kib, 64*mib)
			},
			wantName: "gpfs", wantWhy: "auto: file system type gpfs (f_type 0x47504653)",
			want: func(c *iobench.Config) {
				c.Sizes = units.PowersOfTwo(64*kib, 64*mib)
			},
			wantNotes: []string{"gpfs: f_bsize 16 MiB -> sweeping to 64 MiB"},
		},
		{
			name: "gpfs explicit --order wins", fs: gpfs16,
			set:      []string{"order"},
			flagsCfg: func(c *iobench.Config) { c.Order = iobench.Descending },
			wantName: "gpfs", wantWhy: "auto: file system type gpfs (f_type 0x47504653)",
			want: func(c *iobench.Config) {
				autoRounds(c)
				c.Order = iobench.Descending
			},
			wantNotes: []string{"gpfs: f_bsize 16 MiB -> sweeping to 64 MiB"},
		},
		{
			name: "gpfs with a small --size stops at the data size", fs: gpfs16,
			set:      []string{"size"},
			flagsCfg: func(c *iobench.Config) { c.Count = 32 * mib / 8 },
			wantName: "gpfs", wantWhy: "auto: file system type gpfs (f_type 0x47504653)",
			want: func(c *iobench.Config) {
				c.Count = 32 * mib / 8
				c.Sizes = units.PowersOfTwo(kib, 32*mib)
				autoRounds(c)
			},
			wantNotes: []string{
				"gpfs: f_bsize 16 MiB -> sweeping to 64 MiB",
				"gpfs: the data per run is only 32 MiB; sweeping to 32 MiB instead of 64 MiB (raise --count or --size to go further)",
			},
		},
		{
			name: "gpfs keeps an explicit --sizes list", fs: gpfs16,
			set:      []string{"sizes"},
			flagsCfg: func(c *iobench.Config) { c.Sizes = []int64{4 * kib, 16 * mib} },
			wantName: "gpfs", wantWhy: "auto: file system type gpfs (f_type 0x47504653)",
			want: func(c *iobench.Config) {
				c.Sizes = []int64{4 * kib, 16 * mib}
				autoRounds(c)
			},
		},
		{
			name:     "ext4 magic picks ext4",
			fs:       fsinfo.Info{Magic: fsinfo.MagicExt4, Type: "ext4", MagicHex: "0xef53", BlockSize: 4096},
			wantName: "ext4", wantWhy: "auto: file system type ext4 (f_type 0xef53)",
			want: func(c *iobench.Config) { autoRounds(c) },
		},
		{
			name:     "xfs magic picks xfs",
			fs:       fsinfo.Info{Magic: fsinfo.MagicXFS},
			wantName: "xfs", wantWhy: "auto: file system type xfs (f_type 0x58465342)",
			want: func(c *iobench.Config) { autoRounds(c) },
		},
		{
			name: "nfs wsize from the super options",
			fs: fsinfo.Info{Magic: fsinfo.MagicNFS, Type: "nfs4", MountOptions: "rw,relatime",
				SuperOptions: "rw,vers=4.2,rsize=1048576,wsize=1048576,namlen=255,hard"},
			wantName: "nfs", wantWhy: "auto: file system type nfs4 (f_type 0x6969)",
			want:      func(c *iobench.Config) { autoRounds(c) },
			wantNotes: []string{"nfs: wsize 1 MiB -> sweeping to 64 MiB"},
		},
		{
			name:     "nfs large wsize in the mount options",
			fs:       fsinfo.Info{Magic: fsinfo.MagicNFS, MountOptions: "rw,wsize=33554432"},
			wantName: "nfs", wantWhy: "auto: file system type nfs (f_type 0x6969)",
			want: func(c *iobench.Config) {
				autoRounds(c)
				c.Sizes = units.PowersOfTwo(kib, 128*mib)
			},
			wantNotes: []string{"nfs: wsize 32 MiB -> sweeping to 128 MiB"},
		},
		{
			name:     "nfs without wsize",
			fs:       fsinfo.Info{Magic: fsinfo.MagicNFS, SuperOptions: "rw,vers=3"},
			wantName: "nfs", wantWhy: "auto: file system type nfs (f_type 0x6969)",
			want:      func(c *iobench.Config) { autoRounds(c) },
			wantNotes: []string{"nfs: wsize unknown (no wsize mount option) -> sweeping to 64 MiB"},
		},
		{
			name:     "lustre without lfs uses st_blksize",
			fs:       fsinfo.Info{Magic: fsinfo.MagicLustre, IOBlockSize: 2 * mib, BlockSize: 4096},
			env:      noLfs,
			wantName: "lustre", wantWhy: "auto: file system type lustre (f_type 0xbd00bd0)",
			want:      func(c *iobench.Config) { autoRounds(c) },
			wantNotes: []string{"lustre: st_blksize 2 MiB (no lfs command) -> sweeping to 64 MiB"},
		},
		{
			name:     "unknown magic falls back to generic",
			fs:       fsinfo.Info{Magic: fsinfo.MagicZFS, Type: "zfs", BlockSize: 128 * kib},
			wantName: "generic", wantWhy: "auto: file system type zfs (f_type 0x2fc12fc1) has no profile; using generic",
			want: func(c *iobench.Config) { c.Auto, c.Repeat, c.Order = true, 3, iobench.Shuffled },
		},
		{
			name:     "generic stops at a small data size too",
			fs:       fsinfo.Info{Magic: 0x12345678},
			set:      []string{"count"},
			flagsCfg: func(c *iobench.Config) { c.Count = 1_000_000 },
			wantName: "generic", wantWhy: "auto: file system type unknown (f_type 0x12345678) has no profile; using generic",
			want: func(c *iobench.Config) {
				c.Count, c.Sizes = 1_000_000, units.PowersOfTwo(kib, 4*mib)
				c.Auto, c.Repeat, c.Order = true, 3, iobench.Shuffled
			},
			wantNotes: []string{"generic: the data per run is only 8000000 B; sweeping to 4 MiB instead of 64 MiB (raise --count or --size to go further)"},
		},
		{
			name:     "tmpfs warns and skips fsync",
			fs:       fsinfo.Info{Magic: fsinfo.MagicTmpfs, Type: "tmpfs"},
			wantName: "tmpfs", wantWhy: "auto: file system type tmpfs (f_type 0x1021994)",
			want: func(*iobench.Config) {},
			wantNotes: []string{
				"tmpfs: the file lives in memory, so this measures memory copy speed and system call cost, not storage",
			},
		},
		{
			name:     "mount type decides when the magic is shared (ceph-fuse)",
			fs:       fsinfo.Info{Magic: 0x65735546, Type: "fuse.ceph-fuse"},
			wantName: "cephfs", wantWhy: "auto: file system type fuse.ceph-fuse (f_type 0x65735546)",
			want: func(c *iobench.Config) {
				autoRounds(c)
			},
		},
		{
			name:     "beegfs",
			fs:       fsinfo.Info{Magic: fsinfo.MagicBeeGFS},
			wantName: "beegfs", wantWhy: "auto: file system type beegfs (f_type 0x19830326)",
			want: func(c *iobench.Config) {
				autoRounds(c)
			},
		},
		{
			name:     "no facts at all",
			wantName: "generic", wantWhy: "auto: file system type unknown has no profile; using generic",
			want: func(c *iobench.Config) { c.Auto, c.Repeat, c.Order = true, 3, iobench.Shuffled },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, why := profile.Auto(tt.fs)
			if p.Name != tt.wantName || why != tt.wantWhy {
				t.Errorf("Auto = %q, %q; want %q, %q", p.Name, why, tt.wantName, tt.wantWhy)
			}
			cfg := iobench.DefaultConfig()
			if tt.flagsCfg != nil {
				tt.flagsCfg(&cfg)
			}
			notes, err := p.Apply(&cfg, tt.fs, flags(tt.set...), tt.env)
			notes = iobench.RenderAll(notes, proseName)
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			want := iobench.DefaultConfig()
			tt.want(&want)
			if diff := cmp.Diff(want, cfg, cfgOpts); diff != "" {
				t.Errorf("Apply config mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantNotes, notes, cfgOpts); diff != "" {
				t.Errorf("Apply notes mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLustreStripeSize(t *testing.T) {
	lustre := fsinfo.Info{Magic: fsinfo.MagicLustre, IOBlockSize: 2 * mib, ResolvedDir: "/lustre/scratch/me"}
	tests := []struct {
		name     string
		out      string
		err      error
		wantMax  int64
		wantNote string
	}{
		{"lfs prints the size", "4194304\n", nil, 64 * mib,
			"lustre: stripe size 4 MiB (lfs getstripe) -> sweeping to 64 MiB"},
		{"older lfs prints a key", "stripe_size:   33554432\n", nil, 128 * mib,
			"lustre: stripe size 32 MiB (lfs getstripe) -> sweeping to 128 MiB"},
		{"composite layout: largest component", "1048576\n4194304\n67108864\n", nil, 256 * mib,
			"lustre: stripe size 64 MiB (lfs getstripe) -> sweeping to 256 MiB"},
		{"lfs fails", "", errors.New("exit status 2: not a Lustre file system"), 64 * mib,
			"lustre: st_blksize 2 MiB (lfs getstripe failed: exit status 2: not a Lustre file system) -> sweeping to 64 MiB"},
		{"lfs prints junk", "huh\n", nil, 64 * mib,
			`lustre: st_blksize 2 MiB (lfs getstripe printed "huh") -> sweeping to 64 MiB`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := profile.Lookup("lustre")
			if err != nil {
				t.Fatal(err)
			}
			var args []string
			cfg := iobench.DefaultConfig()
			notes, err := p.Apply(&cfg, lustre, nil, fakeLfs(tt.out, tt.err, &args))
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if got := cfg.MaxSize(); got != tt.wantMax {
				t.Errorf("max write size = %d, want %d", got, tt.wantMax)
			}
			if diff := cmp.Diff([]string{tt.wantNote}, notes); diff != "" {
				t.Errorf("notes mismatch (-want +got):\n%s", diff)
			}
			wantArgs := []string{"/usr/bin/lfs", "getstripe", "-d", "--stripe-size", "/lustre/scratch/me"}
			if diff := cmp.Diff(wantArgs, args); diff != "" {
				t.Errorf("lfs arguments mismatch (-want +got):\n%s", diff)
			}
			if !cfg.Fsync {
				t.Error("Fsync = false, want true")
			}
		})
	}
}

func TestGfortranPR91030(t *testing.T) {
	p, err := profile.Lookup("gfortran-pr91030")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		set       []string
		flagsCfg  func(*iobench.Config)
		want      func(*iobench.Config)
		wantNotes []string
	}{
		{
			name: "the reference experiment",
			want: func(c *iobench.Config) {},
		},
		{
			name:     "a smaller --size stops the sweep at the data",
			set:      []string{"size"},
			flagsCfg: func(c *iobench.Config) { c.Count = 256 * mib / 8 },
			want: func(c *iobench.Config) {
				c.Count, c.Sizes = 256*mib/8, units.PowersOfTwo(8*kib, 256*mib)
			},
			wantNotes: []string{"gfortran-pr91030: the data per run is only 256 MiB; sweeping to 256 MiB instead of 512 MiB (raise --count or --size to go further)"},
		},
		{
			name:     "explicit --fsync and --repeat are kept",
			set:      []string{"fsync", "repeat"},
			flagsCfg: func(c *iobench.Config) { c.Fsync, c.Repeat = true, 3 },
			want:     func(c *iobench.Config) { c.Fsync, c.Repeat = true, 3 },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := iobench.DefaultConfig()
			if tt.flagsCfg != nil {
				tt.flagsCfg(&cfg)
			}
			notes, err := p.Apply(&cfg, fsinfo.Info{Magic: fsinfo.MagicGPFS, BlockSize: 16 * mib}, flags(tt.set...), profile.Env{})
			notes = iobench.RenderAll(notes, proseName)
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			want := iobench.DefaultConfig()
			want.Sizes = units.PowersOfTwo(8*kib, 512*mib)
			want.Count, want.Repeat, want.Order = 250_000_000, 1, iobench.Ascending
			want.Sync, want.Fsync, want.Warmup, want.Source = iobench.SyncAll, false, true, iobench.SourceArray
			tt.want(&want)
			if diff := cmp.Diff(want, cfg, cfgOpts); diff != "" {
				t.Errorf("config mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantNotes, notes, cfgOpts); diff != "" {
				t.Errorf("notes mismatch (-want +got):\n%s", diff)
			}
		})
	}
	cfg := iobench.DefaultConfig()
	if _, err := p.Apply(&cfg, fsinfo.Info{}, nil, profile.Env{}); err != nil {
		t.Fatal(err)
	}
	if n := len(cfg.Sizes); n != 17 || cfg.Sizes[0] != 8*kib || cfg.Sizes[n-1] != 512*mib {
		t.Errorf("sizes = %d from %d to %d; want 17 from 8 KiB to 512 MiB", n, cfg.Sizes[0], cfg.Sizes[n-1])
	}
	if err := cfg.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestApplyDataTooSmall(t *testing.T) {
	p, err := profile.Lookup("gfortran-pr91030")
	if err != nil {
		t.Fatal(err)
	}
	cfg := iobench.DefaultConfig()
	cfg.Count = 100 // 800 bytes, less than one 8 KiB write
	_, err = p.Apply(&cfg, fsinfo.Info{}, flags("count"), profile.Env{})
	want := "--profile: gfortran-pr91030 sweeps from 8192 bytes, more than the data per run (800 bytes); raise --count or --size"
	if err == nil || inFlags(err) != want {
		t.Errorf("Apply error = %v, want %q", err, want)
	}
}

func TestLookup(t *testing.T) {
	for _, name := range profile.Names()[1:] {
		if p, err := profile.Lookup(name); err != nil || p.Name != name {
			t.Errorf("Lookup(%q) = %q, %v", name, p.Name, err)
		}
	}
	_, err := profile.Lookup("x")
	want := `--profile: unknown value "x" (valid: auto, ext4, xfs, btrfs, tmpfs, nfs, lustre, gpfs, beegfs, cephfs, generic, gfortran-pr91030)`
	if err == nil || inFlags(err) != want {
		t.Errorf("Lookup(x) error = %v, want %q", err, want)
	}
	if _, err := profile.Lookup("auto"); err == nil {
		t.Error("Lookup(auto) succeeded; auto needs the file system")
	}
}

func TestResolve(t *testing.T) {
	ext4 := fsinfo.Info{Magic: fsinfo.MagicExt4, Type: "ext4", MagicHex: "0xef53"}
	tests := []struct {
		name, flag, wantName, wantWhy, wantErr string
	}{
		{"auto", "auto", "ext4", "auto: file system type ext4 (f_type 0xef53)", ""},
		{"empty is auto", "", "ext4", "auto: file system type ext4 (f_type 0xef53)", ""},
		{"explicit", "gpfs", "gpfs", "--profile gpfs, on file system type ext4 (f_type 0xef53)", ""},
		{"unknown", "zfs", "", "", `--profile: unknown value "zfs" (valid: auto, ext4, xfs, btrfs, tmpfs, nfs, lustre, gpfs, beegfs, cephfs, generic, gfortran-pr91030)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, why, err := profile.Resolve(tt.flag, ext4)
			gotErr := ""
			if err != nil {
				gotErr = inFlags(err)
			}
			got := []string{p.Name, iobench.Render(why, proseName), gotErr}
			if diff := cmp.Diff([]string{tt.wantName, tt.wantWhy, tt.wantErr}, got); diff != "" {
				t.Errorf("Resolve(%q) mismatch (-want +got):\n%s", tt.flag, diff)
			}
		})
	}
}

func TestFields(t *testing.T) {
	tests := []struct {
		name string
		want []string
	}{
		{"gpfs", []string{"--max max(64MiB, 4 x f_bsize)", "--fsync", "--repeat auto", "--order shuffled"}},
		{"generic", []string{"--repeat auto", "--order shuffled"}},
		{"tmpfs", []string{"--max 64MiB"}},
		{"gfortran-pr91030", []string{"--min 8KiB", "--max 512MiB", "--repeat 1", "--order ascending",
			"--sync sync", "--count 250000000", "--source array"}},
	}
	for _, tt := range tests {
		p, err := profile.Lookup(tt.name)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range p.Fields() {
			got = append(got, f.Words(flagName))
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s Fields mismatch (-want +got):\n%s", tt.name, diff)
		}
	}
}

func TestDescribe(t *testing.T) {
	var buf bytes.Buffer
	if err := profile.Describe(&buf, flagName); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "profiles.golden")
	if *update {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), buf.String()); diff != "" {
		t.Errorf("Describe mismatch (-want +got):\n%s\n(run go test ./profile -update to accept)", diff)
	}
}

// autoRounds is what a disk or parallel file system profile sets besides
// the sizes: fsync, adaptive rounds, shuffled.
func autoRounds(c *iobench.Config) {
	c.Fsync, c.Auto, c.Repeat, c.Order = true, true, 3, iobench.Shuffled
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestDescribeWriteError(t *testing.T) {
	if err := profile.Describe(failWriter{}, flagName); err == nil || err.Error() != "disk full" {
		t.Errorf("Describe error = %v, want disk full", err)
	}
}

func TestDefaultEnv(t *testing.T) {
	env := profile.DefaultEnv()
	sh, err := env.LookPath("sh")
	if err != nil {
		t.Skip("no sh:", err)
	}
	out, err := env.Output(sh, "-c", "echo 4194304")
	if err != nil || string(out) != "4194304\n" {
		t.Errorf("Output = %q, %v; want \"4194304\\n\"", out, err)
	}
	_, err = env.Output(sh, "-c", "echo not a Lustre file system >&2; exit 3")
	if want := "exit status 3: not a Lustre file system"; err == nil || err.Error() != want {
		t.Errorf("Output error = %v, want %q", err, want)
	}
}
