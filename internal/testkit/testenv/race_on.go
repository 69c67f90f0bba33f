//go:build race

package testenv

// Race says whether the race detector is on: it slows simulations of
// many sweeps about sevenfold, and they test statistics, not concurrency.
const Race = true
