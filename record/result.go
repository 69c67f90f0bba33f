package record

import (
	"strings"

	"github.com/iobench/iobench/knee"
)

// Result is what a sweep measured, kept even when it fails part way.
type Result struct {
	Samples          []Sample          `json:"samples"`
	WarmupRan        bool              `json:"warmup_ran"`
	KeptFile         string            `json:"kept_file,omitempty"`
	ConvertMiBPerSec map[int64]float64 `json:"convert_mib_per_s,omitempty"` // in-memory pack speed per write size
	Adaptive         *Adaptive         `json:"adaptive,omitempty"`          // what --repeat auto did
	Incomplete       bool              `json:"incomplete"`
	LeftFiles        []LeftFile        `json:"left_files,omitempty"` // data files that could not be removed
	Verified         *Verified         `json:"verified,omitempty"`   // what --verify read back and checked
	// Variants names the variants of an interleaved sweep in plan order,
	// the reference first; nil for a sweep of one.
	Variants []string `json:"variants,omitempty"`
	// VariantConvertMiBPerSec is each named variant's in-memory pack
	// speed per write size (ConvertMiBPerSec is the first variant's).
	VariantConvertMiBPerSec map[string]map[int64]float64 `json:"variant_convert_mib_per_s,omitempty"`
	// Jobs is how the writers of a sweep with Config.Jobs above 1 did:
	// Samples are then their aggregates, run by run.
	Jobs *JobsResult `json:"jobs,omitempty"`
}

// Verified counts what --verify read back and found as written.
type Verified struct {
	Files    int64 `json:"files"`
	Elements int64 `json:"elements"`
	Bytes    int64 `json:"bytes"`
}

// LeftFile is a data file iobench created and could not remove.
type LeftFile struct {
	Path string `json:"path"`
	Err  string `json:"error"`
}

// JobsResult is how the writers of a sweep with several jobs did.
type JobsResult struct {
	Jobs       int  `json:"jobs"`
	SharedFile bool `json:"shared_file"` // one file, a segment per job
	// PerJob is each run's spread across the jobs (SlowestRank is a job).
	PerJob []RankSpread `json:"per_job"`
}

// RankSpread is how one run's throughput varied across ranks.
type RankSpread struct {
	Run
	MinMiBPerSec    float64 `json:"min_mib_per_s"`
	MedianMiBPerSec float64 `json:"median_mib_per_s"`
	MaxMiBPerSec    float64 `json:"max_mib_per_s"`
	SlowestRank     int     `json:"slowest_rank"`
}

// Why an adaptive sweep stopped.
const (
	StopEstablished = "established" // the knee is established
	StopNoKnee      = "no_knee"     // rising curve or too few sizes: more rounds find none
	StopBudget      = "time_budget" // not even the most wanted size of the next round fits --time-budget
	StopMaxRounds   = "max_rounds"  // MaxAutoRounds rounds ran
)

// Adaptive is what an adaptive sweep did, for the report.
type Adaptive struct {
	Rounds             int     `json:"rounds"`               // rounds run
	SizesPerRound      []int   `json:"sizes_per_round"`      // sizes each round ran
	FirstRoundSeconds  float64 `json:"first_round_seconds"`  // wall time of round 1, syncs included
	BudgetSeconds      float64 `json:"budget_seconds"`       // --time-budget, or DefaultBudgetRounds x round 1
	BudgetFromFlag     bool    `json:"budget_from_flag"`     // --time-budget was given
	SpentSeconds       float64 `json:"spent_seconds"`        // wall time of all rounds
	Stop               string  `json:"stop"`                 // a Stop* value
	NextRoundSeconds   float64 `json:"next_round_seconds"`   // predicted cost of the round not run (StopBudget)
	DecidingWriteSizes []int64 `json:"deciding_write_sizes"` // sizes the last round ran
}

// The adaptive rule's bounds (iobench's --repeat auto), which its
// record is read against.
const (
	// MinAutoRounds is the fewest rounds of the sizes that matter.
	MinAutoRounds = knee.MinEstablishRuns
	// MaxAutoRounds bounds the rounds of an adaptive sweep.
	MaxAutoRounds = knee.MaxProjectedRounds
	// DefaultBudgetRounds sets the default --time-budget: this many times
	// the first round's wall time, the first round included.
	DefaultBudgetRounds = 3
)

// FileNameHost is a host name as it appears in data file names: only
// letters, digits, '.' and '_' ('-' would make the name ambiguous).
func FileNameHost(h string) string {
	return strings.Map(func(c rune) rune {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.':
			return c
		}
		return '_'
	}, h)
}
