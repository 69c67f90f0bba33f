package binary

import (
	"path/filepath"
	"strings"
	"testing"
)

// StdioWriter reads the imports of the executable and of the program's
// own libraries: stdio needs a FILE opener and an output call, and no
// write(2) of the program's own.
func TestStdioWriter(t *testing.T) {
	dir := t.TempDir()
	srcs := map[string]string{
		"fwrite":   `#include <stdio.h>` + "\nint main(void) { FILE *f = fopen(\"o\", \"w\"); fwrite(\"x\", 1, 1, f); return fclose(f); }\n",
		"write":    "#include <unistd.h>\n#include <fcntl.h>\nint main(void) { int fd = open(\"o\", O_WRONLY|O_CREAT, 0644); return write(fd, \"x\", 1) != 1; }\n",
		"ddlike":   "#include <stdio.h>\n#include <unistd.h>\nint main(void) { fputs(\"done\\n\", stderr); return write(1, \"x\", 1) != 1; }\n",
		"caller":   "void out(void);\nint main(void) { out(); return 0; }\n",
		"libown.c": "#include <stdio.h>\nvoid out(void) { FILE *f = fopen(\"o\", \"w\"); fputc('x', f); fclose(f); }\n",
	}
	for name, src := range srcs {
		if name == "libown.c" || name == "caller" {
			continue
		}
		if err := build(t, "gcc", dir, name+".c", src, "-o", name); err != nil {
			t.Fatal(err)
		}
	}
	if err := build(t, "gcc", dir, "libown.c", srcs["libown.c"], "-shared", "-fPIC", "-o", "libown.so"); err != nil {
		t.Fatal(err)
	}
	own := filepath.Join(dir, "libown.so")
	if err := build(t, "gcc", dir, "libw.c", "#include <unistd.h>\nint w(void) { return write(2, \"x\", 1); }\n", "-shared", "-fPIC", "-o", "libw.so"); err != nil {
		t.Fatal(err)
	}
	if err := build(t, "gcc", dir, "caller.c", srcs["caller"], "-o", "caller", "-Wl,--no-as-needed", own); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		exe  string
		libs []string
		ok   bool
		why  string
	}{
		{"fwrite", nil, true, "fwrite imports fopen and fwrite"},
		{"write", nil, false, "neither write nor a library of its own"},
		{"ddlike", nil, false, "neither ddlike"},
		{"caller", []string{own, "/lib/x86_64-linux-gnu/libc.so.6"}, true, "libown.so imports fopen and fputc"},
		{"caller", []string{"/lib/x86_64-linux-gnu/libc.so.6"}, false, "neither caller"},
		{"fwrite", []string{filepath.Join(dir, "libw.so")}, true, "fwrite imports fopen"}, // loaded, not needed: not the program's
	} {
		why, ok := StdioWriter(filepath.Join(dir, tc.exe), tc.libs)
		if ok != tc.ok || !strings.Contains(why, tc.why) {
			t.Errorf("StdioWriter(%s, %v) = %q, %v; want %v, ~%q", tc.exe, tc.libs, why, ok, tc.ok, tc.why)
		}
	}
	if why, ok := StdioWriter("/bin/dd", nil); ok {
		t.Errorf("dd (fwrite for its messages, write(2) for its data) read as stdio: %s", why)
	}
	if _, ok := StdioWriter(filepath.Join(dir, "missing"), nil); ok {
		t.Error("a missing executable read as stdio")
	}
}
