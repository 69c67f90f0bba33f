package advice

import (
	"strings"
	"testing"
)

// The call sizes gfortran 12 made here: whole records with their 8
// bytes of markers (lines, for formatted output) reaching half the
// buffer.
func TestGfortranSequentialCall(t *testing.T) {
	for _, tc := range []struct{ buffer, record, marker, want int64 }{
		{131072, 64, GfortranMarkers, 65592}, // 911 x 72
		{131072, 1024, GfortranMarkers, 66048},
		{1 << 20, 64, GfortranMarkers, 524304},
		{131072, 8, GfortranMarkers, 65536}, // 16-byte records reach half exactly
		{8192, 53, 0, 4134},                 // 78 lines of 53 bytes
		{8192, 64, 0, 4096},
	} {
		if got := GfortranSequentialCall(tc.buffer, tc.record, tc.marker); got != tc.want {
			t.Errorf("GfortranSequentialCall(%d, %d, %d) = %d, want %d", tc.buffer, tc.record, tc.marker, got, tc.want)
		}
	}
}

// Sequential calls are recognised when whole records explain them, and
// the record length is said when the last flush pins it down.
func TestRecogniseGfortranRecords(t *testing.T) {
	tests := []struct {
		name   string
		calls  []int64
		buffer int64
		ok     bool
		record int64 // 0: the calls do not tell it
	}{
		{"64-byte records, 13 left for the last flush", []int64{65592, 9200, 13 * 72, 1}, 131072, true, 64},
		{"1 KiB records: 64 of 1 KiB or 128 of 508 bytes", []int64{66048, 500, 10 * 1032, 1}, 131072, true, 0},
		{"64-byte records, 1 MiB buffer", []int64{524304, 1100}, 1 << 20, true, 0},
		{"a prime: no records make it", []int64{65537, 9000}, 131072, false, 0},
		{"under half the buffer", []int64{65000, 9000}, 131072, false, 0},
	}
	for _, tt := range tests {
		b, ok := RecogniseGfortran(callsFile(tt.calls...), tt.buffer)
		if ok != tt.ok || b.Record != tt.record {
			t.Errorf("%s: ok %v record %d, want %v, %d (%+v)", tt.name, ok, b.Record, tt.ok, tt.record, b)
		}
		if ok && GfortranSequentialCall(tt.buffer, 64, GfortranMarkers) == b.Call && tt.record == 64 && !strings.Contains(b.Why, "911 records of 64 bytes (72 with their markers)") {
			t.Errorf("%s: why %q", tt.name, b.Why)
		}
	}
}

// Formatted output flushes at whole lines reaching half the 8 KiB
// formatted buffer: its own knob, not the unformatted one.
func TestRecogniseGfortranFormatted(t *testing.T) {
	f := callsFile(4134, 256, 1696, 1) // 20,000 lines of 53 bytes, measured: or 10,000 of 106
	b, ok := RecogniseGfortranFormatted(f, GfortranFormattedDefault)
	if !ok || b.Knob != KnobFormatted || b.Access != AccessSequential || b.KnobFor(1<<20) != 2<<20 || !strings.Contains(b.Why, "whole number of lines") {
		t.Fatalf("formatted: %+v, %v; want sequential lines, its knob", b, ok)
	}
	if b, ok := RecogniseGfortranFormatted(callsFile(4134, 256, 53, 1), GfortranFormattedDefault); !ok || b.Record != 53 {
		t.Errorf("a last flush of one line: %+v, want 53-byte lines", b)
	}
	if _, ok := RecogniseGfortran(f, GfortranUnformattedDefault); ok {
		t.Error("4,134-byte calls read as the unformatted buffer's")
	}
	rows := []Apply{{Runtime: RuntimeLibgfortran, Setting: KnobUnformatted, Value: "131072"}, {Runtime: RuntimeLibgfortran, Setting: KnobFormatted, Value: "8192"}}
	got := ForBehaviours(rows, []Behaviour{b}, 1<<20)
	if len(got) != 2 || got[0].Value != "131072" || got[1].Setting != KnobFormatted || got[1].Value != "2097152" || !strings.Contains(got[1].Comment, "formatted sequential") {
		t.Errorf("rows %+v: want the formatted row at twice 1 MiB, the unformatted kept", got)
	}
}
