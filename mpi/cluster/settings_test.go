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
		mine := []Setting{{"--format", "text"}, {"--fsync", "false"}}
		if cl.Rank() == 2 {
			mine = []Setting{{"--fsync", "true"}, {"--format", "text"}, {"--shared-file", "true"}}
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
		return cl.SameSettings([]Setting{{"--api", "mpiio"}, {"-o", ""}})
	}) {
		if err != nil {
			t.Errorf("rank %d: %v", rank, err)
		}
	}
}
