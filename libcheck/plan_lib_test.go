package libcheck

import (
	"testing"

	"github.com/iobench/iobench/convert"
)

// TestMPIIOCases: each setting runs where its rule says it can change
// the calls, at the recommended value and twice it, the default left to
// the default case.
func TestMPIIOCases(t *testing.T) {
	ch := MPIIOChoice{Components: []string{OMPIO, ROMIO}, Layouts: []Layout{LayoutPerRank, LayoutShared}, Collective: []bool{false, true},
		Memories: []string{MemoryContiguous, MemoryStrided}, Ranks: 3,
		Recommended: map[string]int64{SettingCBBuffer: 16 * mib, SettingIndWrBuffer: mib, SettingBytesPerAgg: 32 * mib, SwitchCBWrite: 0}}
	cases, notes := MPIIOCases(ch)
	count := map[string]int{}
	for _, c := range cases {
		count[c.Component]++
		if c.Setting != "" && c.BufferBytes == SettingDefault(c.Setting) {
			t.Errorf("%+v runs a default as a setting", c)
		}
		if c.Memory == MemoryPacked && !c.Default {
			t.Errorf("%+v: a packed twin runs its default only", c)
		}
	}
	// OMPIO: 2 layouts x 2 modes x 3 memories, plus bytes_per_agg 64 MiB
	// for vulcan's contiguous and strided. ROMIO: 12 defaults, ind_wr 1
	// and 2 MiB for 4 strided groups, enable and cb 32 MiB (16 MiB is the
	// default) for 4 collective groups that are not packed twins.
	if count[OMPIO] != 14 || count[ROMIO] != 12+8+8 {
		t.Errorf("cases per component %v, want ompio 14, romio 28", count)
	}
	if len(notes) != 2 {
		t.Errorf("notes %q", notes)
	}
	two := ch
	two.Ranks = 2
	if cases, _ := MPIIOCases(two); countSetting(cases, SettingBytesPerAgg) != 0 {
		t.Errorf("2 ranks: bytes_per_agg ran, but fcoll individual never aggregates")
	}
}

func countSetting(cases []Case, s string) int {
	n := 0
	for _, c := range cases {
		if c.Setting == s {
			n++
		}
	}
	return n
}

func TestHDF5Cases(t *testing.T) {
	ch := HDF5Choice{Storages: []string{StorageContiguous, StorageChunked}, Layouts: []Layout{LayoutArray, LayoutRecords},
		Orders: []convert.Order{convert.Native, convert.BigEndian}, Recommended: map[string]int64{SettingAlignment: mib, SettingSieve: mib, SettingTconv: 4 * mib}}
	cases, _ := HDF5Cases(ch)
	// 8 defaults, alignment for 4 array groups, the sieve for 2
	// contiguous record groups, tconv 4 and 8 MiB for contiguous
	// big-endian arrays.
	if len(cases) != 8+4+2+2 || countSetting(cases, SettingTconv) != 2 || countSetting(cases, SettingSieve) != 2 {
		t.Errorf("%d cases: %+v", len(cases), cases)
	}
	for _, c := range cases {
		if c.Setting == SettingSieve && c.Storage != StorageContiguous {
			t.Errorf("%+v: a chunked dataset has no sieve buffer", c)
		}
	}
}
