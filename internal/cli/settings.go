package cli

import (
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/iobench/iobench/convert"
	"github.com/iobench/iobench/internal/progress"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/profile"
	"github.com/iobench/iobench/report"
)

// setting is one flag of the sweep and all the command knows of it. The
// table of them (sweepSettings) is the one list: the sweep's flags and
// their help, the Config they fill in, the library settings they set
// (for messages and for the profile, which leaves alone what the user
// set), the flags `iobench runtime` shares, and the checks of the plan
// key and of the report's config (settings_test.go) all come from it.
type setting struct {
	flag     cli.Flag
	category string            // heading in --help
	sets     []iobench.Setting // library settings it sets; none for the command's own flags
	// plan: the value changes iobench.Config.PlanKey, so the ranks of
	// one MPI job must agree on it; otherwise it may differ per rank.
	plan bool
	// reported: the value shows in the report's config (report.Config).
	reported bool
	// read fills the value into the Config. Nil when another entry's
	// read takes it (readWith names that entry) or when the command
	// itself reads the flag (output, MPI wiring: cmd is true).
	read     func(c *cli.Context, cfg *iobench.Config) error
	readWith string
	cmd      bool
	// into is the Config field a switch's value goes to, read before
	// read (which then only checks it), so a new switch needs no
	// function of its own.
	into func(cfg *iobench.Config) *bool
	// example is a value other than the default, for the table's tests.
	example string
	// runtimeDefault is the default's text under `iobench runtime` where
	// it differs from the sweep's.
	runtimeDefault string
}

// name is the setting's flag name, as typed after "--".
func (s setting) name() string { return s.flag.Names()[0] }

// Help categories of the sweep's flags.
const (
	catConversion = "conversion"
	catData       = "data"
	catSizes      = "sizes"
	catTiming     = "timing"
	catOutput     = "output"
	catMPI        = "under MPI"
	catParallel   = "parallel"
)

// sweepSettings is the table. Its order is the order of reading (a value
// read before it may be used: the element type before --count, --count
// before the sizes, --repeat before --order, --fsync before --flush);
// --help sorts each category by name.
func sweepSettings() []setting {
	return []setting{
		{flag: &cli.StringFlag{Name: "convert", Value: "native", Usage: "byte order in the file: " + joinNames(convert.Orders()) + "; a list (native,big-endian) runs each as a variant of one interleaved sweep"},
			category: catConversion, sets: sets(iobench.SetConvert, iobench.SetVariants), plan: true, reported: true, read: variantsFromFlags, example: "big-endian"},
		{flag: &cli.StringFlag{Name: "type", Value: "float64", Usage: "element type: " + joinNames(convert.Types()) + "; a list runs each as a variant (the same bytes per run)"},
			category: catConversion, sets: sets(iobench.SetType, iobench.SetVariants), plan: true, reported: true, readWith: "convert", example: "int64"},
		{flag: &cli.IntFlag{Name: "stride", Value: 1, Usage: "write every K-th element of a K times larger array"},
			category: catConversion, sets: sets(iobench.SetStride), plan: true, reported: true, read: readStride, example: "2"},
		{flag: &cli.StringFlag{Name: "dir", Value: ".", DefaultText: "none: required; --dir . for the current directory", Usage: "directory to write the data files in"},
			category: catData, sets: sets(iobench.SetDir), read: readDir, example: "/"},
		{flag: &cli.StringFlag{Name: "count", Usage: "elements per run", DefaultText: "250000000 = 2.5e8, 2 GB of float64"},
			category: catData, sets: sets(iobench.SetCount), reported: true, read: readCount, example: "65536",
			runtimeDefault: "33554432 (256 MiB)"},
		{flag: &cli.StringFlag{Name: "size", Usage: "bytes per run instead of --count, e.g. 256MiB"},
			category: catData, sets: sets(iobench.SetCount), reported: true, readWith: "count", example: "1MiB"},
		{flag: &cli.StringFlag{Name: "source", Value: "array", Usage: "array (whole data set in memory) or window (memory ~2x the largest write)"},
			category: catData, sets: sets(iobench.SetSource), reported: true, read: readSource, example: "window"},
		{flag: &cli.StringFlag{Name: "mode", Value: "write", Usage: "direction: write, read, both"},
			category: catData, sets: sets(iobench.SetMode), plan: true, reported: true, read: readMode, example: "both"},
		{flag: directFlag(), category: catData, sets: sets(iobench.SetDirect, iobench.SetVariants), plan: true, reported: true, readWith: "convert", example: "true"},
		{flag: &cli.BoolFlag{Name: "verify", Usage: "read every file back (untimed) and check each element"},
			category: catData, sets: sets(iobench.SetVerify), plan: true, reported: true, into: func(c *iobench.Config) *bool { return &c.Verify }, example: "true"},
		{flag: &cli.BoolFlag{Name: "keep", Usage: "keep the last data file and print its path"},
			category: catData, sets: sets(iobench.SetKeep), into: func(c *iobench.Config) *bool { return &c.Keep }, example: "true"},
		{flag: &cli.BoolFlag{Name: "force", Usage: "skip the free-space check"},
			category: catData, sets: sets(iobench.SetForce), into: func(c *iobench.Config) *bool { return &c.Force }, example: "true"},
		{flag: &cli.StringFlag{Name: "profile", Value: "auto", Usage: "sweep preset: " + strings.Join(profile.Names(), ", ") + " (iobench profiles lists them)"},
			category: catData, sets: sets(iobench.SetProfile), cmd: true, example: "generic"},
		{flag: &cli.StringFlag{Name: "data", Value: "ramp", Usage: "what the data holds: ramp (element i = i, as the reference program), random (incompressible, from --seed), zero"},
			category: catData, sets: sets(iobench.SetData), plan: true, reported: true, read: readData, example: "random"},
		{flag: &cli.BoolFlag{Name: "preallocate", Usage: "fallocate each data file to its full size before its run, untimed"},
			category: catData, sets: sets(iobench.SetPreallocate), plan: true, reported: true, into: func(c *iobench.Config) *bool { return &c.Preallocate }, read: perRankOnly("preallocate"), example: "true"},
		{flag: &cli.BoolFlag{Name: "overwrite", Usage: "write every run into one file iobench creates and writes in full first, instead of a new file per run"},
			category: catData, sets: sets(iobench.SetOverwrite), plan: true, reported: true, into: func(c *iobench.Config) *bool { return &c.Overwrite }, read: perRankOnly("overwrite"), example: "true"},

		{flag: &cli.StringFlag{Name: "min", Value: "1KiB", Usage: "smallest write size, a power of two"},
			category: catSizes, sets: sets(iobench.SetMinSize), plan: true, reported: true, read: readSizes, example: "4KiB"},
		{flag: &cli.StringFlag{Name: "max", Value: "64MiB", Usage: "largest write size, a power of two"},
			category: catSizes, sets: sets(iobench.SetMaxSize), plan: true, reported: true, readWith: "min", example: "1MiB"},
		{flag: &cli.StringFlag{Name: "sizes", Usage: "explicit write sizes instead of --min/--max, e.g. 4KiB,1MiB"},
			category: catSizes, sets: sets(iobench.SetSizes), plan: true, reported: true, readWith: "min", example: "4KiB,64KiB"},

		{flag: &cli.StringFlag{Name: "repeat", Value: "1", Usage: "rounds, each running every size once; or auto: at least 3 rounds, then more of the sizes that decide the knee until it is established or --time-budget runs out",
			DefaultText: "auto in the disk and parallel file system profiles, else 1"},
			category: catTiming, sets: sets(iobench.SetRepeat), plan: true, reported: true, read: readRepeat, example: "3"},
		{flag: &cli.StringFlag{Name: "time-budget", Usage: "with --repeat auto: wall time for all rounds, e.g. 10m", DefaultText: "3 x the first round"},
			category: catTiming, sets: sets(iobench.SetTimeBudget), plan: true, reported: true, readWith: "repeat", example: "10m"},
		{flag: &cli.StringFlag{Name: "order", Usage: "size order in a round: ascending, descending, shuffled", DefaultText: "ascending; shuffled when --repeat > 1 or auto"},
			category: catTiming, sets: sets(iobench.SetOrder), plan: true, reported: true, read: readOrder, example: "descending"},
		{flag: &cli.Uint64Flag{Name: "seed", Usage: "shuffle seed, recorded in the report", DefaultText: "from the clock"},
			category: catTiming, sets: sets(iobench.SetSeed), plan: true, reported: true, read: readSeed, example: "7"},
		{flag: &cli.BoolFlag{Name: "fsync", Usage: "fsync before close, inside the timing", DefaultText: "off; on in the disk and parallel file system profiles"},
			category: catTiming, sets: sets(iobench.SetFsync), plan: true, reported: true, read: readFsync, example: "true"},
		{flag: &cli.StringFlag{Name: "sync", Value: "syncfs", Usage: "flush before each run, untimed: syncfs, sync, none"},
			category: catTiming, sets: sets(iobench.SetSync), reported: true, read: readSync, example: "none"},
		{flag: &cli.BoolFlag{Name: "warmup", Value: true, Usage: "one untimed pass before the first run (--warmup=false to skip)"},
			category: catTiming, sets: sets(iobench.SetWarmup), plan: true, reported: true, into: func(c *iobench.Config) *bool { return &c.Warmup }, example: "false"},
		{flag: &cli.BoolFlag{Name: "drop-caches", Usage: "before each read run also drop the page cache via /proc/sys/vm/drop_caches (root)"},
			category: catTiming, sets: sets(iobench.SetDrop), plan: true, reported: true, read: readDropCaches, example: "true"},
		{flag: &cli.StringFlag{Name: "time-limit", Usage: "stop each run's calls after this time (stonewalling), e.g. 30s; MiB/s is the data moved over the time", DefaultText: "none: every run writes all the data"},
			category: catTiming, sets: sets(iobench.SetTimeLimit), plan: true, reported: true, read: readTimeLimit, example: "30s"},
		{flag: &cli.StringFlag{Name: "flush", Usage: "flush after the last write, inside the timing: fsync, fdatasync, none", DefaultText: "none; fsync with --fsync and in the disk and parallel file system profiles"},
			category: catTiming, sets: sets(iobench.SetFlush), plan: true, reported: true, read: readFlush, example: "fdatasync"},
		{flag: &cli.StringFlag{Name: "open-sync", Usage: "open the data files with O_DSYNC (dsync) or O_SYNC (sync)", DefaultText: "neither"},
			category: catTiming, sets: sets(iobench.SetOpenSync), plan: true, reported: true, read: readOpenSync, example: "dsync"},
		{flag: &cli.BoolFlag{Name: "latency", Usage: "time write(2) calls: p50, p90, p99 and max µs per call for each size (a random sample of short calls, so the clock costs at most 0.2%; max is bounded)"},
			category: catTiming, sets: sets(iobench.SetLatency), plan: true, reported: true, read: readLatency, example: "true"},
		{flag: &cli.BoolFlag{Name: "latency-all", Usage: "--latency timing every call, for the true max (every call then pays the clock; docs/io-options.md says what it costs)"},
			category: catTiming, sets: sets(iobench.SetLatencyAll), plan: true, reported: true, readWith: "latency", example: "true"},

		{flag: formatFlag(report.CmdSweep, "text", "output format: %s"), category: catOutput, cmd: true, example: "json"},
		{flag: outputFlag("write the report to this new file (atomically) instead of stdout"), category: catOutput, cmd: true},
		{flag: &cli.Float64Flag{Name: "knee-fraction", Value: knee.DefaultFraction, Usage: "share of the plateau the knee must reach"},
			category: catOutput, sets: sets(iobench.SetKneeFraction), plan: true, reported: true, read: readKneeFraction, example: "0.9"},
		{flag: &cli.BoolFlag{Name: "anonymize", Usage: "replace host name, user name and paths with stable placeholders in the report"}, category: catOutput, cmd: true},
		{flag: &cli.BoolFlag{Name: "no-progress", Usage: "no progress bar even on a terminal (the lines of --progress lines)"}, category: catOutput, cmd: true},
		{flag: &cli.StringFlag{Name: "progress", Value: string(progress.Auto), Usage: "progress on stderr: bar (run lines with a bar and the time left below them), lines (a line per run and per round), rounds (a line per round, for logs), none; auto: bar on a terminal, else lines"},
			category: catOutput, cmd: true, example: "rounds"},
		{flag: &cli.BoolFlag{Name: "brief", Usage: "print only the verdict: what to set per runtime, or that the default is fine, and how sure that is"},
			category: catOutput, cmd: true, example: "true"},
		{flag: forFlag(), category: catOutput, cmd: true},
		{flag: &cli.BoolFlag{Name: "dry-run", Usage: "print the plan (sizes, rounds, bytes, order, profile and why) and exit without I/O"}, category: catOutput, cmd: true},

		{flag: &cli.BoolFlag{Name: "shared-file", Usage: "under MPI or with --jobs: all ranks (jobs) write disjoint segments of one file", DefaultText: "off: a file per rank"},
			category: catMPI, cmd: true},
		{flag: &cli.BoolFlag{Name: "total", Usage: "under MPI: --count/--size is the total, split across ranks", DefaultText: "off: per rank, as IOR's block size"},
			category: catMPI, cmd: true},
		{flag: &cli.StringFlag{Name: "api", Value: apiPOSIX, Usage: "how the data moves: posix (write(2), read(2)) or mpiio (MPI_File_write_at, MPI_File_read_at; MPI build only)"},
			category: catMPI, cmd: true},
		{flag: &cli.BoolFlag{Name: "collective", Usage: "with --api mpiio: collective MPI_File_write_at_all and MPI_File_read_at_all", DefaultText: "off: independent calls"},
			category: catMPI, cmd: true},
		{flag: &cli.StringSliceFlag{Name: "hint", Usage: "with --api mpiio: an MPI-IO hint key=value for MPI_File_open, repeatable; after those of the " + romioHintsVar + " file"},
			category: catMPI, cmd: true},
		{flag: &cli.IntFlag{Name: "read-shift", Usage: "under MPI, with --mode read or both: rank r reads the file rank (r+N) mod ranks wrote (IOR's -C), so no client reads back what it cached", DefaultText: "0: its own file"},
			category: catMPI, sets: sets(iobench.SetReadShift), plan: true, read: readReadShift, example: "1"},

		{flag: &cli.IntFlag{Name: "jobs", Value: 1, Usage: "writers in this process, each with its own file (or segment of --shared-file), started together and aggregated as MPI ranks are"},
			category: catParallel, sets: sets(iobench.SetJobs), plan: true, reported: true, read: jobsFromFlags, example: "2"},
	}
}

func sets(s ...iobench.Setting) []iobench.Setting { return s }

// sweepFlags are the sweep's flags, each in its help category.
func sweepFlags() []cli.Flag {
	var out []cli.Flag
	for _, s := range sweepSettings() {
		setCategory(s.flag, s.category)
		out = append(out, s.flag)
	}
	return out
}

// sharedFlags are the sweep's flags called names, for another command
// that takes them with the same meaning: `iobench runtime` gets each with
// its runtimeDefault.
func sharedFlags(names ...string) []cli.Flag {
	var out []cli.Flag
	for _, n := range names {
		s := settingNamed(n)
		if s.runtimeDefault != "" {
			setDefaultText(s.flag, s.runtimeDefault)
		}
		out = append(out, s.flag)
	}
	return out
}

// settingNamed is the table's entry for the flag called name; the names
// are the program's own, so a missing one is a bug.
func settingNamed(name string) setting {
	for _, s := range sweepSettings() {
		if s.name() == name {
			return s
		}
	}
	panic("no sweep setting --" + name)
}

// readSettings fills cfg from the flags of c, in the table's order; names
// limits it to those entries (another command's shared flags), none
// reads all.
func readSettings(c *cli.Context, cfg *iobench.Config, names ...string) error {
	for _, s := range sweepSettings() {
		if len(names) > 0 && !slices.Contains(names, s.name()) {
			continue
		}
		if s.into != nil {
			*s.into(cfg) = c.Bool(s.name())
		}
		if s.read == nil {
			continue
		}
		if err := s.read(c, cfg); err != nil {
			return err
		}
	}
	return nil
}

// setCategory sets f's help category.
func setCategory(f cli.Flag, cat string) {
	switch f := f.(type) {
	case *cli.StringFlag:
		f.Category = cat
	case *cli.BoolFlag:
		f.Category = cat
	case *cli.IntFlag:
		f.Category = cat
	case *cli.Uint64Flag:
		f.Category = cat
	case *cli.Float64Flag:
		f.Category = cat
	case *cli.GenericFlag:
		f.Category = cat
	case *cli.StringSliceFlag:
		f.Category = cat
	}
}

// setDefaultText sets the text --help shows as f's default.
func setDefaultText(f cli.Flag, text string) {
	switch f := f.(type) {
	case *cli.StringFlag:
		f.DefaultText = text
	case *cli.BoolFlag:
		f.DefaultText = text
	case *cli.Uint64Flag:
		f.DefaultText = text
	}
}

// flagOf is the flag that sets s, the first in the table: "--count".
func flagOf(s iobench.Setting) string {
	for _, e := range sweepSettings() {
		if slices.Contains(e.sets, s) {
			return "--" + e.name()
		}
	}
	return string(s)
}

// flagWords names s in prose: every flag that sets it, "--count/--size".
func flagWords(s iobench.Setting) string {
	var names []string
	for _, e := range sweepSettings() {
		if slices.Contains(e.sets, s) {
			names = append(names, "--"+e.name())
		}
	}
	if len(names) == 0 {
		return string(s)
	}
	return strings.Join(names, "/")
}

// overrides are the settings the command line gives, which a profile
// leaves alone.
func overrides(c *cli.Context) profile.Overrides {
	given := profile.Overrides{}
	for _, e := range sweepSettings() {
		if c.IsSet(e.name()) {
			for _, s := range e.sets {
				given[s] = true
			}
		}
	}
	if given[iobench.SetFlush] { // --flush says what --fsync would
		given[iobench.SetFsync] = true
	}
	return given
}
