package verdict

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/iobench/iobench/knee"
)

// TestSummaryWarnings: the warnings the knee calls for, by kind.
func TestSummaryWarnings(t *testing.T) {
	k := knee.Estimate{Result: knee.Result{Found: true, Outliers: []int64{4096}}, Rounds: 1, Status: knee.StatusOneRound}
	var got []WarningKind
	for _, w := range KneeWarnings(k) {
		got = append(got, w.Kind)
	}
	if diff := cmp.Diff([]WarningKind{WarnKneeNotEstablished, WarnOutliersSetAside}, got); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}
	k.Established, k.Rounds, k.Status = true, 3, knee.StatusEstablished
	if w := KneeWarnings(k); w != nil {
		t.Errorf("an established knee after 3 rounds: warnings %v", w)
	}
}
