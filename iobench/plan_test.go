package iobench

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPlanRoundsVisitEverySizeOnce(t *testing.T) {
	c := DefaultConfig()
	c.Sizes = PowersOfTwo(1024, 1<<20)
	c.Repeat, c.Order, c.Seed = 3, Shuffled, 42
	runs := Plan(c)
	if len(runs) != 3*len(c.Sizes) {
		t.Fatalf("%d runs, want %d", len(runs), 3*len(c.Sizes))
	}
	var orders [][]int64
	for round := 1; round <= 3; round++ {
		var sizes []int64
		for _, r := range runs {
			if r.Round == round {
				sizes = append(sizes, r.WriteSize)
			}
		}
		orders = append(orders, sizes)
		if diff := cmp.Diff(c.Sizes, slices.Sorted(slices.Values(sizes))); diff != "" {
			t.Errorf("round %d sizes (-want +got):\n%s", round, diff)
		}
	}
	if slices.Equal(orders[0], c.Sizes) && slices.Equal(orders[1], c.Sizes) {
		t.Error("shuffled rounds came out ascending")
	}
	if diff := cmp.Diff(runs, Plan(c)); diff != "" {
		t.Errorf("same seed, different plan (-want +got):\n%s", diff)
	}
}

func TestPlanOrders(t *testing.T) {
	c := DefaultConfig()
	c.Sizes = []int64{4096, 1024, 2048}
	for _, tc := range []struct {
		order Order
		want  []int64
	}{
		{Ascending, []int64{1024, 2048, 4096}},
		{Descending, []int64{4096, 2048, 1024}},
	} {
		c.Order = tc.order
		var got []int64
		for _, r := range Plan(c) {
			got = append(got, r.WriteSize)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.order, diff)
		}
	}
}

func TestPowersOfTwo(t *testing.T) {
	got := PowersOfTwo(1<<10, 1<<26)
	if len(got) != 17 || got[0] != 1024 || got[16] != 1<<26 {
		t.Errorf("PowersOfTwo(2^10, 2^26) = %v, want 17 sizes from 1024 to 67108864", got)
	}
}

func TestValidateNamesTheFlag(t *testing.T) {
	for _, tc := range []struct {
		mutate func(*Config)
		want   string
	}{
		{func(c *Config) { c.Count = 0 }, "--count: 0 must be positive"},
		{func(c *Config) { c.Sizes = []int64{1 << 40} }, "--sizes: write size 1099511627776 bytes is larger than the data (2000000000 bytes); raise --count or --size"},
		{func(c *Config) { c.Sizes = []int64{1001} }, "--sizes: write size 1001 bytes is not a whole number of 8-byte float64 elements"},
		{func(c *Config) { c.Source = "disk" }, `--source: unknown value "disk" (valid: array, window)`},
		{func(c *Config) { c.Order = "random" }, `--order: unknown value "random" (valid: ascending, descending, shuffled)`},
		{func(c *Config) { c.Repeat = 0 }, "--repeat: 0 must be at least 1"},
	} {
		c := DefaultConfig()
		tc.mutate(&c)
		err := c.Validate()
		if err == nil || err.Error() != tc.want {
			t.Errorf("Validate() = %v, want %q", err, tc.want)
		}
	}
}
