package advice

import (
	"strings"
	"testing"

	"github.com/iobench/iobench/workload"
)

func callsFile(sizes ...int64) workload.File {
	f := workload.File{Path: "out.dat", Module: workload.ModuleStrace, Histogram: true}
	for i := 0; i+1 < len(sizes); i += 2 {
		f.Sizes = append(f.Sizes, workload.SizeClass{Low: sizes[i], High: sizes[i], Calls: sizes[i+1]})
		f.Writes += sizes[i+1]
		f.Bytes += sizes[i] * sizes[i+1]
	}
	return f
}

// The sizes are gfortran 12's, measured: 64-byte records (72 with their
// markers) with the default buffer, 1 KiB records, a 1 MiB buffer, and
// stream access.
func TestRecogniseGfortran(t *testing.T) {
	tests := []struct {
		name   string
		f      workload.File
		buffer int64
		access string
		knob   int64 // the knob's value for calls of 1 MiB
	}{
		{"64-byte records", callsFile(65592, 9200, 1000, 1), 131072, AccessSequential, 2 << 20},
		{"1 KiB records", callsFile(66048, 500), 131072, AccessSequential, 2 << 20},
		{"1 MiB buffer", callsFile(524304, 1100, 4000, 1), 1 << 20, AccessSequential, 2 << 20},
		{"stream", callsFile(131072, 4000, 77, 1), 131072, AccessStream, 1 << 20},
		{"not gfortran's", callsFile(4096, 9000), 131072, "", 0},
		{"no dominant size", callsFile(65592, 10, 4096, 11, 8192, 12), 131072, "", 0},
	}
	for _, tt := range tests {
		b, ok := RecogniseGfortran(tt.f, tt.buffer)
		if ok != (tt.access != "") || b.Access != tt.access {
			t.Errorf("%s: access %q ok %v, want %q", tt.name, b.Access, ok, tt.access)
			continue
		}
		if ok && b.KnobFor(1<<20) != tt.knob {
			t.Errorf("%s: KnobFor(1 MiB) = %d, want %d", tt.name, b.KnobFor(1<<20), tt.knob)
		}
	}
}

func TestRecogniseGfortranDefaultFromSizesAlone(t *testing.T) {
	if _, ok := RecogniseGfortranDefault(callsFile(65592, 9200)); !ok {
		t.Error("65,592-byte calls are libgfortran's sequential default")
	}
	if _, ok := RecogniseGfortranDefault(callsFile(65536, 9200)); ok {
		t.Error("64 KiB calls could be any program's: not recognised from sizes alone")
	}
	in := []workload.Input{{Files: []workload.File{callsFile(65592, 9200)}}}
	ev := RuntimesOf(in, ProgramFacts{})
	if len(ev) == 0 || ev[0].Runtime != RuntimeLibgfortran {
		t.Errorf("RuntimesOf = %v, want libgfortran from the 65,592-byte calls", ev)
	}
}

func TestRecogniseStdio(t *testing.T) {
	if b, ok := RecogniseStdio(callsFile(4096, 131072), 4096, "prog imports fopen and fwrite"); !ok || b.KnobFor(32768) != 32768 {
		t.Errorf("4 KiB calls on a 4 KiB st_blksize: %v %v", b, ok)
	}
	if _, ok := RecogniseStdio(callsFile(65592, 100), 4096, "prog imports fopen and fwrite"); ok {
		t.Error("65,592-byte calls are not stdio's")
	}
	if b, ok := RecogniseStdio(callsFile(4096, 131072), 4096, ""); ok {
		t.Errorf("4 KiB calls of a program not shown to write through stdio: %+v", b)
	}
}

func TestLinkedRuntimesAreEvidence(t *testing.T) {
	ev := RuntimesOf(nil, ProgramFacts{Linked: map[string]string{RuntimeStdio: "loaded libc.so.6"}})
	if len(ev) != 1 || ev[0].Why != "loaded libc.so.6" {
		t.Errorf("RuntimesOf = %v", ev)
	}
}

// A program whose sequential records go out in 65,592-byte calls gets
// one unformatted row, twice the recommended size.
func TestForBehaviours(t *testing.T) {
	rows := []Apply{
		{Runtime: RuntimeLibgfortran, Setting: "GFORTRAN_UNFORMATTED_BUFFER_SIZE", Value: "131072"},
		{Runtime: RuntimeLibgfortran, Setting: "GFORTRAN_UNFORMATTED_BUFFER_SIZE", Value: "262144"},
		{Runtime: RuntimeLibgfortran, Setting: "GFORTRAN_FORMATTED_BUFFER_SIZE", Value: "8192"},
	}
	seq := Behaviour{Path: "out.dat", Runtime: RuntimeLibgfortran, Knob: "GFORTRAN_UNFORMATTED_BUFFER_SIZE", Buffer: 131072, Access: AccessSequential, Call: 65592}
	got := ForBehaviours(rows, []Behaviour{seq}, 1<<20)
	if len(got) != 2 || got[0].Value != "2097152" || got[1].Setting != "GFORTRAN_FORMATTED_BUFFER_SIZE" {
		t.Errorf("sequential at 1 MiB: %+v, want one unformatted row of 2097152 and the formatted row", got)
	}
	stream := seq
	stream.Access, stream.Call = AccessStream, 131072
	if got := ForBehaviours(rows, []Behaviour{stream}, 64<<10); got[0].Value != "131072" || !strings.Contains(got[0].Comment, "no change") {
		t.Errorf("stream at 64 KiB: %+v, want the 131072 buffer kept", got[0])
	}
	if got := ForBehaviours(rows, nil, 1<<20); len(got) != 3 {
		t.Errorf("no behaviour: %d rows, want the 3 given", len(got))
	}
}

// 4 KiB pwrite calls are a program's or MPI-IO's own, not stdio's.
func TestRecogniseStdioNotPwrite(t *testing.T) {
	f := callsFile(4096, 100)
	if _, ok := RecogniseStdio(f, 4096, "fwrite"); !ok {
		t.Fatal("4 KiB write calls: want stdio")
	}
	f.Syscalls = map[string]int64{"pwrite64": 100}
	if b, ok := RecogniseStdio(f, 4096, "fwrite"); ok {
		t.Errorf("4 KiB pwrite64 calls read as stdio: %+v", b)
	}
}

// The independent case is what Open MPI 4.1 gave on this project's
// machine for examples/mpiio-records.c (and for its write_at_all form):
// 4096-byte pwrite64 calls through both components.
func TestRecogniseMPIIO(t *testing.T) {
	pw := func(f workload.File) workload.File {
		f.Syscalls = map[string]int64{"pwrite64": f.Writes}
		return f
	}
	tests := []struct {
		name, runtime string
		f             workload.File
		collective    int64
		access, knob  string
	}{
		{"ROMIO collective", RuntimeROMIO, pw(callsFile(16<<20, 30, 4096, 2)), 16 << 20, AccessCollective, "cb_buffer_size (ROMIO hint)"},
		{"OMPIO collective", RuntimeOMPIO, pw(callsFile(32<<20, 8)), 32 << 20, AccessCollective, SettingBytesPerAgg},
		{"independent 4 KiB", RuntimeOMPIO, pw(callsFile(4096, 16384)), 32 << 20, AccessIndependent, "the program's own MPI-IO call size"},
		{"write(2), not MPI-IO", RuntimeROMIO, callsFile(16<<20, 30), 16 << 20, "", ""},
		{"no dominant size", RuntimeROMIO, pw(callsFile(4096, 10, 8192, 11, 16384, 12)), 16 << 20, "", ""},
	}
	for _, tt := range tests {
		b, ok := RecogniseMPIIO(tt.f, tt.runtime, tt.collective)
		if ok != (tt.access != "") || b.Access != tt.access || b.Knob != tt.knob {
			t.Errorf("%s: got %+v, %v; want access %q, knob %q", tt.name, b, ok, tt.access, tt.knob)
		}
		if ok && b.Runtime != tt.runtime {
			t.Errorf("%s: runtime %q, want %q", tt.name, b.Runtime, tt.runtime)
		}
	}
	if MPIIOCollectiveDefault(RuntimeOMPIO) != 32<<20 || MPIIOCollectiveDefault(RuntimeROMIO) != 16<<20 {
		t.Error("collective defaults: want OMPIO's 32 MiB bytes_per_agg and ROMIO's 16 MiB cb_buffer_size")
	}
}
