package cli

import (
	"fmt"
	"os"
	"strings"

	"github.com/iobench/iobench/iobench"
)

// The reads of the settings table: each fills its flag's value into the
// Config, and names the flag when the value is wrong. Values the engine
// can judge alone are left to Config.Validate.

// readDir reads --dir, which has no default and must be given: a sweep
// writes gigabytes, and the current directory is often a home with a
// quota, not the file system to measure. A dry run, which writes
// nothing, plans for the current directory without it.
func readDir(o *sweepOpts, cfg *iobench.Config) error {
	switch {
	case o.dir.set:
		cfg.Dir = o.dir.v
	case o.dryRun.v:
		cfg.Dir = "."
	default:
		here, _ := os.Getwd()
		return usagef("--dir: not given; iobench does not write its data files (gigabytes) into the current directory (%s) unasked: "+
			"give --dir . for it, or a directory on the file system to measure, such as --dir \"${TMPDIR:-/tmp}\"", here)
	}
	return nil
}

// readCount reads --count or --size; with neither, cfg keeps its count
// (the sweep's default, or another command's).
func readCount(o *sweepOpts, cfg *iobench.Config) error {
	if !o.count.set && !o.size.set {
		return nil
	}
	n, err := countFromFlags(o, cfg.ElemSize())
	cfg.Count = n
	return err
}

// readSizes reads --sizes or --min/--max, after the count and the type:
// whether each size can be written is the Config's rule, asked at once
// so that the error names the flag that gave the size.
func readSizes(o *sweepOpts, cfg *iobench.Config) error {
	sizes, typed, err := sizesFromFlags(o)
	if err != nil {
		return err
	}
	cfg.Sizes = sizes
	probe := *cfg
	probe.Sizes = typed
	return sizeWords(o.sizeFlag, probe.ValidSizes())
}

func readRepeat(o *sweepOpts, cfg *iobench.Config) error { return repeatFromFlags(o, cfg) }

// readOrder reads --order; unset, rounds are shuffled when there are
// several, so that drift spreads over every size.
func readOrder(o *sweepOpts, cfg *iobench.Config) error {
	cfg.Order = iobench.Order(o.order.v)
	if !o.order.set {
		cfg.Order = iobench.Ascending
		if cfg.Repeat > 1 || cfg.Auto {
			cfg.Order = iobench.Shuffled
		}
	}
	return nil
}

func readSeed(o *sweepOpts, cfg *iobench.Config) error {
	cfg.Seed = o.seed.v
	return nil
}

func readFsync(o *sweepOpts, cfg *iobench.Config) error {
	cfg.Fsync = o.fsync.v
	return nil
}

func readDropCaches(o *sweepOpts, cfg *iobench.Config) error {
	if o.dropCaches.v {
		cfg.Drop = iobench.DropCaches
	}
	return nil
}

func readKneeFraction(o *sweepOpts, cfg *iobench.Config) error {
	cfg.KneeFraction = o.kneeFraction.v
	return nil
}

func readReadShift(o *sweepOpts, cfg *iobench.Config) error {
	cfg.ReadShift = o.readShift.v
	return nil
}

func readTimeLimit(o *sweepOpts, cfg *iobench.Config) error {
	if !o.timeLimit.set {
		return nil
	}
	d, err := parseDuration(iobench.SetTimeLimit, o.timeLimit.v, "30s, 5m or 1h30m")
	if err != nil {
		return err
	}
	cfg.TimeLimit = d
	return nil
}

// notEmpty refuses a flag given an empty value, which its type would
// otherwise take for its default.
func notEmpty(flag string, v opt[string]) error {
	if v.set && strings.TrimSpace(v.v) == "" {
		return fmt.Errorf("%s: the value is empty", flag)
	}
	return nil
}

func readData(o *sweepOpts, cfg *iobench.Config) error {
	cfg.Data = iobench.DataPattern(o.data.v)
	return notEmpty("--data", o.data)
}

// readFlush reads --flush, after --fsync, which it must not contradict.
func readFlush(o *sweepOpts, cfg *iobench.Config) error {
	if err := notEmpty("--flush", o.flush); err != nil || !o.flush.set {
		return err
	}
	cfg.Flush = iobench.FlushMode(o.flush.v)
	if o.fsync.set && o.fsync.v != (cfg.Flush == iobench.FlushFsync) {
		return fmt.Errorf("--flush: %q contradicts --fsync=%v (--fsync is --flush fsync); give one", o.flush.v, o.fsync.v)
	}
	cfg.Fsync = cfg.Flush == iobench.FlushFsync
	return nil
}

func readOpenSync(o *sweepOpts, cfg *iobench.Config) error {
	cfg.OpenSync = iobench.OpenSync(o.openSync.v)
	return notEmpty("--open-sync", o.openSync)
}

// perRankOnly refuses flag, on in the Config, with --shared-file: it
// needs a file of each rank's own.
func perRankOnly(flag string, on func(*iobench.Config) bool) func(o *sweepOpts, cfg *iobench.Config) error {
	return func(o *sweepOpts, cfg *iobench.Config) error {
		if on(cfg) && o.sharedFile.v {
			return fmt.Errorf("%s: applies to a file per rank; it is not available with --shared-file", flag)
		}
		return nil
	}
}

// readLatency reads --latency and --latency-all, which implies it.
func readLatency(o *sweepOpts, cfg *iobench.Config) error {
	cfg.LatencyAll = o.latencyAll.v
	cfg.Latency = o.latency.v || cfg.LatencyAll
	return nil
}
