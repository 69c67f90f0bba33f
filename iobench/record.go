package iobench

import (
	"cmp"
	"fmt"
	"reflect"
	"strings"
	"time"

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

// Record is the plan as a report records it, enums spelled out: the
// shared Settings as they are, every other field of Config tagged with a
// record field copied into it (see Config), then the derived ones set:
// sizes in bytes, the flush the plan makes of Fsync and Flush, the data
// pattern, the knee fraction (knee.DefaultFraction when the plan leaves
// it 0) and the variants.
func (c Config) Record() record.Config {
	var r record.Config
	copyTagged(reflect.ValueOf(c), reflect.ValueOf(&r).Elem())
	r.ElementSize, r.TotalBytes, r.SourceBytes = c.ElemSize(), c.TotalBytes(), c.SourceBytes()
	r.Fsync, r.Flush = c.FlushKind() == record.FlushFsync, string(c.FlushKind())
	r.Data = string(c.DataKind())
	r.KneeFraction = cmp.Or(c.KneeFraction, knee.DefaultFraction)
	r.Variants = c.recordVariants()
	return r
}

// copyTagged copies each field of src whose record tag names a field of
// dst (and is not derived) into that field: the same type as is, an
// enum as its name, a duration as seconds. Any other pair panics, which
// TestEverySettingIsRecorded turns into a failure.
func copyTagged(src, dst reflect.Value) {
	for i := range src.NumField() {
		name, derived, _ := strings.Cut(src.Type().Field(i).Tag.Get("record"), ",")
		if name == "-" || derived != "" {
			continue
		}
		from, to := src.Field(i), dst.FieldByName(name)
		switch {
		case !to.IsValid():
			panic(fmt.Sprintf("Config.%s: record.Config has no field %s", src.Type().Field(i).Name, name))
		case from.Type() == to.Type():
			to.Set(from)
		case from.Type() == reflect.TypeFor[time.Duration]() && to.Kind() == reflect.Float64:
			to.SetFloat(from.Interface().(time.Duration).Seconds())
		case to.Kind() == reflect.String && from.Type().Implements(reflect.TypeFor[fmt.Stringer]()):
			to.SetString(from.Interface().(fmt.Stringer).String())
		case to.Kind() == reflect.String && from.Kind() == reflect.String:
			to.SetString(from.String())
		default:
			panic(fmt.Sprintf("Config.%s: no record of a %v as record.Config.%s", src.Type().Field(i).Name, from.Type(), name))
		}
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
