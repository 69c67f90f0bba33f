package advice

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/iobench/iobench/workload"
)

// quarterCurve: 128 KiB and below at a quarter of the 400 MiB/s plateau,
// reached at 512 KiB; intervals 10% wide.
func quarterCurve() CostCurve {
	var pts []CurvePoint
	for s := int64(1 << 10); s <= 64<<20; s *= 2 {
		v := 400.0
		switch {
		case s <= 128<<10:
			v = 100
		case s == 256<<10:
			v = 200
		}
		pts = append(pts, CurvePoint{Size: s, MiBPerSec: v, Low: 0.95 * v, High: 1.05 * v})
	}
	return CostCurve{Points: pts, Recommended: 512 << 10, Fraction: 0.95, StdioBuffer: 4096}
}

func exactFile(path string, size, calls int64) workload.File {
	return workload.File{Path: path, Module: workload.ModulePOSIX, Writes: calls, Bytes: size * calls, Histogram: true,
		Sizes: []workload.SizeClass{{Low: size, High: size, Calls: calls}}}
}

var approx = cmpopts.EquateApprox(1e-9, 1e-12)

// libgfortran's 2048 calls of 128 KiB, at a quarter of the plateau, take
// 4x what they would in 512 KiB calls.
func TestCostOfCallsBelowTheKnee(t *testing.T) {
	in := workload.Input{Files: []workload.File{exactFile("/x/frec.bin", 128<<10, 2048)}}
	in.Files[0].WriteSeconds = 2.4
	c := EstimateCost([]workload.Input{in}, quarterCurve())
	f := c.Total
	want := Seconds{256.0 / 100, 256.0 / 105, 256.0 / 95}
	if diff := cmp.Diff(want, f.Now, approx); diff != "" {
		t.Errorf("now (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(Seconds{256.0 / 400, 256.0 / 420, 256.0 / 380}, f.AtRecommended, approx); diff != "" {
		t.Errorf("at 512 KiB (-want +got):\n%s", diff)
	}
	if g, lo, hi := f.Gain(); math.Abs(g-4) > 1e-9 || lo >= g || hi <= g {
		t.Errorf("gain %v (%v-%v), want 4 inside its interval", g, lo, hi)
	}
	if math.Abs(c.AccountsFor-2.56/2.4) > 1e-9 || f.EstimatedCalls != 2048 || f.OutsideCalls != 0 {
		t.Errorf("accounts for %v, %d calls estimated, %d outside", c.AccountsFor, f.EstimatedCalls, f.OutsideCalls)
	}
}

// Sizes the curve did not measure are counted apart, never extrapolated.
func TestSizesOutsideTheCurveAreNotEstimated(t *testing.T) {
	in := workload.Input{Files: []workload.File{exactFile("/x/a", 8, 1000), exactFile("/x/b", 1<<20, 10)}}
	in.Files[0].Sizes = append(in.Files[0].Sizes, workload.SizeClass{Low: 1<<30 + 1, High: math.MaxInt64, Calls: 1})
	in.Files[0].Writes++
	in.Files[0].Bytes += 2 << 30
	c := EstimateCost([]workload.Input{in}, quarterCurve())
	if c.Total.OutsideCalls != 1001 || c.Total.OutsideBytes != 8000+2<<30 || c.Total.EstimatedCalls != 10 {
		t.Errorf("outside %d calls %d bytes, estimated %d calls; want 1001, %d, 10", c.Total.OutsideCalls, c.Total.OutsideBytes, c.Total.EstimatedCalls, 8000+2<<30)
	}
	if got := c.Total.Now.Est; math.Abs(got-10.0/400) > 1e-9 {
		t.Errorf("now %v s, want the 10 MiB at 400 MiB/s only", got)
	}
}

// A bin's bytes are what the exact sizes leave of the file's total; its
// interval spans the throughput over the bin's sizes.
func TestABinTakesTheRestOfTheBytes(t *testing.T) {
	f := workload.File{Path: "/x/c", Module: workload.ModulePOSIX, Writes: 110, Bytes: 100*(1<<20) + 10*(200<<10), Histogram: true,
		Sizes: []workload.SizeClass{{Low: 102401, High: 1 << 20, Calls: 10, Bin: "100K_1M"}, {Low: 1 << 20, High: 1 << 20, Calls: 100}}}
	c := EstimateCost([]workload.Input{{Files: []workload.File{f}}}, quarterCurve())
	bin := c.Files[0].Classes[0]
	if bin.Bytes != 10*(200<<10) || bin.Outside {
		t.Fatalf("bin bytes %d (outside %v), want %d", bin.Bytes, bin.Outside, 10*(200<<10))
	}
	// 200 KiB lies between 128 KiB (100 MiB/s) and 256 KiB (200 MiB/s);
	// the bin's sizes run from 100 MiB/s to the plateau's 420 high end.
	if bin.Now.Low >= bin.Now.Est || bin.Now.High <= bin.Now.Est {
		t.Errorf("bin's estimate %+v is not inside its interval", bin.Now)
	}
	if lo := float64(10*(200<<10)) / (1 << 20) / 420; math.Abs(bin.Now.Low-lo) > 1e-9 {
		t.Errorf("bin low %v, want %v (its bytes at the fastest of its sizes)", bin.Now.Low, lo)
	}
}

// C stdio's write(2) calls are its buffer's: STDIO counts only fwrites.
func TestStdioCallsComeFromTheBuffer(t *testing.T) {
	f := workload.File{Path: "/x/d", Module: workload.ModuleSTDIO, Writes: 4 << 20, Bytes: 32 << 20}
	c := EstimateCost([]workload.Input{{Files: []workload.File{f}}}, quarterCurve())
	fc := c.Files[0]
	if fc.Basis != BasisStdio || len(fc.Classes) != 1 || fc.Classes[0].Low != 4096 || fc.Classes[0].Calls != 8192 {
		t.Errorf("stdio file %+v, want 8192 calls of the 4096-byte buffer", fc)
	}
}

// The write(2) layer of a path is its POSIX record, not its MPI-IO one.
func TestMPIIOWrittenThroughPOSIXCountsOnce(t *testing.T) {
	posix := exactFile("/x/e", 1<<20, 64)
	mpiio := posix
	mpiio.Module = workload.ModuleMPIIO
	c := EstimateCost([]workload.Input{{Files: []workload.File{mpiio, posix}}}, quarterCurve())
	if len(c.Files) != 1 || c.Files[0].Module != workload.ModulePOSIX {
		t.Errorf("files %+v, want the POSIX one alone", c.Files)
	}
}

// Drishti flags 1 MiB writes as small; on a curve where they are on the
// plateau, the estimate disagrees. 128 KiB ones it agrees with.
func TestSmallWritesAgainstTheCurve(t *testing.T) {
	for _, tc := range []struct {
		size            int64
		flagged, agrees bool
	}{{1 << 20, true, false}, {128 << 10, true, true}, {4 << 20, false, false}} {
		c := EstimateCost([]workload.Input{{Files: []workload.File{exactFile("/x/f", tc.size, 5000)}}}, quarterCurve())
		if c.Small.Flagged != tc.flagged || c.Small.Agrees != tc.agrees {
			t.Errorf("%d-byte writes: flagged %v agrees %v, want %v %v", tc.size, c.Small.Flagged, c.Small.Agrees, tc.flagged, tc.agrees)
		}
	}
}

func TestRuntimesOfTheProgram(t *testing.T) {
	gf := exactFile("/x/g", GfortranUnformattedDefault, 2048)
	stdio := workload.File{Path: "/x/h", Module: workload.ModuleSTDIO, Writes: 10, Bytes: 80}
	mpi := workload.File{Path: "/lus/i", Module: workload.ModuleMPIIO, Writes: 30, CollectiveWrites: 20, IndependentWrites: 10, FSType: "lustre", Mount: "/lus"}
	ev := RuntimesOf([]workload.Input{{Files: []workload.File{gf, stdio, mpi}, Present: []string{"POSIX", "MPI-IO", "H5F"}}}, ProgramFacts{})
	var got []string
	for _, e := range ev {
		got = append(got, e.Runtime)
	}
	if diff := cmp.Diff([]string{RuntimeLibgfortran, RuntimeStdio, RuntimeROMIO, RuntimeOMPIO, RuntimeHDF5, RuntimeLustre}, got); diff != "" {
		t.Errorf("runtimes (-want +got):\n%s", diff)
	}
	rows := []Apply{{Runtime: RuntimeLibgfortran}, {Runtime: RuntimeIntel}, {Runtime: RuntimeHDF5}}
	if got := ApplyFor(rows, ev); len(got) != 2 || got[0].Runtime != RuntimeLibgfortran || got[1].Runtime != RuntimeHDF5 {
		t.Errorf("ApplyFor kept %v, want the libgfortran and HDF5 rows", got)
	}
	plain := RuntimesOf([]workload.Input{{Files: []workload.File{exactFile("/x/j", 4096, 10)}}}, ProgramFacts{})
	if len(plain) != 0 || len(ApplyFor(rows, plain)) != 0 {
		t.Errorf("plain write(2) calls gave evidence %v", plain)
	}
}
