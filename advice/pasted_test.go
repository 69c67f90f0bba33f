package advice_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/internal/testenv"
)

// The stdio line works when pasted: a program with it after fopen makes
// write(2) calls of the buffer's size, not st_blksize's.
func TestStdioLinePasted(t *testing.T) {
	testenv.Full(t, "a C compiler and strace")
	cc := testenv.Command(t, "cc")
	st := testenv.Command(t, "strace")
	const buf = 65536
	dir := t.TempDir()
	src := `#include <stdio.h>
int main(void) {
	FILE *f = fopen("out.dat", "w");
	` + advice.StdioSetvbuf(buf) + `;
	for (int i = 0; i < 16384; i++) fwrite("0123456789abcdef0123456789abcdef", 32, 1, f);
	return fclose(f) != 0;
}
`
	if err := os.WriteFile(filepath.Join(dir, "p.c"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, dir, cc, "-o", "p", "p.c")
	run(t, dir, st, "-f", "-y", "-e", "trace=write", "-o", "tr", "./p")
	tr, err := os.ReadFile(filepath.Join(dir, "tr"))
	if err != nil {
		t.Fatal(err)
	}
	calls := regexp.MustCompile(`write\(\d+<[^>]*out\.dat>, .*\) = (\d+)`).FindAllStringSubmatch(string(tr), -1)
	if len(calls) != 8 {
		t.Fatalf("%d writes to out.dat, want 8 of %d bytes:\n%s", len(calls), buf, tr)
	}
	for _, c := range calls {
		if c[1] != "65536" {
			t.Errorf("a write(2) of %s bytes, want %d", c[1], buf)
		}
	}
}

func run(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}
