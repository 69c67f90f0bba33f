package workload

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/iobench/iobench/workload/darshan"
	"github.com/iobench/iobench/workload/strace"
)

// sharedLogs are the Darshan logs of ../shared (IOBENCH_SHARED names
// another shared folder); the test skips without them.
func sharedLogs(t *testing.T) []string {
	t.Helper()
	dir := filepath.Join("..", "..", "shared", "darshan")
	if s := os.Getenv("IOBENCH_SHARED"); s != "" {
		dir = filepath.Join(s, "darshan")
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "logs", "*", "*.darshan"))
	if len(logs) == 0 {
		t.Skipf("no shared Darshan logs in %s", dir)
	}
	return logs
}

func readLog(t *testing.T, path string) *darshan.Log {
	t.Helper()
	l, err := darshan.ReadFile(path, darshan.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// rawTotals sums a module's records as darshan-parser's totals are summed
// (workload/darshan's tests check those sums against darshan-parser):
// records, distinct record ids, write calls, bytes and bins, -1 left out.
func rawTotals(m *darshan.Module, c counters) Module {
	out := Module{Name: c.module, Records: len(m.Records)}
	ids := map[uint64]bool{}
	if c.writeBins != "" {
		out.Histogram = map[string]int64{}
	}
	pos := func(v int64, _ bool) int64 { return max(v, 0) }
	for i := range m.Records {
		r := &m.Records[i]
		ids[r.ID] = true
		for _, w := range c.writes {
			out.Writes += pos(m.Int(r, w))
		}
		out.BytesWritten += pos(m.Int(r, c.bytes))
		if t, ok := m.Float(r, c.time); ok && t > 0 {
			out.WriteSeconds += t
		}
		for _, b := range BinNames {
			if c.writeBins != "" {
				out.Histogram[b] += pos(m.Int(r, c.writeBins+b))
			}
		}
	}
	out.Files = len(ids)
	return out
}

// Every shared log: each module's totals are the sums over its records.
func TestModuleTotalsAreTheLogsSums(t *testing.T) {
	for _, path := range sharedLogs(t) {
		l := readLog(t, path)
		in := FromDarshan(path, l)
		var want []Module
		for i := range l.Modules {
			if c, ok := countersOf(l.Modules[i].Name); ok && l.Modules[i].Decoded {
				want = append(want, rawTotals(&l.Modules[i], c))
			}
		}
		if diff := cmp.Diff(want, in.Modules); diff != "" {
			t.Errorf("%s: module totals (-want +got):\n%s", filepath.Base(path), diff)
		}
	}
}

func logNamed(t *testing.T, name string) string {
	t.Helper()
	for _, p := range sharedLogs(t) {
		if filepath.Base(p) == name {
			return p
		}
	}
	t.Skipf("no shared log %s", name)
	return ""
}

// What the logs of known programs say, down to the exact sizes.
func TestKnownProgramsGiveExactSizes(t *testing.T) {
	for _, tc := range []struct {
		log    string
		module string
		want   []SizeClass
	}{
		{"frec-big_endian.darshan", ModulePOSIX, []SizeClass{{131072, 131072, 2048, "100K_1M"}}},
		{"fbig-native.darshan", ModulePOSIX, []SizeClass{{268435456, 268435456, 1, "100M_1G"}}},
		{"frec-big_endian-buf4M.darshan", ModulePOSIX, []SizeClass{{4194304, 4194304, 64, "1M_4M"}}},
		{"cwr-write8.darshan", ModulePOSIX, []SizeClass{{8, 8, 1 << 20, "0_100"}}},
	} {
		in := FromDarshan(tc.log, readLog(t, logNamed(t, tc.log)))
		var got []SizeClass
		for _, f := range in.Files {
			if f.Module == tc.module && !strings.HasPrefix(f.Path, "/dev/") {
				got = append(got, f.Sizes...)
			}
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: sizes (-want +got):\n%s", tc.log, diff)
		}
	}
}

func TestE3SMTotals(t *testing.T) {
	in := FromDarshan("e3sm", readLog(t, logNamed(t, "e3sm_io_heatmaps_and_dxt_e3sm_io_heatmap_only.darshan")))
	m := in.Modules[0]
	if m.Name != ModulePOSIX || m.Writes != 306777 || m.BytesWritten != 304663273048 {
		t.Errorf("POSIX totals %+v, want 306777 writes and 304663273048 bytes", m)
	}
	if in.NProcs != 512 {
		t.Errorf("nprocs %d, want 512", in.NProcs)
	}
}

func TestSTDIOHasNoHistogram(t *testing.T) {
	in := FromDarshan("cfw", readLog(t, logNamed(t, "cfw.darshan")))
	for _, f := range in.Files {
		if f.Module == ModuleSTDIO && !strings.HasPrefix(f.Path, "<") {
			if f.Histogram || f.Writes != 4<<20 || f.MeanSize() != 8 {
				t.Errorf("%s: histogram %v, %d writes of mean %d bytes; want none, 4Mi of 8", f.Path, f.Histogram, f.Writes, f.MeanSize())
			}
			return
		}
	}
	t.Errorf("no STDIO file in %+v", in.Files)
}

// A bin becomes exact sizes where the access sizes account for its
// writes, and stays a bin where reads may hide among them.
func TestRefineBin(t *testing.T) {
	mib := int64(1 << 20)
	bin4 := func(calls int64) SizeClass { return SizeClass{100<<10 + 1, mib, calls, "100K_1M"} }
	exact := func(size, calls int64) SizeClass { return SizeClass{size, size, calls, "100K_1M"} }
	for _, tc := range []struct {
		name   string
		w, r   int64
		access []accessSize
		want   []SizeClass
	}{
		{"no access sizes", 10, 0, nil, []SizeClass{bin4(10)}},
		{"all writes of one size", 10, 0, []accessSize{{mib, 10}}, []SizeClass{exact(mib, 10)}},
		{"two sizes cover all", 10, 0, []accessSize{{mib, 6}, {512 << 10, 4}}, []SizeClass{exact(512<<10, 4), exact(mib, 6)}},
		{"part covered, the rest a bin", 10, 0, []accessSize{{mib, 6}}, []SizeClass{bin4(4), exact(mib, 6)}},
		{"access sizes in other bins", 10, 0, []accessSize{{8, 100}}, []SizeClass{bin4(10)}},
		{"reads of the one size", 10, 5, []accessSize{{mib, 15}}, []SizeClass{exact(mib, 10)}},
		{"reads, two sizes", 10, 5, []accessSize{{mib, 10}, {512 << 10, 5}}, []SizeClass{bin4(10)}},
		{"reads not covered", 10, 5, []accessSize{{mib, 12}}, []SizeClass{bin4(10)}},
		{"more accesses than writes, no reads", 10, 0, []accessSize{{mib, 12}}, []SizeClass{bin4(10)}},
	} {
		got := refineBin(4, tc.w, tc.r, tc.access)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}

func TestBins(t *testing.T) {
	for size, want := range map[int64]string{0: "0_100", 100: "0_100", 101: "100_1K", 1024: "100_1K", 1025: "1K_10K",
		1 << 20: "100K_1M", 1<<20 + 1: "1M_4M", 1 << 30: "100M_1G", 1<<30 + 1: "1G_PLUS"} {
		if got := BinNames[BinOf(size)]; got != want {
			t.Errorf("BinOf(%d) = %s, want %s", size, got, want)
		}
	}
}

func TestMountOf(t *testing.T) {
	mounts := []Mount{{"/", "ext4"}, {"/gpfs", "gpfs"}, {"/gpfs/fs1", "gpfs"}, {"/dev", "devtmpfs"}}
	for path, want := range map[string]string{"/gpfs/fs1/x": "/gpfs/fs1", "/gpfs/fs10/x": "/gpfs", "/tmp/x": "/", "/dev": "/dev"} {
		if m, ok := MountOf(path, mounts); !ok || m.Path != want {
			t.Errorf("MountOf(%s) = %v, %v; want %s", path, m, ok, want)
		}
	}
	if _, ok := MountOf("relative/x", mounts); ok {
		t.Error("a relative path found a mount")
	}
}

// An strace trace's files keep their exact sizes, and its module totals
// bin them as Darshan would.
func TestFromStrace(t *testing.T) {
	text := "1 openat(AT_FDCWD, \"/data/out\", O_WRONLY|O_CREAT, 0644) = 3\n" +
		"1 write(3, \"x\"..., 8) = 8 <0.000010>\n1 write(3, \"x\"..., 8) = 8 <0.000010>\n" +
		"1 write(3, \"x\"..., 1048576) = 1048576 <0.000500>\n1 close(3) = 0\n"
	tr, err := strace.Parse(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	in := FromStrace("t", tr, []Mount{{"/", "ext4"}, {"/data", "lustre"}})
	want := File{Path: "/data/out", Module: ModuleStrace, Mount: "/data", FSType: "lustre", Records: 1, Writes: 3, Bytes: 1<<20 + 16,
		Sizes: []SizeClass{{8, 8, 2, ""}, {1 << 20, 1 << 20, 1, ""}}, Histogram: true, WriteSeconds: 0.00052,
		OpenFlags: []string{"O_CREAT"}, Opened: true, Syscalls: map[string]int64{"write": 3}}
	if diff := cmp.Diff([]File{want}, in.Files, cmpApprox); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if h := in.Modules[0].Histogram; h["0_100"] != 2 || h["100K_1M"] != 1 || in.Modules[0].Writes != 3 {
		t.Errorf("module totals %+v", in.Modules[0])
	}
}

var cmpApprox = cmpopts.EquateApprox(0, 1e-9)
