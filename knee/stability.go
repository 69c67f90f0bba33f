package knee

import (
	"fmt"
	"slices"

	"github.com/iobench/iobench/units"
)

// Spread summarises how the knee moves between repeats of a whole sweep.
type Spread struct {
	// Knees is the knee write size of each round, in round order; 0 marks
	// a round in which Find found no knee.
	Knees []int64 `json:"knees"`
	// Min and Max are the smallest and largest knee found (0 if none).
	Min int64 `json:"min_write_size"`
	Max int64 `json:"max_write_size"`
	// Agree is true when there are at least two rounds and every round
	// found the same knee.
	Agree bool `json:"agree"`
	// Note says the same in words.
	Note string `json:"note,omitempty"`
}

// Stability finds the knee of each round's curve separately (each round is
// one full sweep) and reports how far the knees spread. A knee that moves
// between rounds is a property of the machine's noise, not of the file
// system, and the caller should say so next to the recommendation.
func Stability(rounds [][]Point, fraction float64) Spread {
	sp := Spread{Knees: make([]int64, 0, len(rounds))}
	var found []int64
	for _, r := range rounds {
		res := Find(r, fraction)
		if !res.Found {
			sp.Knees = append(sp.Knees, 0)
			continue
		}
		sp.Knees = append(sp.Knees, res.WriteSize)
		found = append(found, res.WriteSize)
	}
	if len(found) > 0 {
		sp.Min, sp.Max = slices.Min(found), slices.Max(found)
	}
	sp.Agree = len(rounds) >= 2 && len(found) == len(rounds) && sp.Min == sp.Max
	sp.Note = spreadNote(sp, len(found))
	return sp
}

func spreadNote(sp Spread, nFound int) string {
	n := len(sp.Knees)
	switch {
	case n == 0:
		return "no rounds"
	case nFound == 0:
		return fmt.Sprintf("no knee in any of %d rounds", n)
	case n == 1:
		return fmt.Sprintf("knee at %s in the only round; repeat to judge stability", units.FormatSize(sp.Min))
	}
	var note string
	if sp.Min == sp.Max {
		note = fmt.Sprintf("knee at %s in %d of %d rounds", units.FormatSize(sp.Min), nFound, n)
	} else {
		note = fmt.Sprintf("knees range from %s to %s across %d rounds (a factor of %.3g)",
			units.FormatSize(sp.Min), units.FormatSize(sp.Max), nFound, float64(sp.Max)/float64(sp.Min))
	}
	if nFound < n {
		note += fmt.Sprintf("; no knee in %d of %d rounds", n-nFound, n)
	}
	return note
}
