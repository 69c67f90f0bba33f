package workload

import (
	"cmp"
	"slices"
	"strings"
)

// Kinds of input.
const (
	KindDarshan = "darshan"
	KindStrace  = "strace"
)

// Modules a file's writes are seen through: Darshan's, or strace's
// write(2) calls.
const (
	ModulePOSIX  = "POSIX"
	ModuleMPIIO  = "MPI-IO"
	ModuleSTDIO  = "STDIO"
	ModuleStrace = "strace"
)

// Input is what one Darshan log or strace trace says a program wrote.
type Input struct {
	Path        string
	Kind        string // KindDarshan or KindStrace
	Version     string // the Darshan log format, "3.41"; "" for strace
	Compression string // the log's: zlib, bzip2, none
	NProcs      int64  // processes of the job (Darshan); pids seen (strace)
	Exe         string // the command line the log recorded
	RunSeconds  float64
	// Partial names the modules whose records are incomplete (the
	// runtime ran out of memory for them): totals are lower bounds.
	Partial []string
	// Present names every module of the log, read or not ("H5F",
	// "LUSTRE", ...): evidence of the libraries the program used.
	Present []string
	// Skipped names the modules listed and not read, with their version.
	Skipped []string
	Modules []Module // totals per module, in the order POSIX, MPI-IO, STDIO, strace
	Files   []File   // in the order of the log
	// Libraries are the shared objects the writing program opened, as a
	// trace shows them (its openat of libgfortran.so.5); none from Darshan.
	Libraries []string
	// Mapped are files written through shared writable mappings, which
	// no write call shows (from a trace; none from a Darshan log).
	Mapped []File
	// Notes are what the reader could not take in, in words.
	Notes []string
}

// Module is the totals of one module of one input.
type Module struct {
	Name         string
	Records      int   // records read (per-rank records count each)
	Files        int   // distinct files
	Writes       int64 // write calls
	BytesWritten int64
	// Histogram counts the write calls in Darshan's ten size bins, keyed
	// by BinNames; nil where the module has none (STDIO).
	Histogram    map[string]int64
	WriteSeconds float64 // the time the log measured in writes, summed over ranks
}

// File is the writes one program made to one file, through one module.
type File struct {
	Path   string
	Module string
	Mount  string // the mount point the file is on, "" if unknown
	FSType string
	// Records is how many records were merged into this file: one per
	// rank that wrote it, or one shared record (Shared) reduced over all.
	Records int
	Shared  bool
	Writes  int64
	Bytes   int64
	// Sizes are the write calls by size class, smallest first: exact
	// sizes where the log or trace gives them, else Darshan's bins.
	// Their calls add up to Writes when Histogram is true.
	Sizes []SizeClass
	// Histogram: the log gave the sizes (POSIX, MPI-IO, strace). STDIO
	// gives only Writes and Bytes, so its mean size.
	Histogram bool
	// WriteSeconds is the time the log measured in this file's writes:
	// Darshan's F_WRITE_TIME summed over the records (a shared record's
	// is already the sum over ranks), strace's -T durations; 0 unknown.
	WriteSeconds float64
	// IndependentWrites and CollectiveWrites split an MPI-IO file's
	// writes (split and non-blocking ones count as independent).
	IndependentWrites, CollectiveWrites int64
	// Flushes counts the flush calls on the file (fsync, fdatasync,
	// msync, sync_file_range) and OpenFlags the synchronous and other
	// telling flags of its opens (O_SYNC, O_DSYNC, O_DIRECT, O_APPEND,
	// O_TRUNC, O_CREAT, O_EXCL): from a trace; none from a Darshan log.
	Flushes   map[string]int64
	OpenFlags []string
	// Opened: the trace shows the program open it; false for a file it
	// wrote only through an inherited descriptor (a shell's > out), and
	// for a Darshan log's.
	Opened bool
	// Mapped: written through a shared writable mapping, unseen.
	Mapped bool
	// Syscalls counts a trace's write calls by name (write, pwrite64,
	// writev, ...); nil from a Darshan log.
	Syscalls map[string]int64
}

// MeanSize is the file's bytes per write call, 0 without writes.
func (f File) MeanSize() int64 {
	if f.Writes <= 0 {
		return 0
	}
	return f.Bytes / f.Writes
}

// SizeClass is write calls whose sizes lie in [Low, High] bytes; an
// exact size has Low == High.
type SizeClass struct {
	Low, High int64
	Calls     int64
	// Bin is the Darshan bin the class was read from (BinNames); "" for
	// a size strace gave exactly.
	Bin string
}

// Exact says whether every call of the class has the one size Low.
func (c SizeClass) Exact() bool { return c.Low == c.High }

// BinNames are Darshan's write-size bins, smallest first, as its counters
// and iobench's JSON name them.
var BinNames = []string{"0_100", "100_1K", "1K_10K", "10K_100K", "100K_1M", "1M_4M", "4M_10M", "10M_100M", "100M_1G", "1G_PLUS"}

// binHigh are the bins' upper bounds, inclusive: Darshan counts a write
// of exactly 1 MiB in 100K_1M. The last bin has no bound.
var binHigh = []int64{100, 1 << 10, 10 << 10, 100 << 10, 1 << 20, 4 << 20, 10 << 20, 100 << 20, 1 << 30, 1<<63 - 1}

// BinOf is the index in BinNames of the bin a write of size bytes counts in.
func BinOf(size int64) int {
	i, _ := slices.BinarySearch(binHigh, size)
	return i
}

// binRange is the sizes bin i holds.
func binRange(i int) (low, high int64) {
	if i > 0 {
		low = binHigh[i-1] + 1
	}
	return low, binHigh[i]
}

// SmallWriteLimit is what Drishti and PyDarshan call a small write: one
// in the bins up to 100K_1M, so a write of exactly 1 MiB is "small" too.
const SmallWriteLimit = 1 << 20

// histogram bins the classes into Darshan's bins.
func histogram(classes []SizeClass) map[string]int64 {
	h := make(map[string]int64, len(BinNames))
	for _, n := range BinNames {
		h[n] = 0
	}
	for _, c := range classes {
		h[BinNames[BinOf(c.Low)]] += c.Calls
	}
	return h
}

// addClasses merges b into a, both sorted, exact sizes and bins apart.
func addClasses(a, b []SizeClass) []SizeClass {
	for _, c := range b {
		i := slices.IndexFunc(a, func(x SizeClass) bool { return x.Low == c.Low && x.High == c.High })
		if i >= 0 {
			a[i].Calls += c.Calls
			continue
		}
		a = append(a, c)
	}
	slices.SortFunc(a, func(x, y SizeClass) int {
		if x.Low != y.Low {
			return cmp.Compare(x.Low, y.Low)
		}
		return cmp.Compare(x.High, y.High)
	})
	return a
}

// Mount is one entry of a mount table.
type Mount struct{ Path, FSType string }

// MountOf is the mount point of path in mounts, the longest that holds
// it, as darshan-parser assigns them.
func MountOf(path string, mounts []Mount) (Mount, bool) {
	best, found := Mount{}, false
	for _, m := range mounts {
		if !under(path, m.Path) || (found && len(m.Path) <= len(best.Path)) {
			continue
		}
		best, found = m, true
	}
	return best, found
}

func under(path, dir string) bool {
	if dir == "/" {
		return strings.HasPrefix(path, "/")
	}
	return path == dir || strings.HasPrefix(path, strings.TrimSuffix(dir, "/")+"/")
}

// totals sums files into one module's totals.
func totals(name string, files []File, records int) Module {
	m := Module{Name: name, Records: records}
	paths := map[string]bool{}
	var classes []SizeClass
	hist := false
	for _, f := range files {
		paths[f.Path] = true
		m.Writes += f.Writes
		m.BytesWritten += f.Bytes
		m.WriteSeconds += f.WriteSeconds
		if f.Histogram {
			hist = true
			classes = addClasses(classes, f.Sizes)
		}
	}
	m.Files = len(paths)
	if hist {
		m.Histogram = histogram(classes)
	}
	return m
}
