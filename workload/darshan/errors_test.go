package darshan

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFormatErrors: each corruption is named, with its region and offset.
func TestFormatErrors(t *testing.T) {
	e := encoding{version: "3.41", comp: compNone}
	clean := encodeLog(syntheticLog(e, recordVersions(3), 2), e)
	h, err := readHeader(bytes.NewReader(clean), int64(len(clean)))
	if err != nil {
		t.Fatal(err)
	}
	lay := h.layout()
	put := func(b []byte, at int, v uint64) { h.order.PutUint64(b[at:], v) }
	posixLen := int(h.mapAt[idPOSIX]) + 8
	namesOff, namesLen := lay.namesOff, lay.namesOff+8

	type want struct {
		Region string
		Offset int64
		Reason string // a part of it
	}
	tests := []struct {
		name  string
		patch func(b []byte) []byte
		want  want
	}{
		{"version", func(b []byte) []byte { copy(b, "3.99"); return b },
			want{"header", 0, `unsupported log format version "3.99"`}},
		{"magic", func(b []byte) []byte { b[8]++; return b },
			want{"header", 8, "bad magic number"}},
		{"compression", func(b []byte) []byte { b[16] = 7; return b },
			want{"header", 16, "unknown compression type 7"}},
		{"short header", func(b []byte) []byte { return b[:1000] },
			want{"header", 0, "a 3.41 header needs 1328"}},
		{"region past the end", func(b []byte) []byte { put(b, posixLen, 1<<62); return b },
			want{"header", h.mapAt[idPOSIX], "POSIX region"}},
		{"record cut short", func(b []byte) []byte { put(b, posixLen, h.mods[idPOSIX].len-8); return b },
			want{"POSIX", int64(h.mods[idPOSIX].off), "region ends inside record 2 (696 of 704 bytes)"}},
		{"job record too short", func(b []byte) []byte { put(b, namesOff, uint64(h.size)+100); return b },
			want{"job", h.size, "job record is 100 bytes, format 3.41 needs 1080"}},
		{"name cut short", func(b []byte) []byte { put(b, namesLen, h.names.len-1); return b },
			want{"names", int64(h.names.off), "region ends inside name record 8"}},
		{"mount without tab", func(b []byte) []byte {
			i := bytes.Index(b, []byte("lustre\t/scratch"))
			b[i+6] = ' '
			return b
		}, want{"job", h.size, `mount table entry "lustre /scratch" has no tab`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data := tc.patch(bytes.Clone(clean))
			_, err := Parse(bytes.NewReader(data), int64(len(data)), Limits{})
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("got %v, want a *FormatError", err)
			}
			got := want{fe.Region, fe.Offset, tc.want.Reason}
			if !strings.Contains(fe.Reason, tc.want.Reason) {
				got.Reason = fe.Reason
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("error %q (-want +got):\n%s", err, diff)
			}
		})
	}
}

// TestCorruptZlib: garbage inside a zlib region is a decompression
// error of that region.
func TestCorruptZlib(t *testing.T) {
	e := encoding{version: "3.21", comp: compZlib}
	data := encodeLog(syntheticLog(e, recordVersions(0), 4), e)
	h, err := readHeader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	m := h.mods[idMPIIO]
	for i := m.off + 2; i < m.off+m.len; i++ {
		data[i] = 0xff
	}
	_, err = Parse(bytes.NewReader(data), int64(len(data)), Limits{})
	var fe *FormatError
	if !errors.As(err, &fe) || fe.Region != "MPI-IO" || fe.Err == nil {
		t.Fatalf("got %v, want a decompression *FormatError of MPI-IO", err)
	}
}

func TestIsLog(t *testing.T) {
	for _, tc := range []struct {
		head []byte
		want bool
	}{
		{append([]byte("3.41\x00\x00\x00\x00"), 0x37, 0x35, 0x64, 0, 0, 0, 0, 0), true}, // 6567223 little-endian
		{append([]byte("3.10\x00\x00\x00\x00"), 0, 0, 0, 0, 0, 0x64, 0x35, 0x37), true}, // big-endian
		{[]byte("1234 write(3, \"x\", 1) = 1\n"), false},
		{[]byte("short"), false},
	} {
		if got := IsLog(tc.head); got != tc.want {
			t.Errorf("IsLog(%q) = %v, want %v", tc.head, got, tc.want)
		}
	}
}

// TestJobRegionCheckedToItsEnd: darshan uses the first 4 KiB of the job
// region, but a region that inflates past them is still read to its
// end, where zlib and bzip2 keep their checksums: a bad one is an error
// of the job region, a good one a log.
func TestJobRegionCheckedToItsEnd(t *testing.T) {
	for _, tc := range []struct {
		comp    compression
		corrupt func(region []byte) // breaks the checksum only
	}{
		{compZlib, func(r []byte) { r[len(r)-1] ^= 1 }}, // adler-32, the stream's last bytes
		{compBzip2, func(r []byte) { r[10] ^= 1 }},      // the block's CRC, after "BZh9" and the block magic
	} {
		t.Run(tc.comp.String(), func(t *testing.T) {
			e := encoding{version: "3.41", comp: tc.comp}
			l := syntheticLog(e, recordVersions(0), 5)
			w := &logWriter{e: e, minor: formatMinor[e.version], order: byteOrder(e.bigEndian)}
			long := append(w.jobBytes(l), make([]byte, jobRecordSize)...)
			good := withJobRegion(t, encodeLog(l, e), compress(long, tc.comp))
			if _, err := Parse(bytes.NewReader(good), int64(len(good)), Limits{}); err != nil {
				t.Fatalf("a job region longer than darshan reads: %v", err)
			}
			region := compress(long, tc.comp)
			tc.corrupt(region)
			bad := withJobRegion(t, encodeLog(l, e), region)
			_, err := Parse(bytes.NewReader(bad), int64(len(bad)), Limits{})
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Region != "job" || fe.Err == nil {
				t.Fatalf("got %v, want a decompression *FormatError of the job region", err)
			}
		})
	}
}

// withJobRegion replaces the job region of log with region, moving the
// regions after it.
func withJobRegion(t *testing.T, log, region []byte) []byte {
	t.Helper()
	h, err := readHeader(bytes.NewReader(log), int64(len(log)))
	if err != nil {
		t.Fatal(err)
	}
	job, err := h.jobRegion(int64(len(log)))
	if err != nil {
		t.Fatal(err)
	}
	out := slices.Concat(log[:job.off], region, log[job.off+job.len:])
	shift := func(at int64, m regionMap) {
		if m.len > 0 {
			h.order.PutUint64(out[at:], m.off-job.len+uint64(len(region)))
		}
	}
	shift(int64(h.layout().namesOff), h.names)
	for id, m := range h.mods {
		shift(h.mapAt[id], m)
	}
	return out
}
