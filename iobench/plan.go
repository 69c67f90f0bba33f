package iobench

import (
	"math/rand/v2"
	"slices"
)

// Run is one timed pass over the data with one write (or read) size.
type Run struct {
	Mode      Mode  `json:"mode"` // ModeWrite or ModeRead
	WriteSize int64 `json:"write_size"`
	Round     int   `json:"round"` // 1-based
	Seq       int   `json:"seq"`   // 1-based position in the sweep
}

// Plan lists the runs of a sweep: Repeat rounds, each visiting every size
// once in the configured order; with ModeBoth a read follows each write.
func Plan(c Config) []Run {
	rng := rand.New(rand.NewPCG(c.Seed, c.Seed^0x9e3779b97f4a7c15))
	var runs []Run
	for round := 1; round <= c.Repeat; round++ {
		for _, size := range roundOrder(c, rng) {
			for _, m := range c.Mode.directions() {
				runs = append(runs, Run{Mode: m, WriteSize: size, Round: round, Seq: len(runs) + 1})
			}
		}
	}
	return runs
}

// Runs is the number of timed runs the plan holds.
func (c Config) Runs() int { return c.Repeat * len(c.Sizes) * len(c.Mode.directions()) }

func roundOrder(c Config, rng *rand.Rand) []int64 {
	sizes := slices.Clone(c.Sizes)
	slices.Sort(sizes)
	switch c.Order {
	case Descending:
		slices.Reverse(sizes)
	case Shuffled:
		rng.Shuffle(len(sizes), func(i, j int) { sizes[i], sizes[j] = sizes[j], sizes[i] })
	}
	return sizes
}

func (m Mode) directions() []Mode {
	switch m {
	case ModeRead:
		return []Mode{ModeRead}
	case ModeBoth:
		return []Mode{ModeWrite, ModeRead}
	}
	return []Mode{ModeWrite}
}
