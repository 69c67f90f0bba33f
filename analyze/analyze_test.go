package analyze_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/iobench/iobench/analyze"
	"github.com/iobench/iobench/internal/testkit/testwait"
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/verdict"
)

func asParseError(err error, pe **analyze.ParseError) bool { return errors.As(err, pe) }

func TestDetect(t *testing.T) {
	tests := []struct {
		name, text string
		want       analyze.Format
	}{
		{"json", `  {"tool": {"name": "iobench"}, "results": [{"mode": "write", "write_size": 8, "mib_per_s": 1,
			"samples": [{"mode": "write", "write_size": 8, "seconds": 1, "bytes": 1048576}]}]}`, analyze.FormatJSON},
		{"csv", "mode,write_size,round,mib_per_s\nwrite,8192,1,100\n", analyze.FormatCSV},
		{"csv, reordered and quoted", "\"mib_per_s\",\"write_size\"\n100,8192\n", analyze.FormatCSV},
		{"text", "\n\nTest using 1.000000e+06 doubles\nbs =       1024, 1.00 MiB/s\n", analyze.FormatPR91030},
		{"text without the header lines", "Test using 1e6 doubles\nbs =       1024, 1.00 MiB/s\n", analyze.FormatPR91030},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := parse(t, "f", tt.text).Format; got != tt.want {
				t.Errorf("Format = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDetectErrors(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"empty", "", "analyze: in: empty input"},
		{"blank", " \n\t\n", "analyze: in: empty input"},
		{"unknown", "hello,world\n1,2\n",
			`analyze: in: not iobench JSON, iobench CSV or pr91030 output (it starts with "hello,world")`},
		{"long first line", strings.Repeat("x", 100),
			`analyze: in: not iobench JSON, iobench CSV or pr91030 output (it starts with "` + strings.Repeat("x", 60) + `...")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkError(t, "in", tt.text, tt.want) })
	}
}

func TestParseFile(t *testing.T) {
	in := mustParseFile(t, smallJSON)
	if in.Name != smallJSON || in.Format != analyze.FormatJSON {
		t.Errorf("Name %q, Format %q", in.Name, in.Format)
	}
	_, err := analyze.ParseFile(filepath.Join(t.TempDir(), "missing.json"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: got %v, want an error wrapping ErrNotExist", err)
	}
}

func TestParseFileStdin(t *testing.T) {
	f, err := os.Open(smallText)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	saved := os.Stdin
	os.Stdin = f
	t.Cleanup(func() { os.Stdin = saved })
	in := mustParseFile(t, "-")
	if diff := cmp.Diff([]string{"stdin", string(analyze.FormatPR91030)}, []string{in.Name, string(in.Format)}); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// failingReader stands in for an I/O error while reading.
type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("input/output error") }

func TestParseReadError(t *testing.T) {
	_, err := analyze.Parse("disk.txt", failingReader{})
	if err == nil || err.Error() != "analyze: disk.txt: input/output error" {
		t.Errorf("got %v", err)
	}
	var pe *analyze.ParseError
	if errors.As(err, &pe) {
		t.Errorf("a read error is not a ParseError")
	}
}

// TestResult: SetResult of Input.Result gives back the parsed rows and
// computes the knees, and with three rounds the knee's stability.
func TestResult(t *testing.T) {
	for _, path := range []string{smallText, smallJSON, smallCSV, "testdata/pr91030-3runs.txt"} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			in := mustParseFile(t, path)
			want := in.Report.Results
			rep := *in.Report
			rep.Config.KneeFraction = knee.DefaultFraction
			rep.SetResult(in.Result())
			if diff := cmp.Diff(want, rep.Results); diff != "" {
				t.Errorf("Results (-want +got):\n%s", diff)
			}
			wantKnee := knee.EstimateKnee(verdict.Runs(want, record.ModeWrite), knee.DefaultFraction)
			if diff := cmp.Diff(wantKnee, rep.Knee); diff != "" {
				t.Errorf("Knee (-want +got):\n%s", diff)
			}
			if got, want := rep.KneeStability != nil, rep.Config.Repeat >= verdict.MinStabilityRounds; got != want {
				t.Errorf("KneeStability set: %v, want %v (repeat %d)", got, want, rep.Config.Repeat)
			}
		})
	}
}

// Only regular files are read, a FIFO without a writer is refused rather
// than waited for, and endless or huge input stops at MaxInputBytes.
func TestParseFileRefusesWhatIsNotAReport(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.json")
	if err := os.WriteFile(huge, bytes.Repeat([]byte(" "), analyze.MaxInputBytes+1), 0o600); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		fifo:        "not a regular file (a FIFO)",
		"/dev/zero": "not a regular file (a device)",
		dir:         "not a regular file (a directory)",
		huge:        "larger than 64 MiB: not an iobench report",
	} {
		done := make(chan error, 1)
		go func() { _, err := analyze.ParseFile(path); done <- err }()
		if err := testwait.Recv(t, "return from ParseFile("+path+")", done); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", path, err, want)
		}
	}
	if _, err := analyze.Parse("zero", io.LimitReader(zeros{}, 1<<40)); err == nil || !strings.Contains(err.Error(), "larger than 64 MiB") {
		t.Errorf("endless input: err = %v", err)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }
