package cli

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/iobench/iobench/iobench"
)

// inFlagWords is err with a library setting error told in flags:
// "--count: 0 must be positive" instead of "Count: ...".
func inFlagWords(err error) error { return worded(err, flagOf) }

// inAllFlagWords is inFlagWords naming every flag that sets the setting,
// for one that several make together: "--type/--convert/--direct: ...".
func inAllFlagWords(err error) error { return worded(err, flagWords) }

func worded(err error, name func(iobench.Setting) string) error {
	var ce *iobench.ConfigError
	var w *wordedError
	if !errors.As(err, &ce) || errors.As(err, &w) {
		return err
	}
	return &wordedError{msg: name(ce.Field) + ": " + iobench.Render(ce.Reason, flagWords), err: err}
}

// wordedError is an error in the CLI's words, unwrapping to the library's.
type wordedError struct {
	msg string
	err error
}

func (e *wordedError) Error() string { return e.msg }
func (e *wordedError) Unwrap() error { return e.err }

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

// usageError is bad input: exit code 2.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

func asUsage(err error) error {
	if err == nil {
		return nil
	}
	return &usageError{inFlagWords(err)}
}
