package cli

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/profile"
)

// settingFlags are the flags that set each library setting, the first
// one a setting's name in messages.
var settingFlags = []struct {
	flag    string
	setting iobench.Setting
}{
	{"dir", iobench.SetDir}, {"count", iobench.SetCount}, {"size", iobench.SetCount},
	{"type", iobench.SetType}, {"convert", iobench.SetConvert}, {"stride", iobench.SetStride},
	{"sizes", iobench.SetSizes}, {"min", iobench.SetMinSize}, {"max", iobench.SetMaxSize},
	{"repeat", iobench.SetRepeat}, {"time-budget", iobench.SetTimeBudget},
	{"knee-fraction", iobench.SetKneeFraction}, {"order", iobench.SetOrder}, {"seed", iobench.SetSeed},
	{"fsync", iobench.SetFsync}, {"sync", iobench.SetSync}, {"warmup", iobench.SetWarmup},
	{"source", iobench.SetSource}, {"force", iobench.SetForce}, {"verify", iobench.SetVerify},
	{"keep", iobench.SetKeep}, {"mode", iobench.SetMode}, {"direct", iobench.SetDirect},
	{"drop-caches", iobench.SetDrop}, {"profile", iobench.SetProfile},
	{"jobs", iobench.SetJobs}, {"convert", iobench.SetVariants}, {"type", iobench.SetVariants}, {"direct", iobench.SetVariants},
	{"time-limit", iobench.SetTimeLimit}, {"data", iobench.SetData}, {"flush", iobench.SetFlush},
	{"open-sync", iobench.SetOpenSync}, {"preallocate", iobench.SetPreallocate}, {"overwrite", iobench.SetOverwrite},
	{"latency", iobench.SetLatency},
	{"latency-all", iobench.SetLatencyAll},
	{"read-shift", iobench.SetReadShift},
}

// flagOf is the flag that sets s: "--count".
func flagOf(s iobench.Setting) string {
	for _, f := range settingFlags {
		if f.setting == s {
			return "--" + f.flag
		}
	}
	return string(s)
}

// flagWords names s in prose: every flag that sets it, "--count/--size".
func flagWords(s iobench.Setting) string {
	words := ""
	for _, f := range settingFlags {
		if f.setting == s {
			if words != "" {
				words += "/"
			}
			words += "--" + f.flag
		}
	}
	if words == "" {
		return string(s)
	}
	return words
}

// inFlagWords is err with a library setting error told in flags:
// "--count: 0 must be positive" instead of "Count: ...".
func inFlagWords(err error) error {
	var ce *iobench.ConfigError
	if !errors.As(err, &ce) {
		return err
	}
	return &wordedError{msg: flagOf(ce.Field) + ": " + iobench.Render(ce.Reason, flagWords), err: err}
}

// wordedError is an error in the CLI's words, unwrapping to the library's.
type wordedError struct {
	msg string
	err error
}

func (e *wordedError) Error() string { return e.msg }
func (e *wordedError) Unwrap() error { return e.err }

// overrides are the settings the command line gives, which a profile
// leaves alone.
func overrides(c *cli.Context) profile.Overrides {
	given := profile.Overrides{}
	for _, f := range settingFlags {
		if c.IsSet(f.flag) {
			given[f.setting] = true
		}
	}
	if given[iobench.SetFlush] { // --flush says what --fsync would
		given[iobench.SetFsync] = true
	}
	return given
}

// flagParseError matches the flag package's words for a value it could
// not parse: `invalid value "abc" for flag -stride: parse error`.
var flagParseError = regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for (?:flag )?-([A-Za-z0-9-]+): (.*)$`)

// inFlagTerms rewrites the flag package's parse errors in iobench's form,
// naming the flag as users type it and saying what the value should be:
// `--stride: "abc" is not a whole number`.
func inFlagTerms(err error, flags []cli.Flag) error {
	m := flagParseError.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	value, name, reason := m[1], m[2], m[3]
	switch reason {
	case "parse error":
		reason = fmt.Sprintf("%q %s", value, expected(flags, name))
	case "value out of range":
		reason = fmt.Sprintf("%q is out of range", value)
	default:
		if !strings.Contains(reason, value) {
			reason = fmt.Sprintf("%q: %s", value, reason)
		}
	}
	return fmt.Errorf("--%s: %s", name, reason)
}

// expected says what kind of value the flag called name takes.
func expected(flags []cli.Flag, name string) string {
	for _, f := range flags {
		if !slices.Contains(f.Names(), name) {
			continue
		}
		switch f.(type) {
		case *cli.IntFlag, *cli.Int64Flag:
			return "is not a whole number"
		case *cli.UintFlag, *cli.Uint64Flag:
			return "is not a whole number of 0 or more"
		case *cli.Float64Flag:
			return "is not a number"
		case *cli.BoolFlag:
			return "is not true or false"
		}
	}
	return "is not a valid value"
}
