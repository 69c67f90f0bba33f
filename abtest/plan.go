package abtest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// Plan draws the run order of each block: a fresh random permutation of
// the arms, so that no arm always gets the cold cache or the first slot.
// Arm 0 is the baseline by convention; the plan does not care.
type Plan struct {
	arms int
	rng  *rand.Rand
}

// NewPlan returns a plan for arms >= 2 arms drawing from rng, which the
// caller seeds (and records) so that a run's order can be replayed.
func NewPlan(arms int, rng *rand.Rand) (*Plan, error) {
	if arms < 2 {
		return nil, fmt.Errorf("abtest: %d arms: need the baseline and at least one candidate", arms)
	}
	if rng == nil {
		return nil, fmt.Errorf("abtest: plan needs a random source")
	}
	return &Plan{arms: arms, rng: rng}, nil
}

// Arms returns the number of arms in each block.
func (p *Plan) Arms() int { return p.arms }

// Block returns the next block's order: Block()[j] is the arm run j-th.
func (p *Plan) Block() []int { return p.rng.Perm(p.arms) }

// blockSeconds is the expected length of one block, the sum of every
// arm's time, and false when a time is not positive and finite.
func blockSeconds(perArmSeconds []float64) (float64, bool) {
	var sum float64
	for _, t := range perArmSeconds {
		if !(t > 0) || math.IsInf(t, 1) {
			return 0, false
		}
		sum += t
	}
	return sum, len(perArmSeconds) > 0
}

// MaxBlocks returns how many whole blocks fit in limit given each arm's
// expected wall time in seconds (from warm-up runs). It is 0 when the
// times are missing, not positive or not finite, or when not even one
// block fits. A caller that confirms afterwards passes the share of its
// limit meant for each phase.
func MaxBlocks(perArmSeconds []float64, limit time.Duration) int {
	block, ok := blockSeconds(perArmSeconds)
	if !ok || limit <= 0 {
		return 0
	}
	return int(math.Min(limit.Seconds()/block, math.MaxInt32))
}

// ExpectedDuration returns the expected wall time of blocks blocks, or 0
// when the times are missing, not positive or not finite.
func ExpectedDuration(perArmSeconds []float64, blocks int) time.Duration {
	block, ok := blockSeconds(perArmSeconds)
	if !ok || blocks <= 0 {
		return 0
	}
	return time.Duration(block * float64(blocks) * float64(time.Second))
}
