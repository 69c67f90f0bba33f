package record

import (
	"math"
	"slices"
	"time"
)

// Settings are the settings a sweep's plan (iobench.Config) and its
// record share, declared once: the plan embeds them and the record keeps
// them as they were, so a setting reported as it is set needs no second
// field. The record's other fields are derived from the plan.
type Settings struct {
	Count  int64      `json:"count"`  // elements per run
	Sizes  []int64    `json:"sizes"`  // write sizes, bytes
	Source SourceKind `json:"source"` // array or window
	Sync   SyncMode   `json:"sync"`   // flush before each run, untimed: syncfs, sync, none
	// Repeat is the rounds, each running every size once; in a record
	// with Auto, the most any size ran.
	Repeat int `json:"repeat"`
	// Auto: adaptive rounds (--repeat auto) instead of Repeat rounds.
	Auto   bool   `json:"repeat_auto"`
	Order  Order  `json:"order"`  // size order within a round
	Seed   uint64 `json:"seed"`   // shuffle seed
	Warmup bool   `json:"warmup"` // one untimed pass before the first run
	Stride int    `json:"stride"` // source elements per element written
	Mode   Mode   `json:"mode"`   // write, read, both
	Direct bool   `json:"direct"` // O_DIRECT
	// Drop is how read runs avoid the page cache.
	Drop   DropMode `json:"cache_drop"`
	Verify bool     `json:"verify"` // every file read back and checked after its run
	// Jobs is the writers in one process, each with its own file (or
	// segment of a shared one), aggregated as MPI ranks are; 0 is 1.
	Jobs     int      `json:"jobs,omitempty"`
	OpenSync OpenSync `json:"open_sync,omitempty"` // O_DSYNC (dsync), O_SYNC (sync); "": neither
	// Preallocate fallocates each data file to its full size before its
	// timed run, untimed.
	Preallocate bool `json:"preallocate"`
	// Overwrite writes every run into one file, written in full before
	// the first run, instead of a new file per run.
	Overwrite bool `json:"overwrite"`
	// Latency times write(2) and read(2) calls: a random sample of them,
	// or every call with LatencyAll.
	Latency    bool `json:"latency"`
	LatencyAll bool `json:"latency_all,omitempty"`
}

// Config is the plan as reported, with enums spelled out.
type Config struct {
	Settings
	ElementType string  `json:"element_type"`                  // float64, int32, ...
	ElementSize int64   `json:"element_size"`                  // bytes
	TotalBytes  int64   `json:"total_bytes"`                   // bytes per run
	SourceBytes int64   `json:"source_bytes"`                  // memory held by the source
	Fsync       bool    `json:"fsync"`                         // fsync inside the timing
	TimeBudget  float64 `json:"time_budget_seconds,omitempty"` // --time-budget, seconds; 0: the default
	Convert     string  `json:"convert"`                       // byte order in the file
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
	TimeLimit float64 `json:"time_limit_seconds,omitempty"` // --time-limit, seconds; 0: none
	Data      string  `json:"data,omitempty"`               // ramp, random, zero
	Flush     string  `json:"flush,omitempty"`              // fsync, fdatasync, none: inside the timing
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
	if c.Mode == ModeRead {
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
