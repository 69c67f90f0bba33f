// Package iobench is the sweep engine: it writes a data set to a file once
// per write size (and repetition), times each run from open to close, and
// returns raw samples. It knows nothing of flags or terminals; the command
// in package main wires those to it.
package iobench
