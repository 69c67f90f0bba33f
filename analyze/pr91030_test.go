package analyze_test

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/iobench/iobench/analyze"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
)

const mib = 1 << 20

// approx compares throughputs and times derived through a division.
var approx = cmpopts.EquateApprox(1e-12, 0)

func parse(t *testing.T, name, text string) *analyze.Input {
	t.Helper()
	in, err := analyze.Parse(name, strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func TestPR91030Units(t *testing.T) {
	// N = 2^20 doubles: bs 1024 divides it, so no overrun.
	in := parse(t, "out.txt", "Test using 1.048576e+06 doubles\n"+
		"Block size of file system: 4096\n"+
		"bs =       1024, 100.00 MiB/s\n")
	if in.Format != analyze.FormatPR91030 || in.Name != "out.txt" {
		t.Errorf("format %q, name %q", in.Format, in.Name)
	}
	wantOrig := []analyze.OriginalRow{{BS: 1024, MiBPerSec: 100, WriteSize: 8192, TrueMiBPerSec: 800, Round: 1}}
	if diff := cmp.Diff(wantOrig, in.Original); diff != "" {
		t.Errorf("Original (-want +got):\n%s", diff)
	}
	// 8 MiB at 800 MiB/s: 1/100 s, in 1024 calls of 8 KiB.
	wantSample := record.Sample{
		Run:     record.Run{Mode: record.ModeWrite, WriteSize: 8192, Round: 1, Seq: 1},
		Seconds: 0.01, Bytes: 8 * mib, Calls: 1024,
	}
	wantRows := []record.SizeResult{{
		Mode: record.ModeWrite, WriteSize: 8192, MiBPerSec: 800, CILow: 800, CIHigh: 800, MinMiBPerSec: 800, MaxMiBPerSec: 800,
		WriteCalls: 1024, Samples: []record.Sample{wantSample},
	}}
	if diff := cmp.Diff(wantRows, in.Report.Results, approx); diff != "" {
		t.Errorf("Results (-want +got):\n%s", diff)
	}
	wantConfig := report.Config{
		Settings: record.Settings{Count: 1 << 20, Sizes: []int64{8192}, Source: "array", Sync: "sync", Repeat: 1,
			Order: "ascending", Stride: 1, Mode: "write"},
		ElementType: "float64", ElementSize: 8, TotalBytes: 8 * mib, SourceBytes: 8 * mib,
		Clock: "gettimeofday, a wall clock", Convert: "native",
	}
	if diff := cmp.Diff(wantConfig, in.Report.Config); diff != "" {
		t.Errorf("Config (-want +got):\n%s", diff)
	}
	if in.Report.FS.BlockSize != 4096 {
		t.Errorf("FS.BlockSize = %d, want 4096", in.Report.FS.BlockSize)
	}
	if !hasNote(in, "units converted") || hasNote(in, "last write") {
		t.Errorf("notes: %q; want the unit note and no overrun note", in.Notes)
	}
}

func hasNote(in *analyze.Input, part string) bool {
	for _, n := range in.Notes {
		if strings.Contains(n, part) {
			return true
		}
	}
	return false
}

func TestPR91030(t *testing.T) {
	tests := []struct {
		name      string
		text      string
		wantRows  []record.SizeResult // Mode, WriteSize, MiBPerSec, Min, Max compared
		wantNotes []string            // substrings
		repeat    int
	}{{
		name: "overrun: bs does not divide N",
		text: "Test using 2.500000e+08 doubles\nBlock size of file system: 4096\n" +
			"bs =       1024, 12.50 MiB/s\nbs =   67108864, 125.00 MiB/s\n",
		wantRows: []record.SizeResult{
			{WriteSize: 8 << 10, MiBPerSec: 100, MinMiBPerSec: 100, MaxMiBPerSec: 100},
			{WriteSize: 512 << 20, MiBPerSec: 1000, MinMiBPerSec: 1000, MaxMiBPerSec: 1000},
		},
		wantNotes: []string{"units converted", "last write passes bs*8 bytes", "without fsync"},
		repeat:    1,
	}, {
		name: "two runs are two rounds; CRLF, blank lines and a BOM are fine",
		text: "\xef\xbb\xbfTest using 1.048576e+06 doubles\r\nBlock size of file system: 4096\r\n" +
			"bs =       1024, 10.00 MiB/s\r\nbs =       2048, 20.00 MiB/s\r\n\r\n" +
			"Test using 1.048576e+06 doubles\nBlock size of file system: 4096\n" +
			"bs =       1024, 30.00 MiB/s\nbs =       2048, 40.00 MiB/s\n",
		wantRows: []record.SizeResult{
			{WriteSize: 8 << 10, MiBPerSec: 160, MinMiBPerSec: 80, MaxMiBPerSec: 240},
			{WriteSize: 16 << 10, MiBPerSec: 240, MinMiBPerSec: 160, MaxMiBPerSec: 320},
		},
		wantNotes: []string{"2 runs of the program in this file, taken as 2 rounds"},
		repeat:    2,
	}, {
		name: "a size twice in one run is kept twice",
		text: "Test using 1.048576e+06 doubles\nbs =       1024, 10.00 MiB/s\nbs =       1024, 20.00 MiB/s\n",
		wantRows: []record.SizeResult{
			{WriteSize: 8 << 10, MiBPerSec: 120, MinMiBPerSec: 80, MaxMiBPerSec: 160},
		},
		wantNotes: []string{"more than once within one run"},
		repeat:    1,
	}, {
		name: "runs with different N and block sizes",
		text: "Test using 1.048576e+06 doubles\nBlock size of file system: 4096\nbs =       1024, 10.00 MiB/s\n" +
			"Test using 2.097152e+06 doubles\nBlock size of file system: 1048576\nbs =       1024, 10.00 MiB/s\n",
		wantRows: []record.SizeResult{
			{WriteSize: 8 << 10, MiBPerSec: 80, MinMiBPerSec: 80, MaxMiBPerSec: 80},
		},
		wantNotes: []string{"different N", "different block sizes"},
		repeat:    2,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := parse(t, "out.txt", tt.text)
			var got []record.SizeResult
			for _, r := range in.Report.Results {
				got = append(got, record.SizeResult{WriteSize: r.WriteSize, MiBPerSec: r.MiBPerSec, MinMiBPerSec: r.MinMiBPerSec, MaxMiBPerSec: r.MaxMiBPerSec})
			}
			if diff := cmp.Diff(tt.wantRows, got, approx); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
			for _, n := range tt.wantNotes {
				if !hasNote(in, n) {
					t.Errorf("no note with %q in %q", n, in.Notes)
				}
			}
			if in.Report.Config.Repeat != tt.repeat {
				t.Errorf("Repeat = %d, want %d", in.Report.Config.Repeat, tt.repeat)
			}
		})
	}
}

func TestPR91030Errors(t *testing.T) {
	const head = "Test using 2.500000e+08 doubles\nBlock size of file system: 4096\n"
	tests := []struct {
		name, text, want string
	}{
		{"bs not a number", head + "bs =          x, 1.00 MiB/s\n",
			`analyze: results.txt:3: bs: "x" is not a whole number of doubles from 1 to 2^40`},
		{"bs zero", head + "bs =          0, 1.00 MiB/s\n",
			`analyze: results.txt:3: bs: "0" is not a whole number of doubles from 1 to 2^40`},
		{"MiB/s not a number", head + "bs =       1024, fast MiB/s\n",
			`analyze: results.txt:3: MiB/s: "fast" is not a finite number`},
		{"no unit", head + "bs =       1024, 1.00\n",
			`analyze: results.txt:3: "1.00" is not "<number> MiB/s"`},
		{"inf from a zero time", head + "bs =       1024, inf MiB/s\n",
			`analyze: results.txt:3: MiB/s: "inf": the run took less than the timer's resolution; use a larger N`},
		{"zero", head + "bs =       1024, 0.00 MiB/s\n",
			`analyze: results.txt:3: MiB/s: "0.00" is below 0.01: too slow to time from the printed figure`},
		{"negative from a clock step", head + "bs =       1024, -5.00 MiB/s\n",
			`analyze: results.txt:3: MiB/s: "-5.00" is below 0.01: too slow to time from the printed figure`},
		{"cut line", head + "bs =       1024, 1.00 MiB/s\nbs =       2048, ",
			`analyze: results.txt:4: "bs =       2048," has no MiB/s figure: the reference program stopped during this run`},
		{"open failed, 2>&1", head + "bs =       1024, Open of out.dat failed: Permission denied\n",
			`analyze: results.txt:3: the reference program failed: "Open of out.dat failed: Permission denied"`},
		{"open failed first, stdout buffered", "Open of out.dat failed: No space left on device\n" + head + "bs =       1024, \n",
			`analyze: results.txt:1: the reference program failed: "Open of out.dat failed: No space left on device"`},
		{"bad N", "Test using lots of doubles\n",
			`analyze: results.txt:1: "Test using lots of doubles" is not "Test using <N> doubles"`},
		{"fractional N", "Test using 1.5 doubles\n",
			`analyze: results.txt:1: N: "1.5" is not a whole number of doubles from 1 to 2^40`},
		{"huge N", "Test using 1e300 doubles\n",
			`analyze: results.txt:1: N: "1e300" is not a whole number of doubles from 1 to 2^40`},
		{"bad block size", "Test using 1e6 doubles\nBlock size of file system: -1\n",
			`analyze: results.txt:2: block size: "-1" is not a positive whole number`},
		{"stray line", head + "real\t0m3.2s\n",
			`analyze: results.txt:3: unexpected line "real\t0m3.2s"`},
		{"nothing measured", head,
			`analyze: results.txt: no "bs = ..., ... MiB/s" lines: nothing was measured`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkError(t, "results.txt", tt.text, tt.want)
		})
	}
}

// checkError parses text and wants a *ParseError with the message want.
func checkError(t *testing.T, name, text, want string) {
	t.Helper()
	in, err := analyze.Parse(name, strings.NewReader(text))
	if err == nil {
		t.Fatalf("no error; got %d rows", len(in.Report.Results))
	}
	var pe *analyze.ParseError
	if !asParseError(err, &pe) {
		t.Errorf("error %T is not a *ParseError", err)
	}
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("error (-want +got):\n%s", diff)
	}
}

// A real paste: a shell prompt, blank lines, no "Test using" header. It
// converts anyway (MiB/s needs no N) and says what is unknown.
func TestPR91030RealPaste(t *testing.T) {
	paste := "user@n1:~/pr91030$ ./a.out\n\nBlock size of file system: 4096\nbs =       1024, 100.00 MiB/s\n\n" +
		"bs =       2048, 180.00 MiB/s\nbs =       4096, 300.00 MiB/s\n$ \n"
	in, err := analyze.Parse("paste.txt", strings.NewReader(paste))
	if err != nil {
		t.Fatal(err)
	}
	rows := in.Report.Results
	if len(rows) != 3 || rows[0].WriteSize != 8192 || math.Abs(rows[0].MiBPerSec-800) > 1e-9 || math.Abs(rows[2].MiBPerSec-2400) > 1e-9 {
		t.Errorf("rows %+v: want 8 KiB at 800 MiB/s .. 32 KiB at 2400 MiB/s", rows)
	}
	notes := strings.Join(in.Notes, "\n")
	for _, want := range []string{"N is unknown", "assume the program's default N = 250000000", "shell prompt lines in the paste were skipped"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
}
