package darshan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// moduleTotals sums one module of a log: what a write-size study needs.
// Negative values ("not monitored") are left out of the sums.
type moduleTotals struct {
	Records, Files int
	Writes         int64     // POSIX_WRITES; MPI-IO's four kinds of writes; STDIO_WRITES
	BytesWritten   int64     // *_BYTES_WRITTEN
	SizeWrite      [10]int64 // POSIX_SIZE_WRITE_* or MPIIO_SIZE_WRITE_AGG_*; none for STDIO
}

var (
	writeCounters = map[string][]string{
		"POSIX":  {"POSIX_WRITES"},
		"MPI-IO": {"MPIIO_INDEP_WRITES", "MPIIO_COLL_WRITES", "MPIIO_SPLIT_WRITES", "MPIIO_NB_WRITES"},
		"STDIO":  {"STDIO_WRITES"},
	}
	bytesCounter = map[string]string{"POSIX": "POSIX_BYTES_WRITTEN", "MPI-IO": "MPIIO_BYTES_WRITTEN", "STDIO": "STDIO_BYTES_WRITTEN"}
	histPrefix   = map[string]string{"POSIX": "POSIX_SIZE_WRITE_", "MPI-IO": "MPIIO_SIZE_WRITE_AGG_"}
	histBins     = []string{"0_100", "100_1K", "1K_10K", "10K_100K", "100K_1M", "1M_4M", "4M_10M", "10M_100M", "100M_1G", "1G_PLUS"}
)

// totalsOf sums a dump, from a parsed log or from darshan-parser's text.
func totalsOf(d dump) map[string]moduleTotals {
	tot := map[string]moduleTotals{}
	for _, m := range d.Header.Modules {
		if _, ok := printedNames[m.Name]; ok {
			tot[m.Name] = moduleTotals{}
		}
	}
	files := map[string]map[uint64]bool{}
	for _, r := range d.Records {
		t := tot[r.Module]
		t.Records++
		if files[r.Module] == nil {
			files[r.Module] = map[uint64]bool{}
		}
		files[r.Module][r.ID] = true
		t.Files = len(files[r.Module])
		for _, c := range writeCounters[r.Module] {
			t.Writes += max(r.Ints[c], 0)
		}
		t.BytesWritten += max(r.Ints[bytesCounter[r.Module]], 0)
		if p, ok := histPrefix[r.Module]; ok {
			for i, b := range histBins {
				t.SizeWrite[i] += max(r.Ints[p+b], 0)
			}
		}
		tot[r.Module] = t
	}
	return tot
}

// TestModuleTotals checks every shared log's per-module totals against
// darshan-parser: its text in parser/ where there is one, else the table.
func TestModuleTotals(t *testing.T) {
	dir := sharedDarshan(t)
	for _, path := range sharedLogs(t) {
		base := filepath.Base(path)
		t.Run(base, func(t *testing.T) {
			l, err := ReadFile(path, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			want, ok := parserTotals[base]
			if text := parserText(dir, base); text != "" {
				want, ok = totalsOf(readDump(t, text)), true
			}
			if !ok {
				t.Fatalf("no expected totals for %s: add darshan-parser's to parserTotals", base)
			}
			if diff := cmp.Diff(want, totalsOf(dumpOf(l))); diff != "" {
				t.Errorf("totals (-want +got):\n%s", diff)
			}
		})
	}
}

func parserText(dir, base string) string {
	for _, ext := range []string{".txt", ".txt.gz"} {
		p := filepath.Join(dir, "parser", base+ext)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// TestE3SMWrites checks a fact known about the 512-rank e3sm log.
func TestE3SMWrites(t *testing.T) {
	dir := sharedDarshan(t)
	l, err := ReadFile(filepath.Join(dir, "logs", "corpus", "e3sm_io_heatmaps_and_dxt_e3sm_io_heatmap_only.darshan"), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	got := totalsOf(dumpOf(l))["POSIX"]
	if got.Writes != 306777 || got.BytesWritten != 304663273048 {
		t.Errorf("POSIX writes %d, bytes written %d; want 306777 and 304663273048", got.Writes, got.BytesWritten)
	}
	if l.Job.NProcs != 512 || !strings.Contains(l.Job.Exe, "e3sm_io") {
		t.Errorf("nprocs %d, exe %q", l.Job.NProcs, l.Job.Exe)
	}
}

// parserTotals holds the totals of the shared logs that have no
// darshan-parser text in parser/. They come from darshan-parser 3.5.0,
// built from source on this machine, run with --show-incomplete on each
// log, summed by a script independent of this package.
var parserTotals = map[string]map[string]moduleTotals{
	"cwr-tmpfs.darshan": {
		"POSIX": {Records: 1, Files: 1, Writes: 1000, BytesWritten: 8000, SizeWrite: [10]int64{1000, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"dlio_logs_snyder_python3_id3116902-2110365_12-19-66957-188958432683465822_1.darshan": {
		"POSIX": {Records: 27, Files: 27, Writes: 71, BytesWritten: 523926517, SizeWrite: [10]int64{0, 68, 0, 1, 0, 0, 0, 1, 1, 0}},
		"STDIO": {Records: 2, Files: 2, Writes: 3, BytesWritten: 440, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"e3sm_io_heatmaps_and_dxt_e3sm_io_heatmap_only.darshan": {
		"POSIX":  {Records: 113, Files: 3, Writes: 306777, BytesWritten: 304663273048, SizeWrite: [10]int64{238, 0, 4, 17, 306518, 0, 0, 0, 0, 0}},
		"MPI-IO": {Records: 3, Files: 3, Writes: 103115, BytesWritten: 77443304344, SizeWrite: [10]int64{201, 0, 0, 0, 102914, 0, 0, 0, 0, 0}},
		"STDIO":  {Records: 1, Files: 1, Writes: 118, BytesWritten: 5936, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"frec-big_endian-buf4M.darshan": {
		"POSIX": {Records: 1, Files: 1, Writes: 64, BytesWritten: 268435456, SizeWrite: [10]int64{0, 0, 0, 0, 0, 64, 0, 0, 0, 0}},
	},
	"frec-big_endian-bzip2.darshan": {
		"POSIX": {Records: 1, Files: 1, Writes: 2048, BytesWritten: 268435456, SizeWrite: [10]int64{0, 0, 0, 0, 2048, 0, 0, 0, 0, 0}},
	},
	"hdf5_diagonal_write_only_hdf5_diagonal_write_1_byte_dxt.darshan": {
		"POSIX": {Records: 650, Files: 74, Writes: 40, BytesWritten: 15930, SizeWrite: [10]int64{30, 0, 10, 0, 0, 0, 0, 0, 0, 0}},
	},
	"imbalanced_io_imbalanced-io.darshan": {
		"POSIX":  {Records: 2014, Files: 1026, Writes: 50832, BytesWritten: 52938480076, SizeWrite: [10]int64{43, 301, 2, 0, 50486, 0, 0, 0, 0, 0}},
		"MPI-IO": {Records: 3, Files: 3, Writes: 101535, BytesWritten: 79523848632, SizeWrite: [10]int64{2526, 303, 2, 0, 97812, 396, 0, 410, 86, 0}},
		"STDIO":  {Records: 12, Files: 12, Writes: 37074, BytesWritten: 1142414, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"ior_daos_snyder_ior-POSIX_id1057716-202103_11-8-64415-6936117869459351096_1.darshan": {
		"POSIX": {Records: 1, Files: 1, Writes: 64, BytesWritten: 16777216, SizeWrite: [10]int64{0, 0, 0, 0, 64, 0, 0, 0, 0, 0}},
		"STDIO": {Records: 1, Files: 1, Writes: 124, BytesWritten: 2164, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"ior_pnetcdf_hdf5_shane_ior-HDF5_id438090-438090_11-9-41522-17417065676046418211_1.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 23, BytesWritten: 4195800, SizeWrite: [10]int64{3, 4, 0, 0, 16, 0, 0, 0, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 23, BytesWritten: 4195800, SizeWrite: [10]int64{3, 4, 0, 0, 16, 0, 0, 0, 0, 0}},
		"STDIO":  {Records: 1, Files: 1, Writes: 116, BytesWritten: 2050, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"ior_pnetcdf_hdf5_shane_ior-PNETCDF_id438100-438100_11-9-41525-10280033558448664385_1.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 19, BytesWritten: 4194476, SizeWrite: [10]int64{2, 1, 0, 0, 16, 0, 0, 0, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 19, BytesWritten: 4194476, SizeWrite: [10]int64{2, 1, 0, 0, 16, 0, 0, 0, 0, 0}},
		"STDIO":  {Records: 1, Files: 1, Writes: 116, BytesWritten: 2065, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"mpi_io_test_with_dxt_treddy_mpi-io-test_id4373053_6-2-60198-9815401321915095332_1.darshan": {
		"POSIX":  {Records: 96, Files: 34, Writes: 192, BytesWritten: 2147486208, SizeWrite: [10]int64{64, 0, 0, 0, 0, 0, 0, 128, 0, 0}},
		"MPI-IO": {Records: 32, Files: 1, Writes: 128, BytesWritten: 2147483648, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 128, 0, 0}},
		"STDIO":  {Records: 32, Files: 1, Writes: 38, BytesWritten: 1625, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"nonmpi_dxt_anonymized_nonmpi_dxt_anonymized.darshan": {
		"POSIX": {Records: 81, Files: 81, Writes: 9830, BytesWritten: 120500998, SizeWrite: [10]int64{1162, 6415, 50, 1961, 242, 0, 0, 0, 0, 0}},
		"STDIO": {Records: 11, Files: 11, Writes: 10214, BytesWritten: 279465, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"ppc64-3.1.6-converted-bzip2.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"STDIO":  {Records: 1, Files: 1, Writes: 12, BytesWritten: 640, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"release_logs_mpi-io-test-ppc64-3.0.0.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
	},
	"release_logs_mpi-io-test-ppc64-3.0.1.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
	},
	"release_logs_mpi-io-test-ppc64-3.1.0.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"STDIO":  {Records: 2, Files: 2, Writes: 12, BytesWritten: 640, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"release_logs_mpi-io-test-ppc64-3.1.1.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"STDIO":  {Records: 2, Files: 2, Writes: 12, BytesWritten: 640, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"release_logs_mpi-io-test-ppc64-3.1.2.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"STDIO":  {Records: 2, Files: 2, Writes: 12, BytesWritten: 640, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"release_logs_mpi-io-test-ppc64-3.1.3.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"STDIO":  {Records: 2, Files: 2, Writes: 12, BytesWritten: 640, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"release_logs_mpi-io-test-ppc64-3.1.4.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"STDIO":  {Records: 2, Files: 2, Writes: 12, BytesWritten: 640, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"release_logs_mpi-io-test-ppc64-3.1.5.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"STDIO":  {Records: 1, Files: 1, Writes: 12, BytesWritten: 640, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"release_logs_mpi-io-test-ppc64-3.1.7.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"STDIO":  {Records: 1, Files: 1, Writes: 12, BytesWritten: 640, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"release_logs_mpi-io-test-ppc64-3.1.8.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"STDIO":  {Records: 1, Files: 1, Writes: 12, BytesWritten: 640, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"release_logs_mpi-io-test-x86_64-3.0.1.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
	},
	"release_logs_mpi-io-test-x86_64-3.1.0.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"STDIO":  {Records: 2, Files: 2, Writes: 6, BytesWritten: 322, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"release_logs_mpi-io-test-x86_64-3.1.1.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"STDIO":  {Records: 2, Files: 2, Writes: 6, BytesWritten: 322, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"release_logs_mpi-io-test-x86_64-3.1.2.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"STDIO":  {Records: 2, Files: 2, Writes: 6, BytesWritten: 322, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"release_logs_mpi-io-test-x86_64-3.1.3.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"STDIO":  {Records: 2, Files: 2, Writes: 6, BytesWritten: 322, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"release_logs_mpi-io-test-x86_64-3.1.4.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"STDIO":  {Records: 2, Files: 2, Writes: 6, BytesWritten: 322, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"release_logs_mpi-io-test-x86_64-3.1.5.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"STDIO":  {Records: 1, Files: 1, Writes: 6, BytesWritten: 322, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"release_logs_mpi-io-test-x86_64-3.1.6.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"STDIO":  {Records: 1, Files: 1, Writes: 6, BytesWritten: 322, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"release_logs_mpi-io-test-x86_64-3.1.7.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"STDIO":  {Records: 1, Files: 1, Writes: 6, BytesWritten: 322, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"release_logs_mpi-io-test-x86_64-3.1.8.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"STDIO":  {Records: 1, Files: 1, Writes: 6, BytesWritten: 322, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"release_logs_mpi-io-test-x86_64-3.2.0.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"STDIO":  {Records: 1, Files: 1, Writes: 6, BytesWritten: 322, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"release_logs_mpi-io-test-x86_64-3.2.1.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"STDIO":  {Records: 1, Files: 1, Writes: 6, BytesWritten: 322, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"release_logs_mpi-io-test-x86_64-3.3.0.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"STDIO":  {Records: 1, Files: 1, Writes: 6, BytesWritten: 322, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"release_logs_mpi-io-test-x86_64-3.3.1.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"STDIO":  {Records: 1, Files: 1, Writes: 6, BytesWritten: 322, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"release_logs_mpi-io-test-x86_64-3.4.0-pre1.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"STDIO":  {Records: 1, Files: 1, Writes: 6, BytesWritten: 322, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"release_logs_mpi-io-test-x86_64-3.4.1.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"STDIO":  {Records: 1, Files: 1, Writes: 6, BytesWritten: 322, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"release_logs_mpi-io-test-x86_64-3.4.2.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"STDIO":  {Records: 1, Files: 1, Writes: 6, BytesWritten: 322, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"release_logs_mpi-io-test-x86_64-3.4.3.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"STDIO":  {Records: 1, Files: 1, Writes: 6, BytesWritten: 322, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"release_logs_mpi-io-test-x86_64-3.4.4.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"STDIO":  {Records: 1, Files: 1, Writes: 6, BytesWritten: 322, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"release_logs_mpi-io-test-x86_64-3.4.5.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"STDIO":  {Records: 1, Files: 1, Writes: 6, BytesWritten: 322, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"release_logs_mpi-io-test-x86_64-3.4.6.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"STDIO":  {Records: 1, Files: 1, Writes: 7, BytesWritten: 344, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"release_logs_mpi-io-test-x86_64-3.4.7.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 4, BytesWritten: 67108864, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 4, 0, 0}},
		"STDIO":  {Records: 1, Files: 1, Writes: 7, BytesWritten: 344, SizeWrite: [10]int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	},
	"skew_io_skew-app.darshan": {
		"POSIX":  {Records: 1, Files: 1, Writes: 41632, BytesWritten: 43637372528, SizeWrite: [10]int64{1, 1, 0, 3, 41627, 0, 0, 0, 0, 0}},
		"MPI-IO": {Records: 1, Files: 1, Writes: 1114112, BytesWritten: 43637372528, SizeWrite: [10]int64{131071, 65537, 458752, 327680, 131072, 0, 0, 0, 0, 0}},
	},
}
