package iobench

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"

	"github.com/iobench/iobench/convert"
	"github.com/iobench/iobench/internal/testkit/testwait"
)

func smallConfig() Config {
	c := DefaultConfig()
	c.Count = 1000 // 8000 bytes of float64
	c.Sizes = []int64{1024, 4096}
	c.Sync = SyncNone
	c.Warmup = false
	return c
}

func runMem(t *testing.T, c Config, m *memFS) (*Result, error) {
	t.Helper()
	r := &Runner{Config: c, FS: m}
	return r.Run(context.Background())
}

// float64s decodes native-order float64 values.
func float64s(b []byte) []float64 {
	out := make([]float64, len(b)/8)
	for i := range out {
		out[i] = math.Float64frombits(binary.NativeEndian.Uint64(b[8*i:]))
	}
	return out
}

func seq(n int, f func(i int) float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

func TestRunWritesTheDataOncePerSizeAndRemovesFiles(t *testing.T) {
	m := newMemFS()
	res, err := runMem(t, smallConfig(), m)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Samples) != 2 {
		t.Fatalf("got %d samples, want 2", len(res.Samples))
	}
	wantCalls := map[int64]int64{1024: 8, 4096: 2} // 8000 B: the last call is shorter
	for _, s := range res.Samples {
		if s.Bytes != 8000 || s.Calls != wantCalls[s.WriteSize] || s.Seconds <= 0 {
			t.Errorf("size %d: bytes %d calls %d seconds %v; want 8000 bytes, %d calls, >0 s", s.WriteSize, s.Bytes, s.Calls, s.Seconds, wantCalls[s.WriteSize])
		}
	}
	want := seq(1000, func(i int) float64 { return float64(i) })
	for name, data := range m.closed {
		if diff := cmp.Diff(want, float64s(data)); diff != "" {
			t.Errorf("%s content (-want +got):\n%s", name, diff)
		}
	}
	if left := m.names(); len(left) != 0 {
		t.Errorf("files left behind: %v", left)
	}
}

func TestShortWritesAndEINTRAreRetriedAndCounted(t *testing.T) {
	m := newMemFS()
	m.shortEvery, m.eintrEvery = 3, 5
	res, err := runMem(t, smallConfig(), m)
	if err != nil {
		t.Fatal(err)
	}
	var short, eintr int64
	for _, s := range res.Samples {
		if s.Bytes != 8000 {
			t.Errorf("size %d wrote %d bytes, want 8000", s.WriteSize, s.Bytes)
		}
		short += s.ShortWrites
		eintr += s.EINTR
	}
	if short == 0 || eintr == 0 {
		t.Errorf("short writes %d, EINTR retries %d: want both counted", short, eintr)
	}
	for name, data := range m.closed {
		if diff := cmp.Diff(seq(1000, func(i int) float64 { return float64(i) }), float64s(data)); diff != "" {
			t.Errorf("%s content (-want +got):\n%s", name, diff)
		}
	}
}

func TestNoSpaceKeepsEarlierResultsAndRemovesTheFile(t *testing.T) {
	m := newMemFS()
	m.failAfter, m.failErr = 8000+3000, unix.ENOSPC // the second run fails
	res, err := runMem(t, smallConfig(), m)
	var re *RunError
	if !errors.As(err, &re) || !errors.Is(err, unix.ENOSPC) {
		t.Fatalf("err = %v, want a RunError wrapping ENOSPC", err)
	}
	if re.Run.WriteSize != 4096 || re.Bytes != 3000 || re.Op != "write" {
		t.Errorf("RunError = %+v, want write of 4096-byte calls after 3000 bytes", re)
	}
	if !res.Incomplete || len(res.Samples) != 1 || res.Samples[0].WriteSize != 1024 {
		t.Errorf("result = %+v, want the 1024-byte sample kept and Incomplete", res)
	}
	if left := m.names(); len(left) != 0 {
		t.Errorf("files left behind: %v", left)
	}
}

func TestFsyncFailureIsAnError(t *testing.T) {
	m := newMemFS()
	m.fsyncErr = unix.EIO
	c := smallConfig()
	c.Fsync = true
	_, err := runMem(t, c, m)
	var re *RunError
	if !errors.As(err, &re) || re.Op != "fsync" || !errors.Is(err, unix.EIO) {
		t.Fatalf("err = %v, want fsync RunError wrapping EIO", err)
	}
}

// cancelSeen cancels a run's context and waits until r's writer has
// seen it, so a fast in-memory sweep cannot end first.
func cancelSeen(t *testing.T, cancel context.CancelFunc, r *Runner) {
	cancel()
	testwait.Until(t, "cancel seen by the runner", r.started()[0].stop.Load)
}

func TestCancelStopsAndCleansUp(t *testing.T) {
	m := newMemFS()
	ctx, cancel := context.WithCancel(context.Background())
	c := smallConfig()
	c.Count = 100000
	r := &Runner{Config: c, FS: m}
	m.onWrite = func(total int64) {
		if total > 9000 {
			cancelSeen(t, cancel, r)
		}
	}
	res, err := r.Run(ctx)
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("err = %v, want ErrInterrupted", err)
	}
	if !res.Incomplete {
		t.Error("result not marked incomplete")
	}
	if left := m.names(); len(left) != 0 {
		t.Errorf("files left behind: %v", left)
	}
}

func TestWindowSourceRepeatsAWindowOfTheData(t *testing.T) {
	m := newMemFS()
	c := smallConfig()
	c.Source = SourceWindow
	c.Sizes = []int64{1024, 2048} // period: 2048/8 = 256 elements
	if _, err := runMem(t, c, m); err != nil {
		t.Fatal(err)
	}
	want := seq(1000, func(i int) float64 { return float64(i % 256) })
	for name, data := range m.closed {
		if diff := cmp.Diff(want, float64s(data)); diff != "" {
			t.Errorf("%s content (-want +got):\n%s", name, diff)
		}
	}
	if got := c.SourceBytes(); got != 2*2048 {
		t.Errorf("window source bytes = %d, want %d", got, 2*2048)
	}
}

func TestConvertedStridedWrite(t *testing.T) {
	m := newMemFS()
	c := smallConfig()
	c.Convert, c.Stride = convert.BigEndian, 2
	c.Verify = true
	if _, err := runMem(t, c, m); err != nil {
		t.Fatal(err)
	}
	for name, data := range m.closed {
		got := make([]float64, len(data)/8)
		for i := range got {
			got[i] = math.Float64frombits(binary.BigEndian.Uint64(data[8*i:]))
		}
		if diff := cmp.Diff(seq(1000, func(i int) float64 { return float64(2 * i) }), got); diff != "" {
			t.Errorf("%s content (-want +got):\n%s", name, diff)
		}
	}
}

// With a window source the data repeats every window: a block that
// lands where another belongs (here each block after the first holds the
// first block's bytes) is caught by the offset each block carries.
func TestVerifyCatchesAMisplacedBlockOfAWindow(t *testing.T) {
	m := newMemFS()
	c := smallConfig()
	c.Source, c.Verify = SourceWindow, true
	c.Sizes = []int64{2048} // one window: every block's data is alike
	m.misplace = 2048
	_, err := runMem(t, c, m)
	var ve *VerifyError
	if !errors.As(err, &ve) || ve.Offset != 2048 {
		t.Fatalf("err = %v, want a VerifyError at offset 2048, the second block's start", err)
	}
	m2 := newMemFS()
	if _, err := runMem(t, c, m2); err != nil {
		t.Errorf("the same run without the fault: %v", err)
	}
}

func TestVerifyCatchesAFlippedByte(t *testing.T) {
	m := newMemFS()
	m.corrupt = true
	c := smallConfig()
	c.Verify = true
	_, err := runMem(t, c, m)
	var ve *VerifyError
	if !errors.As(err, &ve) || ve.Offset != 8 {
		t.Fatalf("err = %v, want a VerifyError at offset 8", err)
	}
	if left := m.names(); len(left) != 0 {
		t.Errorf("files left behind: %v", left)
	}
}

func TestExistingFileIsNeverTouched(t *testing.T) {
	m := newMemFS()
	w := newWriter(smallConfig(), m, nil, "")
	if err := w.setup(); err != nil {
		t.Fatal(err)
	}
	defer w.teardown(&Result{})
	taken := w.prefix + "-1-0.dat"
	m.files[taken] = nil
	name, f, err := w.files.create(w.prefix+"-1", false)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if name == taken {
		t.Fatalf("create reused the existing name %s", name)
	}
	w.removeFiles()
	if _, ok := m.files[taken]; !ok {
		t.Error("the pre-existing file was removed")
	}
}

func TestKeepLeavesOnlyTheLastFile(t *testing.T) {
	m := newMemFS()
	c := smallConfig()
	c.Keep = true
	res, err := runMem(t, c, m)
	if err != nil {
		t.Fatal(err)
	}
	if left := m.names(); len(left) != 1 || left[0] != res.KeptFile {
		t.Errorf("files left %v, kept %q: want just the kept file", left, res.KeptFile)
	}
}

func TestReadModeReadsTheFileBack(t *testing.T) {
	m := newMemFS()
	c := smallConfig()
	c.Mode = ModeBoth
	c.Convert = convert.Swap
	res, err := runMem(t, c, m)
	if err != nil {
		t.Fatal(err)
	}
	var reads int
	for _, s := range res.Samples {
		if s.Mode == ModeRead {
			reads++
			if s.Bytes != 8000 {
				t.Errorf("read of size %d moved %d bytes, want 8000", s.WriteSize, s.Bytes)
			}
		}
	}
	if reads != 2 || len(res.Samples) != 4 {
		t.Errorf("got %d samples with %d reads, want 4 with 2", len(res.Samples), reads)
	}
	if left := m.names(); len(left) != 0 {
		t.Errorf("files left behind: %v", left)
	}
}

func TestSharedFileWritesThisRanksSegment(t *testing.T) {
	m := newMemFS()
	c := smallConfig()
	c.Count = 100
	c.Sizes = []int64{256}
	r := &Runner{Config: c, FS: m, Shared: &Shared{Name: "shared.dat", Offset: 800, Creator: true}}
	res, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Samples) != 1 || res.Samples[0].Bytes != 800 {
		t.Fatalf("samples %+v, want one of 800 bytes", res.Samples)
	}
	data := m.closed["shared.dat"]
	if len(data) != 1600 || !bytes.Equal(data[:800], make([]byte, 800)) {
		t.Fatalf("shared file is %d bytes; want 1600 with the first 800 (the other rank's) untouched", len(data))
	}
	if diff := cmp.Diff(seq(100, func(i int) float64 { return float64(i) }), float64s(data[800:])); diff != "" {
		t.Errorf("segment (-want +got):\n%s", diff)
	}
	if left := m.names(); len(left) != 0 {
		t.Errorf("files left behind: %v", left)
	}
}

// failingCoord reports another rank's failure at its n-th Agree call.
type failingCoord struct {
	calls, failAt int
	errs          []error
}

func (f *failingCoord) Agree(err error) error {
	f.calls++
	f.errs = append(f.errs, err)
	if err == nil && f.calls == f.failAt {
		return errors.New("rank 2: no space left on the file system (ENOSPC)")
	}
	return err
}

func TestAnotherRanksFailureStopsThisRank(t *testing.T) {
	m := newMemFS()
	c := smallConfig()
	c.Warmup = true
	coord := &failingCoord{failAt: 6} // setup, warm-up, 1024 before+after, 4096 before, 4096 after
	r := &Runner{Config: c, FS: m, Coord: coord}
	res, err := r.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "rank 2") {
		t.Fatalf("err = %v, want the other rank's error", err)
	}
	if coord.calls != 6 || len(res.Samples) != 1 || !res.Incomplete {
		t.Errorf("%d Agree calls, %d samples, incomplete %v; want 6, 1, true", coord.calls, len(res.Samples), res.Incomplete)
	}
	if left := m.names(); len(left) != 0 {
		t.Errorf("files left behind: %v", left)
	}
}

func TestEveryFaultIsNamedWithSizeAndBytes(t *testing.T) {
	for _, tc := range []struct {
		errno unix.Errno
		words string
	}{
		{unix.ENOSPC, "no space left on the file system (ENOSPC)"},
		{unix.EDQUOT, "disk quota exceeded (EDQUOT)"},
		{unix.EIO, "input/output error from the device or file system (EIO)"},
		{unix.EROFS, "the file system is mounted read-only (EROFS)"},
		{unix.EACCES, "permission denied (EACCES)"},
	} {
		m := newMemFS()
		m.failAfter, m.failErr = 5000, tc.errno
		_, err := runMem(t, smallConfig(), m)
		want := "during the write run with 1024-byte calls, after 5000 bytes: " + tc.words
		if err == nil || !strings.Contains(err.Error(), want) || !errors.Is(err, tc.errno) {
			t.Errorf("%v: err = %v, want it to contain %q", tc.errno, err, want)
		}
		if left := m.names(); len(left) != 0 {
			t.Errorf("%v: files left behind: %v", tc.errno, left)
		}
	}
}

func TestSharedFileWithKeepKeepsOnlyTheLast(t *testing.T) {
	m := newMemFS()
	c := smallConfig()
	c.Keep = true
	r := &Runner{Config: c, FS: m, Shared: &Shared{Name: "shared.dat", Creator: true}}
	res, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if left := m.names(); len(left) != 1 || res.KeptFile != "shared.dat" || len(res.Samples) != 2 {
		t.Errorf("files %v, kept %q, %d samples; want the shared file kept after 2 runs", left, res.KeptFile, len(res.Samples))
	}
}
