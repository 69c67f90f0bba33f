package darshan

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// dump is what darshan-parser --show-incomplete prints of a log, in a
// form that a parsed Log converts to as well.
type dump struct {
	Header  dumpHeader
	Records []dumpRecord
}

type dumpHeader struct {
	Version, Compression, Exe string
	UID, JobID, NProcs        int64
	StartSec, EndSec          int64
	RunTime                   string // as printed, %.4f
	Metadata                  map[string]string
	Modules                   []dumpModule
	Mounts                    []Mount // sorted: darshan-parser reorders them
}

type dumpModule struct {
	Name    string
	Size    int64
	Version int
	Partial bool
}

type dumpRecord struct {
	Module string
	Rank   int64
	ID     uint64
	Name   string
	Ints   map[string]int64
	Floats map[string]float64
}

// printedNames maps darshan-parser's module column to its kind.
var printedNames = map[string]int{"POSIX": idPOSIX, "MPI-IO": idMPIIO, "STDIO": idSTDIO}

func TestAgainstDarshanParser(t *testing.T) {
	dir := sharedDarshan(t)
	texts, err := filepath.Glob(filepath.Join(dir, "parser", "*.darshan.txt*"))
	if err != nil || len(texts) == 0 {
		t.Fatalf("no darshan-parser outputs in %s (%v)", dir, err)
	}
	for _, text := range texts {
		base := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(text), ".gz"), ".txt")
		t.Run(base, func(t *testing.T) {
			want := readDump(t, text)
			l, err := ReadFile(findLog(t, dir, base), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			got := dumpOf(l)
			dropKnownParserBugs(l, &want, &got)
			if diff := cmp.Diff(want.Header, got.Header); diff != "" {
				t.Errorf("header (-want +got):\n%s", diff)
			}
			approx := cmpopts.EquateApprox(1e-12, 1e-6) // %f prints 6 decimals
			if diff := cmp.Diff(want.Records, got.Records, approx); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
		})
	}
}

func findLog(t *testing.T, dir, base string) string {
	for _, sub := range []string{"corpus", "generated"} {
		p := filepath.Join(dir, "logs", sub, base)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Fatalf("no log %s for its darshan-parser output", base)
	return ""
}

// dropKnownParserBugs removes the values darshan-parser is known to
// print wrong: the variance of upgraded POSIX v3 records (printed 0), and
// in big-endian logs the three POSIX v<4 fcounters it leaves unswapped.
func dropKnownParserBugs(l *Log, want, got *dump) {
	posix := l.Module("POSIX")
	if posix == nil || posix.Version >= 4 {
		return
	}
	var bad []string
	if posix.Version == 3 {
		bad = append(bad, "POSIX_F_VARIANCE_RANK_TIME", "POSIX_F_VARIANCE_RANK_BYTES")
	}
	if l.BigEndian {
		bad = append(bad, "POSIX_F_META_TIME", "POSIX_F_MAX_READ_TIME", "POSIX_F_MAX_WRITE_TIME")
	}
	for _, d := range []*dump{want, got} {
		for _, r := range d.Records {
			if r.Module == "POSIX" {
				for _, name := range bad {
					delete(r.Floats, name)
				}
			}
		}
	}
}

func dumpOf(l *Log) dump {
	h := dumpHeader{
		Version: l.Version, Compression: l.Compression, Exe: l.Job.Exe,
		UID: l.Job.UID, JobID: l.Job.JobID, NProcs: l.Job.NProcs,
		StartSec: l.Job.Start.Unix(), EndSec: l.Job.End.Unix(),
		RunTime:  fmt.Sprintf("%.4f", l.Job.RunTime),
		Metadata: l.Job.Metadata,
		Mounts:   sortedMounts(l.Mounts),
	}
	var recs []dumpRecord
	for _, m := range l.Modules {
		h.Modules = append(h.Modules, dumpModule{m.Name, m.Size, m.Version, m.Partial})
		for _, r := range m.Records {
			recs = append(recs, dumpRecordOf(l, &m, &r))
		}
	}
	return dump{Header: h, Records: recs}
}

func dumpRecordOf(l *Log, m *Module, r *Record) dumpRecord {
	d := dumpRecord{Module: m.Name, Rank: r.Rank, ID: r.ID, Name: "(null)",
		Ints: map[string]int64{}, Floats: map[string]float64{}}
	if name, ok := l.Names[r.ID]; ok {
		d.Name = name
	}
	for i, c := range m.Counters {
		d.Ints[c] = r.Counters[i]
	}
	for i, c := range m.FCounters {
		d.Floats[c] = r.FCounters[i]
	}
	return d
}

func sortedMounts(ms []Mount) []Mount {
	s := slices.Clone(ms)
	slices.SortFunc(s, func(a, b Mount) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return strings.Compare(a.FSType, b.FSType)
	})
	return s
}

func readDump(t *testing.T, path string) dump {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	}
	d, err := parseDump(r)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return d
}

var (
	moduleLine  = regexp.MustCompile(`^# (\S+) module: (\d+) bytes \(compressed\), ver=(\d+)$`)
	partialLine = regexp.MustCompile(`^# \*WARNING\*: The (\S+) module contains incomplete data!$`)
)

func parseDump(r io.Reader) (dump, error) {
	d := dump{Header: dumpHeader{Metadata: map[string]string{}, Mounts: []Mount{}}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		var err error
		if strings.HasPrefix(line, "#") {
			err = d.headerLine(line)
		} else if line != "" {
			err = d.recordLine(line)
		}
		if err != nil {
			return d, fmt.Errorf("line %q: %w", line, err)
		}
	}
	d.Header.Mounts = sortedMounts(d.Header.Mounts)
	return d, sc.Err()
}

func (d *dump) headerLine(line string) error {
	h := &d.Header
	field := func(prefix string) (string, bool) { return strings.CutPrefix(line, prefix) }
	var err error
	if v, ok := field("# darshan log version: "); ok {
		h.Version = v
	} else if v, ok := field("# compression method: "); ok {
		h.Compression = strings.ToLower(v)
	} else if v, ok := field("# exe: "); ok {
		h.Exe = v
	} else if v, ok := field("# uid: "); ok {
		h.UID, err = strconv.ParseInt(v, 10, 64)
	} else if v, ok := field("# jobid: "); ok {
		h.JobID, err = strconv.ParseInt(v, 10, 64)
	} else if v, ok := field("# nprocs: "); ok {
		h.NProcs, err = strconv.ParseInt(v, 10, 64)
	} else if v, ok := field("# start_time: "); ok {
		h.StartSec, err = strconv.ParseInt(v, 10, 64)
	} else if v, ok := field("# end_time: "); ok {
		h.EndSec, err = strconv.ParseInt(v, 10, 64)
	} else if v, ok := field("# run time: "); ok {
		h.RunTime = v
	} else if v, ok := field("# metadata: "); ok {
		k, val, _ := strings.Cut(v, " = ")
		h.Metadata[k] = val
	} else if v, ok := field("# mount entry:\t"); ok {
		path, fsType, _ := strings.Cut(v, "\t")
		h.Mounts = append(h.Mounts, Mount{Path: path, FSType: fsType})
	} else if m := moduleLine.FindStringSubmatch(line); m != nil {
		size, _ := strconv.ParseInt(m[2], 10, 64)
		ver, _ := strconv.Atoi(m[3])
		h.Modules = append(h.Modules, dumpModule{Name: m[1], Size: size, Version: ver})
	} else if m := partialLine.FindStringSubmatch(line); m != nil {
		for i := range h.Modules {
			if h.Modules[i].Name == m[1] {
				h.Modules[i].Partial = true
			}
		}
	}
	return err
}

// recordLine reads "module rank id counter value file mount fstype" of a
// decoded module; a record starts at its module's first counter.
func (d *dump) recordLine(line string) error {
	f := strings.Split(line, "\t")
	if len(f) != 8 {
		return fmt.Errorf("%d fields, want 8", len(f))
	}
	id, ok := printedNames[f[0]]
	if !ok {
		return nil
	}
	kind := decodedKinds[id]
	if f[3] == kind.counters[0] {
		rank, err1 := strconv.ParseInt(f[1], 10, 64)
		rid, err2 := strconv.ParseUint(f[2], 10, 64)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("bad rank or record id")
		}
		d.Records = append(d.Records, dumpRecord{Module: f[0], Rank: rank, ID: rid, Name: f[5],
			Ints: map[string]int64{}, Floats: map[string]float64{}})
	}
	if len(d.Records) == 0 {
		return fmt.Errorf("counter before its record's first")
	}
	r := &d.Records[len(d.Records)-1]
	switch {
	case slices.Contains(kind.counters, f[3]):
		// RENAMED_FROM is a record id, printed unsigned.
		u, err := strconv.ParseUint(strings.TrimPrefix(f[4], "-"), 10, 64)
		if strings.HasPrefix(f[4], "-") {
			u = -u
		}
		r.Ints[f[3]] = int64(u)
		return err
	case slices.Contains(kind.fcounters, f[3]):
		v, err := strconv.ParseFloat(f[4], 64)
		r.Floats[f[3]] = v
		return err
	}
	return fmt.Errorf("unknown counter %q", f[3])
}
