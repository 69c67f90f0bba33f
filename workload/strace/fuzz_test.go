package strace

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse parses any input, at MaxLine and at a line cap small enough
// that inputs have overlong lines, and checks what any Trace must hold.
func FuzzParse(f *testing.F) {
	names, err := filepath.Glob("testdata/*")
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, max := range []int{MaxLine, 48} {
			p := newParser(max)
			if err := p.readStream(Stream{R: bytes.NewReader(data)}); err != nil {
				if !errors.Is(err, ErrNotStrace) {
					t.Fatalf("cap %d: error %v is not ErrNotStrace", max, err)
				}
				continue
			}
			checkTrace(t, p.finish(), data)
		}
	})
}

// checkTrace checks the invariants of a Trace parsed from data.
func checkTrace(t *testing.T, tr *Trace, data []byte) {
	t.Helper()
	lines := int64(bytes.Count(data, []byte{'\n'}))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		lines++
	}
	if tr.Lines != lines || tr.Skipped > lines || tr.Long > lines || tr.PIDs < 1 {
		t.Fatalf("Lines %d (want %d), Skipped %d, Long %d, PIDs %d", tr.Lines, lines, tr.Skipped, tr.Long, tr.PIDs)
	}
	if want := min(tr.Skipped, MaxSkippedAt); int64(len(tr.SkippedAt)) != want {
		t.Fatalf("%d positions of %d skipped lines", len(tr.SkippedAt), tr.Skipped)
	}
	for i, pos := range tr.SkippedAt {
		if pos.Line < 1 || int64(pos.Line) > lines || i > 0 && pos.Line <= tr.SkippedAt[i-1].Line {
			t.Fatalf("SkippedAt %v", tr.SkippedAt)
		}
	}
	seen := map[string]bool{}
	var allCalls int64
	for _, f := range tr.Files {
		if seen[f.Path] {
			t.Fatalf("file %q listed twice", f.Path)
		}
		seen[f.Path] = true
		allCalls += checkFile(t, f)
	}
	if allCalls > lines {
		t.Fatalf("%d calls from %d lines", allCalls, lines)
	}
}

// checkFile checks that a file's counts agree, and returns its calls.
func checkFile(t *testing.T, f File) int64 {
	t.Helper()
	var writes, bytes, errs, calls int64
	for size, n := range f.Sizes {
		if size < 0 || n < 1 {
			t.Fatalf("%q: Sizes[%d] = %d", f.Path, size, n)
		}
		writes += n
		bytes += size * n
	}
	for _, n := range f.Errnos {
		errs += n
	}
	for _, n := range f.Syscalls {
		calls += n
	}
	if writes != f.Writes || bytes != f.Bytes || errs != f.Errors || calls != f.Writes+f.Errors+f.Unknown ||
		f.Short > f.Writes || f.Seconds < 0 || calls == 0 {
		t.Fatalf("%q: counts disagree: %+v", f.Path, f)
	}
	return calls
}
