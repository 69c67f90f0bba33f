package cli

import (
	"strings"

	"github.com/iobench/iobench/iobench"
)

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
