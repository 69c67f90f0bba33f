package advice

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/iobench/iobench/fsinfo"
)

// TestLibraryValues: every library value is at least its default, on the
// file system's boundary, and the rows HowToApply prints use the same.
func TestLibraryValues(t *testing.T) {
	const kib, mib = 1 << 10, 1 << 20
	tests := []struct {
		name string
		f    ApplyFacts
		want map[string]int64
	}{
		{"a knee of 1 MiB on ext4", ApplyFacts{Knee: mib, FS: fsinfo.Info{Type: "ext4"}},
			map[string]int64{SettingCBBuffer: 16 * mib, SettingIndWrBuffer: mib, SettingBytesPerAgg: 32 * mib, SettingAlignment: mib, SettingSieve: mib, SettingTconv: mib}},
		{"a knee of 24 KiB", ApplyFacts{Knee: 24 * kib},
			map[string]int64{SettingCBBuffer: 16392 * kib, SettingIndWrBuffer: 528 * kib, SettingBytesPerAgg: 32784 * kib, SettingAlignment: 24 * kib, SettingSieve: 72 * kib, SettingTconv: 1032 * kib}},
		{"no knee", ApplyFacts{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, LibraryValues(tt.f)); diff != "" {
				t.Errorf("LibraryValues (-want +got):\n%s", diff)
			}
		})
	}
}
