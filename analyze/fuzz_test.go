package analyze_test

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/iobench/iobench/analyze"
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/render"
)

// fuzzSeeds are edge cases beside the testdata files.
var fuzzSeeds = []string{
	"",
	"{",
	"{}",
	`{"tool":{"name":"iobench"},"results":[]}`,
	`{"tool":{"name":"iobench"},"results":[{"mode":"write","write_size":8,"mib_per_s":1e9}]}`,
	`{"tool":{"name":"iobench"},"results":[{"mode":"read","write_size":8,"mib_per_s":1,"convert_mib_per_s":5,` +
		`"samples":[{"mode":"read","write_size":8,"seconds":1,"bytes":1048576}]}]}`,
	"write_size\n",
	"write_size,mib_per_s\n8,1e9\n8,1e9\n",
	"write_size,seconds,bytes\n1,5e-324,9223372036854775807\n",
	"mode,write_size,round,seq,mib_per_s\nread,9223372036854775807,9223372036854775807,-1,0\n",
	"Test using 1.099512e+12 doubles\nbs = 1099511627776, 0.01 MiB/s\n",
	"Test using 1 doubles\nbs = 1, 125000000.00 MiB/s\n",
	"bs =       1024, \n",
	"\xef\xbb\xbfTest using 1e6 doubles\r\nbs =       1024, 1.00 MiB/s\r\n",
}

func FuzzParse(f *testing.F) {
	files, err := filepath.Glob("testdata/*")
	if err != nil {
		f.Fatal(err)
	}
	for _, path := range files {
		if st, err := os.Stat(path); err != nil || st.IsDir() {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(fuzzParse)
}

// fuzzParse: Parse never panics; it either fails with a ParseError or
// returns something every later step can use.
func fuzzParse(t *testing.T, data []byte) {
	in, err := analyze.Parse("fuzz", bytes.NewReader(data))
	if err != nil {
		checkFuzzError(t, err)
		return
	}
	checkFuzzInput(t, in)
}

// checkFuzzError: every content error is a *ParseError naming the file.
func checkFuzzError(t *testing.T, err error) {
	var pe *analyze.ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %T is not a *ParseError: %v", err, err)
	}
	if pe.File != "fuzz" || pe.Line < 0 || pe.Msg == "" {
		t.Fatalf("malformed ParseError %#v", pe)
	}
}

// checkFuzzInput: what Parse accepts can be summarized, knee-found and
// written in every format without error.
func checkFuzzInput(t *testing.T, in *analyze.Input) {
	if in.Report == nil || len(in.Report.Results) == 0 {
		t.Fatalf("accepted input without results: %+v", in)
	}
	for _, r := range in.Report.Results {
		if r.WriteSize <= 0 || math.IsNaN(r.MiBPerSec) || math.IsInf(r.MiBPerSec, 0) || r.MiBPerSec < 0 {
			t.Fatalf("bad row %+v", r)
		}
	}
	rep := *in.Report
	rep.SetResult(in.Result())
	if diff := cmp.Diff(curves(in.Report), curves(&rep), cmpopts.EquateApprox(1e-9, 0)); diff != "" {
		t.Fatalf("SetResult(Result()) changed the curves (-want +got):\n%s", diff)
	}
	for _, w := range []render.Reporter{render.JSON, render.CSV} {
		if err := w(io.Discard, &rep); err != nil {
			t.Fatalf("accepted input cannot be reported: %v", err)
		}
	}
}

func curves(rep *report.Report) [][]knee.Point {
	return [][]knee.Point{medianCurve(rep.Results, record.ModeWrite), medianCurve(rep.Results, record.ModeRead)}
}
