package libcheck

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/iobench/iobench/convert"
	"github.com/iobench/iobench/record"
)

// Layout is how a writer hands its data to the runtime.
type Layout string

// The layouts a plan measures.
const (
	// LayoutArray is one transfer for the whole array: write(u) p, or one
	// fwrite.
	LayoutArray Layout = "array"
	// LayoutRecords is one transfer per small record of Plan.RecordBytes.
	LayoutRecords Layout = "records"
)

// Layouts lists every Layout, in report order.
func Layouts() []Layout { return []Layout{LayoutArray, LayoutRecords} }

// DefaultRecordBytes is the small-record layout's record: 1 KiB.
const DefaultRecordBytes = 1024

// DefaultRounds is the rounds a plan runs when nothing else asks: with 5
// runs of each case the median's interval is the runs' range, which holds
// it with probability 94%.
const DefaultRounds = 5

// Case is one combination a plan measures: a layout, a byte order and a
// buffer size.
type Case struct {
	Layout  Layout `json:"layout"`
	Convert string `json:"convert"` // convert.Order name
	// BufferBytes is the buffer in effect. Default marks the runtime's own
	// choice, which runs without setting a buffer (no
	// GFORTRAN_UNFORMATTED_BUFFER_SIZE, no setvbuf), as an untuned program
	// does.
	BufferBytes int64 `json:"buffer_bytes"`
	Default     bool  `json:"default"`

	// A library's case (mpiio, hdf5) says more; the buffered runtimes
	// leave these empty. Setting is what BufferBytes sets (a hint, an MCA
	// parameter, an H5P call; "" for the default); Switch a hint set
	// besides (SwitchCBWrite).
	Setting string `json:"setting,omitempty"`
	Switch  string `json:"switch,omitempty"`
	// Storage is HDF5's layout: StorageContiguous or StorageChunked.
	Storage string `json:"storage,omitempty"`
	// Component, Collective and Memory are MPI-IO's: OMPIO or ROMIO,
	// MPI_File_write_at_all or _write_at, and Memory* the memory layout.
	Component  string `json:"component,omitempty"`
	Collective bool   `json:"collective,omitempty"`
	Memory     string `json:"memory,omitempty"`
}

// order is the case's byte order; Cases made it from a convert.Order.
func (c Case) order() convert.Order {
	o, _ := convert.ParseOrder(c.Convert)
	return o
}

// Swap reports whether the case's data are byte-swapped on the way.
func (c Case) Swap() bool { return c.order().NeedsSwap() }

// Step is one timed run of a plan.
type Step struct {
	Case
	Round int `json:"round"` // 1-based
	Seq   int `json:"seq"`   // 1-based position in the plan
}

// Plan is a runtime measurement: every Case of Layouts x Orders x
// Buffers, Rounds times (or in adaptive rounds, Auto), each round in its
// own shuffled order so that a drift of the machine spreads over all
// cases instead of biasing some.
type Plan struct {
	Dir    string // directory of the data files
	Prefix string // data file name prefix, from iobench.UniquePrefix
	// Elements is the float64 values each run writes.
	Elements int64
	// RecordBytes is LayoutRecords' record, a multiple of 8.
	RecordBytes int64
	Layouts     []Layout
	Orders      []convert.Order
	// SameRecord writes LayoutRecords' records from one record's memory
	// (Job.SameRecord), not from slices of an array of all the data.
	SameRecord bool
	// Buffers are the buffer sizes to run; one equal to DefaultBuffer runs
	// as the runtime's default (Case.Default).
	Buffers       []int64
	DefaultBuffer int64
	// CaseList, for a library, is the plan's cases in report order, in
	// place of Layouts x Orders x Buffers; Library what its writer needs
	// besides.
	CaseList []Case
	Library  LibraryPlan
	Rounds   int
	// Auto runs adaptive rounds, and Rounds is ignored (see Adaptive): at
	// least record.MinAutoRounds of every case, then the undecided
	// recommended cases with their defaults, within TimeBudget (0:
	// DefaultBudgetRounds x the first round).
	Auto       bool
	TimeBudget time.Duration
	// Sweep is the write(2) sweep the gains are held against, which Auto
	// needs to tell whether an agreement is decided; nil: none.
	Sweep  *Sweep
	Seed   uint64          // shuffle seed
	Fsync  bool            // fsync before close, inside the timing
	Sync   record.SyncMode // flush before each run, untimed
	Warmup bool            // one untimed run before the first
}

// Validate checks the plan; errors name the Plan field.
func (p Plan) Validate() error {
	switch {
	case p.Dir == "":
		return errors.New("plan: no directory")
	case p.Prefix == "":
		return errors.New("plan: no data file prefix (iobench.UniquePrefix)")
	case p.Elements < 1:
		return fmt.Errorf("plan: %d elements: want at least 1", p.Elements)
	case p.CaseList == nil && (len(p.Layouts) == 0 || len(p.Orders) == 0 || len(p.Buffers) == 0):
		return errors.New("plan: no layouts, byte orders or buffers")
	case p.CaseList == nil && p.DefaultBuffer <= 0:
		return fmt.Errorf("plan: default buffer of %d bytes", p.DefaultBuffer)
	case p.CaseList != nil && len(p.CaseList) == 0:
		return errors.New("plan: no cases")
	case p.Rounds < 1:
		return fmt.Errorf("plan: %d rounds: want at least 1", p.Rounds)
	case p.TimeBudget < 0 || p.TimeBudget > 0 && !p.Auto:
		return fmt.Errorf("plan: time budget of %s: want a positive one, with Auto", p.TimeBudget)
	case p.hasRecords() && (p.RecordBytes < ElementBytes || p.RecordBytes%ElementBytes != 0):
		return fmt.Errorf("plan: record of %d bytes: want a positive multiple of %d", p.RecordBytes, ElementBytes)
	}
	for _, b := range p.Buffers {
		if b <= 0 {
			return fmt.Errorf("plan: buffer of %d bytes", b)
		}
	}
	return nil
}

// Bytes is the data one run writes.
func (p Plan) Bytes() int64 { return p.Elements * ElementBytes }

// hasRecords: some case writes small records.
func (p Plan) hasRecords() bool {
	return slices.Contains(p.Layouts, LayoutRecords) || slices.ContainsFunc(p.CaseList, func(c Case) bool { return c.Layout == LayoutRecords })
}

// Cases lists the plan's cases in report order: by layout, byte order,
// then buffer size; a library's CaseList as it is.
func (p Plan) Cases() []Case {
	if p.CaseList != nil {
		return slices.Clone(p.CaseList)
	}
	var cases []Case
	buffers := slices.Clone(p.Buffers)
	slices.Sort(buffers)
	buffers = slices.Compact(buffers)
	for _, l := range p.Layouts {
		for _, o := range p.Orders {
			for _, b := range buffers {
				cases = append(cases, Case{Layout: l, Convert: o.String(), BufferBytes: b, Default: b == p.DefaultBuffer})
			}
		}
	}
	return cases
}

// Steps lists the timed runs of a fixed plan: Rounds rounds, each every
// case once in an order shuffled from Seed with iobench's plan generator.
// An adaptive plan's first rounds are the same.
func (p Plan) Steps() []Step {
	rng := record.ShuffleRand(p.Seed)
	var steps []Step
	for round := 1; round <= p.Rounds; round++ {
		steps = append(steps, roundSteps(rng, round, p.Cases(), len(steps))...)
	}
	return steps
}

// DataFile is the path of the data file of step seq (0: the warm-up)
// when rt runs the plan.
func (p Plan) DataFile(rt Runtime, seq int) string {
	return filepath.Join(p.Dir, FileName(p.Prefix, rt, seq))
}

// JobFor is the writer's job for step s: the default case sets no buffer.
func (p Plan) JobFor(c Case, seq int, rt Runtime) Job {
	j := Job{Dir: p.Dir, Name: FileName(p.Prefix, rt, seq), Elements: p.Elements, BufferBytes: c.BufferBytes, Convert: c.order(), Fsync: p.Fsync}
	if c.Default {
		j.BufferBytes = 0
	}
	if rt.IsLibrary() {
		j.Case, j.Library, j.BufferBytes = c, p.Library, 0
	}
	if c.Layout == LayoutRecords {
		j.RecordBytes, j.SameRecord = p.RecordBytes, p.SameRecord
	}
	return j
}

// Sample is what one step measured, raw numbers as the writer counted
// them.
type Sample struct {
	Step
	Nanos        int64 `json:"ns"`            // open to close (MPI-IO: the earliest rank's open to the latest's close)
	Bytes        int64 `json:"bytes"`         // data written
	WriteCalls   int64 `json:"write_calls"`   // write(2) calls (syscw); -1: not counted
	WrittenBytes int64 `json:"written_bytes"` // bytes they wrote (wchar); -1: not counted
	// RuntimeConvert is the byte order as the runtime reported it.
	RuntimeConvert string `json:"runtime_convert"`
	// A library's writer counts the calls outside the data path (HDF5's
	// metadata, OMPIO's at open), the MPI-IO writer its packing time, the
	// longest of its ranks' own open-to-close spans, and each rank's calls.
	OverheadCalls int64   `json:"overhead_calls,omitempty"`
	PackNanos     int64   `json:"pack_ns,omitempty"`
	SlowestNanos  int64   `json:"slowest_rank_ns,omitempty"`
	RankCalls     []int64 `json:"rank_calls,omitempty"`
}

// DataCalls are the write(2) calls of the data path: all, less the
// library's overhead.
func (s Sample) DataCalls() int64 {
	if s.WriteCalls < 0 {
		return -1
	}
	return s.WriteCalls - s.OverheadCalls
}

// MiBPerSec is the step's throughput, 2^20 bytes per second.
func (s Sample) MiBPerSec() float64 {
	if s.Nanos <= 0 {
		return 0
	}
	return float64(s.Bytes) / (float64(s.Nanos) / 1e9) / record.MiB
}
