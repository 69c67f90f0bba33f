package libcheck

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPredictMPIIO: cases worked out from ROMIO's and OMPIO's code, each
// also measured on Open MPI 4.1.4 (32 MiB per rank).
func TestPredictMPIIO(t *testing.T) {
	const n = 32 * mib
	tests := []struct {
		name       string
		p          MPIIOPattern
		want       Calls
		perRank    []int64
		overLo, hi int64
	}{
		{"romio contiguous: one pwrite a call", MPIIOPattern{Component: ROMIO, Ranks: 2, RankBytes: n, CallBytes: mib},
			Calls{64, mib, mib}, []int64{32, 32}, 0, 0},
		{"romio strided: ind_wr_buffer_size pieces", MPIIOPattern{Component: ROMIO, Ranks: 2, RankBytes: n, CallBytes: mib, ElemBytes: 4},
			Calls{128, 512 * kib, 512 * kib}, []int64{64, 64}, 0, 0},
		{"romio strided, ind_wr 64 KiB", MPIIOPattern{Component: ROMIO, Ranks: 2, RankBytes: n, CallBytes: mib, ElemBytes: 4, IndWrBytes: 64 * kib},
			Calls{1024, 64 * kib, 64 * kib}, []int64{512, 512}, 0, 0},
		{"romio strided, ind_wr 4 MiB", MPIIOPattern{Component: ROMIO, Ranks: 2, RankBytes: n, CallBytes: mib, ElemBytes: 4, IndWrBytes: 4 * mib},
			Calls{64, mib, mib}, []int64{32, 32}, 0, 0},
		{"romio collective automatic: independent", MPIIOPattern{Component: ROMIO, Ranks: 3, Shared: true, Collective: true, RankBytes: n, CallBytes: 8 * mib, CBBufferBytes: 4 * mib},
			Calls{12, 8 * mib, 8 * mib}, []int64{4, 4, 4}, 0, 0},
		{"romio two-phase, shared", MPIIOPattern{Component: ROMIO, Ranks: 3, Shared: true, Collective: true, RankBytes: n, CallBytes: 8 * mib, CBWrite: CBWriteEnable},
			Calls{8, 8 * mib, 16 * mib}, []int64{8, 0, 0}, 0, 0},
		{"romio two-phase, cb 4 MiB", MPIIOPattern{Component: ROMIO, Ranks: 3, Shared: true, Collective: true, RankBytes: n, CallBytes: 8 * mib, CBWrite: CBWriteEnable, CBBufferBytes: 4 * mib},
			Calls{24, 4 * mib, 4 * mib}, []int64{24, 0, 0}, 0, 0},
		{"romio two-phase, strided", MPIIOPattern{Component: ROMIO, Ranks: 2, Shared: true, Collective: true, RankBytes: n, CallBytes: mib, ElemBytes: 4, CBWrite: CBWriteEnable, CBBufferBytes: 4 * mib},
			Calls{32, 2 * mib, 2 * mib}, []int64{32, 0}, 0, 0},
		{"romio two-phase, a file per rank", MPIIOPattern{Component: ROMIO, Ranks: 2, Collective: true, RankBytes: n, CallBytes: 8 * mib, CBWrite: CBWriteEnable, CBBufferBytes: 4 * mib},
			Calls{16, 4 * mib, 4 * mib}, []int64{8, 8}, 0, 0},
		{"ompio contiguous, a file per rank", MPIIOPattern{Component: OMPIO, Ranks: 2, Collective: true, RankBytes: n, CallBytes: 8 * mib},
			Calls{8, 8 * mib, 8 * mib}, []int64{4, 4}, 4, 4},
		{"ompio strided int: pwritev of 1024 elements", MPIIOPattern{Component: OMPIO, Ranks: 2, RankBytes: n, CallBytes: mib, ElemBytes: 4},
			Calls{16384, 4 * kib, 4 * kib}, []int64{8192, 8192}, 4, 4},
		{"ompio strided double", MPIIOPattern{Component: OMPIO, Ranks: 3, Shared: true, RankBytes: n, CallBytes: mib, ElemBytes: 8},
			Calls{12288, 8 * kib, 8 * kib}, []int64{4096, 4096, 4096}, 2, 4},
		{"ompio two ranks on a shared file: individual", MPIIOPattern{Component: OMPIO, Ranks: 2, Shared: true, Collective: true, RankBytes: n, CallBytes: 8 * mib},
			Calls{8, 8 * mib, 8 * mib}, []int64{4, 4}, 2, 3},
		{"ompio vulcan", MPIIOPattern{Component: OMPIO, Ranks: 3, Shared: true, Collective: true, RankBytes: n, CallBytes: 8 * mib},
			Calls{8, 8 * mib, 16 * mib}, []int64{8, 0, 0}, 2, 4},
		{"ompio vulcan, bytes_per_agg 4 MiB", MPIIOPattern{Component: OMPIO, Ranks: 3, Shared: true, Collective: true, RankBytes: n, CallBytes: 8 * mib, BytesPerAgg: 4 * mib},
			Calls{48, 2 * mib, 2 * mib}, []int64{48, 0, 0}, 2, 4},
		{"ompio vulcan, bytes_per_agg 64 MiB", MPIIOPattern{Component: OMPIO, Ranks: 3, Shared: true, Collective: true, RankBytes: n, CallBytes: 8 * mib, BytesPerAgg: 64 * mib},
			Calls{4, 24 * mib, 24 * mib}, []int64{4, 0, 0}, 2, 4},
		{"ompio vulcan, strided", MPIIOPattern{Component: OMPIO, Ranks: 3, Shared: true, Collective: true, RankBytes: n, CallBytes: mib, ElemBytes: 4, BytesPerAgg: 4 * mib},
			Calls{64, mib, 2 * mib}, []int64{64, 0, 0}, 2, 4},
		{"a last, shorter call", MPIIOPattern{Component: ROMIO, Ranks: 1, RankBytes: 3*mib + 4096, CallBytes: mib},
			Calls{4, 4096, mib}, []int64{4}, 0, 0},
		// A last, shorter call leaves holes between the ranks' pieces:
		// two-phase writes every window that holds data, whole (1 MiB, 1
		// MiB and 4 KiB), vulcan each piece apart.
		{"romio two-phase, a shorter last call", MPIIOPattern{Component: ROMIO, Ranks: 3, Shared: true, Collective: true, RankBytes: 4*mib + 4096, CallBytes: mib, CBWrite: CBWriteEnable, CBBufferBytes: mib},
			Calls{15, 4096, mib}, []int64{15, 0, 0}, 0, 0},
		{"romio two-phase, cb 2 MiB, a shorter last call", MPIIOPattern{Component: ROMIO, Ranks: 3, Shared: true, Collective: true, RankBytes: 4*mib + 4096, CallBytes: mib, CBWrite: CBWriteEnable, CBBufferBytes: 2 * mib},
			Calls{10, 4096, 2 * mib}, []int64{10, 0, 0}, 0, 0},
		{"ompio vulcan, a shorter last call", MPIIOPattern{Component: OMPIO, Ranks: 3, Shared: true, Collective: true, RankBytes: 4*mib + 4096, CallBytes: mib},
			Calls{7, 4096, 3 * mib}, []int64{7, 0, 0}, 2, 4},
		{"ompio vulcan, bytes_per_agg 4 MiB, a shorter last call", MPIIOPattern{Component: OMPIO, Ranks: 3, Shared: true, Collective: true, RankBytes: 4*mib + 4096, CallBytes: mib, BytesPerAgg: 4 * mib},
			Calls{11, 4096, 2 * mib}, []int64{11, 0, 0}, 2, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := PredictMPIIO(tt.p)
			if err != nil {
				t.Fatal(err)
			}
			want := MPIIOCalls{Data: tt.want, PerRank: tt.perRank, OverheadMin: tt.overLo, OverheadMax: tt.hi, Rule: got.Rule}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("PredictMPIIO(%+v) (-want +got):\n%s", tt.p, diff)
			}
		})
	}
}

func TestPredictMPIIORefuses(t *testing.T) {
	for _, p := range []MPIIOPattern{
		{Component: "mpich", Ranks: 1, RankBytes: 8, CallBytes: 8},
		{Component: OMPIO, Ranks: 0, RankBytes: 8, CallBytes: 8},
		{Component: ROMIO, Ranks: 1, RankBytes: 8, CallBytes: 6, ElemBytes: 4},
		{Component: ROMIO, Ranks: 1, RankBytes: 8, CallBytes: 8, CBWrite: "on"},
	} {
		if _, err := PredictMPIIO(p); err == nil {
			t.Errorf("PredictMPIIO(%+v) succeeded", p)
		}
	}
	_, err := PredictMPIIO(MPIIOPattern{Component: OMPIO, Ranks: 16, Shared: true, Collective: true, RankBytes: mib, CallBytes: mib})
	if !errors.Is(err, ErrNoRule) {
		t.Errorf("vulcan on 16 ranks: %v, want ErrNoRule", err)
	}
}

// TestPredictHDF5: cases worked out from HDF5 1.10's raw-data path, each
// also measured on HDF5 1.10.8 (16 MiB unless said).
func TestPredictHDF5(t *testing.T) {
	const n = 2 * mib // float64: 16 MiB
	tests := []struct {
		name  string
		p     HDF5Pattern
		want  Calls
		bytes int64
		meta  int64
	}{
		{"contiguous: one write", HDF5Pattern{Elements: n}, Calls{1, 16 * mib, 16 * mib}, 16 * mib, 3},
		{"big-endian: type-conversion buffer passes", HDF5Pattern{Elements: n, BigEndian: true}, Calls{16, mib, mib}, 16 * mib, 3},
		{"big-endian, H5Pset_buffer 4 MiB", HDF5Pattern{Elements: n, BigEndian: true, TconvBytes: 4 * mib}, Calls{4, 4 * mib, 4 * mib}, 16 * mib, 3},
		{"big-endian, passes within the sieve", HDF5Pattern{Elements: n, BigEndian: true, TconvBytes: 32 * kib}, Calls{256, 64 * kib, 64 * kib}, 16 * mib, 3},
		{"32 KiB records: the sieve buffer", HDF5Pattern{Elements: n, RecordBytes: 32 * kib}, Calls{256, 64 * kib, 64 * kib}, 16 * mib, 3},
		{"128 KiB records: direct", HDF5Pattern{Elements: n, RecordBytes: 128 * kib}, Calls{128, 128 * kib, 128 * kib}, 16 * mib, 3},
		{"32 KiB records, sieve 1 MiB", HDF5Pattern{Elements: n, RecordBytes: 32 * kib, SieveBytes: mib}, Calls{16, mib, mib}, 16 * mib, 3},
		// 48 KiB pieces: each region of 64 KiB takes one, the next falls
		// outside it: regions overlap and 21824 KiB are written.
		{"48 KiB records: overlapping regions", HDF5Pattern{Elements: n, RecordBytes: 48 * kib}, Calls{341, 64 * kib, 64 * kib}, 21824 * kib, 3},
		{"chunks of 64 KiB", HDF5Pattern{Elements: n, ChunkBytes: 64 * kib}, Calls{256, 64 * kib, 64 * kib}, 16 * mib, 8},
		{"chunks of 512 KiB, big-endian", HDF5Pattern{Elements: n, ChunkBytes: 512 * kib, BigEndian: true}, Calls{32, 512 * kib, 512 * kib}, 16 * mib, 3},
		{"chunks of 8 MiB: built whole", HDF5Pattern{Elements: n, ChunkBytes: 8 * mib, BigEndian: true}, Calls{2, 8 * mib, 8 * mib}, 16 * mib, 3},
		{"chunks of 8 MiB, 1 MiB writes", HDF5Pattern{Elements: n, ChunkBytes: 8 * mib, RecordBytes: mib}, Calls{16, mib, 8 * mib}, 30 * mib, 3},
		{"chunks of 8 MiB, 800000-byte writes", HDF5Pattern{Elements: n, ChunkBytes: 8 * mib, RecordBytes: 800000}, Calls{22, 388608, 8 * mib}, 31585 * kib, 3},
		// 64 MiB in 1 KiB records into 4 MiB chunks: no sieve for a chunk.
		{"chunks of 4 MiB, 1 KiB records", HDF5Pattern{Elements: 4 * n, ChunkBytes: 4 * mib, RecordBytes: kib}, Calls{65536, kib, 4 * mib}, 128*mib - 16*kib, 3},
		{"chunks of 1 MiB, 1 KiB records: cached", HDF5Pattern{Elements: 4 * n, ChunkBytes: mib, RecordBytes: kib}, Calls{64, mib, mib}, 64 * mib, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := PredictHDF5(tt.p)
			if err != nil {
				t.Fatal(err)
			}
			want := HDF5Calls{Data: tt.want, DataBytes: tt.bytes, Metadata: tt.meta, Rule: got.Rule}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("PredictHDF5(%+v) (-want +got):\n%s", tt.p, diff)
			}
		})
	}
}

// TestHDF5MetadataLeaves: a chunked dataset's metadata writes at close
// grow by one per B-tree leaf once it has more than one, as measured for
// 8 KiB chunks.
func TestHDF5MetadataLeaves(t *testing.T) {
	measured := map[int64]int64{1: 3, 64: 3, 65: 5, 121: 5, 122: 6, 178: 6, 179: 7, 256: 8, 300: 9, 512: 12, 1024: 21, 2048: 39, 4096: 75}
	for chunks, want := range measured {
		got, err := PredictHDF5(HDF5Pattern{Elements: chunks * kib, ChunkBytes: 8 * kib})
		if err != nil {
			t.Fatal(err)
		}
		if got.Metadata != want {
			t.Errorf("%d chunks: %d metadata calls, measured %d", chunks, got.Metadata, want)
		}
	}
}
