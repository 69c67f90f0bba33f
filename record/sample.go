package record

import "time"

// MiB is the unit every throughput uses: 2^20 bytes.
const MiB = 1 << 20

// Sample is the raw outcome of one run.
type Sample struct {
	Run
	Seconds     float64   `json:"seconds"`       // open to close, monotonic clock
	Bytes       int64     `json:"bytes"`         // bytes written (or read)
	Calls       int64     `json:"calls"`         // write(2) or read(2) calls made, retries included
	ShortWrites int64     `json:"short_writes"`  // calls that moved fewer bytes than asked
	EINTR       int64     `json:"eintr_retries"` // calls interrupted and retried
	Start       time.Time `json:"start"`         // wall clock, for aggregating ranks
	End         time.Time `json:"end"`
	// TimeLimited: the run stopped at Config.TimeLimit before moving all
	// the data; Bytes is what it moved.
	TimeLimited bool     `json:"time_limited,omitempty"`
	Latency     *Latency `json:"latency,omitempty"` // per-call times, with Config.Latency
}

// MiBPerSec is the run's throughput in MiB/s (2^20 bytes per second).
func (s Sample) MiBPerSec() float64 {
	if s.Seconds <= 0 {
		return 0
	}
	return float64(s.Bytes) / s.Seconds / MiB
}

// Run is one timed pass over the data with one write (or read) size.
type Run struct {
	Mode      Mode  `json:"mode"` // ModeWrite or ModeRead
	WriteSize int64 `json:"write_size"`
	Round     int   `json:"round"` // 1-based
	Seq       int   `json:"seq"`   // 1-based position in the sweep
	// Variant names the Variant the run writes; "" in a sweep of one.
	Variant string `json:"variant,omitempty"`
}

// Mode is the direction measured.
type Mode string

// Directions.
const (
	ModeWrite Mode = "write"
	ModeRead  Mode = "read"
	ModeBoth  Mode = "both"
)

// Directions are the run directions of a mode: both has write and read.
func (m Mode) Directions() []Mode {
	switch m {
	case ModeRead:
		return []Mode{ModeRead}
	case ModeBoth:
		return []Mode{ModeWrite, ModeRead}
	}
	return []Mode{ModeWrite}
}
