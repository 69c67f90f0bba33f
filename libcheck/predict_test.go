package libcheck

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	kib = int64(1) << 10
	mib = int64(1) << 20
)

// TestPredict: each case is worked out by hand from the runtime's code.
func TestPredict(t *testing.T) {
	tests := []struct {
		name string
		rt   Runtime
		p    Pattern
		want Calls
	}{
		// A native array larger than half the buffer, buffer empty: one
		// write(2), whatever the buffer.
		{"gfortran array native", Gfortran, Pattern{Bytes: 64 * mib, BufferBytes: 128 * kib}, Calls{1, 64 * mib, 64 * mib}},
		// Converted, the array passes through the buffer in 512-byte pieces:
		// calls are buffer-sized.
		{"gfortran array big-endian", Gfortran, Pattern{Bytes: 64 * mib, BufferBytes: mib, Swap: true}, Calls{64, mib, mib}},
		{"gfortran array big-endian tail", Gfortran, Pattern{Bytes: 64*mib + 4096, BufferBytes: mib, Swap: true}, Calls{65, 4096, mib}},
		// An array of at most half the buffer is buffered, written at close.
		{"gfortran small array", Gfortran, Pattern{Bytes: 64 * kib, BufferBytes: 128 * kib}, Calls{1, 64 * kib, 64 * kib}},
		// Records that divide the buffer fill it exactly.
		{"gfortran 1KiB records", Gfortran, Pattern{Bytes: 64 * mib, BufferBytes: 128 * kib, RecordBytes: kib}, Calls{512, 128 * kib, 128 * kib}},
		// 1000-byte records, 4096 buffer: four fit (4000), the fifth does
		// not: calls of 4000 bytes, between B/2 and B.
		{"gfortran 1000-byte records", Gfortran, Pattern{Bytes: 8_000_000, BufferBytes: 4096, RecordBytes: 1000}, Calls{2000, 4000, 4000}},
		// Records above half the buffer bypass it one by one.
		{"gfortran records above B/2", Gfortran, Pattern{Bytes: 30000, BufferBytes: 4096, RecordBytes: 3000}, Calls{10, 3000, 3000}},
		// Converted 3000-byte records go in pieces of 512 x 5 + 440, which
		// the buffer takes one by one: 3000 + 512 + 512 = 4024, then the
		// next piece does not fit and 4024 bytes go out. Whole records
		// (above B/2) would have bypassed the buffer: 10 calls of 3000.
		{"gfortran 3000-byte records converted", Gfortran, Pattern{Bytes: 30000, BufferBytes: 4096, RecordBytes: 3000, Swap: true}, Calls{8, 1976, 4024}},
		// stdio: a first fwrite larger than the buffer goes out directly in
		// whole buffers; the rest waits for fclose.
		{"stdio array", Stdio, Pattern{Bytes: 64 * mib, BufferBytes: mib}, Calls{1, 64 * mib, 64 * mib}},
		{"stdio array tail", Stdio, Pattern{Bytes: 64 * mib, BufferBytes: 1_000_000}, Calls{2, 108864, 67_000_000}},
		// stdio fills the buffer to the brim, splitting records.
		{"stdio 1000-byte records", Stdio, Pattern{Bytes: 8_000_000, BufferBytes: 4096, RecordBytes: 1000}, Calls{1954, 512, 4096}},
		{"stdio converted", Stdio, Pattern{Bytes: 64 * mib, BufferBytes: mib, Swap: true}, Calls{64, mib, mib}},
		// A tiny buffer (under 128 bytes) gives up on alignment: after the
		// first record (direct), each one fills the buffer (64, flushed)
		// and the other 136 bytes go out directly.
		{"stdio tiny buffer", Stdio, Pattern{Bytes: 1000, BufferBytes: 64, RecordBytes: 200}, Calls{9, 64, 200}},
		// Linux moves at most 0x7ffff000 bytes per write(2).
		{"gfortran 3 GiB array", Gfortran, Pattern{Bytes: 3 << 30, BufferBytes: 128 * kib}, Calls{2, 3<<30 - maxRW, maxRW}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Predict(tt.rt, tt.p)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Predict(%s, %+v) (-want +got):\n%s", tt.rt, tt.p, diff)
			}
		})
	}
}

func TestPredictRefusesBadPatterns(t *testing.T) {
	for _, p := range []Pattern{{Bytes: 0, BufferBytes: 1}, {Bytes: 8}, {Bytes: 8, BufferBytes: 8, RecordBytes: 12}} {
		if _, err := Predict(Gfortran, p); err == nil {
			t.Errorf("Predict(%+v) succeeded", p)
		}
	}
	for _, rt := range []Runtime{"ifort", MPIIO, HDF5} {
		if _, err := Predict(rt, Pattern{Bytes: 8, BufferBytes: 8}); err == nil {
			t.Errorf("Predict(%s) succeeded; an unknown runtime or a library has no buffer rule", rt)
		}
	}
}

// TestCycleSkipIsExact: counting whole cycles at once gives what feeding
// every record gives.
func TestCycleSkipIsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 300; i++ {
		p := Pattern{
			Bytes:       8 * (1 + rng.Int64N(200_000)),
			BufferBytes: 1 + rng.Int64N(64*kib),
			RecordBytes: 8 * rng.Int64N(2000),
			Swap:        rng.IntN(2) == 1,
		}
		for _, rt := range Runtimes() {
			t.Run(fmt.Sprintf("%s/%+v", rt, p), func(t *testing.T) {
				got, err := Predict(rt, p)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(everyRecord(rt, p), got); diff != "" {
					t.Errorf("(-every record +with cycles skipped):\n%s", diff)
				}
			})
		}
	}
}

// everyRecord is simulate without the cycle skip.
func everyRecord(rt Runtime, p Pattern) Calls {
	var b buffered = &gfortranBuffer{size: p.BufferBytes}
	if rt == Stdio {
		b = &stdioBuffer{size: p.BufferBytes}
	}
	rec := p.RecordBytes
	if rec == 0 || rec > p.Bytes {
		rec = p.Bytes
	}
	for left := p.Bytes; left > 0; left -= min(rec, left) {
		putRecord(b, min(rec, left), p.Swap)
	}
	b.flush()
	return *b.calls()
}

func TestDefaultBuffer(t *testing.T) {
	tests := []struct {
		rt      Runtime
		blksize int64
		want    int64
	}{
		{Gfortran, 4096, 131072},
		{Stdio, 4096, 4096},
		{Stdio, 0, 8192},
		{Stdio, 16 << 20, 8192}, // glibc takes st_blksize only below BUFSIZ
	}
	for _, tt := range tests {
		if got := DefaultBuffer(tt.rt, tt.blksize); got != tt.want {
			t.Errorf("DefaultBuffer(%s, %d) = %d, want %d", tt.rt, tt.blksize, got, tt.want)
		}
	}
}
