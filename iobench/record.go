package iobench

import (
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/record"
)

// The engine's measurements are records (package record), which the
// report reads without the engine; these names keep the engine's code
// and its callers as they were.
type (
	Run            = record.Run
	Sample         = record.Sample
	Mode           = record.Mode
	SizeResult     = record.SizeResult
	Result         = record.Result
	Verified       = record.Verified
	LeftFile       = record.LeftFile
	Adaptive       = record.Adaptive
	JobsResult     = record.JobsResult
	RankSpread     = record.RankSpread
	Latency        = record.Latency
	LatencySummary = record.LatencySummary
	SourceKind     = record.SourceKind
	SyncMode       = record.SyncMode
	DataPattern    = record.DataPattern
	FlushMode      = record.FlushMode
	OpenSync       = record.OpenSync
	Order          = record.Order
	DropMode       = record.DropMode
	Phase          = record.Phase
)

// MiB is the unit every throughput uses: 2^20 bytes.
const MiB = record.MiB

const (
	ModeWrite = record.ModeWrite
	ModeRead  = record.ModeRead
	ModeBoth  = record.ModeBoth

	SourceArray  = record.SourceArray
	SourceWindow = record.SourceWindow
	SyncFS       = record.SyncFS
	SyncAll      = record.SyncAll
	SyncNone     = record.SyncNone
	DataRamp     = record.DataRamp
	DataRandom   = record.DataRandom
	DataZero     = record.DataZero

	FlushFsync     = record.FlushFsync
	FlushFdatasync = record.FlushFdatasync
	FlushNone      = record.FlushNone
	OpenSyncOff    = record.OpenSyncOff
	OpenDSync      = record.OpenDSync
	OpenSyncAll    = record.OpenSyncAll
	Ascending      = record.Ascending
	Descending     = record.Descending
	Shuffled       = record.Shuffled
	DropFadvise    = record.DropFadvise
	DropCaches     = record.DropCaches

	StopEstablished = record.StopEstablished
	StopNoKnee      = record.StopNoKnee
	StopBudget      = record.StopBudget
	StopMaxRounds   = record.StopMaxRounds

	MinAutoRounds       = record.MinAutoRounds
	MaxAutoRounds       = record.MaxAutoRounds
	DefaultBudgetRounds = record.DefaultBudgetRounds
	LatencyOverhead     = record.LatencyOverhead

	PhaseIdle      = record.PhaseIdle
	PhaseFill      = record.PhaseFill
	PhaseSync      = record.PhaseSync
	PhaseOpen      = record.PhaseOpen
	PhaseWrite     = record.PhaseWrite
	PhaseRead      = record.PhaseRead
	PhaseFsync     = record.PhaseFsync
	PhaseClose     = record.PhaseClose
	PhaseRemove    = record.PhaseRemove
	PhaseCollect   = record.PhaseCollect
	PhaseFdatasync = record.PhaseFdatasync
)

// Summarize groups samples by variant, direction and size (record.Summarize).
func Summarize(res *Result) []SizeResult { return record.Summarize(res) }

// MergeLatency is record.MergeLatency.
func MergeLatency(ls ...*Latency) *Latency { return record.MergeLatency(ls...) }

// Record is the plan as a report records it, enums spelled out; its
// knee fraction is the plan's, knee.DefaultFraction when the plan leaves
// it 0.
func (c Config) Record() record.Config {
	fraction := c.KneeFraction
	if fraction == 0 {
		fraction = knee.DefaultFraction
	}
	return record.Config{
		Count: c.Count, ElementType: c.Type.String(), ElementSize: c.ElemSize(), TotalBytes: c.TotalBytes(),
		Sizes: c.Sizes, Source: string(c.Source), SourceBytes: c.SourceBytes(), Sync: string(c.Sync),
		Fsync: c.FlushKind() == record.FlushFsync, Repeat: c.Repeat, RepeatAuto: c.Auto, TimeBudget: c.TimeBudget.Seconds(), Order: string(c.Order), Seed: c.Seed, Warmup: c.Warmup,
		Convert: c.Convert.String(), Stride: c.Stride, Mode: string(c.Mode), Direct: c.Direct,
		CacheDrop: string(c.Drop), Verify: c.Verify, KneeFraction: fraction,
		TimeLimit: c.TimeLimit.Seconds(), Data: string(c.DataKind()), Flush: string(c.FlushKind()), OpenSync: string(c.OpenSync),
		Preallocate: c.Preallocate, Overwrite: c.Overwrite, Latency: c.Latency, LatencyAll: c.LatencyAll,
		Jobs: c.Jobs, Variants: c.recordVariants(),
	}
}

// recordVariants describes the variants of a plan; nil for a sweep of
// one.
func (c Config) recordVariants() []record.ConfigVariant {
	var out []record.ConfigVariant
	for _, v := range c.Variants {
		vc := c.ForVariant(v)
		out = append(out, record.ConfigVariant{Name: v.Name, ElementType: v.Type.String(), ElementSize: vc.ElemSize(),
			Count: vc.Count, Convert: v.Convert.String(), Direct: v.Direct})
	}
	return out
}
