//go:build !mpi

package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestLauncherWithoutMPIWarns(t *testing.T) {
	defer func() { launcherWarnings = nil }()
	env := map[string]string{"OMPI_COMM_WORLD_SIZE": "4", "OMPI_COMM_WORLD_RANK": "2"}
	var stderr bytes.Buffer
	warnUnaggregated(&stderr, func(k string) string { return env[k] })
	if !strings.Contains(stderr.String(), "task 2 of 4") || !strings.Contains(stderr.String(), "not aggregated") || len(launcherWarnings) != 1 {
		t.Errorf("stderr %q, warnings %q: want one warning naming task 2 of 4", stderr.String(), launcherWarnings)
	}
	launcherWarnings = nil
	stderr.Reset()
	warnUnaggregated(&stderr, func(string) string { return "" })
	if stderr.Len() != 0 || len(launcherWarnings) != 0 {
		t.Errorf("warned without a launcher: %q", stderr.String())
	}
}
