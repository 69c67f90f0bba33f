package cluster

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/units"
)

// Three ranks, two on node "a": rank 1 is not its node's leader.
var threeHosts = []string{"a", "a", "b"}

func TestNewLearnsHosts(t *testing.T) {
	type view struct {
		Rank, Size int
		Leader     bool
		Nodes      []string
		Host2      string
	}
	got := joinAll(t, threeHosts, func(cl *Cluster) view {
		return view{cl.Rank(), cl.Size(), cl.NodeLeader(), cl.Nodes(), cl.Host(2)}
	})
	want := []view{
		{0, 3, true, []string{"a", "b"}, "b"},
		{1, 3, false, []string{"a", "b"}, "b"},
		{2, 3, true, []string{"a", "b"}, "b"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestAgreeWithoutFailure(t *testing.T) {
	for rank, err := range joinAll(t, threeHosts, func(cl *Cluster) error { return cl.Agree(nil) }) {
		if err != nil {
			t.Errorf("rank %d: Agree(nil) = %v", rank, err)
		}
	}
}

// A failure on some ranks reaches every rank, naming each failed rank and
// its host, in rank order.
func TestAgreeSharesFailures(t *testing.T) {
	errDisk := errors.New("no space left on device")
	errs := joinAll(t, threeHosts, func(cl *Cluster) error {
		var mine error
		switch cl.Rank() {
		case 1:
			mine = errDisk
		case 2:
			mine = errors.New("permission denied")
		}
		return cl.Agree(mine)
	})
	want := []Failure{
		{Rank: 1, Host: "a", Message: "no space left on device"},
		{Rank: 2, Host: "b", Message: "permission denied"},
	}
	for rank, err := range errs {
		var re *RankError
		if !errors.As(err, &re) {
			t.Fatalf("rank %d: Agree = %v, want a *RankError", rank, err)
		}
		if diff := cmp.Diff(want, re.Failures); diff != "" {
			t.Errorf("rank %d: failures (-want +got):\n%s", rank, diff)
		}
		if wantText := "rank 1 (a): no space left on device; rank 2 (b): permission denied"; err.Error() != wantText {
			t.Errorf("rank %d: error %q, want %q", rank, err, wantText)
		}
		if errors.Is(err, iobench.ErrInterrupted) {
			t.Errorf("rank %d: error is ErrInterrupted; no rank was interrupted", rank)
		}
		if got := errors.Is(err, errDisk); got != (rank == 1) {
			t.Errorf("rank %d: errors.Is(err, its own error) = %v, want %v", rank, got, rank == 1)
		}
	}
}

// One interrupted rank makes every rank's error an interruption, so all
// exit 130; the text carries no marker.
func TestAgreeSharesInterrupt(t *testing.T) {
	errs := joinAll(t, threeHosts, func(cl *Cluster) error {
		var mine error
		if cl.Rank() == 2 {
			mine = fmt.Errorf("%w: received interrupt", iobench.ErrInterrupted)
		}
		return cl.Agree(mine)
	})
	for rank, err := range errs {
		if !errors.Is(err, iobench.ErrInterrupted) {
			t.Errorf("rank %d: Agree = %v, want ErrInterrupted", rank, err)
		}
		if want := "rank 2 (b): interrupted: received interrupt"; err == nil || err.Error() != want {
			t.Errorf("rank %d: error %v, want %q", rank, err, want)
		}
	}
}

func TestSamePlanAgrees(t *testing.T) {
	errs := joinAll(t, threeHosts, func(cl *Cluster) error {
		cfg := testConfig()
		// What ranks may differ in: Configure's share and the syncing rank.
		cfg.Count += int64(cl.Rank())
		if cl.Rank() == 1 {
			cfg.Sync = iobench.SyncNone
		}
		return cl.Agree(cl.SamePlan(cfg))
	})
	for rank, err := range errs {
		if err != nil {
			t.Errorf("rank %d: %v", rank, err)
		}
	}
}

// A rank whose file system chose other sizes stops every rank at the
// check, before any rank writes; no rank waits for the others.
func TestSamePlanMismatch(t *testing.T) {
	type got struct{ local, agreed error }
	results := joinAll(t, threeHosts, func(cl *Cluster) got {
		cfg := testConfig()
		if cl.Rank() == 2 {
			cfg.Sizes = []int64{4096}
		}
		local := cl.SamePlan(cfg)
		return got{local, cl.Agree(local)}
	})
	for rank, r := range results {
		var pm *PlanMismatchError
		if errors.As(r.local, &pm) != (rank == 2) {
			t.Errorf("rank %d: SamePlan = %v; want a *PlanMismatchError on rank 2 only", rank, r.local)
		}
		if r.agreed == nil || !strings.HasPrefix(r.agreed.Error(), "rank 2 (b): this rank's plan (") ||
			!strings.Contains(r.agreed.Error(), "differs from rank 0's") {
			t.Errorf("rank %d: Agree = %v, want rank 2's mismatch", rank, r.agreed)
		}
	}
}

func TestConfigureSharesTotal(t *testing.T) {
	type got struct {
		Count  int64
		Seed   uint64
		Sync   iobench.SyncMode
		Ranks  int
		Shared iobench.Shared
	}
	var prefix0 atomic.Value
	results := joinAll(t, threeHosts, func(cl *Cluster) got {
		cfg := testConfig()
		cfg.Count, cfg.Seed = 10, uint64(100+cl.Rank()) // rank 0's seed wins
		shared, prefix, err := cl.Configure(&cfg, Files{SplitCount: true, Shared: true})
		if err != nil || shared == nil {
			t.Errorf("rank %d: Configure = %v, %v", cl.Rank(), shared, err)
			return got{}
		}
		if cl.Rank() == 0 {
			prefix0.Store(prefix)
		}
		return got{cfg.Count, cfg.Seed, cfg.Sync, cfg.Ranks, *shared}
	})
	name := results[0].Shared.Name
	if !strings.HasSuffix(name, "-shared.dat") || !strings.HasPrefix(name, prefix0.Load().(string)) {
		t.Errorf("shared file %q, want rank 0's prefix %q and -shared.dat", name, prefix0.Load())
	}
	// 10 elements of 8 bytes over 3 ranks: 4, 3, 3.
	want := []got{
		{4, 100, iobench.SyncFS, 3, iobench.Shared{Name: name, Offset: 0, Creator: true}},
		{3, 100, iobench.SyncNone, 3, iobench.Shared{Name: name, Offset: 4 * 8}},
		{3, 100, iobench.SyncFS, 3, iobench.Shared{Name: name, Offset: 7 * 8}},
	}
	if diff := cmp.Diff(want, results); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// Without SplitCount every rank writes the whole count, in its own file.
func TestConfigureCountPerRank(t *testing.T) {
	type got struct {
		Count  int64
		Shared *iobench.Shared
		Prefix string
	}
	results := joinAll(t, []string{"a", "b"}, func(cl *Cluster) got {
		cfg := testConfig()
		cfg.Count = 10
		shared, prefix, err := cl.Configure(&cfg, Files{})
		if err != nil {
			t.Errorf("rank %d: Configure: %v", cl.Rank(), err)
		}
		return got{cfg.Count, shared, prefix}
	})
	for rank, r := range results {
		if r.Count != 10 || r.Shared != nil || r.Prefix == "" {
			t.Errorf("rank %d: count %d, shared %v, prefix %q; want 10, nil and a prefix", rank, r.Count, r.Shared, r.Prefix)
		}
	}
	if results[0].Prefix == results[1].Prefix {
		t.Errorf("both ranks use prefix %q for their own files", results[0].Prefix)
	}
}

// Every rank learns the prefixes of its host's other ranks, never its
// own, so a survivor of a killed rank can remove what that rank left;
// another host's process cannot be seen to be gone, so its prefix is of
// no use.
func TestConfigureSharesTheHostsPrefixes(t *testing.T) {
	type got struct {
		Own   string
		Peers []string
	}
	results := joinAll(t, threeHosts, func(cl *Cluster) got {
		cfg := testConfig()
		_, prefix, err := cl.Configure(&cfg, Files{})
		if err != nil {
			t.Errorf("rank %d: Configure: %v", cl.Rank(), err)
		}
		return got{prefix, cl.PeerPrefixes()}
	})
	for rank, r := range results {
		var want []string
		for other, o := range results {
			if other != rank && threeHosts[other] == threeHosts[rank] {
				want = append(want, o.Own)
			}
		}
		if diff := cmp.Diff(want, r.Peers); diff != "" {
			t.Errorf("rank %d: PeerPrefixes (-want +got):\n%s", rank, diff)
		}
	}
}

func TestShare(t *testing.T) {
	for _, tc := range []struct {
		total          int64
		size           int
		counts, firsts []int64
	}{
		{10, 3, []int64{4, 3, 3}, []int64{0, 4, 7}},
		{9, 3, []int64{3, 3, 3}, []int64{0, 3, 6}},
		{2, 3, []int64{1, 1, 0}, []int64{0, 1, 2}},
		{5, 1, []int64{5}, []int64{0}},
	} {
		var counts, firsts []int64
		for r := range tc.size {
			c, f := Share(tc.total, r, tc.size)
			counts, firsts = append(counts, c), append(firsts, f)
		}
		if diff := cmp.Diff([][]int64{tc.counts, tc.firsts}, [][]int64{counts, firsts}); diff != "" {
			t.Errorf("Share(%d, r, %d) counts and firsts (-want +got):\n%s", tc.total, tc.size, diff)
		}
	}
}

// Decide calls decide once, on rank 0, with every rank's samples
// aggregated, and gives its answer to every rank.
func TestDecide(t *testing.T) {
	var calls atomic.Int32
	var seen atomic.Value
	answers := joinAll(t, threeHosts, func(cl *Cluster) []int64 {
		decide := func(agg []iobench.Sample) []int64 {
			calls.Add(1)
			seen.Store(agg)
			return []int64{1024, 4096}
		}
		sizes, err := cl.Decide(rankSamples(cl.Rank()), decide)
		if err != nil {
			t.Errorf("rank %d: Decide: %v", cl.Rank(), err)
		}
		return sizes
	})
	if n := calls.Load(); n != 1 {
		t.Errorf("decide called %d times, want once", n)
	}
	if diff := cmp.Diff([][]int64{{1024, 4096}, {1024, 4096}, {1024, 4096}}, answers); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
	if agg, _ := seen.Load().([]iobench.Sample); len(agg) != 2 || agg[0].Bytes != 3*1000 {
		t.Errorf("decide saw %+v, want 2 runs of the 3 ranks' 3000 bytes", agg)
	}
}

// Gather sums the ranks' bytes run by run over the span of all, and
// collects the files left behind and what Verify checked, at rank 0.
func TestGather(t *testing.T) {
	type got struct {
		Res    *iobench.Result
		Spread []iobench.RankSpread
	}
	results := joinAll(t, threeHosts, func(cl *Cluster) got {
		r := cl.Rank()
		res := &iobench.Result{Samples: rankSamples(r), WarmupRan: true,
			Verified: &iobench.Verified{Files: 1, Elements: 10, Bytes: 80}}
		if r == 1 {
			res.LeftFiles = []iobench.LeftFile{{Path: "/d/f1", Err: "EIO"}}
		}
		agg, spread, err := cl.Gather(res)
		if err != nil {
			t.Errorf("rank %d: Gather: %v", r, err)
		}
		return got{agg, spread}
	})
	for rank, r := range results[1:] {
		if r.Res != nil || r.Spread != nil {
			t.Errorf("rank %d got %+v, want nil off rank 0", rank+1, r)
		}
	}
	agg, spread := results[0].Res, results[0].Spread
	if agg == nil || len(agg.Samples) != 2 || len(spread) != 2 {
		t.Fatalf("rank 0: %+v, %+v; want 2 aggregated runs", agg, spread)
	}
	s := agg.Samples[0]
	if s.Bytes != 3000 || !s.Start.Equal(t0) || !s.End.Equal(t0.Add(3*time.Second)) {
		t.Errorf("run 1 aggregated to %d bytes from %v to %v; want 3000 bytes over t0..t0+3s", s.Bytes, s.Start, s.End)
	}
	if spread[0].SlowestRank != 2 {
		t.Errorf("slowest rank %d, want 2 (it took longest)", spread[0].SlowestRank)
	}
	if diff := cmp.Diff([]iobench.LeftFile{{Path: "/d/f1", Err: "EIO"}}, agg.LeftFiles); diff != "" {
		t.Errorf("left files (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(&iobench.Verified{Files: 3, Elements: 30, Bytes: 240}, agg.Verified); diff != "" {
		t.Errorf("verified (-want +got):\n%s", diff)
	}
	if !agg.WarmupRan {
		t.Error("rank 0's own fields were lost")
	}
}

var t0 = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

// rankSamples is rank r's two runs: 1000 bytes each, rank r taking r+1
// seconds.
func rankSamples(r int) []iobench.Sample {
	var out []iobench.Sample
	for i, size := range []int64{1024, 2048} {
		d := time.Duration(r+1) * time.Second
		out = append(out, iobench.Sample{Run: iobench.Run{Mode: iobench.ModeWrite, WriteSize: size, Round: 1, Seq: i + 1},
			Seconds: d.Seconds(), Bytes: 1000, Start: t0, End: t0.Add(d)})
	}
	return out
}

func testConfig() iobench.Config {
	cfg := iobench.DefaultConfig()
	cfg.Sizes = units.PowersOfTwo(1024, 8192)
	return cfg
}

// Each round Decide sends only the runs since the last, and rank 0 still
// decides on every run so far, aggregated.
func TestDecideAcrossRounds(t *testing.T) {
	var seen [][]int64 // bytes of each aggregated run, per call
	joinAll(t, threeHosts, func(cl *Cluster) error {
		first := rankSamples(cl.Rank())
		more := append(slices.Clone(first), rankSamples(cl.Rank())...)
		for i := range more[2:] {
			more[2+i].Round, more[2+i].Seq = 2, 3+i
			more[2+i].Bytes = 2000
		}
		decide := func(agg []iobench.Sample) []int64 {
			var b []int64
			for _, s := range agg {
				b = append(b, s.Bytes)
			}
			seen = append(seen, b)
			return nil
		}
		for _, samples := range [][]iobench.Sample{first, more} {
			if _, err := cl.Decide(samples, decide); err != nil {
				t.Errorf("rank %d: Decide: %v", cl.Rank(), err)
			}
		}
		return nil
	})
	if diff := cmp.Diff([][]int64{{3000, 3000}, {3000, 3000, 6000, 6000}}, seen); diff != "" {
		t.Errorf("runs decide saw (-want +got):\n%s", diff)
	}
}

// The same failure on many ranks is one entry, and past a few distinct
// failures the rest are counted, so 4096 failed ranks still make a line.
func TestRankErrorGroupsFailures(t *testing.T) {
	var fs []Failure
	for r := range 4096 {
		fs = append(fs, Failure{Rank: r, Host: "n" + string(rune('a'+r%5)), Message: "flags differ"})
	}
	fs[7].Message = "no space"
	got := (&RankError{Failures: fs}).Error()
	want := "ranks 0-6, 8-4095 (na, nb, nc and 2 more hosts): flags differ; rank 7 (nc): no space"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	for r := range fs {
		fs[r].Message = "write of /d/f" + string(rune('0'+r%10)) + " failed"
	}
	got = (&RankError{Failures: fs}).Error()
	// Ten messages: eight listed, ranks 8, 18, ... and 9, 19, ... counted.
	if !strings.HasSuffix(got, "; and 818 more rank(s) failed with 2 other message(s)") || strings.Count(got, ";") != listedFailures ||
		!strings.HasPrefix(got, "ranks 0, 10, 20, 30, 40, 50 and 404 more (na): write of /d/f0 failed; ") {
		t.Errorf("ten distinct failures: %s", got)
	}
	if len(got) > 1000 {
		t.Errorf("error text is %d bytes", len(got))
	}
}

// GoneRanks names the ranks of this host whose process is gone, never
// this rank's own and never another host's, which cannot be seen.
func TestGoneRanks(t *testing.T) {
	hosts := []string{"a", "a", "b", "a"}
	got := joinAll(t, hosts, func(cl *Cluster) []int {
		return cl.GoneRanks(func(pid int) bool { return pid != fakePID(0) && pid != fakePID(2) })
	})
	want := [][]int{nil, {0}, nil, {0}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
