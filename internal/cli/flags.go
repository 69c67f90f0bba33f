package cli

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/units"
)

// forFlag is --for: the runtimes the recommendation's how-to-apply block
// covers.
func forFlag() cli.Flag {
	return &cli.StringFlag{Name: "for", Usage: "the runtimes the \"how to apply it\" block covers, a comma list of " + strings.Join(advice.ApplyRuntimes(), ", "),
		DefaultText: "every runtime that applies"}
}

// parseFor reads --for into canonical runtime names; nil: all.
func parseFor(v opt[string]) ([]string, error) {
	if v.set && strings.TrimSpace(v.v) == "" {
		return nil, usagef("--for: %q is empty (valid: %s)", v.v, strings.Join(advice.ApplyRuntimes(), ", "))
	}
	names, err := advice.ParseRuntimes(v.v)
	if err != nil {
		return nil, usagef("--for: %w", err)
	}
	return names, nil
}

// joinNames lists values by name: "native, big-endian".
func joinNames[T fmt.Stringer](values []T) string {
	names := make([]string, len(values))
	for i, v := range values {
		names[i] = v.String()
	}
	return strings.Join(names, ", ")
}

// repeatFromFlags reads --repeat (a number of rounds, or auto) and
// --time-budget.
func repeatFromFlags(o *sweepOpts, cfg *iobench.Config) error {
	v := strings.TrimSpace(o.repeat.v)
	if v == "auto" {
		cfg.Auto, cfg.Repeat = true, iobench.MinAutoRounds
	} else {
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("--repeat: %q is not a number of rounds or auto", o.repeat.v)
		}
		cfg.Repeat = n
		if err := cfg.RepeatError(); err != nil {
			return inFlagWords(err)
		}
	}
	if !o.timeBudget.set {
		return nil
	}
	return timeBudgetFromFlags(o, cfg)
}

// timeBudgetFromFlags reads --time-budget.
func timeBudgetFromFlags(o *sweepOpts, cfg *iobench.Config) error {
	d, err := parseTimeBudget(o.timeBudget.v)
	cfg.TimeBudget = d
	return err
}

// parseTimeBudget is --time-budget's value: a positive duration, in
// every command that has one (sweep, runtime, tune).
func parseTimeBudget(s string) (time.Duration, error) {
	return parseDuration(iobench.SetTimeBudget, s, "90s, 10m or 1h30m")
}

// parseDuration reads the duration a setting's flag gives; the rule on
// its value is the library's.
func parseDuration(set iobench.Setting, s, examples string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("%s: %q is not a duration such as %s", flagOf(set), s, examples)
	}
	return d, inFlagWords(iobench.DurationError(set, d))
}

func countFromFlags(o *sweepOpts, elemSize int64) (int64, error) {
	switch {
	case o.count.set && o.size.set:
		return 0, fmt.Errorf("--count and --size: give one, not both")
	case o.size.set:
		n, err := parseBytes("--size", o.size.v)
		if err != nil {
			return 0, err
		}
		if n%elemSize != 0 {
			return 0, fmt.Errorf("--size: %q is not a whole number of %d-byte elements", o.size.v, elemSize)
		}
		return n / elemSize, nil
	case o.count.set:
		return parseCount(o.count.v)
	}
	return iobench.DefaultCount, nil
}

// parseCount accepts 250000000 and 2.5e8, as the reference program's
// output writes it.
func parseCount(s string) (int64, error) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if err := (iobench.Config{Settings: record.Settings{Count: n}}).CountError(); err != nil {
			return 0, inFlagWords(err)
		}
		if n > maxCount {
			return 0, fmt.Errorf("--count: %q is too large (at most %d)", s, int64(maxCount))
		}
		return n, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	switch {
	case !countSyntax.MatchString(s): // ParseFloat takes 1_000, 0x1p10, Inf
		return 0, fmt.Errorf("--count: %q is not a whole number like 250000000 or 2.5e8", s)
	case err != nil && !errors.Is(err, strconv.ErrRange), f != math.Trunc(f):
		return 0, fmt.Errorf("--count: %q is not a whole number like 250000000 or 2.5e8", s)
	case f <= 0: // the syntax has no sign: zero
		return 0, inFlagWords(iobench.Config{}.CountError())
	case err != nil || f > maxCount:
		return 0, fmt.Errorf("--count: %q is too large (at most %d)", s, int64(maxCount))
	}
	return int64(f), nil
}

// countSyntax is what --count accepts: decimal digits, optionally in
// scientific notation (2.5e8).
var countSyntax = regexp.MustCompile(`^[+]?[0-9]+(\.[0-9]+)?([eE][+]?[0-9]+)?$`)

// maxCount keeps --count and byte sizes far from int64 overflow when
// multiplied by an element size or a stride.
const maxCount = math.MaxInt64 / 16

// parseBytes reads a size flag: K, M, G, T binary (4K = 4096 bytes, as dd,
// fio and IOR read it), decimal units (4KB) refused with a hint.
func parseBytes(flag, s string) (int64, error) {
	n, err := units.ParseBytes(s)
	switch {
	case err != nil:
		return 0, fmt.Errorf("%s: %w", flag, err)
	case n == 0:
		return 0, fmt.Errorf("%s: %q must be positive", flag, s)
	case n > maxCount:
		return 0, fmt.Errorf("%s: %q is too large", flag, s)
	}
	return n, nil
}

// sizesFromFlags is the sizes to sweep and those the user typed: the
// list, or --min and --max where given (the profile fits the others to
// the data).
func sizesFromFlags(o *sweepOpts) (sizes, typed []int64, err error) {
	if o.sizes.set {
		if o.min.set || o.max.set {
			return nil, nil, fmt.Errorf("--sizes: give either --sizes or --min/--max, not both")
		}
		sizes, err = parseSizeList(o.sizes.v)
		return sizes, sizes, err
	}
	lo, err := powerOfTwo("--min", o.min.v)
	if err != nil {
		return nil, nil, err
	}
	hi, err := powerOfTwo("--max", o.max.v)
	if err != nil {
		return nil, nil, err
	}
	if lo > hi {
		return nil, nil, fmt.Errorf("--min: %q is larger than --max %q", o.min.v, o.max.v)
	}
	o.sizeFlag = map[string]string{}
	for _, f := range []struct {
		flag string
		set  bool
		n    int64
	}{{"--min", o.min.set, lo}, {"--max", o.max.set, hi}} {
		if f.set {
			o.sizeFlag[strconv.FormatInt(f.n, 10)] = f.flag
			typed = append(typed, f.n)
		}
	}
	return units.PowersOfTwo(lo, hi), typed, nil
}

func powerOfTwo(flag, s string) (int64, error) {
	n, err := parseBytes(flag, s)
	if err != nil {
		return 0, err
	}
	if !units.IsPowerOfTwo(n) {
		return 0, fmt.Errorf("%s: %q is not a power of two", flag, s)
	}
	return n, nil
}

func parseSizeList(s string) ([]int64, error) {
	seen := map[int64]bool{}
	var sizes []int64
	for _, f := range strings.Split(s, ",") {
		n, err := parseBytes("--sizes", strings.TrimSpace(f))
		if err != nil {
			return nil, err
		}
		if seen[n] {
			return nil, fmt.Errorf("--sizes: %q is listed twice", strings.TrimSpace(f))
		}
		seen[n] = true
		sizes = append(sizes, n)
	}
	return sizes, nil
}
