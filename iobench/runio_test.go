package iobench

import (
	"bytes"
	"compress/flate"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/iobench/iobench/convert"
)

// The limit passes when the test fires it, at the 1 KiB run's third
// call: that run stops there, whatever the machine's speed, and its
// throughput is what it moved over its own time; the 64 KiB run, whose
// limit never passes, moves everything.
func TestTimeLimitStopsEachRunAndKeepsItsThroughput(t *testing.T) {
	m := newMemFS()
	c := smallConfig()
	c.Count, c.Sizes = 1<<14, []int64{1024, 64 << 10} // 128 KiB: 128 calls of 1 KiB, 2 of 64 KiB
	c.TimeLimit = 40 * time.Millisecond
	c.Verify = true
	timer := &handTimer{}
	m.onWrite = func(total int64) {
		if total == 3*1024 { // the first run is the 1 KiB one
			timer.fire()
		}
	}
	res, err := runWithTimer(c, m, timer)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range res.Samples {
		switch s.WriteSize {
		case 1024:
			if !s.TimeLimited || s.Bytes != 3*1024 || s.Calls != 3 {
				t.Errorf("1 KiB run: time_limited %v, %d bytes in %d calls; want cut after the third call", s.TimeLimited, s.Bytes, s.Calls)
			}
			if got, want := s.MiBPerSec(), float64(s.Bytes)/s.Seconds/MiB; s.Seconds <= 0 || math.Abs(got-want) > 1e-9 {
				t.Errorf("MiB/s %v over %v s, want bytes moved over the run's own time %v", got, s.Seconds, want)
			}
		case 64 << 10:
			if s.TimeLimited || s.Bytes != c.TotalBytes() {
				t.Errorf("64 KiB run: time_limited %v, %d bytes; want all %d", s.TimeLimited, s.Bytes, c.TotalBytes())
			}
		}
	}
	if want := []time.Duration{c.TimeLimit, c.TimeLimit}; !slices.Equal(timer.armed, want) || timer.stopped != 2 {
		t.Errorf("limits armed %v, %d stopped; want %v, each stopped with its run", timer.armed, timer.stopped, want)
	}
	rows := Summarize(res)
	if rows[0].TimeLimitedRuns != 1 || rows[1].TimeLimitedRuns != 0 {
		t.Errorf("time_limited_runs %d, %d; want 1, 0", rows[0].TimeLimitedRuns, rows[1].TimeLimitedRuns)
	}
	if want := 3*1024 + c.TotalBytes(); res.Verified == nil || res.Verified.Bytes != want {
		t.Errorf("verified %+v; want what the runs moved, %d bytes", res.Verified, want)
	}
}

// On the clock, a run the limit cut lasted at least the limit, moved
// whole calls and less than the data; a run it did not cut moved all.
// Whether a run is cut depends on the machine's speed and is not asked.
func TestTimeLimitOnTheClockNeverCutsEarly(t *testing.T) {
	m := newMemFS()
	m.onWrite = func(int64) { time.Sleep(time.Millisecond) }
	c := smallConfig()
	c.Count, c.Sizes, c.Repeat = 1<<12, []int64{1024, 8192}, 2
	c.TimeLimit = 5 * time.Millisecond
	res, err := runMem(t, c, m)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range res.Samples {
		cut := s.TimeLimited && s.Seconds >= c.TimeLimit.Seconds() && s.Bytes > 0 && s.Bytes < c.TotalBytes() && s.Bytes%s.WriteSize == 0
		if !cut && (s.TimeLimited || s.Bytes != c.TotalBytes()) {
			t.Errorf("%d-byte run: time_limited %v, %d of %d bytes in %v s (limit %v)", s.WriteSize, s.TimeLimited, s.Bytes, c.TotalBytes(), s.Seconds, c.TimeLimit)
		}
	}
}

// A limit that passed before the first call still lets that call run,
// so a cut run's MiB/s is never 0.
func TestTimeLimitAlwaysMovesOneCall(t *testing.T) {
	m := newMemFS()
	c := smallConfig()
	c.Sizes = []int64{1024}
	c.TimeLimit = time.Nanosecond
	timer := &handTimer{fireAtStart: true}
	res, err := runWithTimer(c, m, timer)
	if err != nil {
		t.Fatal(err)
	}
	if s := res.Samples[0]; s.Bytes != 1024 || s.Calls != 1 || !s.TimeLimited || s.MiBPerSec() <= 0 {
		t.Errorf("got %d bytes in %d calls (limited %v); want one whole call, so MiB/s is never 0", s.Bytes, s.Calls, s.TimeLimited)
	}
}

// handTimer is a startTimer the test fires by hand: a pass's limit passes
// when the test says, not when the clock does.
type handTimer struct {
	fireAtStart bool // the limit passes as it is armed

	mu      sync.Mutex
	armed   []time.Duration // each pass's limit, in order
	current func()          // the armed pass's; nil once stopped
	stopped int
}

func (h *handTimer) start(d time.Duration, f func()) (stop func()) {
	h.mu.Lock()
	h.armed = append(h.armed, d)
	h.current = f
	h.mu.Unlock()
	if h.fireAtStart {
		f()
	}
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.current = nil
		h.stopped++
	}
}

// fire makes the armed pass's limit pass.
func (h *handTimer) fire() {
	h.mu.Lock()
	f := h.current
	h.mu.Unlock()
	if f != nil {
		f()
	}
}

// runWithTimer runs c on m as Runner.Run does, with the passes' limits
// armed by timer.
func runWithTimer(c Config, m *memFS, timer *handTimer) (*Result, error) {
	w := newWriter(c, m, nil, "")
	w.timer = timer.start
	return w.run(context.Background())
}

func TestDataPatternsAreWrittenAndVerified(t *testing.T) {
	for _, tc := range []struct {
		data    DataPattern
		typ     convert.Type
		order   convert.Order
		stride  int
		source  SourceKind
		squeeze func(t *testing.T, b []byte)
	}{
		{data: DataZero, typ: convert.Float64, squeeze: func(t *testing.T, b []byte) {
			if !bytes.Equal(b, make([]byte, len(b))) {
				t.Error("zero data holds non-zero bytes")
			}
		}},
		{data: DataRandom, typ: convert.Float64, squeeze: incompressible},
		{data: DataRandom, typ: convert.Int32, order: convert.BigEndian, stride: 3},
		{data: DataRandom, typ: convert.Complex128, order: convert.Swap, source: SourceWindow},
		{data: DataRandom, typ: convert.Float32, source: SourceWindow, stride: 2},
	} {
		t.Run(string(tc.data)+"/"+tc.typ.String()+"/"+tc.order.String(), func(t *testing.T) {
			m := newMemFS()
			c := smallConfig()
			c.Data, c.Type, c.Convert, c.Stride, c.Seed, c.Verify = tc.data, tc.typ, tc.order, max(tc.stride, 1), 42, true
			c.Count = 8192 / c.ElemSize() * 8
			c.Sizes = []int64{1024, 8192}
			if tc.source != "" {
				c.Source = tc.source
			}
			res, err := runMem(t, c, m)
			if err != nil {
				t.Fatal(err)
			}
			if res.Verified == nil || res.Verified.Files != 2 {
				t.Fatalf("verified %+v, want 2 files", res.Verified)
			}
			var first []byte
			for _, b := range m.closed {
				// With --verify a window's blocks carry their offsets,
				// which differ between write sizes.
				if first != nil && !c.stampsBlocks() && !bytes.Equal(first, b) {
					t.Error("two runs of the same seed wrote different data")
				}
				first = b
			}
			if tc.squeeze != nil {
				tc.squeeze(t, first)
			}
		})
	}
}

// incompressible fails unless flate leaves b at least 99% of its size.
func incompressible(t *testing.T, b []byte) {
	t.Helper()
	var z bytes.Buffer
	w, _ := flate.NewWriter(&z, flate.BestCompression)
	w.Write(b)
	w.Close()
	if ratio := float64(z.Len()) / float64(len(b)); ratio < 0.99 {
		t.Errorf("random data compresses to %.0f%% of its size; want incompressible", 100*ratio)
	}
}

func TestRandomDataFollowsTheSeed(t *testing.T) {
	written := func(seed uint64) []byte {
		m := newMemFS()
		c := smallConfig()
		c.Data, c.Seed, c.Sizes = DataRandom, seed, []int64{1024}
		if _, err := runMem(t, c, m); err != nil {
			t.Fatal(err)
		}
		for _, b := range m.closed {
			return b
		}
		return nil
	}
	if a, b := written(1), written(1); !bytes.Equal(a, b) {
		t.Error("seed 1 twice gave different data")
	}
	if a, b := written(1), written(2); bytes.Equal(a, b) {
		t.Error("seeds 1 and 2 gave the same data")
	}
}

func TestVerifyCatchesCorruptRandomData(t *testing.T) {
	m := newMemFS()
	m.corrupt = true
	c := smallConfig()
	c.Data, c.Verify = DataRandom, true
	_, err := runMem(t, c, m)
	var verr *VerifyError
	if !errors.As(err, &verr) || verr.Offset != 8 {
		t.Fatalf("got %v, want a VerifyError at offset 8", err)
	}
}

func TestFlushModes(t *testing.T) {
	for _, tc := range []struct {
		flush             FlushMode
		fsync             bool
		fsyncs, datasyncs int
	}{
		{flush: "", fsync: true, fsyncs: 2},
		{flush: FlushFsync, fsyncs: 2},
		{flush: FlushFdatasync, datasyncs: 2},
		{flush: FlushNone},
		{flush: ""},
	} {
		m := newMemFS()
		c := smallConfig()
		c.Flush, c.Fsync = tc.flush, tc.fsync
		if _, err := runMem(t, c, m); err != nil {
			t.Fatal(err)
		}
		if m.fsyncs != tc.fsyncs || m.datasyncs != tc.datasyncs {
			t.Errorf("flush %q fsync %v: %d fsyncs, %d fdatasyncs; want %d, %d", tc.flush, tc.fsync, m.fsyncs, m.datasyncs, tc.fsyncs, tc.datasyncs)
		}
	}
}

func TestFdatasyncFailureNamesTheCall(t *testing.T) {
	m := newMemFS()
	m.fsyncErr = unix.EIO
	c := smallConfig()
	c.Flush = FlushFdatasync
	_, err := runMem(t, c, m)
	var re *RunError
	if !errors.As(err, &re) || re.Op != "fdatasync" || !errors.Is(err, unix.EIO) {
		t.Fatalf("got %v, want a RunError of fdatasync with EIO", err)
	}
	if left := m.names(); len(left) != 0 {
		t.Errorf("files left behind: %v", left)
	}
}

func TestPreallocateAllocatesEachFileBeforeItsRun(t *testing.T) {
	m := newMemFS()
	c := smallConfig()
	c.Preallocate, c.Verify = true, true
	var sizeAtFirstWrite []int
	m.onWrite = func(int64) {
		m.mu.Lock()
		defer m.mu.Unlock()
		for _, b := range m.files {
			sizeAtFirstWrite = append(sizeAtFirstWrite, len(b))
		}
	}
	if _, err := runMem(t, c, m); err != nil {
		t.Fatal(err)
	}
	if m.allocated != 2*c.TotalBytes() {
		t.Errorf("allocated %d bytes, want %d (each run's file in full)", m.allocated, 2*c.TotalBytes())
	}
	for _, n := range sizeAtFirstWrite {
		if n != int(c.TotalBytes()) {
			t.Fatalf("a file was %d bytes during its run, want %d: allocated before it", n, c.TotalBytes())
		}
	}
	if left := m.names(); len(left) != 0 {
		t.Errorf("files left behind: %v", left)
	}
}

func TestOverwriteWritesOneFileAndRemovesIt(t *testing.T) {
	m := newMemFS()
	c := smallConfig()
	c.Overwrite, c.Verify, c.Warmup, c.Repeat, c.Mode = true, true, true, 2, ModeBoth
	res, err := runMem(t, c, m)
	if err != nil {
		t.Fatal(err)
	}
	// The file overwritten and the file read runs read.
	if m.creates != 2 {
		t.Errorf("%d files created, want 2: one to overwrite, one to read", m.creates)
	}
	if len(res.Samples) != 8 {
		t.Errorf("%d samples, want 8", len(res.Samples))
	}
	if left := m.names(); len(left) != 0 {
		t.Errorf("files left behind: %v", left)
	}
}

func TestOverwriteFileIsRemovedOnFailureAndInterrupt(t *testing.T) {
	m := newMemFS()
	c := smallConfig()
	c.Overwrite = true
	m.failAfter, m.failErr = 8000+4000, unix.ENOSPC // the lay-out passes, the first run fails
	if _, err := runMem(t, c, m); !errors.Is(err, unix.ENOSPC) {
		t.Fatalf("got %v, want ENOSPC", err)
	}
	if left := m.names(); len(left) != 0 {
		t.Errorf("after a failure, files left behind: %v", left)
	}

	m = newMemFS()
	ctx, cancel := context.WithCancel(context.Background())
	c.Count = 100000
	r := &Runner{Config: c, FS: m}
	m.onWrite = func(total int64) {
		if total > 900000 { // after the lay-out, in the first run
			cancelSeen(t, cancel, r)
		}
	}
	if _, err := r.Run(ctx); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("got %v, want ErrInterrupted", err)
	}
	if left := m.names(); len(left) != 0 {
		t.Errorf("after an interrupt, files left behind: %v", left)
	}
}

func TestOverwriteWithKeepKeepsTheFile(t *testing.T) {
	m := newMemFS()
	c := smallConfig()
	c.Overwrite, c.Keep = true, true
	res, err := runMem(t, c, m)
	if err != nil {
		t.Fatal(err)
	}
	if left := m.names(); len(left) != 1 || left[0] != res.KeptFile {
		t.Errorf("files %v, kept %q; want the overwritten file kept", left, res.KeptFile)
	}
}

func TestLatencyHistogramPerRun(t *testing.T) {
	m := newMemFS()
	m.onWrite = func(int64) { time.Sleep(100 * time.Microsecond) }
	c := smallConfig()
	c.Latency = true
	res, err := runMem(t, c, m)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range res.Samples {
		l := s.Latency
		if l == nil || l.Calls != s.Calls || l.Timed != l.Calls {
			t.Fatalf("size %d: latency %+v for %d calls; want every call of 100 µs timed", s.WriteSize, l, s.Calls)
		}
		if p50 := l.Quantile(0.5); p50 < 100e3 {
			t.Errorf("size %d: p50 %.0f ns, want at least the 100 µs each call sleeps", s.WriteSize, p50)
		}
	}
	for _, row := range Summarize(res) {
		l := row.Latency
		if l == nil || !(l.P50 <= l.P90 && l.P90 <= l.P99 && l.P99 <= l.Max) || l.P50 < 100 {
			t.Errorf("size %d: summary %+v; want ordered quantiles of at least 100 µs", row.WriteSize, l)
		}
	}
}

func TestLatencySamplesFastCalls(t *testing.T) {
	l := &latencyRecorder{clock: 130, gap: 1, rng: 1}
	timed := 0
	for range 100000 {
		if l.due() {
			timed++
			l.record(1000) // 1 µs calls, a 130 ns clock
		}
	}
	want := 100000 * LatencyOverhead * 1000 / 130 // calls timed so the clock takes LatencyOverhead
	if float64(timed) < want/2 || float64(timed) > want*2 {
		t.Errorf("timed %d of 100000 calls of 1 µs with a 130 ns clock; want about %.0f", timed, want)
	}
	if l.hist.Calls != 100000 {
		t.Errorf("counted %d calls, want 100000", l.hist.Calls)
	}
}

func TestIOSettingsAreValidated(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"bad data", func(c *Config) { c.Data = "sine" }, `Data: unknown value "sine" (valid: ramp, random, zero)`},
		{"bad flush", func(c *Config) { c.Flush = "msync" }, `Flush: unknown value "msync" (valid: fsync, fdatasync, none)`},
		{"bad open sync", func(c *Config) { c.OpenSync = "rsync" }, `OpenSync: unknown value "rsync" (valid: dsync, sync)`},
		{"flush and fsync", func(c *Config) { c.Flush, c.Fsync = FlushNone, true }, "Flush: none contradicts Fsync, which means Flush fsync; give one"},
		{"negative limit", func(c *Config) { c.TimeLimit = -time.Second }, "TimeLimit: -1s must be positive"},
		{"overwrite reads", func(c *Config) { c.Overwrite, c.Mode = true, ModeRead }, "Overwrite: applies to write runs; use it with Mode write or both"},
		{"preallocate reads", func(c *Config) { c.Preallocate, c.Mode = true, ModeRead }, "Preallocate: applies to write runs"},
		{"open sync reads", func(c *Config) { c.OpenSync, c.Mode = OpenDSync, ModeRead }, "OpenSync: applies to write runs"},
		{"flush reads", func(c *Config) { c.Flush, c.Mode = FlushFdatasync, ModeRead }, "Flush: applies to write runs"},
	} {
		c := smallConfig()
		tc.edit(&c)
		err := c.Validate()
		var ce *ConfigError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want a ConfigError with %q", tc.name, err, tc.want)
		}
	}
	c := smallConfig()
	c.Flush, c.Fsync = FlushFsync, true // the same thing said twice
	if err := c.Validate(); err != nil {
		t.Errorf("--fsync with --flush fsync: %v", err)
	}
}

func TestPreallocateAndFdatasyncAreRefusedWhereTheyDoNotExist(t *testing.T) {
	c := smallConfig()
	c.Preallocate = true
	if err := c.Validate(); canFallocate != (err == nil) || !canFallocate && !strings.Contains(err.Error(), "Preallocate") {
		t.Errorf("preallocate (fallocate here: %v): %v", canFallocate, err)
	}
	c = smallConfig()
	c.Flush = FlushFdatasync
	if err := c.Validate(); canFdatasync != (err == nil) || !canFdatasync && !strings.Contains(err.Error(), "Flush") {
		t.Errorf("fdatasync (here: %v): %v", canFdatasync, err)
	}
}

func TestOpenSyncNeedsAnFSThatCanDoIt(t *testing.T) {
	c := smallConfig()
	c.OpenSync = OpenDSync
	_, err := runMem(t, c, newMemFS())
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Field != SetOpenSync {
		t.Errorf("got %v, want a ConfigError on OpenSync", err)
	}
}

func TestSharedFileRefusesOverwriteAndPreallocate(t *testing.T) {
	for _, edit := range []func(*Config){func(c *Config) { c.Overwrite = true }, func(c *Config) { c.Preallocate = true }} {
		c := smallConfig()
		edit(&c)
		r := &Runner{Config: c, FS: newMemFS(), Shared: &Shared{Name: "shared.dat", Creator: true}}
		_, err := r.Run(context.Background())
		var ce *ConfigError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), "shared file") {
			t.Errorf("got %v, want a ConfigError about the shared file", err)
		}
	}
}

// fdFlags is the open flags of fd, from /proc/self/fdinfo.
func fdFlags(t *testing.T, fd int) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("/proc/self/fdinfo", strconv.Itoa(fd)))
	if err != nil {
		t.Skip("no /proc/self/fdinfo:", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "flags:"); ok {
			var n int
			for _, ch := range strings.TrimSpace(v) {
				n = n*8 + int(ch-'0')
			}
			return n
		}
	}
	t.Fatal("no flags line in fdinfo")
	return 0
}

func TestOpenSyncFlagsOnTheRealFS(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		mode OpenSync
		flag int
	}{{OpenDSync, unix.O_DSYNC}, {OpenSyncAll, unix.O_SYNC}} {
		fs := OSFS{Dir: dir}.withOpenSync(tc.mode)
		f, id, err := fs.Create("w-"+string(tc.mode), false)
		if err != nil {
			t.Fatal(err)
		}
		if got := fdFlags(t, f.(fdFile).fd); got&tc.flag != tc.flag {
			t.Errorf("%s: open flags %o lack %o", tc.mode, got, tc.flag)
		}
		f.Close()
		r, err := fs.Open("w-"+string(tc.mode), id, false)
		if err != nil {
			t.Fatal(err)
		}
		if got := fdFlags(t, r.(fdFile).fd); got&unix.O_DSYNC != 0 {
			t.Errorf("%s: a read open has flags %o; want no sync flag", tc.mode, got)
		}
		r.Close()
	}
}

func TestIOOptionsOnARealDirectory(t *testing.T) {
	dir := t.TempDir()
	c := smallConfig()
	c.Dir, c.Count, c.Sizes, c.Repeat = dir, 1<<15, []int64{4096, 65536}, 2
	c.Data, c.Seed, c.Verify, c.Latency = DataRandom, 7, true, true
	c.Flush, c.OpenSync, c.Preallocate, c.Overwrite = FlushFdatasync, OpenDSync, true, true
	c.TimeLimit = time.Hour
	r := &Runner{Config: c, FS: OSFS{Dir: dir, RawSyscalls: true}}
	res, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range res.Samples {
		if s.Bytes != c.TotalBytes() || s.TimeLimited || s.Latency == nil || s.Latency.Calls != s.Calls {
			t.Errorf("size %d: %d bytes, limited %v, latency %+v", s.WriteSize, s.Bytes, s.TimeLimited, s.Latency)
		}
	}
	if res.Verified == nil || res.Verified.Files != 5 { // the lay-out and 4 runs
		t.Errorf("verified %+v, want 5 files", res.Verified)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left in %s: %v", dir, ents)
	}
}
