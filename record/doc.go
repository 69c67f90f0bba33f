// Package record holds what a sweep measured, as plain values: its runs
// and samples, their summary per size, the adaptive rounds' account,
// files left behind, and the settings' enumerations the records name.
// The engine (package iobench) produces these; the report, progress and
// analyze read them without importing the engine.
package record
