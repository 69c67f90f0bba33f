package cli

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/record"
)

// TestRangeRulesAreTheConfigs: a range the command line checks as it
// reads a flag is the Config's rule, in its words, with the flag named,
// so the rule has one owner; sweep and runtime alike.
func TestRangeRulesAreTheConfigs(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		flag string
		rule error
	}{
		{[]string{"sweep", "--dir", dir, "--count", "0"}, "--count", iobench.Config{}.CountError()},
		{[]string{"sweep", "--dir", dir, "--repeat", "0"}, "--repeat", iobench.Config{}.RepeatError()},
		{[]string{"runtime", "stdio", "--dir", dir, "--repeat", "20000"}, "--repeat", iobench.Config{Settings: record.Settings{Repeat: 20000}}.RepeatError()},
		{[]string{"sweep", "--dir", dir, "--time-budget", "0s"}, "--time-budget", iobench.DurationError(iobench.SetTimeBudget, 0)},
		{[]string{"sweep", "--dir", dir, "--repeat", "3", "--time-budget", "1m"}, "--time-budget", iobench.Config{Settings: record.Settings{Repeat: 3}, TimeBudget: time.Minute}.TimeBudgetError()},
		{[]string{"sweep", "--dir", dir, "--time-limit", "-3s"}, "--time-limit", iobench.DurationError(iobench.SetTimeLimit, -3*time.Second)},
		{[]string{"tune", "--time-budget", "0s", "--", "true"}, "--time-budget", iobench.DurationError(iobench.SetTimeBudget, 0)},
		{[]string{"runtime", "stdio", "--dir", dir, "--time-budget", "-1m"}, "--time-budget", iobench.DurationError(iobench.SetTimeBudget, -time.Minute)},
		{[]string{"runtime", "stdio", "--dir", dir, "--sync", "often"}, "--sync", iobench.Config{Settings: record.Settings{Sync: "often"}}.SyncError()},
		{[]string{"sweep", "--dir", dir, "--sync", "often"}, "--sync", iobench.Config{Settings: record.Settings{Sync: "often"}}.SyncError()},
		{[]string{"sweep", "--dir", dir, "--type", "float64,float32,int32,int64,complex64,complex128", "--convert", "native,big-endian,little-endian"},
			"--convert/--type/--direct", iobench.Config{Variants: make([]iobench.Variant, 18)}.VariantCountError()},
	} {
		var ce *iobench.ConfigError
		if !errors.As(tc.rule, &ce) {
			t.Fatalf("%v: the Config's rule gave %v, want a ConfigError", tc.args, tc.rule)
		}
		want := tc.flag + ": " + iobench.Render(ce.Reason, flagWords)
		_, stderr, code := runCLI(t, tc.args...)
		if code != 2 || strings.TrimSpace(stderr) != "iobench: "+want {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, stderr, want)
		}
	}
}
