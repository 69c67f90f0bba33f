package record

import (
	"math"
	"slices"
	"time"
)

// Config is the plan as reported, with enums spelled out.
type Config struct {
	Count       int64   `json:"count"`                         // elements per run
	ElementType string  `json:"element_type"`                  // float64, int32, ...
	ElementSize int64   `json:"element_size"`                  // bytes
	TotalBytes  int64   `json:"total_bytes"`                   // bytes per run
	Sizes       []int64 `json:"sizes"`                         // write sizes, bytes
	Source      string  `json:"source"`                        // array or window
	SourceBytes int64   `json:"source_bytes"`                  // memory held by the source
	Sync        string  `json:"sync"`                          // flush before each run: syncfs, sync, none
	Fsync       bool    `json:"fsync"`                         // fsync inside the timing
	Repeat      int     `json:"repeat"`                        // rounds (with RepeatAuto, the most any size ran)
	RepeatAuto  bool    `json:"repeat_auto"`                   // --repeat auto: adaptive rounds
	TimeBudget  float64 `json:"time_budget_seconds,omitempty"` // --time-budget, seconds; 0: the default
	Order       string  `json:"order"`                         // size order within a round
	Seed        uint64  `json:"seed"`                          // shuffle seed
	Warmup      bool    `json:"warmup"`                        // warm-up pass requested
	Convert     string  `json:"convert"`                       // byte order in the file
	Stride      int     `json:"stride"`                        // source elements per element written
	Mode        string  `json:"mode"`                          // write, read, both
	Direct      bool    `json:"direct"`                        // O_DIRECT
	CacheDrop   string  `json:"cache_drop"`                    // how read runs avoid the page cache
	Verify      bool    `json:"verify"`                        // every file read back and checked
	Jobs        int     `json:"jobs,omitempty"`                // --jobs: writers in one process; 0 is 1
	// Variants are the variants of an interleaved sweep, in plan order.
	Variants     []ConfigVariant `json:"variants,omitempty"`
	KneeFraction float64         `json:"knee_fraction"`   // share of the plateau that counts
	Clock        string          `json:"clock,omitempty"` // "" is iobench's monotonic clock
	Profile      string          `json:"profile,omitempty"`
	ProfileWhy   string          `json:"profile_reason,omitempty"`
	// StripeSize is the Lustre stripe size of the directory (lfs
	// getstripe) when known, for the how-to-apply block; 0: unknown.
	StripeSize int64 `json:"stripe_size,omitempty"`
	// How each run did its I/O; empty in results of older versions and
	// of other tools.
	TimeLimit   float64 `json:"time_limit_seconds,omitempty"` // --time-limit, seconds; 0: none
	Data        string  `json:"data,omitempty"`               // ramp, random, zero
	Flush       string  `json:"flush,omitempty"`              // fsync, fdatasync, none: inside the timing
	OpenSync    string  `json:"open_sync,omitempty"`          // dsync, sync; "": neither
	Preallocate bool    `json:"preallocate"`                  // each file fallocated before its run
	Overwrite   bool    `json:"overwrite"`                    // one file, written in full first, overwritten by every run
	Latency     bool    `json:"latency"`                      // per-call times measured
	LatencyAll  bool    `json:"latency_all,omitempty"`        // every call timed, not a sample
}

// ConfigVariant is one variant of an interleaved sweep (--convert,
// --type or --direct lists) as the plan had it.
type ConfigVariant struct {
	Name        string `json:"name"` // "convert=big-endian"
	ElementType string `json:"element_type"`
	ElementSize int64  `json:"element_size"`
	Count       int64  `json:"count"` // elements per run: the same bytes as every variant
	Convert     string `json:"convert"`
	Direct      bool   `json:"direct"`
}

// PrimaryMode is the direction a report's Knee describes.
func (c Config) PrimaryMode() Mode {
	if c.Mode == string(ModeRead) {
		return ModeRead
	}
	return ModeWrite
}

// VariantNames are the names of the plan's variants in order; nil for a
// sweep of one.
func (c Config) VariantNames() []string {
	var out []string
	for _, v := range c.Variants {
		out = append(out, v.Name)
	}
	return out
}

// MaxSize is the largest write size of the plan; 0 with none.
func (c Config) MaxSize() int64 {
	if len(c.Sizes) == 0 {
		return 0
	}
	return slices.Max(c.Sizes)
}

// Budget is --time-budget as a duration; 0: the default. Rounded: the
// seconds are a float, and truncating would lose a nanosecond of some.
func (c Config) Budget() time.Duration {
	return time.Duration(math.Round(c.TimeBudget * float64(time.Second)))
}
