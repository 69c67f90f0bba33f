// Package record holds what a sweep measured, as plain values: its runs
// and samples, their summary per size, the adaptive rounds' account,
// per-call latency, files left behind, how far the time left was off
// (ETAError), the phase a run is in, and the settings as reported
// (Config, which iobench.Config.Record derives) with the enumerations
// they name. The engine (package iobench) produces these; the report,
// verdict, progress and analyze read them without importing the engine.
package record
