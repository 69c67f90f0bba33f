package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/iobench/iobench/iobench"
)

// ioFromFlags reads the flags of a run's I/O: --time-limit, --data,
// --flush, --open-sync, --preallocate, --overwrite and --latency. Values
// are checked by Config.Validate; what it cannot know (a shared file, an
// empty value) is checked here.
func ioFromFlags(c *cli.Context, cfg *iobench.Config) error {
	if c.IsSet("time-limit") {
		v := c.String("time-limit")
		d, err := time.ParseDuration(strings.TrimSpace(v))
		switch {
		case err != nil:
			return fmt.Errorf("--time-limit: %q is not a duration such as 30s, 5m or 1h30m", v)
		case d <= 0:
			return fmt.Errorf("--time-limit: %q must be positive", v)
		}
		cfg.TimeLimit = d
	}
	cfg.Data = iobench.DataPattern(c.String("data"))
	for _, f := range []string{"data", "flush", "open-sync"} {
		if c.IsSet(f) && strings.TrimSpace(c.String(f)) == "" {
			return fmt.Errorf("--%s: the value is empty", f)
		}
	}
	if c.IsSet("flush") {
		cfg.Flush = iobench.FlushMode(c.String("flush"))
		if c.IsSet("fsync") && c.Bool("fsync") != (cfg.Flush == iobench.FlushFsync) {
			return fmt.Errorf("--flush: %q contradicts --fsync=%v (--fsync is --flush fsync); give one", c.String("flush"), c.Bool("fsync"))
		}
		cfg.Fsync = cfg.Flush == iobench.FlushFsync
	}
	cfg.OpenSync = iobench.OpenSync(c.String("open-sync"))
	cfg.Preallocate, cfg.Overwrite, cfg.Latency = c.Bool("preallocate"), c.Bool("overwrite"), c.Bool("latency") || c.Bool("latency-all")
	cfg.LatencyAll = c.Bool("latency-all")
	if c.Bool("shared-file") {
		for _, f := range []string{"overwrite", "preallocate"} {
			if c.Bool(f) {
				return fmt.Errorf("--%s: applies to a file per rank; it is not available with --shared-file", f)
			}
		}
	}
	return nil
}

// ioPlanLine is the dry run's line on the runs' I/O.
func ioPlanLine(cfg iobench.Config) string {
	parts := []string{"flush " + string(cfg.FlushKind()), "data " + string(cfg.DataKind())}
	if cfg.OpenSync != iobench.OpenSyncOff {
		parts = append(parts, "open-sync "+string(cfg.OpenSync))
	}
	for _, o := range []struct {
		on   bool
		name string
	}{{cfg.Preallocate, "preallocate"}, {cfg.Overwrite, "overwrite"}, {cfg.Latency && !cfg.LatencyAll, "latency"}, {cfg.LatencyAll, "latency (every call)"}} {
		if o.on {
			parts = append(parts, o.name)
		}
	}
	limit := "none"
	if cfg.TimeLimit > 0 {
		limit = cfg.TimeLimit.String()
	}
	return strings.Join(append(parts, "time limit "+limit), "; ")
}
