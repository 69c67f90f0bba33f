package cli

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/convert"
	"github.com/iobench/iobench/internal/progress"
	"github.com/iobench/iobench/iobench"
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
	optRow[sweepOpts]        // the flag, and where its value goes in sweepOpts
	category          string // heading in --help
	// sets are the library settings it sets, for messages and the
	// profile's overrides; none for the command's own flags. An into
	// row's is its field's (settingOf), unless given.
	sets []iobench.Setting
	// reported: the value shows in the report's config (report.Config).
	reported bool
	// read fills the value, stored in sweepOpts, into the Config. Nil
	// when another entry's read takes it (readWith names that entry) or
	// when the command itself takes the value (output, MPI wiring: cmd
	// is true).
	read     func(o *sweepOpts, cfg *iobench.Config) error
	readWith string
	cmd      bool
	// into is the Config field the flag's value goes to as it is (a
	// bool, an int, or a string into a string type), stored there before
	// any read (which then only checks it), so a new setting of that kind
	// needs neither a field of sweepOpts nor a function of its own; the
	// Config's rules check the value.
	into func(cfg *iobench.Config) any
	// example is a value other than the default, for the table's tests.
	example string
	// runtimeDefault is the default's text under `iobench runtime` where
	// it differs from the sweep's.
	runtimeDefault string
}

// settings are the library settings s sets: its sets, or the field its
// into stores to.
func (s setting) settings() []iobench.Setting {
	if len(s.sets) > 0 || s.into == nil {
		return s.sets
	}
	return []iobench.Setting{settingOf(s.into)}
}

// settingOf names the Config field into points to, as a library
// setting: the field's name ("" for none, which the table's tests find).
func settingOf(into func(*iobench.Config) any) iobench.Setting {
	var c iobench.Config
	at := reflect.ValueOf(into(&c))
	v := reflect.ValueOf(&c).Elem()
	for _, f := range reflect.VisibleFields(v.Type()) {
		if field := v.FieldByIndex(f.Index); !f.Anonymous && at.Kind() == reflect.Pointer && field.Addr().Pointer() == at.Pointer() && field.Type() == at.Type().Elem() {
			return iobench.Setting(f.Name)
		}
	}
	return ""
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
		convertSetting(),
		{optRow: row(&cli.StringFlag{Name: "type", Value: "float64", Usage: "element type: " + joinNames(convert.Types()) + "; a list runs each as a variant (the same bytes per run)"}, func(o *sweepOpts) *opt[string] { return &o.typ }),
			category: catConversion, sets: sets(iobench.SetType, iobench.SetVariants), reported: true, readWith: "convert", example: "int64"},
		{optRow: optRow[sweepOpts]{flag: &cli.IntFlag{Name: "stride", Value: 1, Usage: "write every K-th element of a K times larger array"}},
			category: catConversion, reported: true, into: func(c *iobench.Config) any { return &c.Stride }, example: "2"},
		dirSetting(),
		countSetting(),
		sizeSetting(),
		{optRow: optRow[sweepOpts]{flag: sourceFlag("array (whole data set in memory) or window (memory ~2x the largest write)")},
			category: catData, reported: true, into: func(c *iobench.Config) any { return &c.Source }, example: "window"},
		{optRow: optRow[sweepOpts]{flag: &cli.StringFlag{Name: "mode", Value: "write", Usage: "direction: write, read, both"}},
			category: catData, reported: true, into: func(c *iobench.Config) any { return &c.Mode }, example: "both"},
		{optRow: row(directFlag(), func(o *sweepOpts) *opt[cli.Generic] { return &o.direct }), category: catData, sets: sets(iobench.SetDirect, iobench.SetVariants), reported: true, readWith: "convert", example: "true"},
		{optRow: optRow[sweepOpts]{flag: &cli.BoolFlag{Name: "verify", Usage: "read every file back (untimed) and check each element"}},
			category: catData, reported: true, into: func(c *iobench.Config) any { return &c.Verify }, example: "true"},
		{optRow: optRow[sweepOpts]{flag: &cli.BoolFlag{Name: "keep", Usage: "keep the last data file and print its path"}},
			category: catData, into: func(c *iobench.Config) any { return &c.Keep }, example: "true"},
		{optRow: optRow[sweepOpts]{flag: &cli.BoolFlag{Name: "force", Usage: "skip the free-space check"}},
			category: catData, into: func(c *iobench.Config) any { return &c.Force }, example: "true"},
		profileSetting(),
		{optRow: row(&cli.StringFlag{Name: "data", Value: "ramp", Usage: "what the data holds: ramp (element i = i, as the reference program), random (incompressible, from --seed), zero"}, func(o *sweepOpts) *opt[string] { return &o.data }),
			category: catData, sets: sets(iobench.SetData), reported: true, read: readData, example: "random"},
		{optRow: optRow[sweepOpts]{flag: &cli.BoolFlag{Name: "preallocate", Usage: "fallocate each data file to its full size before its run, untimed"}},
			category: catData, reported: true, into: func(c *iobench.Config) any { return &c.Preallocate }, read: perRankOnly("--preallocate", func(c *iobench.Config) bool { return c.Preallocate }), example: "true"},
		{optRow: optRow[sweepOpts]{flag: &cli.BoolFlag{Name: "overwrite", Usage: "write every run into one file iobench creates and writes in full first, instead of a new file per run"}},
			category: catData, reported: true, into: func(c *iobench.Config) any { return &c.Overwrite }, read: perRankOnly("--overwrite", func(c *iobench.Config) bool { return c.Overwrite }), example: "true"},

		{optRow: row(&cli.StringFlag{Name: "min", Value: "1KiB", Usage: "smallest write size, a power of two"}, func(o *sweepOpts) *opt[string] { return &o.min }),
			category: catSizes, sets: sets(iobench.SetMinSize), reported: true, read: readSizes, example: "4KiB"},
		{optRow: row(&cli.StringFlag{Name: "max", Value: "64MiB", Usage: "largest write size, a power of two"}, func(o *sweepOpts) *opt[string] { return &o.max }),
			category: catSizes, sets: sets(iobench.SetMaxSize), reported: true, readWith: "min", example: "1MiB"},
		{optRow: row(&cli.StringFlag{Name: "sizes", Usage: "explicit write sizes instead of --min/--max, e.g. 4KiB,1MiB"}, func(o *sweepOpts) *opt[string] { return &o.sizes }),
			category: catSizes, sets: sets(iobench.SetSizes), reported: true, readWith: "min", example: "4KiB,64KiB"},

		repeatSetting(),
		timeBudgetSetting(),
		{optRow: row(&cli.StringFlag{Name: "order", Usage: "size order in a round: ascending, descending, shuffled", DefaultText: "ascending; shuffled when --repeat > 1 or auto"}, func(o *sweepOpts) *opt[string] { return &o.order }),
			category: catTiming, sets: sets(iobench.SetOrder), reported: true, read: readOrder, example: "descending"},
		seedSetting(),
		fsyncSetting(),
		syncSetting(),
		{optRow: optRow[sweepOpts]{flag: &cli.BoolFlag{Name: "warmup", Value: true, Usage: "one untimed pass before the first run (--warmup=false to skip)"}},
			category: catTiming, reported: true, into: func(c *iobench.Config) any { return &c.Warmup }, example: "false"},
		{optRow: row(&cli.BoolFlag{Name: "drop-caches", Usage: "before each read run also drop the page cache via /proc/sys/vm/drop_caches (root)"}, func(o *sweepOpts) *opt[bool] { return &o.dropCaches }),
			category: catTiming, sets: sets(iobench.SetDrop), reported: true, read: readDropCaches, example: "true"},
		{optRow: row(&cli.StringFlag{Name: "time-limit", Usage: "stop each run's calls after this time (stonewalling), e.g. 30s; MiB/s is the data moved over the time", DefaultText: "none: every run writes all the data"}, func(o *sweepOpts) *opt[string] { return &o.timeLimit }),
			category: catTiming, sets: sets(iobench.SetTimeLimit), reported: true, read: readTimeLimit, example: "30s"},
		{optRow: row(&cli.StringFlag{Name: "flush", Usage: "flush after the last write, inside the timing: fsync, fdatasync, none", DefaultText: "none; fsync with --fsync and in the disk and parallel file system profiles"}, func(o *sweepOpts) *opt[string] { return &o.flush }),
			category: catTiming, sets: sets(iobench.SetFlush), reported: true, read: readFlush, example: "fdatasync"},
		{optRow: row(&cli.StringFlag{Name: "open-sync", Usage: "open the data files with O_DSYNC (dsync) or O_SYNC (sync)", DefaultText: "neither"}, func(o *sweepOpts) *opt[string] { return &o.openSync }),
			category: catTiming, sets: sets(iobench.SetOpenSync), reported: true, read: readOpenSync, example: "dsync"},
		{optRow: row(&cli.BoolFlag{Name: "latency", Usage: "time write(2) calls: p50, p90, p99 and max µs per call for each size (a random sample of short calls, so the clock costs at most 0.2%; max is bounded)"}, func(o *sweepOpts) *opt[bool] { return &o.latency }),
			category: catTiming, sets: sets(iobench.SetLatency), reported: true, read: readLatency, example: "true"},
		{optRow: row(&cli.BoolFlag{Name: "latency-all", Usage: "--latency timing every call, for the true max (every call then pays the clock; docs/io-options.md says what it costs)"}, func(o *sweepOpts) *opt[bool] { return &o.latencyAll }),
			category: catTiming, sets: sets(iobench.SetLatencyAll), reported: true, readWith: "latency", example: "true"},

		{optRow: formatRow(report.CmdSweep, "text", "output format: %s", func(o *sweepOpts) *opt[string] { return &o.format }), category: catOutput, cmd: true, example: "json"},
		outputSetting(),
		kneeFractionSetting(),
		{optRow: anonymizeRow(func(o *sweepOpts) *opt[bool] { return &o.anonymize }), category: catOutput, cmd: true},
		noProgressSetting(),
		progressSetting(),
		briefSetting(),
		{optRow: forRow(func(o *sweepOpts) *opt[string] { return &o.applyFor }), category: catOutput, cmd: true},
		{optRow: dryRunRow("print the plan (sizes, rounds, bytes, order, profile and why) and exit without I/O", func(o *sweepOpts) *opt[bool] { return &o.dryRun }), category: catOutput, cmd: true},

		{optRow: row(&cli.BoolFlag{Name: "shared-file", Usage: "under MPI or with --jobs: all ranks (jobs) write disjoint segments of one file", DefaultText: "off: a file per rank"}, func(o *sweepOpts) *opt[bool] { return &o.sharedFile }),
			category: catMPI, cmd: true},
		{optRow: row(&cli.BoolFlag{Name: "total", Usage: "under MPI: --count/--size is the total, split across ranks", DefaultText: "off: per rank, as IOR's block size"}, func(o *sweepOpts) *opt[bool] { return &o.total }),
			category: catMPI, cmd: true},
		{optRow: row(&cli.StringFlag{Name: "api", Value: apiPOSIX, Usage: "how the data moves: posix (write(2), read(2)) or mpiio (MPI_File_write_at, MPI_File_read_at; MPI build only)"}, func(o *sweepOpts) *opt[string] { return &o.api }),
			category: catMPI, cmd: true},
		{optRow: row(&cli.BoolFlag{Name: "collective", Usage: "with --api mpiio: collective MPI_File_write_at_all and MPI_File_read_at_all", DefaultText: "off: independent calls"}, func(o *sweepOpts) *opt[bool] { return &o.collective }),
			category: catMPI, cmd: true},
		{optRow: row(&cli.StringSliceFlag{Name: "hint", Usage: "with --api mpiio: an MPI-IO hint key=value for MPI_File_open, repeatable; after those of the " + romioHintsVar + " file"}, func(o *sweepOpts) *opt[[]string] { return &o.hint }),
			category: catMPI, cmd: true},
		{optRow: row(&cli.IntFlag{Name: "read-shift", Usage: "under MPI, with --mode read or both: rank r reads the file rank (r+N) mod ranks wrote (IOR's -C), so no client reads back what it cached", DefaultText: "0: its own file"}, func(o *sweepOpts) *opt[int] { return &o.readShift }),
			category: catMPI, sets: sets(iobench.SetReadShift), read: readReadShift, example: "1"},

		{optRow: row(&cli.IntFlag{Name: "jobs", Value: 1, Usage: "writers in this process, each with its own file (or segment of --shared-file), started together and aggregated as MPI ranks are"}, func(o *sweepOpts) *opt[int] { return &o.jobs }),
			category: catParallel, sets: sets(iobench.SetJobs), reported: true, read: jobsFromFlags, example: "2"},
	}
}

// The entries `iobench runtime` shares, each one of the table.

func convertSetting() setting {
	return setting{optRow: row(&cli.StringFlag{Name: "convert", Value: "native", Usage: "byte order in the file: " + joinNames(convert.Orders()) + "; a list (native,big-endian) runs each as a variant of one interleaved sweep"}, func(o *sweepOpts) *opt[string] { return &o.convert }),
		category: catConversion, sets: sets(iobench.SetConvert, iobench.SetVariants), reported: true, read: variantsFromFlags, example: "big-endian"}
}

func dirSetting() setting {
	return setting{optRow: dirRow("directory to write the data files in", "", func(o *sweepOpts) *opt[string] { return &o.dir }),
		category: catData, sets: sets(iobench.SetDir), read: readDir, example: "/"}
}

func countSetting() setting {
	return setting{optRow: row(&cli.StringFlag{Name: "count", Usage: "elements per run", DefaultText: "250000000 = 2.5e8, 2 GB of float64"}, func(o *sweepOpts) *opt[string] { return &o.count }),
		category: catData, sets: sets(iobench.SetCount), reported: true, read: readCount, example: "65536",
		runtimeDefault: "33554432 (256 MiB)"}
}

func sizeSetting() setting {
	return setting{optRow: row(&cli.StringFlag{Name: "size", Usage: "bytes per run instead of --count, e.g. 256MiB"}, func(o *sweepOpts) *opt[string] { return &o.size }),
		category: catData, sets: sets(iobench.SetCount), reported: true, readWith: "count", example: "1MiB"}
}

func profileSetting() setting {
	return setting{optRow: row(&cli.StringFlag{Name: "profile", Value: "auto", Usage: "sweep preset: " + strings.Join(profile.Names(), ", ") + " (iobench profiles lists them)"}, func(o *sweepOpts) *opt[string] { return &o.profile }),
		category: catData, sets: sets(iobench.SetProfile), cmd: true, example: "generic"}
}

func repeatSetting() setting {
	return setting{optRow: row(&cli.StringFlag{Name: "repeat", Value: "1", Usage: "rounds, each running every size once; or auto: at least 3 rounds, then more of the sizes that decide the knee until it is established or --time-budget runs out",
		DefaultText: "auto in the disk and parallel file system profiles, else 1"}, func(o *sweepOpts) *opt[string] { return &o.repeat }),
		category: catTiming, sets: sets(iobench.SetRepeat), reported: true, read: readRepeat, example: "3"}
}

func timeBudgetSetting() setting {
	return setting{optRow: timeBudgetRow("with --repeat auto: wall time for all rounds, e.g. 10m", "", "3 x the first round", func(o *sweepOpts) *opt[string] { return &o.timeBudget }),
		category: catTiming, sets: sets(iobench.SetTimeBudget), reported: true, readWith: "repeat", example: "10m"}
}

func seedSetting() setting {
	return setting{optRow: seedRow(seedUsage, "from the clock", func(o *sweepOpts) *opt[uint64] { return &o.seed }),
		category: catTiming, sets: sets(iobench.SetSeed), reported: true, read: readSeed, example: "7"}
}

func fsyncSetting() setting {
	return setting{optRow: row(&cli.BoolFlag{Name: "fsync", Usage: "fsync before close, inside the timing", DefaultText: "off; on in the disk and parallel file system profiles"}, func(o *sweepOpts) *opt[bool] { return &o.fsync }),
		category: catTiming, sets: sets(iobench.SetFsync), reported: true, read: readFsync, example: "true"}
}

func syncSetting() setting {
	return setting{optRow: optRow[sweepOpts]{flag: &cli.StringFlag{Name: "sync", Value: "syncfs", Usage: "flush before each run, untimed: syncfs, sync, none"}},
		category: catTiming, reported: true, into: func(c *iobench.Config) any { return &c.Sync }, example: "none"}
}

func outputSetting() setting {
	return setting{optRow: outputRow("write the report to this new file (atomically) instead of stdout", func(o *sweepOpts) *opt[string] { return &o.output }), category: catOutput, cmd: true}
}

func kneeFractionSetting() setting {
	return setting{optRow: kneeFractionRow(func(o *sweepOpts) *opt[float64] { return &o.kneeFraction }),
		category: catOutput, sets: sets(iobench.SetKneeFraction), reported: true, read: readKneeFraction, example: "0.9"}
}

func noProgressSetting() setting {
	return setting{optRow: row(&cli.BoolFlag{Name: "no-progress", Usage: "no progress bar even on a terminal (the lines of --progress lines)"}, func(o *sweepOpts) *opt[bool] { return &o.noProgress }), category: catOutput, cmd: true}
}

func progressSetting() setting {
	return setting{optRow: row(&cli.StringFlag{Name: "progress", Value: string(progress.Auto), Usage: "progress on stderr: bar (run lines with a bar and the time left below them), lines (a line per run and per round), rounds (a line per round, for logs), none; auto: bar on a terminal, else lines"}, func(o *sweepOpts) *opt[string] { return &o.progress }),
		category: catOutput, cmd: true, example: "rounds"}
}

func briefSetting() setting {
	return setting{optRow: row(&cli.BoolFlag{Name: "brief", Usage: "print only the verdict: what to set per runtime, or that the default is fine, and how sure that is"}, func(o *sweepOpts) *opt[bool] { return &o.brief }),
		category: catOutput, cmd: true, example: "true"}
}

func sets(s ...iobench.Setting) []iobench.Setting { return s }

// sweepOpts are the sweep's flags, read once (readSweepOpts): each
// entry's value, then the Config the entries' reads make of them.
type sweepOpts struct {
	cfg                                     iobench.Config  // the switches (into) go straight in
	given                                   map[string]bool // the entries given, for the profile's overrides
	convert, typ, dir, count, size          opt[string]
	profile, data, min, max, sizes          opt[string]
	repeat, timeBudget, order               opt[string]
	timeLimit, flush, openSync              opt[string]
	format, output, progress, applyFor, api opt[string]
	readShift, jobs                         opt[int]
	seed                                    opt[uint64]
	kneeFraction                            opt[float64]
	fsync, dropCaches, latency, latencyAll  opt[bool]
	anonymize, noProgress, brief, dryRun    opt[bool]
	sharedFile, total, collective           opt[bool]
	direct                                  opt[cli.Generic]
	hint                                    opt[[]string]
	// sizeFlag is the flag a write size came from, by its decimal bytes,
	// when it was --min or --max: the Config's error names the flag typed.
	sizeFlag map[string]string
}

// settingRows are the entries as rows of the options reader: a switch
// stores into its Config field, and every entry notes whether it was
// given.
func settingRows(settings []setting) []optRow[sweepOpts] {
	out := make([]optRow[sweepOpts], len(settings))
	for i, s := range settings {
		store, name := s.store, s.name()
		if s.into != nil {
			store = func(o *sweepOpts, v optValue) error { return storeInto(s.into(&o.cfg), v.val, name) }
		}
		out[i] = optRow[sweepOpts]{flag: s.flag, store: func(o *sweepOpts, v optValue) error {
			if v.set {
				o.given[name] = true
			}
			return store(o, v)
		}}
	}
	return out
}

// storeInto stores val, a flag's value, into the Config field at points
// to, converted to its type when both are of one kind (a string into
// record.SyncMode, an int into an int64 it fits; not a number into a
// duration). Any other pair, or an at that is not a pointer, is a bug in
// the table, which a test that reads every table finds.
func storeInto(at any, val any, name string) error {
	p, from := reflect.ValueOf(at), reflect.ValueOf(val)
	if p.Kind() != reflect.Pointer || p.IsNil() || !from.IsValid() {
		return fmt.Errorf("--%s: into gives a %T, not a field to store a %T in (a bug in its table)", name, at, val)
	}
	to := p.Elem()
	duration := reflect.TypeFor[time.Duration]()
	if kindOf(from.Kind()) != kindOf(to.Kind()) || !from.CanConvert(to.Type()) || (to.Type() == duration) != (from.Type() == duration) ||
		kindOf(to.Kind()) == reflect.Int && to.OverflowInt(from.Int()) {
		return fmt.Errorf("--%s: a %T, stored into a %v (a bug in its table)", name, val, to.Type())
	}
	to.Set(from.Convert(to.Type()))
	return nil
}

// kindOf is k, with every signed integer kind as one: a flag's int may
// go into an int64.
func kindOf(k reflect.Kind) reflect.Kind {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return reflect.Int
	}
	return k
}

// newSweepOpts are options holding cfg before the flags are read.
func newSweepOpts(cfg iobench.Config) sweepOpts { return sweepOpts{cfg: cfg, given: map[string]bool{}} }

// readSweepOpts reads the sweep's flags and makes the Config of them,
// each through its entry of the table; every error names its flag.
func readSweepOpts(c *cli.Context) (sweepOpts, error) {
	cfg := iobench.DefaultConfig()
	cfg.ReferenceSizes = advice.ReferenceSizes()
	o := newSweepOpts(cfg)
	table := sweepSettings()
	if err := readRows(c, settingRows(table), &o); err != nil {
		return o, err
	}
	return o, applySettings(&o, table...)
}

// configFromFlags is the sweep's Config from its flags.
func configFromFlags(c *cli.Context) (iobench.Config, error) {
	o, err := readSweepOpts(c)
	return o.cfg, err
}

// sweepFlags are the sweep's flags, each in its help category.
func sweepFlags() []cli.Flag {
	var out []cli.Flag
	for _, s := range sweepSettings() {
		setCategory(s.flag, s.category)
		out = append(out, s.flag)
	}
	return out
}

// sharedRows are entries of the table as rows of another command that
// takes them with the same meaning, which holds a sweepOpts at at:
// `iobench runtime` gets each with its runtimeDefault.
func sharedRows[O any](at func(*O) *sweepOpts, settings ...setting) []optRow[O] {
	for _, s := range settings {
		if s.runtimeDefault != "" {
			setDefaultText(s.flag, s.runtimeDefault)
		}
	}
	return liftAll(settingRows(settings), at)
}

// retold is s, a string flag, with another default and help, for a
// command where it means the same with other values.
func retold(s setting, value, usage, defaultText string) setting {
	f := s.flag.(*cli.StringFlag)
	f.Value, f.Usage, f.DefaultText = value, usage, defaultText
	return s
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

// applySettings makes o.cfg of the values in o through the reads of
// settings, in their order.
func applySettings(o *sweepOpts, settings ...setting) error {
	for _, s := range settings {
		if s.read == nil {
			continue
		}
		if err := s.read(o, &o.cfg); err != nil {
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
		if slices.Contains(e.settings(), s) {
			return "--" + e.name()
		}
	}
	return string(s)
}

// flagWords names s in prose: every flag that sets it, "--count/--size".
func flagWords(s iobench.Setting) string {
	var names []string
	for _, e := range sweepSettings() {
		if slices.Contains(e.settings(), s) {
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
func overrides(o *sweepOpts) profile.Overrides {
	given := profile.Overrides{}
	for _, e := range sweepSettings() {
		if o.given[e.name()] {
			for _, s := range e.settings() {
				given[s] = true
			}
		}
	}
	if given[iobench.SetFlush] { // --flush says what --fsync would
		given[iobench.SetFsync] = true
	}
	return given
}
