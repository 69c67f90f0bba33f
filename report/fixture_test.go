package report

import (
	"math"
	"time"

	"github.com/iobench/iobench/fsinfo"
	"github.com/iobench/iobench/hostinfo"
	"github.com/iobench/iobench/iobench"
)

// The fixtures are fixed reports: fixed times, host, file system and
// samples, so every format renders to the same bytes on every machine.

var fixtureStart = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

const fixtureUser = "alice"

// fixtureHost is a fully qualified name, so tests can check that neither
// it nor its short form survives Anonymize.
const fixtureHost = "node17.cluster.example.org"

// fixedReport is an ext4 sweep, 1 KiB to 64 MiB, three rounds, whose
// curve rises to a plateau with a knee at 2 MiB; one size (16 KiB) has a
// bad round that flags it as widely spread.
func fixedReport() *Report {
	r := &Report{
		Header: Header{
			Tool: Tool{Name: "iobench", Version: "0.1.0", Revision: "0123456789abcdef0123456789abcdef01234567", GoVersion: "go1.26.8"},
			Command: []string{"/home/alice/go/bin/iobench", "sweep", "--dir", "/scratch/alice/run1", "--size", "256MiB",
				"--repeat", "3", "--format", "markdown", "-o", "/home/alice/results/ext4.md"},
			StartTime:       fixtureStart,
			DurationSeconds: 93.25,
			Host:            fixtureHostInfo(),
			FS: fsinfo.Info{
				Dir: "/scratch/alice/run1", ResolvedDir: "/scratch/alice/run1", Type: "ext4", MagicName: "ext2/3/4",
				Magic: 0xef53, MagicHex: "0xef53", BlockSize: 4096, FragmentSize: 4096, IOBlockSize: 4096,
				TotalBytes: 500 << 30, FreeBytes: 300 << 30, AvailBytes: 280 << 30, MountPoint: "/scratch",
				Device: "/dev/nvme0n1p2", MountOptions: "rw,relatime", SuperOptions: "rw,errors=remount-ro",
			},
		},
		Config: Config{
			Count: 32 << 20, ElementType: "float64", ElementSize: 8, TotalBytes: 256 << 20,
			Sizes: iobench.PowersOfTwo(1<<10, 64<<20), Source: "array", SourceBytes: 256 << 20, Sync: "syncfs",
			Repeat: 3, Order: "shuffled", Seed: 42, Warmup: true, Convert: "native", Stride: 1, Mode: "write",
			CacheDrop: "fadvise", KneeFraction: 0.95,
		},
		Warnings: []string{"the data (256 MiB) fits in RAM (16 GiB) and --fsync is off: results may measure the page cache, not the file system; use --fsync or a --size larger than RAM"},
	}
	res := &iobench.Result{WarmupRan: true, KeptFile: "/scratch/alice/run1/iobench-0001.dat"}
	return withWrites(r, res, func(size int64) float64 { return 2000 * float64(size) / float64(size+64<<10) })
}

// withWrites fills res with a write per round and size of r's plan at
// rate(size) MiB/s, give or take roundFactor, and summarizes it into r.
func withWrites(r *Report, res *iobench.Result, rate func(size int64) float64) *Report {
	res.Samples = fixtureSamples(r.Config, []iobench.Mode{iobench.ModeWrite}, func(_ iobench.Mode, size int64) float64 { return rate(size) })
	r.SetResult(res)
	return r
}

func fixtureHostInfo() hostinfo.Host {
	return hostinfo.Host{
		Hostname: fixtureHost, Kernel: "Linux 6.1.0-18-amd64", Arch: "x86_64",
		CPUModel: "AMD EPYC 7B13 64-Core Processor", CPUs: 2, MemTotalBytes: 16 << 30,
		MemAvailableBytes: 12 << 30, GoVersion: "go1.26.8",
	}
}

// roundFactor is the fixed noise of round (1-based) at size index i: a
// few percent, except one bad round at 16 KiB.
func roundFactor(round, i int) float64 {
	if round == 3 && i == 4 {
		return 0.7
	}
	return []float64{1.0, 0.98, 1.02}[(round+i)%3]
}

// fixtureSamples makes one sample per round, mode and size of c, with
// the throughput rate(mode, size) times roundFactor.
func fixtureSamples(c Config, modes []iobench.Mode, rate func(iobench.Mode, int64) float64) []iobench.Sample {
	var out []iobench.Sample
	seq := 0
	for round := 1; round <= c.Repeat; round++ {
		for i, size := range c.Sizes {
			for _, mode := range modes {
				seq++
				mibps := rate(mode, size) * roundFactor(round, i)
				secs := float64(c.TotalBytes) / (mibps * iobench.MiB)
				start := fixtureStart.Add(time.Duration(seq) * time.Second)
				out = append(out, iobench.Sample{
					Run:     iobench.Run{Mode: mode, WriteSize: size, Round: round, Seq: seq},
					Seconds: secs, Bytes: c.TotalBytes, Calls: c.TotalBytes / size,
					Start: start, End: start.Add(time.Duration(secs * float64(time.Second))),
				})
			}
		}
	}
	return out
}

// mpiReport is a gfortran-profile sweep in both directions under MPI, 8
// ranks on 2 nodes: the write curve declines at the largest sizes, the
// read curve is flat.
func mpiReport() *Report {
	r := fixedReport()
	r.Command = []string{"mpirun", "-n", "8", "/home/alice/go/bin/iobench", "--profile", "gfortran-pr91030", "--mode", "both",
		"--dir", "/scratch/alice/run2", "--format", "text"}
	r.FS.Dir, r.FS.ResolvedDir = "/scratch/alice/run2", "/scratch/alice/run2"
	r.Config.Profile = GfortranProfile
	r.Config.ProfileWhy = "the libgfortran buffer experiment of GCC PR libfortran/91030"
	r.Config.Mode = "both"
	r.Config.Sizes = iobench.PowersOfTwo(8<<10, 16<<20)
	r.Warnings = nil
	res := &iobench.Result{WarmupRan: true}
	res.Samples = fixtureSamples(r.Config, []iobench.Mode{iobench.ModeWrite, iobench.ModeRead}, func(mode iobench.Mode, size int64) float64 {
		if mode == iobench.ModeRead {
			return 3000
		}
		if size >= 8<<20 {
			return 900 // the stripe cache overflows
		}
		return 1600 * float64(size) / float64(size+16<<10)
	})
	r.SetResult(res)
	r.MPI = &MPI{Ranks: 8, Nodes: 2, Hosts: []string{fixtureHost, "node18.cluster.example.org"},
		SharedFile: true, CountPerRank: true, PerRank: perRank(res.Samples), API: "mpiio", ReadShift: 1,
		MPIIO: &MPIIO{Library: "Open MPI v4.1.4, package: Debian OpenMPI", Collective: true, Comm: "MPI_COMM_WORLD",
			HintsRequested: []RequestedHint{
				{Hint{"striping_factor", "16"}, "ROMIO_HINTS=/home/alice/romio-hints"},
				{Hint{"cb_config_list", "node18.cluster.example.org:1"}, "--hint"},
			},
			HintsInEffect: []Hint{{"cb_config_list", "node18.cluster.example.org:1"}, {"romio_cb_write", "automatic"}, {"striping_factor", "8"}}}}
	r.MPI.MPIIO.CompareHints()
	return r
}

// perRank spreads each aggregate run over 8 ranks: the slowest at 80% of
// the fair share, usually rank 5 (on the second node).
func perRank(samples []iobench.Sample) RankRuns {
	var out RankRuns
	for _, s := range samples {
		share := s.MiBPerSec() / 8
		slow := 5
		if s.Round == 2 && s.WriteSize == 1<<20 {
			slow = 2
		}
		out = append(out, WriterRun{Mode: string(s.Mode), WriteSize: s.WriteSize, Round: s.Round,
			MinMiBPerSec: 0.8 * share, MedianMiBPerSec: share, MaxMiBPerSec: 1.1 * share, Slowest: slow})
	}
	return out
}

// gpfsReport is a second file system for comparisons: big-endian with
// fsync on GPFS (16 MiB blocks), one round, still rising at 64 MiB.
func gpfsReport() *Report {
	r := fixedReport()
	r.Host.Hostname = "login02.cluster.example.org"
	r.FS.Type, r.FS.MagicName, r.FS.Magic, r.FS.MagicHex = "gpfs", "gpfs", 0x47504653, "0x47504653"
	r.FS.BlockSize, r.FS.FragmentSize, r.FS.IOBlockSize = 16<<20, 16<<20, 16<<20
	r.FS.Dir, r.FS.ResolvedDir, r.FS.MountPoint, r.FS.Device = "/gpfs/proj/alice", "/gpfs/proj/alice", "/gpfs", "gpfs0"
	r.Config.Convert, r.Config.Fsync, r.Config.Repeat, r.Config.Order = "big-endian", true, 1, "ascending"
	r.Config.Sizes = iobench.PowersOfTwo(4<<10, 64<<20)
	r.Warnings = nil
	return withWrites(r, &iobench.Result{}, func(size int64) float64 { return 5000 * float64(size) / float64(size+16<<20) })
}

// adaptiveReport is fixedReport run with --repeat auto: round 1 runs all
// 17 sizes, rounds 2 and 3 the seven around the first knee and the two
// libgfortran defaults, rounds 4 and 5 the three that decide it, and the
// knee is established at 2 MiB.
func adaptiveReport() *Report {
	r := fixedReport()
	r.Command = []string{"/home/alice/go/bin/iobench", "sweep", "--dir", "/scratch/alice/run1", "--size", "256MiB"}
	r.Config.RepeatAuto, r.Config.Repeat = true, 5
	r.Warnings = nil
	all := r.Config.Sizes
	around, deciding := append([]int64{8 << 10, 128 << 10}, all[8:15]...), all[10:13]
	plan := [][]int64{all, around, around, deciding, deciding}
	rate := func(_ iobench.Mode, size int64) float64 {
		return 2000 * math.Min(1, math.Pow(float64(size)/(2<<20), 0.4))
	}
	res := &iobench.Result{WarmupRan: true, Adaptive: &iobench.Adaptive{
		Rounds: len(plan), FirstRoundSeconds: 31.5, BudgetSeconds: 94.5, SpentSeconds: 71.25,
		Stop: iobench.StopEstablished, DecidingWriteSizes: deciding,
	}}
	seq := 0
	for round, sizes := range plan {
		for _, size := range sizes {
			seq++
			noise := []float64{1, 1.01, 0.99, 1.02, 0.98}[(round+seq)%5]
			secs := float64(r.Config.TotalBytes) / (rate(iobench.ModeWrite, size) * noise * iobench.MiB)
			start := fixtureStart.Add(time.Duration(seq) * time.Second)
			res.Samples = append(res.Samples, iobench.Sample{
				Run:     iobench.Run{Mode: iobench.ModeWrite, WriteSize: size, Round: round + 1, Seq: seq},
				Seconds: secs, Bytes: r.Config.TotalBytes, Calls: r.Config.TotalBytes / size,
				Start: start, End: start.Add(time.Duration(secs * float64(time.Second))),
			})
		}
		res.Adaptive.SizesPerRound = append(res.Adaptive.SizesPerRound, len(sizes))
	}
	r.SetResult(res)
	return r
}

// referenceReport is what analyze makes of the reference program's
// output: no host, file system or command line, one run of 8 KiB to
// 8 MiB writes timed with gettimeofday, and analyze's notes as warnings.
func referenceReport() *Report {
	r := &Report{
		Header: Header{Tool: Tool{Name: ReferenceTool}},
		Config: Config{
			Count: 1 << 26, ElementType: "float64", ElementSize: 8, TotalBytes: 512 << 20,
			Sizes: iobench.PowersOfTwo(8<<10, 8<<20), Source: "array", SourceBytes: 512 << 20, Sync: "sync",
			Repeat: 1, Order: "ascending", Convert: "native", Stride: 1, Mode: "write",
			KneeFraction: 0.95, Clock: "gettimeofday, a wall clock",
		},
		Warnings: []string{"stdin: units converted: bs counts doubles (x8 for bytes); its MiB/s is Mi-doubles/s (x8 for true MiB/s)"},
	}
	return withWrites(r, &iobench.Result{}, func(size int64) float64 { return 1200 * float64(size) / float64(size+256<<10) })
}

// infoReport is what iobench info describes: the file system and the
// host, nothing measured.
func infoReport() *Report {
	r := fixedReport()
	h := r.Header
	h.Command, h.DurationSeconds = []string{"iobench", "info", "--dir", "/scratch/alice/run1"}, 0
	return &Report{Header: h}
}
