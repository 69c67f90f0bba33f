package iobench

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/iobench/iobench/convert"
	"github.com/iobench/iobench/units"
)

func endianVariants() []Variant {
	return NewVariants([]convert.Type{convert.Float64}, []convert.Order{convert.Native, convert.BigEndian}, []bool{false})
}

func TestNewVariantsNamesWhatDiffers(t *testing.T) {
	got := NewVariants([]convert.Type{convert.Float64, convert.Int32}, []convert.Order{convert.Native, convert.BigEndian}, []bool{false})
	want := []Variant{
		{Name: "type=float64 convert=native", Type: convert.Float64, Convert: convert.Native},
		{Name: "type=float64 convert=big-endian", Type: convert.Float64, Convert: convert.BigEndian},
		{Name: "type=int32 convert=native", Type: convert.Int32, Convert: convert.Native},
		{Name: "type=int32 convert=big-endian", Type: convert.Int32, Convert: convert.BigEndian},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("NewVariants (-want +got):\n%s", diff)
	}
	if v := NewVariants([]convert.Type{convert.Float64}, []convert.Order{convert.Native}, []bool{false, true}); len(v) != 2 || v[1].Name != "direct=true" || !v[1].Direct {
		t.Errorf("direct variants = %+v", v)
	}
	if v := NewVariants([]convert.Type{convert.Float64}, []convert.Order{convert.Native}, []bool{false}); v != nil {
		t.Errorf("one variant = %+v, want nil (a plain sweep)", v)
	}
}

// TestPlanRoundsVisitEveryVariantAndSizeOnce: each round holds every
// (variant, size) pair once, shuffled together (not variant by variant),
// and the seed reproduces the plan.
func TestPlanRoundsVisitEveryVariantAndSizeOnce(t *testing.T) {
	c := DefaultConfig()
	c.Sizes = units.PowersOfTwo(1024, 1<<16)
	c.Variants = endianVariants()
	c.Repeat, c.Order, c.Seed = 4, Shuffled, 7
	runs := Plan(c)
	if want := 4 * 2 * len(c.Sizes); len(runs) != want || c.Runs() != want {
		t.Fatalf("%d runs (Runs() %d), want %d", len(runs), c.Runs(), want)
	}
	type pair struct {
		variant string
		size    int64
	}
	var want []pair
	for _, v := range c.Variants {
		for _, s := range c.Sizes {
			want = append(want, pair{v.Name, s})
		}
	}
	cmpPairs := func(a, b pair) int {
		if a.variant != b.variant {
			if a.variant < b.variant {
				return -1
			}
			return 1
		}
		return int(a.size - b.size)
	}
	slices.SortFunc(want, cmpPairs)
	mixed := false
	for round := 1; round <= 4; round++ {
		var got []pair
		for _, r := range runs {
			if r.Round == round {
				got = append(got, pair{r.Variant, r.WriteSize})
			}
		}
		// Shuffled together: the first half of a round is not one variant.
		half := got[:len(got)/2]
		mixed = mixed || slices.ContainsFunc(half, func(p pair) bool { return p.variant != half[0].variant })
		slices.SortFunc(got, cmpPairs)
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(pair{})); diff != "" {
			t.Errorf("round %d (variant, size) pairs (-want +got):\n%s", round, diff)
		}
	}
	if !mixed {
		t.Error("every round ran one variant's sizes before the other's")
	}
	if diff := cmp.Diff(runs, Plan(c)); diff != "" {
		t.Errorf("same seed, different plan (-want +got):\n%s", diff)
	}
	c.Seed++
	if slices.Equal(runs, Plan(c)) {
		t.Error("another seed gave the same plan")
	}
}

// TestPlanWithoutVariantsIsUnchanged: a plain sweep shuffles as before
// variants existed, so a recorded seed still gives its order.
func TestPlanWithoutVariantsIsUnchanged(t *testing.T) {
	c := DefaultConfig()
	c.Sizes = units.PowersOfTwo(1024, 1<<20)
	c.Order, c.Seed = Shuffled, 42
	sizes := slices.Clone(c.Sizes)
	PlanRand(c).Shuffle(len(sizes), func(i, j int) { sizes[i], sizes[j] = sizes[j], sizes[i] })
	var got []int64
	for _, r := range Plan(c) {
		got = append(got, r.WriteSize)
		if r.Variant != "" {
			t.Fatalf("run %+v has a variant", r)
		}
	}
	if diff := cmp.Diff(sizes, got); diff != "" {
		t.Errorf("shuffled order (-want +got):\n%s", diff)
	}
}

func TestPlanAscendingVariantsBySize(t *testing.T) {
	c := DefaultConfig()
	c.Sizes = []int64{2048, 1024}
	c.Variants = endianVariants()
	var got []string
	for _, r := range Plan(c) {
		got = append(got, fmt.Sprintf("%s@%d", r.Variant, r.WriteSize))
	}
	want := []string{"convert=native@1024", "convert=big-endian@1024", "convert=native@2048", "convert=big-endian@2048"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ascending plan (-want +got):\n%s", diff)
	}
}

// TestVariantsWriteTheirOwnBytes runs native and big-endian in one sweep
// on the in-memory file system: each run's file holds its variant's byte
// order, both write the same bytes, and the rows come per variant.
func TestVariantsWriteTheirOwnBytes(t *testing.T) {
	m := newMemFS()
	c := smallConfig()
	c.Variants = endianVariants()
	c.Repeat, c.Order, c.Seed = 2, Shuffled, 3
	r := &Runner{Config: c, FS: m}
	res, err := r.Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"convert=native", "convert=big-endian"}, res.Variants); diff != "" {
		t.Errorf("Result.Variants (-want +got):\n%s", diff)
	}
	if len(res.Samples) != 2*2*2 {
		t.Fatalf("%d samples, want 8", len(res.Samples))
	}
	for _, s := range res.Samples {
		if s.Bytes != 8000 {
			t.Errorf("%+v: %d bytes, want 8000", s.Run, s.Bytes)
		}
	}
	var native, big int
	for _, data := range m.closed {
		switch {
		case math.Float64frombits(binary.NativeEndian.Uint64(data[8:])) == 1:
			native++
		case math.Float64frombits(binary.BigEndian.Uint64(data[8:])) == 1:
			big++
		}
	}
	if native != 4 || big != 4 {
		t.Errorf("%d native and %d big-endian files, want 4 each", native, big)
	}
	rows := Summarize(res)
	var got []string
	for _, row := range rows {
		got = append(got, fmt.Sprintf("%s@%d", row.Variant, row.WriteSize))
		if len(row.Samples) != 2 {
			t.Errorf("row %s %d: %d samples, want 2", row.Variant, row.WriteSize, len(row.Samples))
		}
	}
	want := []string{"convert=native@1024", "convert=native@4096", "convert=big-endian@1024", "convert=big-endian@4096"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Summarize rows (-want +got):\n%s", diff)
	}
	if res.VariantConvertMiBPerSec["convert=big-endian"][1024] <= 0 {
		t.Errorf("no pack speed for the big-endian variant: %v", res.VariantConvertMiBPerSec)
	}
	if left := m.names(); len(left) != 0 {
		t.Errorf("files left behind: %v", left)
	}
}

// TestTypeVariantsWriteTheSameBytes: an int32 variant writes as many bytes
// as the float64 one, twice the elements, and verifies.
func TestTypeVariantsWriteTheSameBytes(t *testing.T) {
	m := newMemFS()
	c := smallConfig()
	c.Variants = NewVariants([]convert.Type{convert.Float64, convert.Int32}, []convert.Order{convert.Native}, []bool{false})
	c.Verify = true
	res, err := (&Runner{Config: c, FS: m}).Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range res.Samples {
		if s.Bytes != 8000 {
			t.Errorf("%+v: %d bytes, want 8000", s.Run, s.Bytes)
		}
	}
	if res.Verified == nil || res.Verified.Files != 4 || res.Verified.Bytes != 4*8000 {
		t.Errorf("verified %+v, want 4 files of 8000 bytes", res.Verified)
	}
}

func TestVariantValidation(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mutate func(*Config)
		field  Setting
	}{
		{"complex128 cannot make the bytes", func(c *Config) {
			c.Count = 1001 // 8008 bytes: not a whole number of 16-byte elements
			c.Sizes = []int64{16 * 8}
			c.Variants = NewVariants([]convert.Type{convert.Float64, convert.Complex128}, []convert.Order{convert.Native}, []bool{false})
		}, SetType},
		{"unnamed", func(c *Config) {
			c.Variants = []Variant{{Type: convert.Float64}, {Type: convert.Float64, Convert: convert.BigEndian}}
		}, SetVariants},
		{"twice", func(c *Config) { c.Variants = append(endianVariants(), endianVariants()[0]) }, SetVariants},
		{"direct size", func(c *Config) {
			c.Variants = NewVariants([]convert.Type{convert.Float64}, []convert.Order{convert.Native}, []bool{false, true})
		}, SetDirect},
		{"jobs under MPI", func(c *Config) { c.Jobs, c.Ranks = 2, 3 }, SetJobs},
		{"negative jobs", func(c *Config) { c.Jobs = -1 }, SetJobs},
		{"keep with jobs", func(c *Config) { c.Jobs, c.Keep = 2, true }, SetKeep},
	} {
		c := smallConfig()
		tc.mutate(&c)
		var ce *ConfigError
		if err := c.Validate(); !errors.As(err, &ce) || ce.Field != tc.field {
			t.Errorf("%s: Validate() = %v, want a %s error", tc.name, err, tc.field)
		}
	}
}

// TestAdaptiveRoundsFollowTheFirstVariant: --repeat auto with variants
// decides on the first variant's knee and runs its choice for all.
func TestAdaptiveRoundsFollowTheFirstVariant(t *testing.T) {
	m := newMemFS()
	c := smallConfig()
	c.Count, c.Sizes = 4096, units.PowersOfTwo(1024, 8192)
	c.Variants = endianVariants()
	c.Auto, c.Repeat, c.Order = true, MinAutoRounds, Shuffled
	res, err := (&Runner{Config: c, FS: m}).Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if res.Adaptive == nil || res.Adaptive.Rounds < MinAutoRounds {
		t.Fatalf("adaptive log %+v", res.Adaptive)
	}
	count := map[Run]int{}
	for _, s := range res.Samples {
		count[Run{Mode: s.Mode, WriteSize: s.WriteSize, Round: s.Round, Variant: ""}]++
	}
	for k, n := range count {
		if n != 2 {
			t.Errorf("round %d size %d ran %d variants, want both", k.Round, k.WriteSize, n)
		}
	}
}
