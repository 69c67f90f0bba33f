// Package iobench is the sweep engine: it writes a data set to a file once
// per write size (and repetition), times each run from open to close, and
// returns raw samples as records (package record, whose names it
// aliases). It knows nothing of flags or terminals; the command in
// internal/cli wires those to it.
//
// It owns planning, running, timing, file safety (unique names, identity
// checks, removal on every exit path), and the plan's record
// (Config.Record). It must not import report, profile, urfave/cli or the
// terminal; its errors and warnings name settings (Setting,
// ConfigError), never flags. A platform it cannot serve fails the build
// (iobench/internal/platform).
package iobench

import _ "github.com/iobench/iobench/iobench/internal/platform" // refuses Windows at build time
