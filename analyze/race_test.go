//go:build race

package analyze_test

// raceEnabled: the race detector slows parsing tenfold, too much for a
// test to read a million rows.
const raceEnabled = true
