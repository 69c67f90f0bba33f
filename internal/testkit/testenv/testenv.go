// Package testenv sorts the tests into two layers. The fast layer is
// what `go test ./...` runs with no flags and no environment: pure code,
// fakes and in-process runs, with no root, compiler, mpirun or tracer
// needed. The full layer adds the end-to-end, terminal, root, FUSE,
// mpirun, compiler and tracer tests; scripts/test.sh (the README's test
// command, and CI) turns it on with IOBENCH_TEST_FULL=1.
//
// It is imported by tests only.
package testenv

import (
	"os"
	"os/exec"
	"testing"
)

// FullVar is the environment variable that turns the full layer on.
const FullVar = "IOBENCH_TEST_FULL"

// IsFull says whether the full layer runs.
func IsFull() bool { return os.Getenv(FullVar) != "" }

// Full skips t outside the full layer, saying why it is slow or what it
// needs (a compiler, mpirun, root, a terminal, a tracer).
func Full(t testing.TB, needs string) {
	t.Helper()
	if !IsFull() {
		t.Skipf("full layer (%s): scripts/test.sh runs it, or %s=1 go test", needs, FullVar)
	}
}

// Command is the path of the first of names on PATH; t is skipped
// with the reason when none is there.
func Command(t testing.TB, names ...string) string {
	t.Helper()
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	t.Skipf("needs %v on PATH", names)
	return ""
}

// Simulation skips t unless the full layer runs without the race
// detector: a simulation of thousands of sweeps tests statistics, not
// concurrency; scripts/test.sh runs it in its step without -race.
func Simulation(t testing.TB) {
	t.Helper()
	switch {
	case Race:
		t.Skip("a simulation of many sweeps, too slow under -race: scripts/test.sh runs it without")
	case !IsFull():
		Full(t, "a simulation of many sweeps, seconds of CPU")
	}
}
