package cli

import "testing"

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
