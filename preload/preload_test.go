package preload

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// writer fopen()s argv[1] and writes 4000 records of 64 bytes (256000
// bytes, one write(2) with a 1 MiB buffer), reads it back (not to be
// buffered: read-only), then writes a line through fdopen(argv[2], "a")
// and through freopen(argv[3], "w", stdout): three streams in all.
const writer = `#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) {
	char rec[64], back[64];
	if (argc != 4) return 9;
	memset(rec, 'x', sizeof rec - 1);
	rec[63] = '\n';
	FILE *f = fopen(argv[1], "w");
	if (f == NULL) return 1;
	for (int i = 0; i < 4000; i++)
		if (fwrite(rec, sizeof rec, 1, f) != 1) return 2;
	if (fclose(f) != 0) return 3;
	FILE *r = fopen(argv[1], "r");
	if (r == NULL || fread(back, 1, sizeof back, r) != sizeof back) return 4;
	fclose(r);
	int fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	FILE *a = fdopen(fd, "a");
	if (a == NULL || fputs("fdopen\n", a) < 0 || fclose(a) != 0) return 5;
	if (freopen(argv[3], "w", stdout) == NULL) return 6;
	printf("freopen\n");
	return 0;
}
`

// cc is the C compiler Build would use; the test is skipped without one.
func cc(t *testing.T) []string {
	t.Helper()
	c, err := compiler()
	if err != nil {
		t.Skipf("needs a C compiler: %v", err)
	}
	return c
}

func run(t *testing.T, ctx context.Context, env []string, name string, args ...string) {
	t.Helper()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
}

// built is the shim and the writer program, compiled into one temp dir.
func built(t *testing.T, ctx context.Context) (Shim, string, string) {
	t.Helper()
	c := cc(t)
	dir := t.TempDir()
	shim, err := Build(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(shim.Path) {
		t.Errorf("Path %q is not absolute: LD_PRELOAD would be read in the program's directory", shim.Path)
	}
	src := filepath.Join(dir, "writer.c")
	if err := os.WriteFile(src, []byte(writer), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(dir, "writer")
	run(t, ctx, os.Environ(), c[0], append(slices.Clone(c[1:]), "-O2", "-o", prog, src)...)
	return shim, prog, dir
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestShimBuffersWrittenStreams(t *testing.T) {
	ctx := testContext(t)
	shim, prog, dir := built(t, ctx)
	report := filepath.Join(dir, "report")
	run(t, ctx, shim.Env(os.Environ(), 1<<20, report), prog,
		filepath.Join(dir, "data"), filepath.Join(dir, "fdopen"), filepath.Join(dir, "freopen"))
	got, err := ReadReport(report)
	if err != nil {
		t.Fatal(err)
	}
	// The read-only stream is not counted.
	if want := (Loaded{Processes: 1, Files: 3, Buffer: 1 << 20}); got != want {
		t.Errorf("report %+v, want %+v", got, want)
	}
	for name, want := range map[string]int{"data": 256000, "fdopen": 7, "freopen": 8} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Size() != int64(want) {
			t.Errorf("%s: %v, size want %d", name, err, want)
		}
	}
}

func TestShimIgnoresInvalidSize(t *testing.T) {
	ctx := testContext(t)
	shim, prog, dir := built(t, ctx)
	for _, size := range []string{"abc", "0", "-5", "12k"} {
		report := filepath.Join(dir, "report-"+size)
		env := append(shim.Env(os.Environ(), 1, report), BufferEnv+"="+size)
		run(t, ctx, env, prog, filepath.Join(dir, "data"), filepath.Join(dir, "fdopen"), filepath.Join(dir, "freopen"))
		got, err := ReadReport(report)
		if err != nil {
			t.Fatal(err)
		}
		if want := (Loaded{Processes: 1}); got != want {
			t.Errorf("%s=%s: report %+v, want %+v", BufferEnv, size, got, want)
		}
	}
}

// writeLine is one write(2) on a file strace -y names: pid, fd<path>, size.
var writeLine = regexp.MustCompile(`write\(\d+<([^>]*)>, .*\) = (\d+)$`)

// writes are the sizes of the write calls made on path, read from an
// strace -y output.
func writes(t *testing.T, trace, path string) []int {
	t.Helper()
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, l := range strings.Split(string(b), "\n") {
		if m := writeLine.FindStringSubmatch(l); m != nil && m[1] == path {
			n, _ := strconv.Atoi(m[2])
			out = append(out, n)
		}
	}
	return out
}

func TestShimWriteSizesUnderStrace(t *testing.T) {
	ctx := testContext(t)
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("needs strace to count write(2) calls")
	}
	if err := exec.CommandContext(ctx, strace, "-o", os.DevNull, "true").Run(); err != nil {
		t.Skipf("strace cannot trace here (ptrace not allowed?): %v", err)
	}
	shim, prog, dir := built(t, ctx)
	data := filepath.Join(dir, "data")
	args := []string{data, filepath.Join(dir, "fdopen"), filepath.Join(dir, "freopen")}

	// strace -E gives the environment to the program only, so strace
	// itself does not load the shim.
	report := filepath.Join(dir, "report")
	var e []string
	for _, kv := range shim.Env(nil, 1<<20, report) {
		e = append(e, "-E", kv)
	}
	withT, withoutT := filepath.Join(dir, "with.trace"), filepath.Join(dir, "without.trace")
	run(t, ctx, os.Environ(), strace, append(append([]string{"-f", "-y", "-e", "trace=write", "-o", withT}, e...), append([]string{"--", prog}, args...)...)...)
	run(t, ctx, os.Environ(), strace, append([]string{"-f", "-y", "-e", "trace=write", "-o", withoutT, "--", prog}, args...)...)

	with, without := writes(t, withT, data), writes(t, withoutT, data)
	t.Logf("writes with the shim %v; without: %d calls, largest %d", with, len(without), slices.Max(append(without, 0)))
	if !slices.Equal(with, []int{256000}) {
		t.Errorf("with a 1 MiB buffer: writes %v, want one of 256000", with)
	}
	if len(without) < 2 || slices.Max(without) > 4096 {
		t.Errorf("without the shim: writes %v, want calls of glibc's 4096-byte buffer", without)
	}
	if got, err := ReadReport(report); err != nil || got.Processes != 1 {
		t.Errorf("report under strace %+v, %v: want 1 process (the program, not strace)", got, err)
	}
}

// TestShimCompilesWithoutWarnings holds the source to more than Build's
// -Wall: a warning is a bug waiting in a library loaded into any program.
func TestShimCompilesWithoutWarnings(t *testing.T) {
	c := cc(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "shim.c")
	if err := os.WriteFile(src, shimSource, 0o644); err != nil {
		t.Fatal(err)
	}
	args := append(slices.Clone(c[1:]), "-shared", "-fPIC", "-O2", "-Wall", "-Wextra", "-Werror", "-o", filepath.Join(dir, "x.so"), src, "-ldl")
	if out, err := exec.CommandContext(testContext(t), c[0], args...).CombinedOutput(); err != nil || len(out) != 0 {
		t.Errorf("%s %v: %v\n%s", c[0], args, err, out)
	}
}

func TestBuildErrors(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CC", filepath.Join(dir, "no-such-cc"))
	_, err := Build(t.Context(), dir)
	if err == nil || !strings.Contains(err.Error(), "building the stdio shim") || !strings.Contains(err.Error(), "no-such-cc") {
		t.Errorf("missing $CC: %v, want it named", err)
	}

	// A compiler that fails: its first stderr lines are the error.
	fake := filepath.Join(dir, "fake-cc")
	script := "#!/bin/sh\necho 'shim.c:1: error: boom' >&2\necho 'second line' >&2\necho >&2\necho 3 >&2\necho 4 >&2\nexit 1\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CC", fake+" -m64")
	_, err = Build(t.Context(), filepath.Join(dir, "out"))
	want := "building the stdio shim: " + fake + ": shim.c:1: error: boom; second line; 3"
	if err == nil || err.Error() != want {
		t.Errorf("failing compiler: %v\nwant %s", err, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", libName+".tmp")); err == nil {
		t.Error("a failed build left its temporary output")
	}

	if _, err := Build(t.Context(), filepath.Join(dir, "a b")); err == nil || !strings.Contains(err.Error(), "LD_PRELOAD") {
		t.Errorf("directory with a space: %v, want refused", err)
	}
}

func TestEnv(t *testing.T) {
	s := Shim{Path: "/opt/shim/libiobench-stdio.so"}
	base := []string{"PATH=/bin", "LD_PRELOAD=/x/a.so:/x/b.so", BufferEnv + "=1", "HOME=/h", ReportEnv + "=/stale"}
	got := s.Env(base, 1<<20, "/tmp/r")
	want := []string{"PATH=/bin", "HOME=/h", "LD_PRELOAD=/opt/shim/libiobench-stdio.so /x/a.so /x/b.so", BufferEnv + "=1048576", ReportEnv + "=/tmp/r"}
	if !slices.Equal(got, want) {
		t.Errorf("Env\n got %q\nwant %q", got, want)
	}
	if base[1] != "LD_PRELOAD=/x/a.so:/x/b.so" {
		t.Errorf("base modified: %q", base)
	}
	if again := s.Env(got, 1<<20, "/tmp/r"); !slices.Equal(again, want) {
		t.Errorf("Env of its own output grows: %q", again)
	}
	if got := s.Env([]string{"PATH=/bin", ReportEnv + "=/stale"}, 4096, ""); !slices.Equal(got, []string{"PATH=/bin", "LD_PRELOAD=" + s.Path, BufferEnv + "=4096"}) {
		t.Errorf("Env with no LD_PRELOAD nor report: %q", got)
	}
}

func TestReadReport(t *testing.T) {
	dir := t.TempDir()
	if got, err := ReadReport(filepath.Join(dir, "none")); err != nil || got != (Loaded{}) {
		t.Errorf("missing report: %+v, %v; want 0 loaded, no error", got, err)
	}
	// Two processes and a forked child that exited: it reports no files
	// of its parent's.
	p := filepath.Join(dir, "r")
	os.WriteFile(p, []byte("loaded pid=10 buffer=1048576\nloaded pid=11 buffer=1048576\nfiles=0\nfiles=2\nfiles=0\nfiles=3\n"), 0o600)
	if got, err := ReadReport(p); err != nil || got != (Loaded{Processes: 2, Files: 5, Buffer: 1 << 20}) {
		t.Errorf("report: %+v, %v", got, err)
	}
	os.WriteFile(p, []byte("loaded pid=10 buffer=1048576\nfiles=x\n"), 0o600)
	if _, err := ReadReport(p); err == nil || !strings.Contains(err.Error(), ":2:") {
		t.Errorf("malformed line: %v, want an error naming line 2", err)
	}
}

func TestLimits(t *testing.T) {
	all := strings.Join(Limits(), "\n")
	for _, w := range []string{"static", "setuid", "iostream", "Fortran", "setvbuf"} {
		if !strings.Contains(all, w) {
			t.Errorf("Limits does not mention %s:\n%s", w, all)
		}
	}
}

func TestApplicable(t *testing.T) {
	if ok, why := Applicable("/bin/sh"); !ok {
		t.Errorf("/bin/sh: %s", why)
	}
	dir := t.TempDir()
	write := func(name, text string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		exe  string
		ok   bool
		want string
	}{
		{write("script", "#!/bin/sh\necho hi\n", 0o755), true, ""},
		{write("envscript", "#!/usr/bin/env sh\necho hi\n", 0o755), true, ""},
		{write("text", "hello\n", 0o755), false, "neither an ELF"},
		{filepath.Join(dir, "missing"), false, "no such file"},
		{"sh", true, ""},
	} {
		if ok, why := Applicable(c.exe); ok != c.ok || !strings.Contains(why, c.want) {
			t.Errorf("Applicable(%s) = %v, %q; want %v, %q", c.exe, ok, why, c.ok, c.want)
		}
	}

	sh, err := os.ReadFile("/bin/sh")
	if err != nil {
		t.Skip(err)
	}
	suid := write("suid", string(sh), 0o755|os.ModeSetuid)
	if fi, err := os.Stat(suid); err != nil || fi.Mode()&os.ModeSetuid == 0 {
		t.Logf("cannot set the setuid bit here: %v", err)
	} else if ok, why := Applicable(suid); ok || !strings.Contains(why, "setuid") {
		t.Errorf("setuid copy of /bin/sh: %v, %q", ok, why)
	}
	if ok, why := Applicable(write("sgid", string(sh), 0o755|os.ModeSetgid)); ok || !strings.Contains(why, "setgid") {
		t.Errorf("setgid copy of /bin/sh: %v, %q", ok, why)
	}
}

func TestApplicableStatic(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("needs gcc for -static")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "s.c")
	os.WriteFile(src, []byte("int main(void) { return 0; }\n"), 0o644)
	exe := filepath.Join(dir, "s")
	if out, err := exec.CommandContext(testContext(t), gcc, "-static", "-o", exe, src).CombinedOutput(); err != nil {
		t.Skipf("gcc -static fails (no static libc?): %v\n%s", err, out)
	}
	if ok, why := Applicable(exe); ok || !strings.Contains(why, "PT_INTERP") {
		t.Errorf("static binary: %v, %q", ok, why)
	}
	script := filepath.Join(dir, "via-static")
	os.WriteFile(script, []byte("#!"+exe+"\n"), 0o755)
	if ok, why := Applicable(script); ok || !strings.Contains(why, "PT_INTERP") {
		t.Errorf("script run by a static interpreter: %v, %q", ok, why)
	}
}
