package cluster

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Rank r gets the bytes of rank (r+n) mod size, for shifts beyond the
// size and backwards too.
func TestShift(t *testing.T) {
	for _, n := range []int{1, 2, 3, 4, -1} {
		got := joinAll(t, threeHosts, func(cl *Cluster) string {
			b, err := cl.Shift([]byte(fmt.Sprintf("file of rank %d", cl.Rank())), n)
			if err != nil {
				t.Errorf("rank %d: Shift: %v", cl.Rank(), err)
			}
			return string(b)
		})
		var want []string
		for r := range 3 {
			want = append(want, fmt.Sprintf("file of rank %d", ShiftedRank(r, n, 3)))
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Shift(%d) (-want +got):\n%s", n, diff)
		}
	}
	if ShiftedRank(0, 1, 3) != 1 || ShiftedRank(2, 1, 3) != 0 || ShiftedRank(0, -1, 3) != 2 || ShiftedRank(1, 3, 3) != 1 {
		t.Error("ShiftedRank is not (rank+n) mod size")
	}
}

// Max gives every rank the largest share, for the collective call count.
func TestMax(t *testing.T) {
	got := joinAll(t, threeHosts, func(cl *Cluster) int64 {
		m, err := cl.Max(int64(10 - cl.Rank()))
		if err != nil {
			t.Errorf("rank %d: Max: %v", cl.Rank(), err)
		}
		return m
	})
	if diff := cmp.Diff([]int64{10, 10, 10}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
