//go:build !race

package testenv

// Race says whether the race detector is on.
const Race = false
