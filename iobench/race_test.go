//go:build race

package iobench

// raceEnabled: the race detector slows the planner's simulations
// (hundreds of simulated sweeps) about sevenfold; they test statistics,
// not concurrency, and scripts/test.sh runs them without it.
const raceEnabled = true
