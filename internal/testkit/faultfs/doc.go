// Package faultfs is a FUSE file system for tests: a loopback over a
// directory whose writes, fsyncs, closes and unlinks fail, stall, hang or
// come up short on command, as a sick network or parallel file system does.
// Mounting needs root and /dev/fuse; Mount skips the test without them.
//
// It owns fault injection for tests only; no package outside tests may
// import it.
package faultfs
