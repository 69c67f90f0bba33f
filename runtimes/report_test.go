package runtimes

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseReport(t *testing.T) {
	tests := []struct {
		file    string
		want    Report
		wantErr string
	}{
		{file: "gfortran-big-endian.txt", want: Report{Nanos: 113261200, Calls: 64, Written: 67108864, Bytes: 67108864, Elements: 8388608, Convert: "BIG_ENDIAN"}},
		{file: "stdio-native.txt", want: Report{Nanos: 22026814, Calls: 2, Written: 67108864, Bytes: 67108864, Elements: 8388608, Convert: "NATIVE"}},
		// Runtime warnings before the line and an unknown field are skipped;
		// -1 says /proc/self/io could not be read.
		{file: "no-proc-io.txt", want: Report{Nanos: 5, Calls: -1, Written: -1, Bytes: 8, Elements: 1, Convert: "LITTLE_ENDIAN"}},
		// The MPI-IO writer's line: the span of all ranks, the slowest
		// rank's own, the calls at open, the packing time and each rank's calls.
		{file: "mpiio-shared.txt", want: Report{Nanos: 120000000, Calls: 70, Written: 201326592, Bytes: 201326592, Elements: 50331648, Convert: "native",
			OverheadCalls: 6, OverheadBytes: 12, PackNanos: 3000000, SlowestNanos: 110000000, RankCalls: []int64{24, 23, 23}}},
		{file: "missing-convert.txt", wantErr: "has no convert"},
		{file: "negative-slowest.txt", wantErr: `slowest_ns="-1" is out of range`},
		{file: "no-report.txt", wantErr: `no report line (elapsed_ns=...) in the writer's output "Cannot open file: File exists\n"`},
		{file: "negative-calls.txt", wantErr: "syscw=-2 is out of range"},
		{file: "duplicate.txt", wantErr: `report field "syscw" appears twice`},
		{file: "float-ns.txt", wantErr: `elapsed_ns="5.5" is not an integer`},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			in, err := os.ReadFile(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			got, err := ParseReport(in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ParseReport error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseReport (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBoundedCutsLongOutput(t *testing.T) {
	long := strings.Repeat("x", 3*maxQuoted)
	if got := bounded([]byte(long)); len(got) != maxQuoted+3 {
		t.Errorf("bounded kept %d bytes, want %d", len(got), maxQuoted+3)
	}
	var c cappedBuffer
	big := make([]byte, 2*maxOutput)
	if n, err := c.Write(big); err != nil || n != len(big) {
		t.Fatalf("cappedBuffer.Write = %d, %v; want all of it taken", n, err)
	}
	if len(c.Bytes()) != maxOutput {
		t.Errorf("cappedBuffer kept %d bytes, want %d", len(c.Bytes()), maxOutput)
	}
}
