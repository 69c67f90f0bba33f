package iobench

import (
	"cmp"
	"math/bits"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/iobench/iobench/convert"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/units"
)

// Defaults of the reference experiment (GCC PR libfortran/91030).
const (
	DefaultCount   = 250_000_000 // float64 elements: 2 GB
	DefaultMinSize = 1 << 10
	DefaultMaxSize = 1 << 26
)

// Config is one sweep's plan, all sizes in bytes. The settings a report
// keeps as they are set are record.Settings, embedded: declared once,
// for the engine and the record. Each other field's record tag names the
// field of record.Config that reports it: Record copies it there,
// converted by kind (an enum's name, a duration's seconds), or derives
// the value (",derived": Record says how); "-" is not reported.
type Config struct {
	// Settings are the settings the record keeps as they are, declared
	// once (record.Settings): the count, sizes, rounds, order, modes and
	// switches.
	record.Settings `record:"Settings"`

	Dir     string        `record:"-"`
	Type    convert.Type  `record:"ElementType"` // element type
	Convert convert.Order `record:"Convert"`     // byte order in the file
	// TimeBudget bounds adaptive rounds (Auto); 0: DefaultBudgetRounds x
	// the first round.
	TimeBudget time.Duration `record:"TimeBudget"`
	// KneeFraction is the knee's band, which adaptive rounds aim at.
	KneeFraction float64 `record:"KneeFraction,derived"`
	// ReferenceSizes are sizes a recommendation is judged against (a
	// runtime's default buffer): adaptive rounds run those in Sizes in
	// each of the first MinAutoRounds rounds, so the gain over them can
	// be tested, however far below the knee they lie.
	ReferenceSizes []int64 `record:"-"`
	Fsync          bool    `record:"Fsync,derived"` // fsync before close, inside the timing
	Force          bool    `record:"-"`             // skip the free-space check
	Keep           bool    `record:"-"`             // keep the last data file
	// TimeLimit stops each run's calls once it has run this long
	// (stonewalling); throughput is then the bytes moved over the time
	// taken. 0: every run moves all the data.
	TimeLimit time.Duration `record:"TimeLimit"`
	Data      DataPattern   `record:"Data,derived"`  // what the data holds; "" is DataRamp
	Flush     FlushMode     `record:"Flush,derived"` // flush inside the timing; "": FlushFsync if Fsync, else none
	Ranks     int           `record:"-"`             // processes writing to the file system at once (MPI); 0 means 1
	// Writer is this writer's place among those of one sweep (MPI rank,
	// job); each writes its own random data, so a deduplicating file
	// system cannot store the writers' data once.
	Writer int `record:"-"`
	// ReadShift makes each MPI rank's read runs read the file of the rank
	// ReadShift places on, (rank+ReadShift) mod ranks, as IOR's -C does,
	// so no rank reads what its own client cached; 0: its own file.
	ReadShift int `record:"-"`
	// Variants, when set, are the ways of writing the data that one
	// interleaved plan compares (Variant); they replace Type, Convert
	// and Direct, and Count counts elements of Type. The first is the
	// reference.
	Variants []Variant `record:"Variants,derived"`
}

// DefaultConfig is the reference experiment done right: 2.5e8 float64
// values, write sizes 2^10 .. 2^26 bytes, one round, sync between runs.
func DefaultConfig() Config {
	return Config{
		Settings: record.Settings{
			Count:  DefaultCount,
			Stride: 1,
			Sizes:  units.PowersOfTwo(DefaultMinSize, DefaultMaxSize),
			Repeat: 1,
			Order:  Ascending,
			Sync:   SyncFS,
			Warmup: true,
			Source: SourceArray,
			Mode:   ModeWrite,
			Drop:   DropFadvise,
		},
		Dir:     ".",
		Type:    convert.Float64,
		Convert: convert.Native,
		Data:    DataRamp,
	}
}

// DataKind is the data pattern, DataRamp when unset.
func (c Config) DataKind() DataPattern {
	if c.Data == "" {
		return DataRamp
	}
	return c.Data
}

// FlushKind is the flush inside the timing: Flush, or from Fsync when it
// is unset (profiles and callers of older versions set Fsync).
func (c Config) FlushKind() FlushMode {
	switch {
	case c.Flush != "":
		return c.Flush
	case c.Fsync:
		return FlushFsync
	}
	return FlushNone
}

// Durable reports whether each run's data is on stable storage when the
// run's clock stops: a flush inside the timing or a synchronous open.
func (c Config) Durable() bool { return c.FlushKind() != FlushNone || c.OpenSync != OpenSyncOff }

// ElemSize is the size of one element in bytes.
func (c Config) ElemSize() int64 { return int64(c.Type.Size()) }

// TotalBytes is the number of bytes one run writes.
func (c Config) TotalBytes() int64 { return c.Count * c.ElemSize() }

// MaxSize is the largest write size of the sweep.
func (c Config) MaxSize() int64 {
	var m int64
	for _, s := range c.Sizes {
		m = max(m, s)
	}
	return m
}

// KneeFractionError is the rule of KneeFraction, for a command that
// takes it without a whole plan: a share in (0, 1]. Validate leaves a
// plan's 0 alone: unset, knee.DefaultFraction.
func (c Config) KneeFractionError() error {
	if f := c.KneeFraction; !(f > 0 && f <= 1) { // NaN too
		return configErr(SetKneeFraction, f, "%v must be in (0, 1]", f)
	}
	return nil
}

// CountError is the rule of Count, for a command that reads it before
// the whole plan: a positive number of elements.
func (c Config) CountError() error {
	if c.Count <= 0 {
		return configErr(SetCount, c.Count, "%d must be positive", c.Count)
	}
	return nil
}

// RepeatError is the rule of Repeat, for a command that reads it before
// the whole plan (the runtime checks' rounds too): 1 to MaxRepeat rounds.
func (c Config) RepeatError() error {
	switch {
	case c.Repeat < 1:
		return configErr(SetRepeat, c.Repeat, "%d must be at least 1 (or %s auto)", c.Repeat, SetRepeat.Ref())
	case c.Repeat > MaxRepeat:
		return configErr(SetRepeat, c.Repeat, "%d is more than %d rounds", c.Repeat, MaxRepeat)
	}
	return nil
}

// TimeBudgetError is the rule of TimeBudget, for a command that reads it
// before the whole plan: 0 (the default) or a positive duration, and only
// with adaptive rounds.
func (c Config) TimeBudgetError() error {
	switch {
	case c.TimeBudget == 0:
		return nil
	case DurationError(SetTimeBudget, c.TimeBudget) != nil:
		return DurationError(SetTimeBudget, c.TimeBudget)
	case !c.Auto:
		return configErr(SetTimeBudget, c.TimeBudget, "%s needs %s auto (a fixed %s runs its rounds whatever they cost)", c.TimeBudget, SetRepeat.Ref(), SetRepeat.Ref())
	}
	return nil
}

// DurationError is the rule of a duration setting given a value (the
// time budget, the time limit): it must be positive.
func DurationError(set Setting, d time.Duration) error {
	if d <= 0 {
		return configErr(set, d, "%s must be positive", d)
	}
	return nil
}

// SyncError is the rule of Sync, for a command that reads it before the
// whole plan.
func (c Config) SyncError() error { return oneOf(SetSync, c.Sync, SyncFS, SyncAll, SyncNone) }

// Validate checks the plan before any I/O. Errors are *ConfigError.
func (c Config) Validate() error {
	if len(c.Variants) > 0 {
		return c.validVariants()
	}
	switch {
	case c.CountError() != nil:
		return c.CountError()
	case c.Stride < 1:
		return configErr(SetStride, c.Stride, "%d must be at least 1", c.Stride)
	case c.RepeatError() != nil:
		return c.RepeatError()
	case c.KneeFraction != 0 && c.KneeFractionError() != nil:
		return c.KneeFractionError()
	case c.TimeBudgetError() != nil:
		return c.TimeBudgetError()
	case len(c.Sizes) == 0:
		return configErr(SetSizes, "", "no write sizes to run")
	case c.Jobs < 0 || c.Jobs > MaxJobs:
		return configErr(SetJobs, c.Jobs, "%d must be between 1 and %d", c.Jobs, MaxJobs)
	case c.Jobs > 1 && c.Ranks > 1:
		return configErr(SetJobs, c.Jobs, "%d writers per process with %d MPI ranks: under MPI each rank is one writer; start more ranks (mpirun -np) instead", c.Jobs, c.Ranks)
	case c.Jobs > 1 && c.Keep:
		return configErr(SetKeep, true, "keeps one data file; it is not available with %s above 1", SetJobs.Ref())
	case c.Direct && directFlag == 0:
		return configErr(SetDirect, true, "O_DIRECT is not available on %s; iobench supports it on Linux only", runtime.GOOS)
	case c.TimeLimit != 0 && DurationError(SetTimeLimit, c.TimeLimit) != nil:
		return DurationError(SetTimeLimit, c.TimeLimit)
	case c.Preallocate && !canFallocate:
		return configErr(SetPreallocate, true, "fallocate(2) is not available on %s; iobench supports it on Linux only", runtime.GOOS)
	case c.Flush == FlushFdatasync && !canFdatasync:
		return configErr(SetFlush, c.Flush, "fdatasync(2) is not available on %s; use %s fsync", runtime.GOOS, SetFlush.Ref())
	}
	if err := c.ValidSizes(); err != nil {
		return err
	}
	if err := c.validEnums(); err != nil {
		return err
	}
	if err := c.validMagnitude(); err != nil {
		return err
	}
	return c.validCombination()
}

// MaxJobs bounds Jobs: each job is a goroutine with its own source and
// data file.
const MaxJobs = 1024

// MaxRepeat bounds --repeat: the plan is held in memory, and a million
// rounds of a 2 GB sweep is a typo, not an experiment.
const MaxRepeat = 10000

// MaxSourceBytes bounds the memory a source may ask for (1 PiB), so that
// products of --count, --stride and element size cannot overflow.
const MaxSourceBytes = 1 << 50

// validMagnitude rejects plans whose byte counts would overflow.
func (c Config) validMagnitude() error {
	es, stride := uint64(c.ElemSize()), uint64(c.Stride)
	hi, perElem := bits.Mul64(es, stride)
	if hi != 0 || perElem > MaxSourceBytes {
		return configErr(SetStride, c.Stride, "%d is too large for %d-byte %s elements", c.Stride, es, c.Type)
	}
	if hi, total := bits.Mul64(uint64(c.Count), perElem); hi != 0 || total > MaxSourceBytes {
		return configErr(SetCount, c.Count, "%d elements with %s %d need more than %d bytes of source", c.Count, SetStride.Ref(), c.Stride, uint64(MaxSourceBytes))
	}
	if hi, window := bits.Mul64(uint64(c.MaxSize()), 2*stride); hi != 0 || window > MaxSourceBytes {
		return configErr(SetStride, c.Stride, "%d with write sizes up to %d bytes needs more than %d bytes of source", c.Stride, c.MaxSize(), uint64(MaxSourceBytes))
	}
	return nil
}

// DirectAlign is the alignment O_DIRECT sizes keep: 4096 bytes suits both
// 512-byte and 4 KiB logical block devices.
const DirectAlign = 4096

func (c Config) validCombination() error {
	if c.Drop == DropCaches && c.Mode == ModeWrite {
		return configErr(SetDrop, c.Drop, "applies to read runs; use it with %s read or both", SetMode.Ref())
	}
	if c.Mode != ModeWrite && c.Stride > 1 {
		return configErr(SetStride, c.Stride, "%d applies to writes only; use %s 1 with %s %s", c.Stride, SetStride.Ref(), SetMode.Ref(), c.Mode)
	}
	if err := c.validWriteOptions(); err != nil {
		return err
	}
	if err := c.validReadShift(); err != nil {
		return err
	}
	if !c.Direct {
		return nil
	}
	for _, s := range c.Sizes {
		if s%DirectAlign != 0 {
			return configErr(SetDirect, true, "write size %d bytes is not a multiple of %d (O_DIRECT needs block-aligned sizes); use %s 4KiB", s, DirectAlign, SetMinSize.Ref())
		}
	}
	if c.TotalBytes()%DirectAlign != 0 {
		return configErr(SetDirect, true, "the data (%d bytes) is not a multiple of %d, so the last write could not be aligned; adjust %s", c.TotalBytes(), DirectAlign, SetCount.Ref())
	}
	return nil
}

// ValidSizes is the rule of the write sizes, part of Validate: each
// positive and whole elements (the first offender named, the smallest of
// sizes in order), none larger than the data (the largest named, or the
// smallest when every size is larger), so that a caller can name the flag
// that gave the size (--min, --max) as soon as it has read them.
func (c Config) ValidSizes() error {
	for _, s := range c.Sizes {
		switch {
		case s <= 0:
			return configErr(SetSizes, s, "write size %d must be positive", s)
		case s%c.ElemSize() != 0:
			return configErr(SetSizes, s, "write size %d bytes is not a whole number of %d-byte %s elements", s, c.ElemSize(), c.Type)
		}
	}
	if len(c.Sizes) == 0 {
		return nil
	}
	s := slices.Max(c.Sizes)
	if lo := slices.Min(c.Sizes); lo > c.TotalBytes() {
		s = lo
	}
	if s > c.TotalBytes() {
		return configErr(SetSizes, s, "write size %d bytes is larger than the data (%d bytes); raise %s", s, c.TotalBytes(), SetCount.Ref())
	}
	return nil
}

func (c Config) validEnums() error {
	// "" is the default of the last three: ramp, the flush Fsync says, no
	// sync flag.
	return cmp.Or(oneOf(SetSource, c.Source, SourceArray, SourceWindow),
		c.SyncError(),
		oneOf(SetOrder, c.Order, Ascending, Descending, Shuffled),
		oneOf(SetMode, c.Mode, ModeWrite, ModeRead, ModeBoth),
		oneOf(SetData, c.Data, "", DataRamp, DataRandom, DataZero),
		oneOf(SetFlush, c.Flush, "", FlushFsync, FlushFdatasync, FlushNone),
		oneOf(SetOpenSync, c.OpenSync, OpenSyncOff, OpenDSync, OpenSyncAll))
}

// oneOf is nil if v is one of valid, else the error naming the valid
// values (all but "").
func oneOf[T ~string](set Setting, v T, valid ...T) error {
	if slices.Contains(valid, v) {
		return nil
	}
	var names []string
	for _, n := range valid {
		if n != "" {
			names = append(names, string(n))
		}
	}
	return configErr(set, v, "unknown value %q (valid: %s)", v, strings.Join(names, ", "))
}

// validWriteOptions rejects write options that contradict each other or
// have no write run to apply to.
func (c Config) validWriteOptions() error {
	if c.Flush != "" && c.Fsync && c.Flush != FlushFsync {
		return configErr(SetFlush, c.Flush, "%s contradicts %s, which means %s fsync; give one", c.Flush, SetFsync.Ref(), SetFlush.Ref())
	}
	if c.Mode != ModeRead {
		return nil
	}
	for _, o := range []struct {
		set Setting
		on  bool
		v   any
	}{
		{SetFlush, c.Flush != "" && c.Flush != FlushNone, c.Flush}, {SetOpenSync, c.OpenSync != OpenSyncOff, c.OpenSync},
		{SetPreallocate, c.Preallocate, true}, {SetOverwrite, c.Overwrite, true},
	} {
		if o.on {
			return configErr(o.set, o.v, "applies to write runs; use it with %s write or both", SetMode.Ref())
		}
	}
	return nil
}
