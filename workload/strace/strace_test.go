package strace_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/iobench/iobench/workload/strace"
)

// equateEmpty lets a want leave out the maps a File has empty.
// equateEmpty also leaves out what procs_test.go tests: the processes,
// flushes, open flags and mappings the fixtures were not written for.
var equateEmpty = cmp.Options{cmpopts.EquateEmpty(),
	cmpopts.IgnoreFields(strace.Trace{}, "Procs", "Mapped", "Async"),
	cmpopts.IgnoreFields(strace.File{}, "Flushes", "OpenFlags", "Mapped", "Opened")}

type sizes = map[int64]int64
type calls = map[string]int64

func parseFile(t *testing.T, path string) (*strace.Trace, error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return strace.Parse(f)
}

func TestParseFixtures(t *testing.T) {
	tests := []struct {
		fixture string
		want    strace.Trace
	}{
		{"plain.txt", strace.Trace{ // no -f, no -y: paths from openat; fd 3 closed and reopened
			Files: []strace.File{
				{Path: "out/first.dat", Writes: 3, Bytes: 65552, Sizes: sizes{8: 2, 65536: 1}, Syscalls: calls{"write": 3}},
				{Path: "out/second.dat", Writes: 6, Bytes: 4096 + 3 + 5 + 4 + 100 + 13,
					Errors: 1, Errnos: calls{"ENOSPC": 1},
					Short:    2, // the write of 65536 that wrote 4096, the writev of 2+3 that wrote 4; the pwritev's "..." hides its request
					Sizes:    sizes{4096: 1, 3: 1, 5: 1, 4: 1, 100: 1, 13: 1},
					Syscalls: calls{"write": 3, "pwrite64": 1, "writev": 2, "pwritev": 1}},
				{Path: "<stdout>", Writes: 1, Bytes: 5, Sizes: sizes{5: 1}, Syscalls: calls{"write": 1}},
				{Path: "<stderr>", Writes: 1, Bytes: 5, Sizes: sizes{5: 1}, Syscalls: calls{"write": 1}},
				{Path: "fd 7 (opened before the trace)", Errors: 1, Errnos: calls{"EBADF": 1}, Syscalls: calls{"write": 1}},
				{Path: "fd 9 (opened before the trace)", Writes: 1, Bytes: 1, Sizes: sizes{1: 1}, Syscalls: calls{"write": 1}},
			},
			PIDs: 1, Lines: 22,
		}},
		{"pids.txt", strace.Trace{ // -f -tt -T; resumed calls interleaved between pids 100 and 200
			Files: []strace.File{
				// 200 writes to 3 before opening anything: the latest 3, 100's log.txt.
				{Path: "log.txt", Writes: 3, Bytes: 13, Sizes: sizes{6: 2, 1: 1}, Seconds: 0.000010, Syscalls: calls{"write": 3}},
				// 100 writes to 4, which only 200 opened: threads share descriptors.
				{Path: "part.200", Writes: 2, Bytes: 7, Short: 1, Sizes: sizes{4: 1, 3: 1}, Seconds: 0.000050, Syscalls: calls{"write": 2}},
				// 200's 3 is then 300's newer part.300, as the rule says, though
				// a forked 200 would still have log.txt: only -y tells.
				{Path: "part.300", Writes: 2, Bytes: 2, Sizes: sizes{1: 2}, Seconds: 0.000002, Syscalls: calls{"write": 2}},
				// 100 closed its 3 after 300's open: it is closed for 100.
				{Path: "fd 3 (closed)", Errors: 1, Errnos: calls{"EBADF": 1}, Seconds: 0.000001, Syscalls: calls{"write": 1}},
			},
			PIDs: 3, Lines: 18, Timed: true,
		}},
		{"bracketpid.txt", strace.Trace{ // -f without -o: "[pid N]" once a child exists, an attach note cutting the clone line
			Files: []strace.File{
				{Path: "out.bin", Writes: 4, Bytes: 24, Sizes: sizes{4: 2, 10: 1, 6: 1}, Syscalls: calls{"write": 4}},
				{Path: "<stdout>", Writes: 1, Bytes: 6, Sizes: sizes{6: 1}, Syscalls: calls{"write": 1}},
			},
			PIDs: 2, Lines: 13,
		}},
		{"annotated.txt", strace.Trace{ // -y and -yy: escaped paths, (deleted), a device, a socket, a pipe
			Files: []strace.File{
				{Path: "/work/a<b>c", Writes: 2, Bytes: 3, Sizes: sizes{1: 1, 2: 1}, Syscalls: calls{"write": 1, "writev": 1}},
				{Path: "/work/w\u00e9\tq \"x\".dat", Writes: 1, Bytes: 2, Sizes: sizes{2: 1}, Syscalls: calls{"write": 1}},
				{Path: "/tmp/del.dat", Writes: 2, Bytes: 7, Sizes: sizes{3: 1, 4: 1}, Syscalls: calls{"write": 2}},
				{Path: "/dev/null", Writes: 1, Bytes: 5, Sizes: sizes{5: 1}, Syscalls: calls{"write": 1}},
				{Path: "TCP:[127.0.0.1:41798->127.0.0.1:36099]", Writes: 1, Bytes: 6, Sizes: sizes{6: 1}, Syscalls: calls{"write": 1}},
				{Path: "pipe:[38594]", Writes: 1, Bytes: 1, Sizes: sizes{1: 1}, Syscalls: calls{"write": 1}},
				{Path: "/work/comma, and paren).dat", Writes: 1, Bytes: 2, Sizes: sizes{2: 1}, Syscalls: calls{"write": 1}},
				{Path: "/work/hexA.dat", Writes: 1, Bytes: 1, Sizes: sizes{1: 1}, Syscalls: calls{"write": 1}},
			},
			PIDs: 1, Lines: 13,
		}},
		{"failed.txt", strace.Trace{ // EAGAIN, ERESTARTSYS, <unavailable>, a call never resumed
			Files: []strace.File{
				{Path: "f.dat", Writes: 1, Bytes: 4, Errors: 2, Errnos: calls{"EAGAIN": 2}, Unknown: 3,
					Sizes: sizes{4: 1}, Seconds: 0.000107, Syscalls: calls{"write": 6}},
			},
			PIDs: 2, Lines: 11, Timed: true,
		}},
		{"dups.txt", strace.Trace{ // open, creat, openat2, a dirfd, dup*, fcntl, close_range, -X raw
			Files: []strace.File{
				{Path: "old.dat", Writes: 3, Bytes: 3, Sizes: sizes{1: 3}, Syscalls: calls{"write": 3}},
				{Path: "made.dat", Writes: 2, Bytes: 7, Sizes: sizes{2: 1, 5: 1}, Syscalls: calls{"write": 2}},
				{Path: "/data/rel.dat", Writes: 1, Bytes: 3, Sizes: sizes{3: 1}, Syscalls: calls{"write": 1}},
				{Path: "/data/two.dat", Writes: 1, Bytes: 4, Sizes: sizes{4: 1}, Syscalls: calls{"write": 1}},
				{Path: "<stderr>", Writes: 1, Bytes: 1, Sizes: sizes{1: 1}, Syscalls: calls{"write": 1}},
				{Path: "fd 8 (closed)", Errors: 1, Errnos: calls{"EBADF": 1}, Syscalls: calls{"write": 1}},
				{Path: "raw.dat", Writes: 1, Bytes: 1, Sizes: sizes{1: 1}, Syscalls: calls{"write": 1}},
			},
			PIDs: 1, Lines: 26,
		}},
		{"timestamps.txt", strace.Trace{ // -t, -ttt, ns, -r, -n, -i, --decode-pids=comm, a -e write= dump
			Files: []strace.File{
				{Path: "<stdout>", Writes: 9, Bytes: 27, Sizes: sizes{1: 2, 2: 2, 3: 2, 4: 1, 5: 1, 6: 1},
					Seconds: 0.000001, Syscalls: calls{"write": 9}},
			},
			PIDs: 1, Lines: 11, Timed: true,
		}},
		{"execve.txt", strace.Trace{ // thread 11 runs execve and goes on as 10, with its descriptors
			Files: []strace.File{
				// Not 12's other.log, later on 6: the thread's table is now 10's.
				{Path: "thread.log", Writes: 1, Bytes: 1, Sizes: sizes{1: 1}, Syscalls: calls{"write": 1}},
				{Path: "leader.log", Writes: 1, Bytes: 1, Sizes: sizes{1: 1}, Syscalls: calls{"write": 1}},
			},
			PIDs: 3, Lines: 10,
		}},
		{"skipped.txt", strace.Trace{
			Files: []strace.File{
				{Path: "x.dat", Writes: 2, Bytes: 6, Sizes: sizes{3: 2}, Syscalls: calls{"write": 2}},
			},
			PIDs: 1, Lines: 9, Skipped: 4,
			SkippedAt: []strace.Position{{Line: 2}, {Line: 4}, {Line: 5}, {Line: 6}},
		}},
		{"real-f.txt", strace.Trace{ // strace -f of testdata/real.c
			Files: realFiles("", "<stdout>"),
			PIDs:  2, Lines: 30,
		}},
		{"real-fyT.txt", strace.Trace{ // strace -f -tt -T -y of testdata/real.c
			Files: withSeconds(realFiles("/tmp/strace-fixture/", "/dev/null"), 0.000154, 0.000155, 0.000047, 0.000012),
			PIDs:  2, Lines: 30, Timed: true,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			got, err := parseFile(t, filepath.Join("testdata", tt.fixture))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(&tt.want, got, equateEmpty); diff != "" {
				t.Errorf("Parse(%s) (-want +got):\n%s", tt.fixture, diff)
			}
		})
	}
}

// realFiles are the files testdata/real.c writes, named under dir.
func realFiles(dir, stdout string) []strace.File {
	return []strace.File{
		{Path: dir + "a.dat", Writes: 10, Bytes: 80, Sizes: sizes{8: 10}, Syscalls: calls{"write": 10}},
		{Path: dir + "b.dat", Writes: 4, Bytes: 2*4096 + 105 + 2, Sizes: sizes{4096: 2, 105: 1, 2: 1},
			Syscalls: calls{"pwrite64": 2, "writev": 1, "write": 1}},
		{Path: dir + "c.dat", Writes: 3, Bytes: 1536, Sizes: sizes{512: 3}, Syscalls: calls{"write": 3}},
		{Path: stdout, Writes: 1, Bytes: 5, Sizes: sizes{5: 1}, Syscalls: calls{"write": 1}},
	}
}

func withSeconds(files []strace.File, seconds ...float64) []strace.File {
	for i := range files {
		files[i].Seconds = seconds[i]
	}
	return files
}

func TestParseNotStrace(t *testing.T) {
	tests := []struct {
		fixture, want string
	}{
		{"garbage.txt", `input: not an strace trace: none of its 3 lines is strace output (line 1: "size,count")`},
		{"empty.txt", "input: not an strace trace: it is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			got, err := parseFile(t, filepath.Join("testdata", tt.fixture))
			if !errors.Is(err, strace.ErrNotStrace) {
				t.Fatalf("Parse(%s) = %+v, %v; want ErrNotStrace", tt.fixture, got, err)
			}
			if err.Error() != tt.want {
				t.Errorf("Parse(%s) error:\n got %q\nwant %q", tt.fixture, err, tt.want)
			}
		})
	}
}

// failingReader returns its data, then an error.
type failingReader struct{ data io.Reader }

var errDisk = errors.New("input/output error")

func (r failingReader) Read(b []byte) (int, error) {
	n, err := r.data.Read(b)
	if err == io.EOF {
		return n, errDisk
	}
	return n, err
}

func TestParseReadError(t *testing.T) {
	r := failingReader{strings.NewReader("write(1, \"a\", 1) = 1\nwrite(1, ")}
	_, err := strace.ParseStreams(strace.Stream{Name: "trace.42", PID: 42, R: r})
	if !errors.Is(err, errDisk) {
		t.Fatalf("ParseStreams: %v, want %v", err, errDisk)
	}
	if want := "strace: reading trace.42:2: input/output error"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
}

// TestParseStreamsFF parses the T.PID files of strace -ff: they give what
// strace -f gives in one file, the parent's stream first.
func TestParseStreamsFF(t *testing.T) {
	names, err := filepath.Glob("testdata/real-ff.*")
	if err != nil || len(names) != 2 {
		t.Fatalf("testdata/real-ff.*: %v, %v", names, err)
	}
	got, err := parseFF(t, names)
	if err != nil {
		t.Fatal(err)
	}
	want := &strace.Trace{Files: realFiles("", "<stdout>"), PIDs: 2, Lines: 30}
	if diff := cmp.Diff(want, got, equateEmpty, byPath); diff != "" {
		t.Errorf("ParseStreams(%v) (-want +got):\n%s", names, diff)
	}
}

// byPath compares files whatever their order: with -ff the parent's
// stdout comes before the child's file.
var byPath = cmpopts.SortSlices(func(a, b strace.File) bool { return a.Path < b.Path })

// parseFF parses -ff output files in the order of their pids.
func parseFF(t *testing.T, names []string) (*strace.Trace, error) {
	t.Helper()
	var streams []strace.Stream
	for _, name := range names {
		pid, ok := strace.PIDSuffix(name)
		if !ok {
			t.Fatalf("PIDSuffix(%q) found no pid", name)
		}
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		streams = append(streams, strace.Stream{Name: filepath.Base(name), PID: pid, R: f})
	}
	sort.Slice(streams, func(i, j int) bool { return streams[i].PID < streams[j].PID })
	return strace.ParseStreams(streams...)
}

func TestPIDSuffix(t *testing.T) {
	tests := []struct {
		name string
		pid  int
		ok   bool
	}{
		{"trace.1234", 1234, true},
		{"/tmp/x.y/trace.7", 7, true},
		{"trace.txt", 0, false},
		{"trace", 0, false},
		{"trace.0", 0, false},
		{"trace.+5", 0, false},
		{"trace.-5", 0, false},
	}
	for _, tt := range tests {
		pid, ok := strace.PIDSuffix(tt.name)
		if pid != tt.pid || ok != tt.ok {
			t.Errorf("PIDSuffix(%q) = %d, %v; want %d, %v", tt.name, pid, ok, tt.pid, tt.ok)
		}
	}
}

func TestPositionString(t *testing.T) {
	for _, tt := range []struct {
		pos  strace.Position
		want string
	}{
		{strace.Position{Line: 3}, "line 3"},
		{strace.Position{Stream: "trace.12", Line: 3}, "trace.12:3"},
	} {
		if got := tt.pos.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.pos, got, tt.want)
		}
	}
}

// TestLongLines: of a line over MaxLine a write-family call is still
// counted from its two ends; any other such line is skipped.
func TestLongLines(t *testing.T) {
	big := strings.Repeat("x", strace.MaxLine+100)
	lines := []string{
		`1 openat(AT_FDCWD, "big.dat", O_WRONLY) = 3`,
		`1 write(3</big.dat>, "` + big + `", 2000000) = 2000000 <0.001000>`,
		`1 writev(3, [{iov_base="` + big + `", iov_len=1500000}, {iov_base="yy", iov_len=2}], 2) = 1500002`,
		`1 write(3, "` + big + `"..., 3000000 <unfinished ...>`,
		`1 <... write resumed>) = 2999999`,
		`1 read(4, "` + big + `", 2000000) = 2000000`,
		`1 openat(AT_FDCWD, "` + big + `", O_RDONLY) = 5`,
		big,
		`1 write(3, "ok", 2) = 2`,
	}
	got, err := strace.Parse(strings.NewReader(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	want := &strace.Trace{
		Files: []strace.File{
			{Path: "/big.dat", Writes: 1, Bytes: 2000000, Sizes: sizes{2000000: 1}, Seconds: 0.001, Syscalls: calls{"write": 1}},
			{Path: "big.dat", Writes: 3, Bytes: 1500002 + 2999999 + 2, Short: 1,
				Sizes: sizes{1500002: 1, 2999999: 1, 2: 1}, Syscalls: calls{"write": 2, "writev": 1}},
		},
		PIDs: 1, Lines: 9, Long: 6, Skipped: 2,
		SkippedAt: []strace.Position{{Line: 7}, {Line: 8}},
		Timed:     true,
	}
	if diff := cmp.Diff(want, got, equateEmpty); diff != "" {
		t.Errorf("Parse (-want +got):\n%s", diff)
	}
}

// endless is a reader of head, n bytes of 'x' made as they are read, and
// tail.
type endless struct {
	head, tail string
	n          int
	xs         []byte
}

func (e *endless) Read(b []byte) (int, error) {
	switch {
	case e.head != "":
		n := copy(b, e.head)
		e.head = e.head[n:]
		return n, nil
	case e.n > 0:
		if e.xs == nil {
			e.xs = bytes.Repeat([]byte{'x'}, 32<<10)
		}
		n := copy(b[:min(len(b), e.n)], e.xs)
		e.n -= n
		return n, nil
	case e.tail != "":
		n := copy(b, e.tail)
		e.tail = e.tail[n:]
		return n, nil
	}
	return 0, io.EOF
}

// TestLongLineNotHeld: a 64 MiB line costs no more memory than a few
// buffers.
func TestLongLineNotHeld(t *testing.T) {
	r := &endless{head: `write(1, "`, n: 64 << 20, tail: "\", 67108864) = 67108864\n"}
	before := totalAlloc()
	got, err := strace.Parse(r)
	grew := totalAlloc() - before
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Files) != 1 || got.Files[0].Bytes != 64<<20 || got.Long != 1 {
		t.Fatalf("Parse of a 64 MiB line = %+v", got)
	}
	if grew > 8<<20 {
		t.Errorf("Parse of a 64 MiB line allocated %d bytes, want under 8 MiB", grew)
	}
}

func totalAlloc() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}
