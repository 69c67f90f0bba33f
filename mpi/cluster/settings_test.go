package cluster

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A rank given another value, or a setting rank 0 lacks, is named with
// both values on that rank alone; Agree then stops every rank with it.
func TestSameSettings(t *testing.T) {
	type got struct{ local, agreed error }
	results := joinAll(t, threeHosts, func(cl *Cluster) got {
		mine := []Setting{{Name: "--format", Value: "text"}, {Name: "--fsync", Value: "false"}}
		if cl.Rank() == 2 {
			mine = []Setting{{Name: "--fsync", Value: "true"}, {Name: "--format", Value: "text"}, {Name: "--shared-file", Value: "true"}}
		}
		local := cl.SameSettings(mine)
		return got{local, cl.Agree(local)}
	})
	for rank, r := range results {
		var sm *SettingsMismatchError
		if errors.As(r.local, &sm) != (rank == 2) {
			t.Fatalf("rank %d: SameSettings = %v; want a mismatch on rank 2 only", rank, r.local)
		}
		if rank == 2 {
			want := []SettingDiff{{"--fsync", "true", "false"}, {"--shared-file", "true", notGiven}}
			if diff := cmp.Diff(want, sm.Diffs); diff != "" {
				t.Errorf("diffs (-want +got):\n%s", diff)
			}
		}
		want := `rank 2 (b): given other values than rank 0: --fsync "true" (rank 0: "false"), --shared-file "true" (rank 0: "(none)"); every rank must be given the same`
		if r.agreed == nil || r.agreed.Error() != want {
			t.Errorf("rank %d: Agree = %v\nwant %s", rank, r.agreed, want)
		}
	}
}

func TestSameSettingsAgree(t *testing.T) {
	for rank, err := range joinAll(t, threeHosts, func(cl *Cluster) error {
		return cl.SameSettings([]Setting{{Name: "--api", Value: "mpiio"}, {Name: "-o", Value: ""}})
	}) {
		if err != nil {
			t.Errorf("rank %d: %v", rank, err)
		}
	}
}

// Values that parse alike agree whatever their spelling: ranks compare
// the parsed settings; a real difference is still named as typed.
func TestSameSettingsCompareParsed(t *testing.T) {
	results := joinAll(t, threeHosts, func(cl *Cluster) error {
		mine := []Setting{{Name: "--size", Value: "8MiB", Canon: "8388608"}, {Name: "--max", Value: "1MiB", Canon: "1048576"}}
		if cl.Rank() == 1 {
			mine[0] = Setting{Name: "--size", Value: "8388608", Canon: "8388608"}
		}
		if cl.Rank() == 2 {
			mine[1] = Setting{Name: "--max", Value: "2MiB", Canon: "2097152"}
		}
		return cl.SameSettings(mine)
	})
	if results[0] != nil || results[1] != nil {
		t.Errorf("ranks 0 and 1 (8MiB, 8388608): %v, %v; want agreement", results[0], results[1])
	}
	want := `given other values than rank 0: --max "2MiB" (rank 0: "1MiB"); every rank must be given the same`
	if results[2] == nil || results[2].Error() != want {
		t.Errorf("rank 2: %v\nwant %s", results[2], want)
	}
}
