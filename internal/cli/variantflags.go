package cli

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/iobench/iobench/convert"
	"github.com/iobench/iobench/iobench"
)

// variantsFromFlags reads the lists of --type, --convert and --direct:
// the first value of each is the plan's own, and more than one value of
// any makes every combination a variant of one interleaved sweep.
func variantsFromFlags(o *sweepOpts, cfg *iobench.Config) error {
	types, err := parseTypes(o.typ.v)
	if err != nil {
		return err
	}
	orders, err := parseOrders(o.convert.v)
	if err != nil {
		return err
	}
	directs := directFlagValues(o.direct)
	cfg.Type, cfg.Convert, cfg.Direct = types[0], orders[0], directs[0]
	cfg.Variants = iobench.NewVariants(types, orders, directs)
	return inAllFlagWords(cfg.VariantCountError())
}

// parseTypes reads --type: one element type or a list of them.
func parseTypes(s string) ([]convert.Type, error) { return parseList("--type", s, convert.ParseType) }

// parseList reads a flag's comma-separated list of distinct values.
func parseList[T comparable](flag, s string, parse func(string) (T, error)) ([]T, error) {
	var out []T
	for _, f := range strings.Split(s, ",") {
		v, err := parse(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", flag, err)
		}
		if slices.Contains(out, v) {
			return nil, fmt.Errorf("%s: %q is listed twice", flag, strings.TrimSpace(f))
		}
		out = append(out, v)
	}
	return out, nil
}

// directValue is --direct: a boolean flag (--direct, --direct=false) that
// also takes a list, --direct=false,true (or --direct=both), to run both
// as variants of one sweep. As a boolean flag its value must follow an
// equals sign.
type directValue struct{ values []bool }

// Set parses one value or a comma-separated list.
func (d *directValue) Set(s string) error {
	var out []bool
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		vals := []bool{false, true}
		if f != "both" {
			b, err := strconv.ParseBool(f)
			if err != nil {
				return fmt.Errorf("%q is not true, false, a list of them (false,true) or both", f)
			}
			vals = []bool{b}
		}
		for _, b := range vals {
			if slices.Contains(out, b) {
				return fmt.Errorf("%q lists %v twice", s, b)
			}
			out = append(out, b)
		}
	}
	d.values = out
	return nil
}

func (d *directValue) String() string {
	if d == nil || len(d.values) == 0 {
		return "false"
	}
	s := make([]string, len(d.values))
	for i, b := range d.values {
		s[i] = strconv.FormatBool(b)
	}
	return strings.Join(s, ",")
}

// IsBoolFlag lets --direct stand alone, as the flag package's booleans do.
func (d *directValue) IsBoolFlag() bool { return true }

func directFlag() cli.Flag {
	return &cli.GenericFlag{Name: "direct", Value: &directValue{},
		Usage:       "open with O_DIRECT; --direct=false,true (or --direct=both) runs both as variants of one interleaved sweep",
		DefaultText: "false"}
}

// directFlagValues are the --direct values given, [false] by default.
func directFlagValues(v opt[cli.Generic]) []bool {
	if d, ok := v.v.(*directValue); ok && len(d.values) > 0 {
		return d.values
	}
	return []bool{false}
}

// isBoolFlag reports whether f stands alone on the command line, taking
// no value after a space.
func isBoolFlag(f cli.Flag) bool {
	switch f := f.(type) {
	case *cli.BoolFlag:
		return true
	case *cli.GenericFlag:
		b, ok := f.Value.(interface{ IsBoolFlag() bool })
		return ok && b.IsBoolFlag()
	}
	return false
}

// jobsFromFlags reads --jobs and refuses what it cannot go with.
func jobsFromFlags(o *sweepOpts, cfg *iobench.Config) error {
	n := o.jobs.v
	if n < 1 || n > iobench.MaxJobs {
		return fmt.Errorf("--jobs: %d must be between 1 and %d", n, iobench.MaxJobs)
	}
	cfg.Jobs = n
	if n > 1 && o.total.v {
		return fmt.Errorf("--total: splits --count/--size across MPI ranks; with --jobs each job writes --count/--size")
	}
	return nil
}
