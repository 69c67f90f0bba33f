package darshan

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

var (
	allFormats      = []string{"3.00", "3.10", "3.20", "3.21", "3.41"}
	allCompressions = []compression{compZlib, compBzip2, compNone}
)

// recordVersions picks, for variant k, one version of each decoded
// module, so that the variants together cover every version.
func recordVersions(k int) map[int]int {
	return map[int]int{idPOSIX: k%4 + 1, idMPIIO: k%3 + 1, idSTDIO: k%2 + 1}
}

// syntheticLog is a small log that format e can hold: records of each
// decoded module at the versions given, modules left undecoded, partial
// flags, names and mounts.
func syntheticLog(e encoding, versions map[int]int, seed uint64) *Log {
	rng := rand.New(rand.NewPCG(seed, 7))
	minor := formatMinor[e.version]
	var nsec int64
	if minor >= 41 {
		nsec = 250_000_000
	}
	l := &Log{
		Version:     e.version,
		BigEndian:   e.bigEndian,
		Compression: e.comp.String(),
		Job: Job{
			UID: 1000, JobID: 4242, NProcs: 4,
			Start:    time.Unix(1_700_000_000, nsec).UTC(),
			End:      time.Unix(1_700_000_060, 2*nsec).UTC(),
			Exe:      "./app -f /scratch/out.dat",
			Metadata: map[string]string{"lib_ver": "3.4.0", "h": "romio_no_indep_rw=true;cb_nodes=4"},
		},
		Mounts: []Mount{{Path: "/scratch", FSType: "lustre"}, {Path: "/", FSType: "ext4"}},
		Names:  map[uint64]string{},
	}
	l.Job.RunTime = 61
	if minor >= 41 {
		l.Job.RunTime = 60.25
	}
	for _, id := range []int{idPOSIX, idMPIIO, idSTDIO} {
		l.Modules = append(l.Modules, syntheticModule(l, id, versions[id], rng))
	}
	l.Modules = append(l.Modules, undecoded(idLustre, 1, false), undecoded(idDXTPOSIX, 2, false))
	l.Modules[2].Partial = true
	if minor >= 20 {
		l.Modules = append(l.Modules, undecoded(idH5D, 0, true)) // partial, no data
	}
	if minor >= 41 {
		l.Modules = append(l.Modules, undecoded(40, 3, false))
	}
	slices.SortFunc(l.Modules, func(a, b Module) int { return a.ID - b.ID })
	return l
}

func undecoded(id, version int, partial bool) Module {
	return Module{Name: moduleName(id), ID: id, Version: version, Partial: partial}
}

func syntheticModule(l *Log, id, version int, rng *rand.Rand) Module {
	kind := decodedKinds[id]
	lay := kind.layouts[version]
	m := Module{Name: moduleName(id), ID: id, Version: version, Decoded: true,
		Counters: slices.Clone(kind.counters), FCounters: slices.Clone(kind.fcounters)}
	for i := range 3 {
		r := Record{ID: rng.Uint64(), Rank: int64(i) - 1,
			Counters: slices.Clone(lay.ints), FCounters: slices.Clone(lay.floats)}
		for _, at := range lay.intAt {
			if at >= 0 {
				r.Counters[at] = rng.Int64N(1<<40) - 1
			}
		}
		for _, at := range lay.floatAt {
			r.FCounters[at] = float64(rng.IntN(1e6))/1000 - 1
		}
		l.Names[r.ID] = fmt.Sprintf("/scratch/%s/file%d", m.Name, i)
		m.Records = append(m.Records, r)
	}
	return m
}

// encodings lists every format, byte order and compression, with one and
// with several streams per region.
func encodings() []encoding {
	var es []encoding
	for _, v := range allFormats {
		for _, big := range []bool{false, true} {
			for _, c := range allCompressions {
				es = append(es, encoding{version: v, bigEndian: big, comp: c, streams: 1})
				if c != compNone {
					es = append(es, encoding{version: v, bigEndian: big, comp: c, streams: 3})
				}
			}
		}
	}
	return es
}

func TestRoundTrip(t *testing.T) {
	for i, e := range encodings() {
		for k := range 4 {
			versions := recordVersions(i + k)
			name := fmt.Sprintf("%s/posix%d-mpiio%d-stdio%d", e, versions[idPOSIX], versions[idMPIIO], versions[idSTDIO])
			t.Run(name, func(t *testing.T) {
				want := syntheticLog(e, versions, uint64(i*10+k))
				data := encodeLog(want, e)
				got, err := Parse(bytes.NewReader(data), int64(len(data)), Limits{})
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("Parse(encode(log)) (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// TestEmptyLog: no names and no modules, so the job region runs to the
// end of the file.
func TestEmptyLog(t *testing.T) {
	for _, v := range allFormats {
		t.Run(v, func(t *testing.T) {
			e := encoding{version: v, comp: compZlib}
			want := syntheticLog(e, recordVersions(0), 1)
			want.Names, want.Modules = map[uint64]string{}, nil
			data := encodeLog(want, e)
			got, err := Parse(bytes.NewReader(data), int64(len(data)), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestPOSIXv1StdioRecordsDropped: a POSIX v1 record with stdio counters
// cannot be upgraded, and darshan leaves it out.
func TestPOSIXv1StdioRecordsDropped(t *testing.T) {
	for _, big := range []bool{false, true} {
		e := encoding{version: "3.00", bigEndian: big, comp: compNone}
		want := syntheticLog(e, recordVersions(0), 3)
		data := encodeLog(want, e)
		h, err := readHeader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		fopens := int(h.mods[idPOSIX].off) + 16 + 8*6 // first record's POSIX_FOPENS
		h.order.PutUint64(data[fopens:], 2)
		got, err := Parse(bytes.NewReader(data), int64(len(data)), Limits{})
		if err != nil {
			t.Fatal(err)
		}
		posix := got.Module("POSIX")
		if posix.Dropped != 1 || len(posix.Records) != 2 || posix.Records[0].ID != want.Modules[0].Records[1].ID {
			t.Errorf("big-endian %v: dropped %d, kept %d records; want the first dropped", big, posix.Dropped, len(posix.Records))
		}
	}
}

func TestLimits(t *testing.T) {
	e := encoding{version: "3.41", comp: compZlib}
	withNames := syntheticLog(e, recordVersions(3), 5)
	noNames := syntheticLog(e, recordVersions(3), 5)
	noNames.Names = map[uint64]string{}
	for _, tc := range []struct {
		name string
		log  *Log
		lim  Limits
	}{
		{"decompressed", withNames, Limits{MaxDecompressed: 2000}},
		{"names", withNames, Limits{MaxRecords: 4}},
		{"records", noNames, Limits{MaxRecords: 4}},
	} {
		wantRegion := map[string]string{"decompressed": "POSIX", "names": "names", "records": "MPI-IO"}
		t.Run(tc.name, func(t *testing.T) {
			data := encodeLog(tc.log, e)
			_, err := Parse(bytes.NewReader(data), int64(len(data)), tc.lim)
			var fe *FormatError
			if !errors.Is(err, ErrLimit) || !errors.As(err, &fe) || fe.Region != wantRegion[tc.name] {
				t.Fatalf("got %v, want a *FormatError of region %s wrapping ErrLimit", err, wantRegion[tc.name])
			}
		})
	}
}

// TestZlibBomb: a small region that inflates past the cap stops there.
func TestZlibBomb(t *testing.T) {
	e := encoding{version: "3.41", comp: compZlib}
	log := syntheticLog(e, map[int]int{idPOSIX: 4, idMPIIO: 3, idSTDIO: 2}, 9)
	rec := log.Modules[0].Records[0]
	for range 40000 { // 28 MB of records, well under 1 MB compressed
		log.Modules[0].Records = append(log.Modules[0].Records, rec)
	}
	data := encodeLog(log, e)
	lim := Limits{MaxDecompressed: 1 << 20}
	before := totalAlloc()
	_, err := Parse(bytes.NewReader(data), int64(len(data)), lim)
	if !errors.Is(err, ErrLimit) {
		t.Fatalf("got %v, want ErrLimit", err)
	}
	if got := totalAlloc() - before; got > 8<<20 {
		t.Errorf("allocated %d bytes parsing against a 1 MiB cap", got)
	}
}
