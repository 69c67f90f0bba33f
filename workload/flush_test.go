package workload

import "testing"

func TestFlushOf(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   Input
		want string
	}{
		{"page cache", Input{Files: []File{{Path: "a", Writes: 1}}}, FlushNone},
		{"fsync", Input{Files: []File{{Path: "a", Flushes: map[string]int64{"fsync": 2}}}}, FlushFsync},
		{"open flag beats a call", Input{Files: []File{{Path: "a", Flushes: map[string]int64{"fsync": 2}}, {Path: "b", OpenFlags: []string{"O_CREAT", "O_DSYNC"}}}}, FlushODSync},
		{"sync_file_range", Input{Files: []File{{Path: "a", Flushes: map[string]int64{"sync_file_range": 1}}}}, FlushFdatasync},
		{"mapped", Input{Mapped: []File{{Path: "m", Mapped: true, Flushes: map[string]int64{"msync": 1}}}}, FlushMsync},
	} {
		got := FlushOf([]Input{tc.in})
		if got.Mode != tc.want || got.Why == "" {
			t.Errorf("%s: FlushOf = %+v, want mode %s with a reason", tc.name, got, tc.want)
		}
		if tc.name == "mapped" && (len(got.Mapped) != 1 || got.Mapped[0] != "m") {
			t.Errorf("mapped: Mapped = %v, want [m]", got.Mapped)
		}
	}
}
