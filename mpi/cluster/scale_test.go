package cluster

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/render"
	"github.com/iobench/iobench/units"
)

// scaleRanks are the job sizes the scale tests and benchmarks run.
var scaleRanks = []int{1024, 4096}

// ranksPerNode places the fake ranks on hosts as a cluster of 32-core
// nodes would.
const ranksPerNode = 32

func scaleHosts(n int) []string {
	hosts := make([]string, n)
	for r := range hosts {
		hosts[r] = fmt.Sprintf("node%04d", r/ranksPerNode)
	}
	return hosts
}

// scaleConfig is the default sweep (11 sizes, 1 KiB to 1 MiB) in three
// rounds: 33 runs a rank.
func scaleConfig() iobench.Config {
	cfg := iobench.DefaultConfig()
	cfg.Sizes = units.PowersOfTwo(1024, 1<<20)
	cfg.Repeat, cfg.Order, cfg.Count = 3, iobench.Shuffled, 1<<20
	return cfg
}

// sweepSamples are rank r's samples of scaleConfig's runs: 8 MiB each,
// rank r taking r microseconds more than rank 0, so the last rank is the
// slowest of every run.
func sweepSamples(cfg iobench.Config, r int) []iobench.Sample {
	var out []iobench.Sample
	for _, run := range iobench.Plan(cfg) {
		d := 10*time.Millisecond + time.Duration(r)*time.Microsecond
		start := t0.Add(time.Duration(run.Seq) * time.Second)
		out = append(out, iobench.Sample{Run: run, Seconds: d.Seconds(), Bytes: cfg.TotalBytes(),
			Calls: cfg.TotalBytes() / run.WriteSize, Start: start, End: start.Add(d)})
	}
	return out
}

// sweepProtocol is what each rank of a sweep asks of the cluster, in
// order: join, agree on the settings and the plan, configure, gather.
// Rank 0 returns its aggregate and spread.
func sweepProtocol(t testing.TB, c Collective, hosts []string) (*Cluster, *iobench.Result, []iobench.RankSpread) {
	cl, err := New(c, Member{Host: hosts[c.Rank()], PID: fakePID(c.Rank())})
	if err != nil {
		t.Errorf("rank %d: New: %v", c.Rank(), err)
		return nil, nil, nil
	}
	cfg := scaleConfig()
	err = cl.Agree(cl.SameSettings([]Setting{{Name: "--format", Value: "json"}, {Name: "--shared-file", Value: "false"}}))
	if err == nil {
		_, _, err = cl.Configure(&cfg, Files{})
	}
	if err == nil {
		err = cl.Agree(cl.SamePlan(cfg))
	}
	if err != nil {
		t.Errorf("rank %d: %v", c.Rank(), err)
		return cl, nil, nil
	}
	agg, spread, err := cl.Gather(&iobench.Result{Samples: sweepSamples(cfg, cl.Rank())})
	if err = cl.Agree(err); err != nil {
		t.Errorf("rank %d: Gather: %v", c.Rank(), err)
	}
	return cl, agg, spread
}

// scaleReport is the JSON report rank 0 writes of the aggregate: the
// runs summed over all ranks, each run's spread, one entry per node.
func scaleReport(t testing.TB, n int, agg *iobench.Result, spread []iobench.RankSpread) []byte {
	rep := &report.Report{Config: scaleConfig().Record()}
	nodes := (n + ranksPerNode - 1) / ranksPerNode
	rep.MPI = &report.MPI{Ranks: n, Nodes: nodes, Hosts: scaleHosts(n)[:nodes:nodes], PerRank: report.NewWriterRuns(spread),
		PerRankSamples: report.PerRankSummarised}
	rep.SetResult(agg)
	var buf bytes.Buffer
	if err := render.JSON(&buf, rep); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// At 1024 and 4096 ranks the protocol aggregates every rank's runs, names
// the slowest rank, and the report's size does not grow with the ranks
// beyond a host name per node: per-rank samples are summarised, never
// listed. Under the race detector 1024 ranks show any race as well, and
// 4096 would take minutes; scripts/mpi-test.sh runs them without it.
func TestScale(t *testing.T) {
	if testing.Short() {
		t.Skip("thousands of fake ranks")
	}
	ranks := scaleRanks
	if raceDetector {
		ranks = ranks[:1]
	}
	small := reportOfRanks(t, 3)
	for _, n := range ranks {
		rep := reportOfRanks(t, n)
		hostBytes := len(`"node0000",`) * (n / ranksPerNode)
		if growth := len(rep) - len(small); growth > hostBytes+2048 {
			t.Errorf("%d ranks: the report is %d bytes, %d more than of 3 ranks; want at most the host names (%d bytes) and some digits",
				n, len(rep), growth, hostBytes)
		}
	}
}

// reportOfRanks runs the protocol on n fake ranks, checks the aggregate
// and returns rank 0's JSON report.
func reportOfRanks(t *testing.T, n int) []byte {
	t.Helper()
	hosts := scaleHosts(n)
	type out struct {
		agg    *iobench.Result
		spread []iobench.RankSpread
	}
	results := runRanks(t, n, func(c Collective) out {
		_, agg, spread := sweepProtocol(t, c, hosts)
		return out{agg, spread}
	})
	agg, spread := results[0].agg, results[0].spread
	cfg := scaleConfig()
	if agg == nil || len(agg.Samples) != len(iobench.Plan(cfg)) {
		t.Fatalf("%d ranks: rank 0 aggregated %v", n, agg)
	}
	for i, s := range agg.Samples {
		if s.Bytes != int64(n)*cfg.TotalBytes() || spread[i].SlowestRank != n-1 {
			t.Fatalf("%d ranks: run %d has %d bytes, slowest rank %d; want %d bytes, rank %d",
				n, i, s.Bytes, spread[i].SlowestRank, int64(n)*cfg.TotalBytes(), n-1)
		}
	}
	rep := scaleReport(t, n, agg, spread)
	var doc struct {
		MPI struct {
			PerRankSamples string `json:"per_rank_samples"`
		} `json:"mpi"`
	}
	if err := json.Unmarshal(rep, &doc); err != nil {
		t.Fatalf("%d ranks: the report is not JSON: %v", n, err)
	}
	if !strings.HasPrefix(doc.MPI.PerRankSamples, "summarised: ") {
		t.Errorf("%d ranks: the report does not say the ranks' samples are summarised: %q", n, doc.MPI.PerRankSamples)
	}
	return rep
}

// rankParts are the parts rank 0's Gather receives from n ranks.
func rankParts(b *testing.B, n int) [][]byte {
	cfg := scaleConfig()
	parts := make([][]byte, n)
	for r := range parts {
		p, err := json.Marshal(rankResult{Samples: sweepSamples(cfg, r)})
		if err != nil {
			b.Fatal(err)
		}
		parts[r] = p
	}
	return parts
}

// BenchmarkGatherAtRank0 is rank 0's share of Gather at scale: decoding
// every rank's part and aggregating run by run. Every rank sends its own
// part, bytes/rank.
func BenchmarkGatherAtRank0(b *testing.B) {
	for _, n := range scaleRanks {
		b.Run(fmt.Sprintf("ranks=%d", n), func(b *testing.B) {
			parts := rankParts(b, n)
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := aggregate(&iobench.Result{}, parts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(parts[n-1])), "sent-bytes/rank")
		})
	}
}

// BenchmarkReportAtRank0 is the summary and the JSON report of the
// aggregate, once per sweep on rank 0.
func BenchmarkReportAtRank0(b *testing.B) {
	for _, n := range scaleRanks {
		b.Run(fmt.Sprintf("ranks=%d", n), func(b *testing.B) {
			agg, spread, err := aggregate(&iobench.Result{}, rankParts(b, n))
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			var size int
			for b.Loop() {
				size = len(scaleReport(b, n, agg, spread))
			}
			b.ReportMetric(float64(size), "report-bytes")
		})
	}
}

// BenchmarkSweepProtocol is the whole protocol on n fake ranks in one
// process: the goroutines' scheduling is in the time, so it bounds the
// protocol's cost rather than measuring MPI's. kept-bytes/rank is the
// heap each rank's Cluster holds once the sweep is over (after a GC).
func BenchmarkSweepProtocol(b *testing.B) {
	for _, n := range scaleRanks {
		b.Run(fmt.Sprintf("ranks=%d", n), func(b *testing.B) {
			hosts := scaleHosts(n)
			b.ReportAllocs()
			var kept uint64
			for b.Loop() {
				before := heapAfterGC()
				clusters := runRanks(b, n, func(c Collective) *Cluster {
					cl, _, _ := sweepProtocol(b, c, hosts)
					return cl
				})
				kept = heapAfterGC() - before
				runtime.KeepAlive(clusters)
			}
			b.ReportMetric(float64(kept)/float64(n), "kept-bytes/rank")
		})
	}
}

func heapAfterGC() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
