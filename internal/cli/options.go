package cli

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// Every command declares its flags as rows (optRow) and reads them once,
// with readRows, into a typed options value; the rest of the command
// takes that value. This file is the only one that looks a flag up by
// name (flagreads_test.go checks it), and it does so by each row's own
// flag, so a name in a row is the name on the command line.

// optValue is one flag's value as parsed: a string, int, uint64,
// float64, bool, time.Duration, []string or cli.Generic, by the flag's
// type; set says the command line gave it.
type optValue struct {
	val any
	set bool
}

// opt is a flag's value in a command's options.
type opt[T any] struct {
	v   T
	set bool
}

// optRow is one flag of a command and where its value goes in the
// command's options O.
type optRow[O any] struct {
	flag  cli.Flag
	store func(o *O, v optValue) error
}

// row pairs f with the field of O that takes its value; T must be the
// type f parses to (a test reads every table with its defaults).
func row[O, T any](f cli.Flag, at func(*O) *opt[T]) optRow[O] {
	return optRow[O]{flag: f, store: func(o *O, v optValue) error {
		t, ok := v.val.(T)
		if !ok {
			return fmt.Errorf("--%s: a %T, stored as a %T (a bug in its table)", f.Names()[0], v.val, t)
		}
		*at(o) = opt[T]{v: t, set: v.set}
		return nil
	}}
}

// lift makes a row of options P a row of O, which holds a P at at.
func lift[O, P any](r optRow[P], at func(*O) *P) optRow[O] {
	return optRow[O]{flag: r.flag, store: func(o *O, v optValue) error { return r.store(at(o), v) }}
}

// liftAll is lift of every row.
func liftAll[O, P any](rows []optRow[P], at func(*O) *P) []optRow[O] {
	out := make([]optRow[O], len(rows))
	for i, r := range rows {
		out[i] = lift(r, at)
	}
	return out
}

// rowFlags are the rows' flags, for the command's Flags.
func rowFlags[O any](rows []optRow[O]) []cli.Flag {
	out := make([]cli.Flag, len(rows))
	for i, r := range rows {
		out[i] = r.flag
	}
	return out
}

// readRows stores every row's value into o, in the rows' order; o holds
// the command's defaults beforehand.
func readRows[O any](c *cli.Context, rows []optRow[O], o *O) error {
	for _, r := range rows {
		if err := r.store(o, valueOf(c, r.flag)); err != nil {
			return err
		}
	}
	return nil
}

// valueOf is f's value on the command line, or its default: the one
// lookup of a flag by name.
func valueOf(c *cli.Context, f cli.Flag) optValue {
	name := f.Names()[0]
	v := optValue{set: c.IsSet(name)}
	switch f.(type) {
	case *cli.StringFlag:
		v.val = c.String(name)
	case *cli.IntFlag:
		v.val = c.Int(name)
	case *cli.Uint64Flag:
		v.val = c.Uint64(name)
	case *cli.Float64Flag:
		v.val = c.Float64(name)
	case *cli.BoolFlag:
		v.val = c.Bool(name)
	case *cli.DurationFlag:
		v.val = c.Duration(name)
	case *cli.StringSliceFlag:
		v.val = c.StringSlice(name)
	case *cli.GenericFlag:
		v.val = c.Generic(name)
	default:
		v.val = c.Value(name)
	}
	return v
}
