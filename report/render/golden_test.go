package render

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/iobench/iobench/internal/testkit/golden"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/internal/fixture"
)

// checkGolden compares got with testdata/<name>.golden, or rewrites the
// file with -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, "report/render", filepath.Join("testdata", name+".golden"), got)
}

// TestGolden renders every format in the registry, each command's with
// that command's fixture, against testdata/<command>-<format>.golden, so a
// new format fails here until its golden file is written (-update).
// Plot's formats are report/plot's to test (render cannot draw them).
func TestGolden(t *testing.T) {
	for _, f := range formats {
		if f.Command == report.CmdPlot {
			continue
		}
		name := goldenName(f.Command, f.Name)
		t.Run(name, func(t *testing.T) { checkGolden(t, name, render(t, f, commandFixture(t, f.Command))) })
	}
}

// goldenVariants are the sweep's formats on the other fixtures: MPI, a
// second file system, adaptive rounds, anonymized.
var goldenVariants = []struct {
	name, format string
	report       func() *report.Report
}{
	{"text-mpi", "text", fixture.MPI},
	{"markdown-mpi", "markdown", fixture.MPI},
	{"gobench-mpi", "gobench", fixture.MPI},
	{"text-gpfs", "text", fixture.GPFS},
	{"text-adaptive", "text", fixture.Adaptive},
	{"json-adaptive", "json", fixture.Adaptive},
	{"markdown-anonymized", "markdown", func() *report.Report { return report.Anonymize(fixture.Ext4(), fixture.User) }},
	{"json-anonymized", "json", func() *report.Report { return report.Anonymize(fixture.MPI(), fixture.User) }},
	{"text-variants", "text", fixture.Variants},
	{"markdown-variants", "markdown", fixture.Variants},
	{"json-variants", "json", fixture.Variants},
	{"csv-variants", "csv", fixture.Variants},
	{"gobench-variants", "gobench", fixture.Variants},
	{"text-jobs", "text", fixture.Jobs},
	{"json-jobs", "json", fixture.Jobs},
	{"text-io", "text", fixture.IO},
	{"markdown-io", "markdown", fixture.IO},
	{"json-io", "json", fixture.IO},
	{"csv-io", "csv", fixture.IO},
}

func TestGoldenVariants(t *testing.T) {
	for _, v := range goldenVariants {
		name := goldenName(report.CmdSweep, v.name)
		t.Run(name, func(t *testing.T) {
			f, err := Lookup(report.CmdSweep, v.format)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, name, render(t, f, []report.Run{{Name: "", Report: v.report()}}))
		})
	}
}

// Every golden file is one the tests above check: none is left behind
// by a format or a variant that is gone.
func TestNoStrayGoldenFiles(t *testing.T) {
	want := map[string]bool{}
	for _, f := range formats {
		want[goldenName(f.Command, f.Name)] = f.Command != report.CmdPlot
	}
	for _, v := range goldenVariants {
		want[goldenName(report.CmdSweep, v.name)] = true
	}
	for _, name := range append(libraryGoldenNames(), appProgramGoldenNames()...) {
		want[name] = true
	}
	files, err := filepath.Glob(filepath.Join("testdata", "*.golden"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if name := strings.TrimSuffix(filepath.Base(f), ".golden"); !want[name] {
			t.Errorf("%s is checked by no test; remove it", f)
		}
	}
}

func goldenName(cmd report.Command, name string) string { return string(cmd) + "-" + name }

// commandFixture is what cmd renders in TestGolden: one report, or for
// compare three.
func commandFixture(t *testing.T, cmd report.Command) []report.Run {
	switch cmd {
	case report.CmdSweep:
		return []report.Run{{Name: "ext4.json", Report: fixture.Ext4()}}
	case report.CmdAnalyze:
		return []report.Run{{Name: "stdin", Report: fixture.Reference()}}
	case report.CmdInfo:
		return []report.Run{{Name: "", Report: fixture.Info()}}
	case report.CmdCompare:
		return []report.Run{{Name: "ext4.json", Report: fixture.Ext4()}, {Name: "gpfs.json", Report: fixture.GPFS()}, {Name: "mpi.json", Report: fixture.MPI()}}
	case report.CmdRuntime, report.CmdApp, report.CmdTune:
		return nil // render gives their formats fixture.Runtime(), fixture.App() and fixture.Tune()
	}
	t.Fatalf("no fixture for the formats of %s: add one to commandFixture", cmd)
	return nil
}

// render writes runs in format f: all of them, or the first for a
// format of one report.
func render(t *testing.T, f Format, runs []report.Run) []byte {
	t.Helper()
	var b bytes.Buffer
	var err error
	switch {
	case f.Runtime != nil:
		err = f.Runtime(&b, fixture.Runtime())
	case f.App != nil:
		err = f.App(&b, fixture.App())
	case f.Tune != nil:
		err = f.Tune(&b, fixture.Tune())
	case f.Runs != nil:
		err = f.Runs(&b, runs)
	default:
		err = f.Report(&b, runs[0].Report)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
