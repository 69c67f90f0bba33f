package cli

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/convert"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/profile"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/units"
)

// sweepCategories groups the sweep's flags in its help.
var sweepCategories = map[string][]string{
	"data":       {"dir", "count", "size", "source", "mode", "direct", "verify", "keep", "force", "profile", "data", "preallocate", "overwrite"},
	"sizes":      {"min", "max", "sizes"},
	"timing":     {"repeat", "time-budget", "order", "seed", "fsync", "sync", "warmup", "drop-caches", "time-limit", "flush", "open-sync", "latency", "latency-all"},
	"conversion": {"convert", "type", "stride"},
	"output":     {"format", "output", "knee-fraction", "for", "anonymize", "no-progress", "dry-run"},
	"under MPI":  {"shared-file", "total", "api", "collective", "hint", "read-shift"},
	"parallel":   {"jobs"},
}

func sweepFlags() []cli.Flag {
	return categorize(append(sweepFlagList(), apiFlags()...), sweepCategories)
}

// categorize sets each flag's help category from cats (category: names).
func categorize(flags []cli.Flag, cats map[string][]string) []cli.Flag {
	of := map[string]string{}
	for cat, names := range cats {
		for _, n := range names {
			of[n] = cat
		}
	}
	for _, f := range flags {
		cat := of[f.Names()[0]]
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
	return flags
}

func sweepFlagList() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "dir", Value: ".", Usage: "directory to write the data files in"},
		&cli.StringFlag{Name: "count", Usage: "elements per run", DefaultText: "250000000 = 2.5e8, 2 GB of float64"},
		&cli.StringFlag{Name: "size", Usage: "bytes per run instead of --count, e.g. 256MiB"},
		&cli.StringFlag{Name: "min", Value: "1KiB", Usage: "smallest write size, a power of two"},
		&cli.StringFlag{Name: "max", Value: "64MiB", Usage: "largest write size, a power of two"},
		&cli.StringFlag{Name: "sizes", Usage: "explicit write sizes instead of --min/--max, e.g. 4KiB,1MiB"},
		&cli.StringFlag{Name: "repeat", Value: "1", Usage: "rounds, each running every size once; or auto: at least 3 rounds, then more of the sizes that decide the knee until it is established or --time-budget runs out",
			DefaultText: "auto in the disk and parallel file system profiles, else 1"},
		&cli.StringFlag{Name: "time-budget", Usage: "with --repeat auto: wall time for all rounds, e.g. 10m", DefaultText: "3 x the first round"},
		&cli.StringFlag{Name: "order", Usage: "size order in a round: ascending, descending, shuffled", DefaultText: "ascending; shuffled when --repeat > 1 or auto"},
		&cli.Uint64Flag{Name: "seed", Usage: "shuffle seed, recorded in the report", DefaultText: "from the clock"},
		&cli.BoolFlag{Name: "fsync", Usage: "fsync before close, inside the timing", DefaultText: "off; on in the disk and parallel file system profiles"},
		&cli.StringFlag{Name: "sync", Value: "syncfs", Usage: "flush before each run, untimed: syncfs, sync, none"},
		&cli.BoolFlag{Name: "warmup", Value: true, Usage: "one untimed pass before the first run (--warmup=false to skip)"},
		&cli.StringFlag{Name: "source", Value: "array", Usage: "array (whole data set in memory) or window (memory ~2x the largest write)"},
		&cli.BoolFlag{Name: "force", Usage: "skip the free-space check"},
		formatFlag(report.CmdSweep, "text", "output format: %s"),
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the report to this new file (atomically) instead of stdout"},
		&cli.StringFlag{Name: "convert", Value: "native", Usage: "byte order in the file: " + joinNames(convert.Orders()) + "; a list (native,big-endian) runs each as a variant of one interleaved sweep"},
		&cli.StringFlag{Name: "type", Value: "float64", Usage: "element type: " + joinNames(convert.Types()) + "; a list runs each as a variant (the same bytes per run)"},
		&cli.IntFlag{Name: "stride", Value: 1, Usage: "write every K-th element of a K times larger array"},
		&cli.BoolFlag{Name: "verify", Usage: "read every file back (untimed) and check each element"},
		&cli.BoolFlag{Name: "keep", Usage: "keep the last data file and print its path"},
		&cli.StringFlag{Name: "mode", Value: "write", Usage: "direction: write, read, both"},
		directFlag(),
		&cli.BoolFlag{Name: "drop-caches", Usage: "before each read run also drop the page cache via /proc/sys/vm/drop_caches (root)"},
		&cli.StringFlag{Name: "time-limit", Usage: "stop each run's calls after this time (stonewalling), e.g. 30s; MiB/s is the data moved over the time", DefaultText: "none: every run writes all the data"},
		&cli.StringFlag{Name: "data", Value: "ramp", Usage: "what the data holds: ramp (element i = i, as the reference program), random (incompressible, from --seed), zero"},
		&cli.StringFlag{Name: "flush", Usage: "flush after the last write, inside the timing: fsync, fdatasync, none", DefaultText: "none; fsync with --fsync and in the disk and parallel file system profiles"},
		&cli.StringFlag{Name: "open-sync", Usage: "open the data files with O_DSYNC (dsync) or O_SYNC (sync)", DefaultText: "neither"},
		&cli.BoolFlag{Name: "preallocate", Usage: "fallocate each data file to its full size before its run, untimed"},
		&cli.BoolFlag{Name: "overwrite", Usage: "write every run into one file iobench creates and writes in full first, instead of a new file per run"},
		&cli.BoolFlag{Name: "latency", Usage: "time write(2) calls: p50, p90, p99 and max µs per call for each size (a random sample of short calls, so the clock costs at most 0.2%; max is bounded)"},
		&cli.BoolFlag{Name: "latency-all", Usage: "--latency timing every call, for the true max (every call then pays the clock: 13-15% of a 1 KiB write to tmpfs where measured; see README)"},
		&cli.Float64Flag{Name: "knee-fraction", Value: knee.DefaultFraction, Usage: "share of the plateau the knee must reach"},
		&cli.BoolFlag{Name: "anonymize", Usage: "replace host name, user name and paths with stable placeholders in the report"},
		&cli.BoolFlag{Name: "no-progress", Usage: "no progress bar even on a terminal"},
		forFlag(),
		&cli.BoolFlag{Name: "dry-run", Usage: "print the plan (sizes, rounds, bytes, order, profile and why) and exit without I/O"},
		&cli.StringFlag{Name: "profile", Value: "auto", Usage: "sweep preset: " + strings.Join(profile.Names(), ", ") + " (iobench profiles lists them)"},
		&cli.BoolFlag{Name: "shared-file", Usage: "under MPI or with --jobs: all ranks (jobs) write disjoint segments of one file", DefaultText: "off: a file per rank"},
		&cli.IntFlag{Name: "jobs", Value: 1, Usage: "writers in this process, each with its own file (or segment of --shared-file), started together and aggregated as MPI ranks are"},
		&cli.BoolFlag{Name: "total", Usage: "under MPI: --count/--size is the total, split across ranks", DefaultText: "off: per rank, as IOR's block size"},
	}
}

// forFlag is --for: the runtimes the recommendation's how-to-apply block
// covers.
func forFlag() cli.Flag {
	return &cli.StringFlag{Name: "for", Usage: "the runtimes the \"how to apply it\" block covers, a comma list of " + strings.Join(advice.ApplyRuntimes(), ", "),
		DefaultText: "every runtime that applies"}
}

// forFromFlags reads --for into canonical runtime names; nil: all.
func forFromFlags(c *cli.Context) ([]string, error) {
	if c.IsSet("for") && strings.TrimSpace(c.String("for")) == "" {
		return nil, usagef("--for: %q is empty (valid: %s)", c.String("for"), strings.Join(advice.ApplyRuntimes(), ", "))
	}
	names, err := advice.ParseRuntimes(c.String("for"))
	if err != nil {
		return nil, usagef("--for: %w", err)
	}
	return names, nil
}

// joinNames lists values by name: "native, big-endian".
func joinNames[T fmt.Stringer](values []T) string {
	names := make([]string, len(values))
	for i, v := range values {
		names[i] = v.String()
	}
	return strings.Join(names, ", ")
}

// configFromFlags turns flags into a plan; every error names its flag.
func configFromFlags(c *cli.Context) (iobench.Config, error) {
	cfg := iobench.DefaultConfig()
	cfg.Dir = c.String("dir")
	var err error
	if err := variantsFromFlags(c, &cfg); err != nil {
		return cfg, err
	}
	if cfg.Count, err = countFromFlags(c, cfg.ElemSize()); err != nil {
		return cfg, err
	}
	if cfg.Sizes, err = sizesFromFlags(c); err != nil {
		return cfg, err
	}
	if err := checkSizeFlags(c, cfg); err != nil {
		return cfg, err
	}
	if err := repeatFromFlags(c, &cfg); err != nil {
		return cfg, err
	}
	cfg.KneeFraction = c.Float64("knee-fraction")
	cfg.ReferenceSizes = advice.ReferenceSizes()
	cfg.Order = iobench.Order(c.String("order"))
	if !c.IsSet("order") {
		cfg.Order = iobench.Ascending
		if cfg.Repeat > 1 || cfg.Auto {
			cfg.Order = iobench.Shuffled
		}
	}
	cfg.Seed = c.Uint64("seed")
	cfg.Fsync = c.Bool("fsync")
	cfg.Sync = iobench.SyncMode(c.String("sync"))
	cfg.Warmup = c.Bool("warmup")
	cfg.Source = iobench.SourceKind(c.String("source"))
	cfg.Force = c.Bool("force")
	cfg.Stride = c.Int("stride")
	cfg.Verify = c.Bool("verify")
	cfg.Keep = c.Bool("keep")
	cfg.Mode = iobench.Mode(c.String("mode"))
	if err := jobsFromFlags(c, &cfg); err != nil {
		return cfg, err
	}
	if err := ioFromFlags(c, &cfg); err != nil {
		return cfg, err
	}
	cfg.ReadShift = c.Int("read-shift")
	if c.Bool("drop-caches") {
		cfg.Drop = iobench.DropCaches
	}
	return cfg, nil
}

// repeatFromFlags reads --repeat (a number of rounds, or auto) and
// --time-budget.
func repeatFromFlags(c *cli.Context, cfg *iobench.Config) error {
	v := strings.TrimSpace(c.String("repeat"))
	if v == "auto" {
		cfg.Auto, cfg.Repeat = true, iobench.MinAutoRounds
	} else {
		n, err := strconv.Atoi(v)
		switch {
		case err != nil:
			return fmt.Errorf("--repeat: %q is not a number of rounds or auto", c.String("repeat"))
		case n < 1:
			return fmt.Errorf("--repeat: %d must be at least 1 (or auto)", n)
		case n > iobench.MaxRepeat:
			return fmt.Errorf("--repeat: %d is more than %d rounds", n, iobench.MaxRepeat)
		}
		cfg.Repeat = n
	}
	if !c.IsSet("time-budget") {
		return nil
	}
	return timeBudgetFromFlags(c, cfg)
}

// timeBudgetFromFlags reads --time-budget.
func timeBudgetFromFlags(c *cli.Context, cfg *iobench.Config) error {
	d, err := time.ParseDuration(c.String("time-budget"))
	switch {
	case err != nil:
		return fmt.Errorf("--time-budget: %q is not a duration such as 90s, 10m or 1h30m", c.String("time-budget"))
	case d <= 0:
		return fmt.Errorf("--time-budget: %q must be positive", c.String("time-budget"))
	}
	cfg.TimeBudget = d
	return nil
}

func countFromFlags(c *cli.Context, elemSize int64) (int64, error) {
	switch {
	case c.IsSet("count") && c.IsSet("size"):
		return 0, fmt.Errorf("--count and --size: give one, not both")
	case c.IsSet("size"):
		n, err := parseBytes("--size", c.String("size"))
		if err != nil {
			return 0, err
		}
		if n%elemSize != 0 {
			return 0, fmt.Errorf("--size: %q is not a whole number of %d-byte elements", c.String("size"), elemSize)
		}
		return n / elemSize, nil
	case c.IsSet("count"):
		return parseCount(c.String("count"))
	}
	return iobench.DefaultCount, nil
}

// parseCount accepts 250000000 and 2.5e8, as the reference program's
// output writes it.
func parseCount(s string) (int64, error) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n <= 0 {
			return 0, fmt.Errorf("--count: %q must be positive", s)
		}
		if n > maxCount {
			return 0, fmt.Errorf("--count: %q is too large (at most %d)", s, int64(maxCount))
		}
		return n, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	switch {
	case !countSyntax.MatchString(s): // ParseFloat takes 1_000, 0x1p10, Inf
		return 0, fmt.Errorf("--count: %q is not a whole number like 250000000 or 2.5e8", s)
	case err != nil && !errors.Is(err, strconv.ErrRange), f != math.Trunc(f):
		return 0, fmt.Errorf("--count: %q is not a whole number like 250000000 or 2.5e8", s)
	case f <= 0:
		return 0, fmt.Errorf("--count: %q must be positive", s)
	case err != nil || f > maxCount:
		return 0, fmt.Errorf("--count: %q is too large (at most %d)", s, int64(maxCount))
	}
	return int64(f), nil
}

// countSyntax is what --count accepts: decimal digits, optionally in
// scientific notation (2.5e8).
var countSyntax = regexp.MustCompile(`^[+]?[0-9]+(\.[0-9]+)?([eE][+]?[0-9]+)?$`)

// maxCount keeps --count and byte sizes far from int64 overflow when
// multiplied by an element size or a stride.
const maxCount = math.MaxInt64 / 16

// parseBytes reads a size flag: K, M, G, T binary (4K = 4096 bytes, as dd,
// fio and IOR read it), decimal units (4KB) refused with a hint.
func parseBytes(flag, s string) (int64, error) {
	n, err := units.ParseBytes(s)
	switch {
	case err != nil:
		return 0, fmt.Errorf("%s: %w", flag, err)
	case n == 0:
		return 0, fmt.Errorf("%s: %q must be positive", flag, s)
	case n > maxCount:
		return 0, fmt.Errorf("%s: %q is too large", flag, s)
	}
	return n, nil
}

func sizesFromFlags(c *cli.Context) ([]int64, error) {
	if c.IsSet("sizes") {
		if c.IsSet("min") || c.IsSet("max") {
			return nil, fmt.Errorf("--sizes: give either --sizes or --min/--max, not both")
		}
		return parseSizeList(c.String("sizes"))
	}
	lo, err := powerOfTwo("--min", c.String("min"))
	if err != nil {
		return nil, err
	}
	hi, err := powerOfTwo("--max", c.String("max"))
	if err != nil {
		return nil, err
	}
	if lo > hi {
		return nil, fmt.Errorf("--min: %q is larger than --max %q", c.String("min"), c.String("max"))
	}
	return iobench.PowersOfTwo(lo, hi), nil
}

// checkSizeFlags names --min or --max when a size the user set cannot be
// written: Config.Validate knows only the list of sizes.
func checkSizeFlags(c *cli.Context, cfg iobench.Config) error {
	for _, flag := range []string{"min", "max"} {
		if !c.IsSet(flag) {
			continue
		}
		n, _ := parseBytes("--"+flag, c.String(flag))
		switch {
		case n%cfg.ElemSize() != 0:
			return fmt.Errorf("--%s: %q is not a whole number of %d-byte %s elements", flag, c.String(flag), cfg.ElemSize(), cfg.Type)
		case n > cfg.TotalBytes():
			return fmt.Errorf("--%s: %q is larger than the data (%d bytes); raise --count or --size", flag, c.String(flag), cfg.TotalBytes())
		}
	}
	return nil
}

func powerOfTwo(flag, s string) (int64, error) {
	n, err := parseBytes(flag, s)
	if err != nil {
		return 0, err
	}
	if !iobench.IsPowerOfTwo(n) {
		return 0, fmt.Errorf("%s: %q is not a power of two", flag, s)
	}
	return n, nil
}

func parseSizeList(s string) ([]int64, error) {
	seen := map[int64]bool{}
	var sizes []int64
	for _, f := range strings.Split(s, ",") {
		n, err := parseBytes("--sizes", strings.TrimSpace(f))
		if err != nil {
			return nil, err
		}
		if seen[n] {
			return nil, fmt.Errorf("--sizes: %q is listed twice", strings.TrimSpace(f))
		}
		seen[n] = true
		sizes = append(sizes, n)
	}
	return sizes, nil
}
