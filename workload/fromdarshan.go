package workload

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/iobench/iobench/workload/darshan"
)

// counters names one module's counters for writes.
type counters struct {
	module     string
	writes     []string // summed into File.Writes
	collective string   // the collective ones among writes, "" if none
	bytes      string
	time       string
	writeBins  string // prefix of the write-size bins, "" without a histogram
	readBins   string // prefix of the read-size bins, for telling the access sizes apart
	access     string // prefix of ACCESS1..4_ACCESS/_COUNT
}

var moduleCounters = []counters{
	{module: ModulePOSIX, writes: []string{"POSIX_WRITES"}, bytes: "POSIX_BYTES_WRITTEN", time: "POSIX_F_WRITE_TIME",
		writeBins: "POSIX_SIZE_WRITE_", readBins: "POSIX_SIZE_READ_", access: "POSIX_"},
	{module: ModuleMPIIO, writes: []string{"MPIIO_INDEP_WRITES", "MPIIO_COLL_WRITES", "MPIIO_SPLIT_WRITES", "MPIIO_NB_WRITES"},
		collective: "MPIIO_COLL_WRITES", bytes: "MPIIO_BYTES_WRITTEN", time: "MPIIO_F_WRITE_TIME",
		writeBins: "MPIIO_SIZE_WRITE_AGG_", readBins: "MPIIO_SIZE_READ_AGG_", access: "MPIIO_"},
	{module: ModuleSTDIO, writes: []string{"STDIO_WRITES"}, bytes: "STDIO_BYTES_WRITTEN", time: "STDIO_F_WRITE_TIME"},
}

// FromDarshan is what a Darshan log says the program wrote: every POSIX,
// MPI-IO and STDIO file with writes (a file's per-rank records merged),
// each module's totals over all its records, and the modules listed but
// not read.
func FromDarshan(path string, l *darshan.Log) Input {
	in := Input{Path: path, Kind: KindDarshan, Version: l.Version, Compression: l.Compression,
		NProcs: l.Job.NProcs, Exe: strings.TrimSpace(l.Job.Exe), RunSeconds: l.Job.RunTime}
	mounts := make([]Mount, len(l.Mounts))
	for i, m := range l.Mounts {
		mounts[i] = Mount{Path: m.Path, FSType: m.FSType}
	}
	for i := range l.Modules {
		m := &l.Modules[i]
		in.Present = append(in.Present, m.Name)
		if m.Partial {
			in.Partial = append(in.Partial, m.Name)
		}
		c, known := countersOf(m.Name)
		if !known || !m.Decoded {
			in.Skipped = append(in.Skipped, fmt.Sprintf("%s (v%d)", m.Name, m.Version))
			continue
		}
		if m.Dropped > 0 {
			in.Notes = append(in.Notes, fmt.Sprintf("%s: %d records of format v1 carry stdio counters and cannot be read, as darshan-parser leaves them out", m.Name, m.Dropped))
		}
		files := moduleFiles(c, m, l.Names, mounts)
		in.Modules = append(in.Modules, totals(c.module, files, len(m.Records)))
		in.Files = append(in.Files, written(files)...)
	}
	return in
}

func countersOf(module string) (counters, bool) {
	i := slices.IndexFunc(moduleCounters, func(c counters) bool { return c.module == module })
	if i < 0 {
		return counters{}, false
	}
	return moduleCounters[i], true
}

// moduleFiles is every file of a module, its records merged by record id,
// in the order of their first record.
func moduleFiles(c counters, m *darshan.Module, names map[uint64]string, mounts []Mount) []File {
	var files []File
	index := map[uint64]int{}
	for i := range m.Records {
		r := &m.Records[i]
		f := recordFile(c, m, r)
		j, seen := index[r.ID]
		if !seen {
			f.Path = names[r.ID]
			if f.Path == "" {
				f.Path = fmt.Sprintf("record %d (no name in the log)", r.ID)
			}
			if mt, ok := MountOf(f.Path, mounts); ok {
				f.Mount, f.FSType = mt.Path, mt.FSType
			}
			index[r.ID] = len(files)
			files = append(files, f)
			continue
		}
		files[j] = merge(files[j], f)
	}
	return files
}

func merge(a, b File) File {
	a.Records += b.Records
	a.Shared = a.Shared || b.Shared
	a.Writes += b.Writes
	a.Bytes += b.Bytes
	a.WriteSeconds += b.WriteSeconds
	a.IndependentWrites += b.IndependentWrites
	a.CollectiveWrites += b.CollectiveWrites
	a.Histogram = a.Histogram && b.Histogram
	a.Sizes = addClasses(a.Sizes, b.Sizes)
	return a
}

// recordFile is one record's writes. Counters at -1 (not monitored) are
// left out of the sums.
func recordFile(c counters, m *darshan.Module, r *darshan.Record) File {
	get := func(name string) int64 {
		v, ok := m.Int(r, name)
		if !ok || v < 0 {
			return 0
		}
		return v
	}
	f := File{Module: c.module, Records: 1, Shared: r.Rank == -1, Bytes: get(c.bytes)}
	for _, w := range c.writes {
		f.Writes += get(w)
	}
	if c.collective != "" {
		f.CollectiveWrites = get(c.collective)
		f.IndependentWrites = f.Writes - f.CollectiveWrites
	}
	if t, ok := m.Float(r, c.time); ok && t > 0 {
		f.WriteSeconds = t
	}
	if c.writeBins != "" {
		f.Sizes, f.Histogram = sizeClasses(c, m, r, get)
	}
	return f
}

// sizeClasses are a record's writes by size: Darshan's bins, refined to
// exact sizes by the four most common access sizes (ACCESS1..4, which
// count reads and writes alike) where they account for a bin's writes:
// in a bin without reads, every access of a size in the bin is a write;
// in a bin with reads, only when one access size covers all of its calls.
func sizeClasses(c counters, m *darshan.Module, r *darshan.Record, get func(string) int64) ([]SizeClass, bool) {
	writes := make([]int64, len(BinNames))
	reads := make([]int64, len(BinNames))
	for i, b := range BinNames {
		v, ok := m.Int(r, c.writeBins+b)
		if !ok || v < 0 {
			return nil, false
		}
		writes[i], reads[i] = v, get(c.readBins+b)
	}
	access := accessSizes(c, m, r, get)
	var out []SizeClass
	for i, w := range writes {
		if w == 0 {
			continue
		}
		out = append(out, refineBin(i, w, reads[i], access)...)
	}
	return out, true
}

type accessSize struct{ size, count int64 }

func accessSizes(c counters, m *darshan.Module, r *darshan.Record, get func(string) int64) []accessSize {
	var out []accessSize
	for k := 1; k <= 4; k++ {
		size, sizeOK := m.Int(r, fmt.Sprintf("%sACCESS%d_ACCESS", c.access, k))
		count := get(fmt.Sprintf("%sACCESS%d_COUNT", c.access, k))
		if sizeOK && size >= 0 && count > 0 {
			out = append(out, accessSize{size, count})
		}
	}
	return out
}

// refineBin is bin i's w writes (r reads) as exact sizes where the
// access sizes in the bin account for them, the rest as the bin.
func refineBin(i int, w, r int64, access []accessSize) []SizeClass {
	low, high := binRange(i)
	bin := SizeClass{Low: low, High: high, Calls: w, Bin: BinNames[i]}
	var in []accessSize
	var sum int64
	for _, a := range access {
		if BinOf(a.size) == i {
			in = append(in, a)
			sum += a.count
		}
	}
	switch {
	case len(in) == 1 && r > 0 && sum == w+r:
		return []SizeClass{{Low: in[0].size, High: in[0].size, Calls: w, Bin: bin.Bin}}
	case r > 0 || len(in) == 0 || sum > w:
		return []SizeClass{bin}
	}
	var out []SizeClass
	for _, a := range in {
		out = append(out, SizeClass{Low: a.size, High: a.size, Calls: a.count, Bin: bin.Bin})
	}
	if rest := w - sum; rest > 0 {
		bin.Calls = rest
		out = append(out, bin)
	}
	slices.SortFunc(out, func(x, y SizeClass) int { return cmp.Compare(x.Low, y.Low) })
	return out
}

// written is the files with writes.
func written(files []File) []File {
	var out []File
	for _, f := range files {
		if f.Writes > 0 {
			out = append(out, f)
		}
	}
	return out
}
