package cli

import (
	"strings"
	"testing"
)

func TestHelpOfACommandWithRuntimes(t *testing.T) {
	for _, args := range [][]string{{"help", "runtime"}, {"runtime", "--help"}, {"h", "runtime"}} {
		out, errOut, code := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		for _, want := range []string{"gfortran", "stdio", "OPTIONS OF EACH", "--buffers", "--dir", "--from", "--record"} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: help does not mention %q:\n%s", args, want, out)
			}
		}
	}
	out, _, code := runCLI(t, "help", "runtime", "gfortran")
	if code != 0 || !strings.Contains(out, "iobench runtime gfortran - write through libgfortran") || !strings.Contains(out, "--buffers") {
		t.Errorf("help runtime gfortran: exit %d, want the runtime's own help:\n%s", code, out)
	}
}

// Each slip is one line, exit 2, naming what was typed and what to write.
func TestSlipsGetOneLineWithTheFix(t *testing.T) {
	every := []string{"sweep", "analyze", "plot", "compare", "profiles", "info", "runtime", "app", "clean", "completion", "man"}
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"sweeep"}, append([]string{`"sweeep" is not a command; did you mean sweep?`}, every...)},
		{[]string{"frobnicate", "--dir", "x"}, append([]string{`"frobnicate" is not a command (commands:`}, every...)},
		{[]string{"help", "sweeep"}, []string{`did you mean sweep?`, "runtime", "clean"}},
		{[]string{"help", "runtime", "fortran"}, []string{`"fortran" is not a command of iobench runtime; did you mean gfortran?`}},
		{[]string{"sweep", "--dri", "x"}, []string{"--dri: no such flag for iobench sweep; did you mean --dir?"}},
		{[]string{"--dri", "x"}, []string{"--dri: no such flag for iobench; did you mean --dir?"}},
		{[]string{"runtime", "gfortran", "--bufers", "4K"}, []string{"--bufers: no such flag for iobench runtime gfortran; did you mean --buffers?"}},
		{[]string{"app", "--curv", "c.json"}, []string{"did you mean --curve?"}},
		{[]string{"sweep", "--zzzzzz"}, []string{"--zzzzzz: no such flag for iobench sweep (see iobench sweep --help)"}},
		{[]string{"runtime", "--dir", "d"}, []string{"--dir: name the runtime first: iobench runtime gfortran --dir ... (one of: gfortran, stdio, mpiio, hdf5)"}},
		{[]string{"--direct", "true", "--dir", "d"}, []string{`--direct: a switch takes its value after "=": write --direct=true`}},
		{[]string{"sweep", "--dir", "d", "--keep", "false"}, []string{`--keep: a switch takes its value after "=": write --keep=false`}},
		{[]string{"sweep", "--dir", "d", "--stride", "017"}, []string{`--stride: "017": write the number in decimal`}},
		{[]string{"sweep", "--dir", "d", "--jobs=010"}, []string{`--jobs: "010": write the number in decimal`}},
		{[]string{"--dir", "d", "--seed", "010"}, []string{`--seed: "010": write the number in decimal`}},
		{[]string{"sweep", "--dir", "d", "--stride", "0x10"}, []string{`--stride: "0x10": write the number in decimal`}},
		{[]string{"sweep", "--dir", "d", "--repeat", "010"}, []string{`--repeat: "010": write the number in decimal`}},
		{[]string{"runtime", "stdio", "--dir", "d", "--seed", "07"}, []string{`--seed: "07": write the number in decimal`}},
		{[]string{"sweep", "--dir", "d", "-o", ""}, []string{"--output: the file name is empty"}},
		{[]string{"analyze", "r.json", "--output="}, []string{"--output: the file name is empty"}},
		{[]string{"app", "--output", " ", "l.darshan"}, []string{"--output: the file name is empty"}},
	} {
		_, errOut, code := runCLI(t, tc.args...)
		line := strings.TrimSpace(errOut)
		if code != 2 || strings.Contains(line, "\n") {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line", tc.args, code, errOut)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(line, w) {
				t.Errorf("%v: %q does not say %q", tc.args, line, w)
			}
		}
	}
}

func TestSuggestionIsATypoNotAnotherWord(t *testing.T) {
	names := []string{"--dir", "--size", "--sizes", "--sync", "--seed"}
	for in, want := range map[string]string{
		"--dri": "; did you mean --dir?", "--szie": "; did you mean --size?", "--DIR": "; did you mean --dir?",
		"--sizess": "; did you mean --sizes?", "--verbose": "", "--x": "",
	} {
		if got := suggestion(in, names); got != want {
			t.Errorf("suggestion(%q) = %q, want %q", in, got, want)
		}
	}
	for _, tc := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"dir", "dri", 2}, {"same", "same", 0}} {
		if got := levenshtein(tc.a, tc.b); got != tc.d {
			t.Errorf("levenshtein(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.d)
		}
	}
}

// A plain zero and numbers without a leading zero stay valid.
func TestDecimalNumbersPass(t *testing.T) {
	flags := sweepFlags()
	for _, args := range [][]string{{"--stride", "0"}, {"--seed", "0"}, {"--stride", "17"}, {"--repeat", "auto"}, {"--count=250000000"}, {"--size", "0512MiB"}} {
		if err := decimalOnly(flags, args); err != nil {
			t.Errorf("%v: %v", args, err)
		}
	}
}
