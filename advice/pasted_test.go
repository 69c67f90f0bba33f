package advice_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/fsinfo"
	"github.com/iobench/iobench/internal/testkit/testenv"
)

// pastedKnee is the knee the printed lines are made for: 1 MiB on ext4.
const pastedKnee = 1 << 20

func pastedRows(t *testing.T, setting string) []advice.Apply {
	t.Helper()
	var out []advice.Apply
	for _, a := range advice.HowToApply(advice.ApplyFacts{Knee: pastedKnee, Buffer: pastedKnee, FS: fsinfo.Info{Type: "ext4", BlockSize: 4096, IOBlockSize: 4096}}) {
		if a.Setting == setting {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no %s line printed", setting)
	}
	return out
}

// The stdio line works when pasted: a program with it after fopen makes
// write(2) calls of the buffer's size, not st_blksize's.
func TestStdioLinePasted(t *testing.T) {
	testenv.Full(t, "a C compiler and strace")
	cc := testenv.Command(t, "cc")
	for _, row := range pastedRows(t, "setvbuf") {
		src := `#include <stdio.h>
int main(void) {
	FILE *f = fopen("out.dat", "w");
	` + row.Value + `
	for (int i = 0; i < 262144; i++) fwrite("0123456789abcdef0123456789abcdef", 32, 1, f);
	return fclose(f) != 0;
}
`
		dir := t.TempDir()
		write(t, filepath.Join(dir, "p.c"), src)
		run(t, dir, nil, cc, "-o", "p", "p.c")
		for size, n := range writeSizes(t, dir, nil, "./p") {
			if size != pastedKnee {
				t.Errorf("%q: %d write(2) calls of %d bytes, want %d", row.Value, n, size, pastedKnee)
			}
		}
	}
}

// Each printed GFORTRAN_UNFORMATTED_BUFFER_SIZE line, exported, makes a
// Fortran program's calls what its comment says: unformatted sequential
// records of 1 KiB go out in calls of at least the knee with the row for
// small records, and converted data in calls of the buffer.
func TestGfortranLinesPasted(t *testing.T) {
	testenv.Full(t, "gfortran and strace")
	fc := testenv.Command(t, "gfortran")
	dir := t.TempDir()
	write(t, filepath.Join(dir, "p.f90"), source)
	run(t, dir, nil, fc, "-o", "p", "p.f90")
	rows := pastedRows(t, "GFORTRAN_UNFORMATTED_BUFFER_SIZE")
	small := rows[len(rows)-1] // the row for small records
	env := []string{"GFORTRAN_UNFORMATTED_BUFFER_SIZE=" + small.Value}
	for size, n := range writeSizes(t, dir, env, "./p") {
		if size < pastedKnee && n > 1 {
			t.Errorf("export %s: %d write(2) calls of %d bytes, want at least %d", env[0], n, size, pastedKnee)
		}
	}
	stream := strings.Replace(source, "'sequential'", "'stream'", 1)
	write(t, filepath.Join(dir, "s.f90"), stream)
	run(t, dir, nil, fc, "-o", "s", "s.f90")
	conv := rows[0]
	env = []string{"GFORTRAN_UNFORMATTED_BUFFER_SIZE=" + conv.Value, "GFORTRAN_CONVERT_UNIT=big_endian"}
	want, _ := strconv.ParseInt(conv.Value, 10, 64)
	for size, n := range writeSizes(t, dir, env, "./s") {
		if size != want && n > 1 {
			t.Errorf("export %s, big-endian: %d write(2) calls of %d bytes, want %d", env[0], n, size, want)
		}
	}
}

// source writes 16384 unformatted sequential records of 1 KiB.
const source = `program p
  real(8) :: r(128)
  integer :: i, u
  r = 1
  open (newunit=u, file='out.dat', form='unformatted', access='sequential', status='replace')
  do i = 1, 16384
    write (u) r
  end do
  close (u)
end program p
`

// writeSizes runs prog under strace in dir and counts its write(2)
// calls to out.dat by size.
func writeSizes(t *testing.T, dir string, env []string, prog string) map[int64]int {
	t.Helper()
	st := testenv.Command(t, "strace")
	run(t, dir, env, st, "-f", "-y", "-e", "trace=write", "-o", "tr", prog)
	tr, err := os.ReadFile(filepath.Join(dir, "tr"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[int64]int{}
	for _, m := range regexp.MustCompile(`write\(\d+<[^>]*out\.dat>, .*\) = (\d+)`).FindAllStringSubmatch(string(tr), -1) {
		n, _ := strconv.ParseInt(m[1], 10, 64)
		out[n]++
	}
	if len(out) == 0 {
		t.Fatalf("no write(2) to out.dat in the trace:\n%s", tr)
	}
	return out
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func run(t *testing.T, dir string, env []string, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}
