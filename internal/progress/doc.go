// Package progress is the live display of a run on stderr: a line per
// finished run, a line per round with the time left, and on a terminal a
// bar below them over the time the planned work should take (Live), the
// estimate of that time from the runs' measured times (the forecast, in
// eta.go), and how far off it was, for the report (ETAErrors). The
// sweep and the runtime checks both show their runs through it.
//
// It reads the engine's plan and polls a Source; it never decides what
// runs, and must not import the command line (internal/cli) or any
// renderer: its lines are its own.
package progress
