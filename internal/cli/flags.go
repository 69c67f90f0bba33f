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
	"github.com/iobench/iobench/units"
)

// forFlag is --for: the runtimes the recommendation's how-to-apply block
// covers.
func forFlag() cli.Flag {
	return &cli.StringFlag{Name: "for", Usage: "the runtimes the \"how to apply it\" block covers, a comma list of " + strings.Join(advice.ApplyRuntimes(), ", "),
		DefaultText: "every runtime that applies"}
}

// forFromFlags reads --for into canonical runtime names; nil: all.
func forFromFlags(c *cli.Context) ([]string, error) {
	if c.IsSet("for") && strings.TrimSpace(c.String("for")) == "" {
		return nil, usagef("--for: %q is empty (valid: %s)", c.String("for"), strings.Join(advice.ApplyRuntimes(), ", "))
	}
	names, err := advice.ParseRuntimes(c.String("for"))
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

// configFromFlags turns the sweep's flags into a plan, each through its
// entry of the settings table; every error names its flag.
func configFromFlags(c *cli.Context) (iobench.Config, error) {
	cfg := iobench.DefaultConfig()
	cfg.ReferenceSizes = advice.ReferenceSizes()
	err := readSettings(c, &cfg)
	return cfg, err
}

// repeatFromFlags reads --repeat (a number of rounds, or auto) and
// --time-budget.
func repeatFromFlags(c *cli.Context, cfg *iobench.Config) error {
	v := strings.TrimSpace(c.String("repeat"))
	if v == "auto" {
		cfg.Auto, cfg.Repeat = true, iobench.MinAutoRounds
	} else {
		n, err := strconv.Atoi(v)
		switch {
		case err != nil:
			return fmt.Errorf("--repeat: %q is not a number of rounds or auto", c.String("repeat"))
		case n < 1:
			return fmt.Errorf("--repeat: %d must be at least 1 (or auto)", n)
		case n > iobench.MaxRepeat:
			return fmt.Errorf("--repeat: %d is more than %d rounds", n, iobench.MaxRepeat)
		}
		cfg.Repeat = n
	}
	if !c.IsSet("time-budget") {
		return nil
	}
	return timeBudgetFromFlags(c, cfg)
}

// timeBudgetFromFlags reads --time-budget.
func timeBudgetFromFlags(c *cli.Context, cfg *iobench.Config) error {
	d, err := time.ParseDuration(c.String("time-budget"))
	switch {
	case err != nil:
		return fmt.Errorf("--time-budget: %q is not a duration such as 90s, 10m or 1h30m", c.String("time-budget"))
	case d <= 0:
		return fmt.Errorf("--time-budget: %q must be positive", c.String("time-budget"))
	}
	cfg.TimeBudget = d
	return nil
}

func countFromFlags(c *cli.Context, elemSize int64) (int64, error) {
	switch {
	case c.IsSet("count") && c.IsSet("size"):
		return 0, fmt.Errorf("--count and --size: give one, not both")
	case c.IsSet("size"):
		n, err := parseBytes("--size", c.String("size"))
		if err != nil {
			return 0, err
		}
		if n%elemSize != 0 {
			return 0, fmt.Errorf("--size: %q is not a whole number of %d-byte elements", c.String("size"), elemSize)
		}
		return n / elemSize, nil
	case c.IsSet("count"):
		return parseCount(c.String("count"))
	}
	return iobench.DefaultCount, nil
}

// parseCount accepts 250000000 and 2.5e8, as the reference program's
// output writes it.
func parseCount(s string) (int64, error) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n <= 0 {
			return 0, fmt.Errorf("--count: %q must be positive", s)
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
	case f <= 0:
		return 0, fmt.Errorf("--count: %q must be positive", s)
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

func sizesFromFlags(c *cli.Context) ([]int64, error) {
	if c.IsSet("sizes") {
		if c.IsSet("min") || c.IsSet("max") {
			return nil, fmt.Errorf("--sizes: give either --sizes or --min/--max, not both")
		}
		return parseSizeList(c.String("sizes"))
	}
	lo, err := powerOfTwo("--min", c.String("min"))
	if err != nil {
		return nil, err
	}
	hi, err := powerOfTwo("--max", c.String("max"))
	if err != nil {
		return nil, err
	}
	if lo > hi {
		return nil, fmt.Errorf("--min: %q is larger than --max %q", c.String("min"), c.String("max"))
	}
	return iobench.PowersOfTwo(lo, hi), nil
}

// checkSizeFlags names --min or --max when a size the user set cannot be
// written: Config.Validate knows only the list of sizes.
func checkSizeFlags(c *cli.Context, cfg iobench.Config) error {
	for _, flag := range []string{"min", "max"} {
		if !c.IsSet(flag) {
			continue
		}
		n, _ := parseBytes("--"+flag, c.String(flag))
		switch {
		case n%cfg.ElemSize() != 0:
			return fmt.Errorf("--%s: %q is not a whole number of %d-byte %s elements", flag, c.String(flag), cfg.ElemSize(), cfg.Type)
		case n > cfg.TotalBytes():
			return fmt.Errorf("--%s: %q is larger than the data (%d bytes); raise --count or --size", flag, c.String(flag), cfg.TotalBytes())
		}
	}
	return nil
}

func powerOfTwo(flag, s string) (int64, error) {
	n, err := parseBytes(flag, s)
	if err != nil {
		return 0, err
	}
	if !iobench.IsPowerOfTwo(n) {
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
