package cli

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/iobench/iobench/iobench"
)

// The reads of the settings table: each fills its flag's value into the
// Config, and names the flag when the value is wrong. Values the engine
// can judge alone are left to Config.Validate.

// readDir reads --dir, which must be given (or a dry run asked for): a
// sweep writes gigabytes, and the current directory is often a home with
// a quota, not the file system to measure.
func readDir(c *cli.Context, cfg *iobench.Config) error {
	if !c.IsSet("dir") && !c.Bool("dry-run") {
		here, _ := os.Getwd()
		return usagef("--dir: not given; iobench does not write its data files (gigabytes) into the current directory (%s) unasked: "+
			"give --dir . for it, or a directory on the file system to measure, such as --dir \"${TMPDIR:-/tmp}\"", here)
	}
	cfg.Dir = c.String("dir")
	return nil
}

// readCount reads --count or --size; with neither, cfg keeps its count
// (the sweep's default, or another command's).
func readCount(c *cli.Context, cfg *iobench.Config) error {
	if !c.IsSet("count") && !c.IsSet("size") {
		return nil
	}
	n, err := countFromFlags(c, cfg.ElemSize())
	cfg.Count = n
	return err
}

// readSizes reads --sizes or --min/--max, after the count, since a size
// larger than the data is named by its flag.
func readSizes(c *cli.Context, cfg *iobench.Config) error {
	sizes, err := sizesFromFlags(c)
	if err != nil {
		return err
	}
	cfg.Sizes = sizes
	return checkSizeFlags(c, *cfg)
}

func readRepeat(c *cli.Context, cfg *iobench.Config) error { return repeatFromFlags(c, cfg) }

// readOrder reads --order; unset, rounds are shuffled when there are
// several, so that drift spreads over every size.
func readOrder(c *cli.Context, cfg *iobench.Config) error {
	cfg.Order = iobench.Order(c.String("order"))
	if !c.IsSet("order") {
		cfg.Order = iobench.Ascending
		if cfg.Repeat > 1 || cfg.Auto {
			cfg.Order = iobench.Shuffled
		}
	}
	return nil
}

func readSeed(c *cli.Context, cfg *iobench.Config) error {
	cfg.Seed = c.Uint64("seed")
	return nil
}

func readFsync(c *cli.Context, cfg *iobench.Config) error {
	cfg.Fsync = c.Bool("fsync")
	return nil
}

func readSync(c *cli.Context, cfg *iobench.Config) error {
	cfg.Sync = iobench.SyncMode(c.String("sync"))
	return nil
}

func readSource(c *cli.Context, cfg *iobench.Config) error {
	cfg.Source = iobench.SourceKind(c.String("source"))
	return nil
}

func readStride(c *cli.Context, cfg *iobench.Config) error {
	cfg.Stride = c.Int("stride")
	return nil
}

func readMode(c *cli.Context, cfg *iobench.Config) error {
	cfg.Mode = iobench.Mode(c.String("mode"))
	return nil
}

func readDropCaches(c *cli.Context, cfg *iobench.Config) error {
	if c.Bool("drop-caches") {
		cfg.Drop = iobench.DropCaches
	}
	return nil
}

func readKneeFraction(c *cli.Context, cfg *iobench.Config) error {
	cfg.KneeFraction = c.Float64("knee-fraction")
	return nil
}

func readReadShift(c *cli.Context, cfg *iobench.Config) error {
	cfg.ReadShift = c.Int("read-shift")
	return nil
}

func readTimeLimit(c *cli.Context, cfg *iobench.Config) error {
	if !c.IsSet("time-limit") {
		return nil
	}
	v := c.String("time-limit")
	d, err := time.ParseDuration(strings.TrimSpace(v))
	switch {
	case err != nil:
		return fmt.Errorf("--time-limit: %q is not a duration such as 30s, 5m or 1h30m", v)
	case d <= 0:
		return fmt.Errorf("--time-limit: %q must be positive", v)
	}
	cfg.TimeLimit = d
	return nil
}

// notEmpty refuses a flag given an empty value, which its type would
// otherwise take for its default.
func notEmpty(c *cli.Context, flag string) error {
	if c.IsSet(flag) && strings.TrimSpace(c.String(flag)) == "" {
		return fmt.Errorf("--%s: the value is empty", flag)
	}
	return nil
}

func readData(c *cli.Context, cfg *iobench.Config) error {
	cfg.Data = iobench.DataPattern(c.String("data"))
	return notEmpty(c, "data")
}

// readFlush reads --flush, after --fsync, which it must not contradict.
func readFlush(c *cli.Context, cfg *iobench.Config) error {
	if err := notEmpty(c, "flush"); err != nil || !c.IsSet("flush") {
		return err
	}
	cfg.Flush = iobench.FlushMode(c.String("flush"))
	if c.IsSet("fsync") && c.Bool("fsync") != (cfg.Flush == iobench.FlushFsync) {
		return fmt.Errorf("--flush: %q contradicts --fsync=%v (--fsync is --flush fsync); give one", c.String("flush"), c.Bool("fsync"))
	}
	cfg.Fsync = cfg.Flush == iobench.FlushFsync
	return nil
}

func readOpenSync(c *cli.Context, cfg *iobench.Config) error {
	cfg.OpenSync = iobench.OpenSync(c.String("open-sync"))
	return notEmpty(c, "open-sync")
}

// perRankOnly refuses flag with --shared-file: it needs a file of each
// rank's own.
func perRankOnly(flag string) func(c *cli.Context, cfg *iobench.Config) error {
	return func(c *cli.Context, _ *iobench.Config) error {
		if c.Bool(flag) && c.Bool("shared-file") {
			return fmt.Errorf("--%s: applies to a file per rank; it is not available with --shared-file", flag)
		}
		return nil
	}
}

// readLatency reads --latency and --latency-all, which implies it.
func readLatency(c *cli.Context, cfg *iobench.Config) error {
	cfg.LatencyAll = c.Bool("latency-all")
	cfg.Latency = c.Bool("latency") || cfg.LatencyAll
	return nil
}
