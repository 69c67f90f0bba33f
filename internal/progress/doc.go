// Package progress is the live display of a run on stderr: a line per
// finished run, a line per round with the time left, and on a terminal a
// bar below them over the time the planned work should take (Live), the
// estimate of that time from the runs' measured times (the forecast, in
// eta.go), and how far off it was, for the report (ETAErrors). The
// sweep and the runtime checks both show their runs through it.
//
// It reads the plan as reported (record.Config), polls a Source, and is
// told the engine's rule for foreseeing adaptive rounds (a Foreseer); it
// never decides what runs, imports records only, never the engine, the
// command line (internal/cli) or a renderer: its lines are its own.
package progress
