package page

import (
	"slices"
	"strings"
	"testing"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/fsinfo"
)

func TestShellJoin(t *testing.T) {
	got := ShellJoin([]string{"iobench", "--dir", "/mnt/my data", "--sizes=4KiB,1MiB", "it's", "<dir>/x", "a;b"})
	want := `iobench --dir '/mnt/my data' --sizes=4KiB,1MiB 'it'\''s' <dir>/x 'a;b'`
	if got != want {
		t.Errorf("ShellJoin = %s\nwant        %s", got, want)
	}
	if got := ShellWord("*:a=1"); got != "'*:a=1'" {
		t.Errorf("ShellWord(*:a=1) = %s, want it quoted", got)
	}
}

func TestSentence(t *testing.T) {
	for in, want := range map[string]string{"": "", "knee: 2 MiB": "Knee: 2 MiB", "Knee": "Knee"} {
		if got := Sentence(in); got != want {
			t.Errorf("Sentence(%q) = %q, want %q", in, got, want)
		}
	}
}

// A fence is longer than any backtick run inside, so nothing closes it.
func TestFenced(t *testing.T) {
	var p Page
	p.Fenced("sh", []string{"echo ```", "ok"})
	if want := "````sh\necho ```\nok\n````\n"; p.String() != want {
		t.Errorf("Fenced = %q, want %q", p.String(), want)
	}
}

// lustreRows are the how-to-apply rows of a 2 MiB knee on Lustre, with
// libgfortran measured at the buffer.
func lustreRows() []advice.Apply {
	return advice.HowToApply(advice.ApplyFacts{Knee: 2 << 20, Buffer: 2 << 20, FS: fsinfo.Info{Type: "lustre", BlockSize: 4096},
		StripeSize: 1 << 20, Measured: map[string][]int64{advice.RuntimeLibgfortran: {2 << 20}}})
}

// The block is shell to paste: each runtime named in a comment, exports
// quoted where they need it, the hints file as a here-document, C calls
// as comments, the directory quoted, and the comments lined up.
func TestApplyLines(t *testing.T) {
	lines := ApplyLines(lustreRows(), "/lus/my dir")
	for _, want := range []string{
		"# libgfortran",
		"export GFORTRAN_UNFORMATTED_BUFFER_SIZE=2097152  # measured; unformatted: converted data goes out in calls of this size",
		"# in C, after fopen: static char b[2097152]; setvbuf(f, b, _IOFBF, sizeof b);",
		"cat > romio-hints <<'EOF'",
		"export MPICH_MPIIO_HINTS='*:striping_unit=2097152:cb_buffer_size=16777216:ind_wr_buffer_size=2097152'  # HPE Cray MPICH: the same hints",
		"lfs setstripe -S 2097152 '/lus/my dir'           # new files in <dir>",
	} {
		if !slices.Contains(lines, want) {
			t.Errorf("no line %q in\n%s", want, strings.Join(lines, "\n"))
		}
	}
	if got := ApplyLines(lustreRows(), ""); !slices.Contains(got, "lfs setstripe -S 2097152 <dir>                   # new files in <dir>") {
		t.Errorf("without a directory, want the <dir> placeholder:\n%s", strings.Join(got, "\n"))
	}
	gpfs := advice.HowToApply(advice.ApplyFacts{Knee: 2 << 20, Buffer: 2 << 20, FS: fsinfo.Info{Type: "gpfs", BlockSize: 16 << 20}})
	if got := ApplyLines(gpfs, ""); !slices.Contains(got, "# write whole, aligned blocks: block size 16777216 (16 MiB)") {
		t.Errorf("GPFS's block size, a fact, want it a comment:\n%s", strings.Join(got, "\n"))
	}
}

// A runtime whose rows rest on one basis says it once; one whose rows
// differ gives each its whole note.
func TestApplyNotes(t *testing.T) {
	var p Page
	p.ApplyNotes(lustreRows())
	for _, want := range []string{
		"- libgfortran:\n  - `GFORTRAN_UNFORMATTED_BUFFER_SIZE=2097152`: Plain decimal bytes",
		"- Intel Fortran, not measured through it: inferred from the write(2) sweep",
		"  - `FORT_BUFFERED=true`: Buffer output: without it each WRITE statement goes to the file system by itself, whatever its size.\n",
		"  - `static char b[2097152]; setvbuf(f, b, _IOFBF, sizeof b);`: After fopen",
		"  - `ROMIO_HINTS file: striping_unit 2097152; cb_buffer_size 16777216; ind_wr_buffer_size 2097152`: Write these lines",
		"  - `lfs setstripe -S 2097152`: The stripe size of new files",
	} {
		if !strings.Contains(p.String(), want) {
			t.Errorf("notes lack %q:\n%s", want, p.String())
		}
	}
}
