package darshan

import (
	"bytes"
	"errors"
	"path/filepath"
	"reflect"
	"runtime/metrics"
	"slices"
	"testing"
)

// fuzzLimits keeps a hostile log small.
var fuzzLimits = Limits{MaxDecompressed: 4 << 20, MaxRecords: 10000}

// allocSlack is what one parse may allocate beyond the decompression cap:
// buffers, records' bookkeeping, and the decompressors' state, the
// largest of which is bzip2's: up to 3.6 MB for each region it reads (at
// most five: job, names and the three decoded modules).
const allocSlack = 24 << 20

// corruptionSamples are small logs to cut and flip: a generated one when
// the shared folder is there, and synthetic ones in any case.
func corruptionSamples(t *testing.T) map[string][]byte {
	samples := map[string][]byte{}
	for _, e := range []encoding{
		{version: "3.41", comp: compZlib, streams: 2},
		{version: "3.00", bigEndian: true, comp: compZlib},
		{version: "3.21", comp: compBzip2},
		{version: "3.10", comp: compNone},
	} {
		samples["synthetic-"+e.String()] = encodeLog(syntheticLog(e, recordVersions(1), 11), e)
	}
	if dir, err := sharedDir(); err == nil {
		samples["cwr-write8"] = readShared(t, filepath.Join(dir, "logs", "generated", "cwr-write8.darshan"))
	}
	return samples
}

// TestTruncatedAndFlipped parses every prefix of each sample and the
// sample with each byte flipped: an error or a log, never a panic, and
// memory bounded by the cap. A flip inside a compressed region that is
// decoded is caught by its checksum: an error, or the same log when it
// only touched padding bits.
func TestTruncatedAndFlipped(t *testing.T) {
	for name, data := range corruptionSamples(t) {
		t.Run(name, func(t *testing.T) {
			orig, err := Parse(bytes.NewReader(data), int64(len(data)), fuzzLimits)
			if err != nil {
				t.Fatal(err)
			}
			checked := checkedRegions(t, data)
			for n := range len(data) {
				checkHostile(t, data[:n], "prefix", n)
			}
			// Alternate masks: a low bit makes near-miss offsets and
			// lengths, all bits wild ones.
			flipped := bytes.Clone(data)
			for i := range flipped {
				mask := byte(0xff)
				if i%2 == 1 {
					mask = 0x01
				}
				flipped[i] ^= mask
				l := checkHostile(t, flipped, "flip", i)
				if l != nil && inside(checked, uint64(i)) && !reflect.DeepEqual(l, orig) {
					t.Fatalf("flip %#x at %d, in a checksummed region, parsed to another log", mask, i)
				}
				flipped[i] ^= mask
			}
		})
	}
}

// checkedRegions are the regions of a compressed log whose data is
// decoded, so checked by the decompressor: the job, the names and the
// modules this package reads.
func checkedRegions(t *testing.T, data []byte) []regionMap {
	h, err := readHeader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if h.comp == compNone {
		return nil
	}
	job, err := h.jobRegion(int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	out := []regionMap{job, h.names}
	for id, kind := range decodedKinds {
		if _, ok := kind.layouts[int(h.modVer[id])]; ok {
			out = append(out, h.mods[id])
		}
	}
	return out
}

func inside(regions []regionMap, off uint64) bool {
	return slices.ContainsFunc(regions, func(m regionMap) bool { return off >= m.off && off < m.off+m.len })
}

// checkHostile parses data and checks what holds for any input; it
// returns the log, nil on an error.
func checkHostile(t *testing.T, data []byte, what string, at int) *Log {
	t.Helper()
	before := totalAlloc()
	l, err := Parse(bytes.NewReader(data), int64(len(data)), fuzzLimits)
	if used := totalAlloc() - before; used > uint64(fuzzLimits.MaxDecompressed)+allocSlack {
		t.Fatalf("%s %d: allocated %d bytes", what, at, used)
	}
	checkParseResult(t, l, err)
	if err == nil && what == "prefix" {
		t.Fatalf("prefix of %d bytes parsed without error", at)
	}
	return l
}

// checkParseResult holds for any input: an error is a *FormatError, and
// a log's records have one value per counter name.
func checkParseResult(t testing.TB, l *Log, err error) {
	t.Helper()
	if err != nil {
		var fe *FormatError
		if !errors.As(err, &fe) {
			t.Fatalf("error %v (%T) is not a *FormatError", err, err)
		}
		return
	}
	for _, m := range l.Modules {
		for _, r := range m.Records {
			if len(r.Counters) != len(m.Counters) || len(r.FCounters) != len(m.FCounters) {
				t.Fatalf("%s record has %d+%d values for %d+%d counters",
					m.Name, len(r.Counters), len(r.FCounters), len(m.Counters), len(m.FCounters))
			}
		}
	}
}

// totalAlloc is the bytes allocated so far, from runtime/metrics, which
// unlike ReadMemStats does not stop the world: it is read twice a parse.
func totalAlloc() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func FuzzParse(f *testing.F) {
	for i, e := range encodings() {
		f.Add(encodeLog(syntheticLog(e, recordVersions(i), uint64(i)), e))
	}
	if _, err := sharedDir(); err == nil {
		for _, path := range sharedLogs(f) {
			f.Add(readShared(f, path))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := Parse(bytes.NewReader(data), int64(len(data)), fuzzLimits)
		checkParseResult(t, l, err)
	})
}
