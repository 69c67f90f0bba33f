package iobench

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/iobench/iobench/convert"
	"github.com/iobench/iobench/units"
)

func TestPlanRoundsVisitEverySizeOnce(t *testing.T) {
	c := DefaultConfig()
	c.Sizes = units.PowersOfTwo(1024, 1<<20)
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
	got := units.PowersOfTwo(1<<10, 1<<26)
	if len(got) != 17 || got[0] != 1024 || got[16] != 1<<26 {
		t.Errorf("units.PowersOfTwo(2^10, 2^26) = %v, want 17 sizes from 1024 to 67108864", got)
	}
}

// Validate's errors are *ConfigError naming the field; their references
// render in a caller's words.
func TestValidateNamesTheField(t *testing.T) {
	flag := func(s Setting) string { return "--" + strings.ToLower(string(s)) }
	for _, tc := range []struct {
		mutate func(*Config)
		field  Setting
		want   string // Error()
		asFlag string // Message(flag)
	}{
		{func(c *Config) { c.Count = 0 }, SetCount, "Count: 0 must be positive", "--count: 0 must be positive"},
		{func(c *Config) { c.Sizes = []int64{1 << 40} }, SetSizes,
			"Sizes: write size 1099511627776 bytes is larger than the data (2000000000 bytes); raise Count",
			"--sizes: write size 1099511627776 bytes is larger than the data (2000000000 bytes); raise --count"},
		{func(c *Config) { c.Sizes = []int64{1001} }, SetSizes,
			"Sizes: write size 1001 bytes is not a whole number of 8-byte float64 elements",
			"--sizes: write size 1001 bytes is not a whole number of 8-byte float64 elements"},
		{func(c *Config) { c.Source = "disk" }, SetSource, `Source: unknown value "disk" (valid: array, window)`, `--source: unknown value "disk" (valid: array, window)`},
		{func(c *Config) { c.Order = "random" }, SetOrder, `Order: unknown value "random" (valid: ascending, descending, shuffled)`, `--order: unknown value "random" (valid: ascending, descending, shuffled)`},
		{func(c *Config) { c.Repeat = 0 }, SetRepeat, "Repeat: 0 must be at least 1 (or Repeat auto)", "--repeat: 0 must be at least 1 (or --repeat auto)"},
		{func(c *Config) { c.TimeBudget, c.Auto = time.Minute, false }, SetTimeBudget,
			"TimeBudget: 1m0s needs Repeat auto (a fixed Repeat runs its rounds whatever they cost)",
			"--timebudget: 1m0s needs --repeat auto (a fixed --repeat runs its rounds whatever they cost)"},
	} {
		c := DefaultConfig()
		tc.mutate(&c)
		var ce *ConfigError
		err := c.Validate()
		if !errors.As(err, &ce) || ce.Field != tc.field || err.Error() != tc.want || ce.Message(flag) != tc.asFlag {
			t.Errorf("Validate() = %v, want %s error %q rendering as %q", err, tc.field, tc.want, tc.asFlag)
		}
	}
}

// TestPlanKeyCoversEveryField mutates each Config field in turn. A field
// that changes Plan must change the key; every other field must be either
// in the key or exempt with a reason, so a new field cannot slip past the
// ranks' plan check and hang a job.
func TestPlanKeyCoversEveryField(t *testing.T) {
	base := DefaultConfig()
	base.Sizes, base.Repeat, base.Order, base.Seed, base.Mode = units.PowersOfTwo(1024, 8192), 2, Shuffled, 42, ModeBoth
	planFields := map[string]bool{"Sizes": true, "Repeat": true, "Order": true, "Seed": true, "Mode": true}
	for _, f := range reflect.VisibleFields(reflect.TypeFor[Config]()) {
		if f.Anonymous { // its fields are visited one by one
			continue
		}
		name := f.Name
		c := base
		mutate(t, reflect.ValueOf(&c).Elem().FieldByIndex(f.Index), name)
		planChanged := !slices.Equal(Plan(base), Plan(c))
		keyChanged := base.PlanKey() != c.PlanKey()
		_, exempt := PlanKeyExempt[name]
		switch {
		case planFields[name] && !planChanged:
			t.Errorf("%s: the mutation did not change Plan; the test is broken", name)
		case planChanged && !keyChanged:
			t.Errorf("%s changes Plan but not PlanKey", name)
		case exempt && keyChanged:
			t.Errorf("%s is exempt (%s) but changes PlanKey: ranks that legitimately differ would refuse to run", name, PlanKeyExempt[name])
		case !exempt && !keyChanged:
			t.Errorf("%s changes neither Plan nor PlanKey: add it to planKey if it changes the runs or the collectives, else to PlanKeyExempt with a reason", name)
		}
	}
}

// mutate changes v, a Config field, to another value of its type.
func mutate(t *testing.T, v reflect.Value, name string) {
	t.Helper()
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Uint64:
		v.SetUint(v.Uint() + 1)
	case reflect.Float64:
		v.SetFloat(v.Float() + 0.25)
	case reflect.String:
		v.SetString(v.String() + "x")
	case reflect.Slice:
		if v.Type().Elem() == reflect.TypeFor[Variant]() {
			v.Set(reflect.Append(v, reflect.ValueOf(Variant{Name: "a", Type: convert.Float64})))
			break
		}
		v.Set(reflect.Append(v, reflect.ValueOf(int64(1<<14))))
	default:
		t.Fatalf("%s: mutate cannot change a %s; teach it", name, v.Kind())
	}
}
