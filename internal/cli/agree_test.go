package cli

import (
	"strings"
	"testing"
)

// The values ranks compare: one spelling per size, duration and number,
// so that --size 8MiB on one rank and --size 8388608 on another agree.
func TestCanonicalValue(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{"8MiB", "8388608"},
		{"1KiB,64KiB", "1024,65536"},
		{"3m", "180s"},
		{"2.5e8", "250000000"},
		{"0.95", "0.950"},
	} {
		if canonicalValue(tc.a) != canonicalValue(tc.b) {
			t.Errorf("%q -> %q and %q -> %q: want the same", tc.a, canonicalValue(tc.a), tc.b, canonicalValue(tc.b))
		}
	}
	for _, tc := range []struct{ a, b string }{{"8MiB", "16MiB"}, {"json", "text"}, {"true", "false"}} {
		if canonicalValue(tc.a) == canonicalValue(tc.b) {
			t.Errorf("%q and %q compare equal", tc.a, tc.b)
		}
	}
}

// A default run on a node whose memory, shared by the ranks the launcher
// put there, is below the 2 GB array says so before it starts and
// proposes the window source.
func TestDefaultRunShortOfMemoryProposesTheWindow(t *testing.T) {
	t.Setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "100000")
	dir := t.TempDir()
	_, stderr, code := runCLI(t, "sweep", "--dir", dir, "--no-progress")
	if code == 0 || !strings.Contains(stderr, "--source window") || !strings.Contains(stderr, "of memory") {
		t.Errorf("exit %d, want a refusal proposing --source window:\n%s", code, stderr)
	}
	if left := dirEntries(t, dir); len(left) != 0 {
		t.Errorf("files made before the refusal: %v", left)
	}
	if n := localRanks(func(string) string { return "" }); n != 1 {
		t.Errorf("localRanks without a launcher = %d, want 1", n)
	}
}
