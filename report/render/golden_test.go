package report

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/iobench/iobench/internal/golden"
)

// checkGolden compares got with testdata/<name>.golden, or rewrites the
// file with -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, "report", filepath.Join("testdata", name+".golden"), got)
}

// TestGolden renders every format in the registry, each command's with
// that command's fixture, against testdata/<command>-<format>.golden, so a
// new format fails here until its golden file is written (-update).
// Plot's formats are report/plot's to test: report cannot draw them.
func TestGolden(t *testing.T) {
	for _, f := range formats {
		if f.Command == CmdPlot {
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
	report       func() *Report
}{
	{"text-mpi", "text", mpiReport},
	{"markdown-mpi", "markdown", mpiReport},
	{"gobench-mpi", "gobench", mpiReport},
	{"text-gpfs", "text", gpfsReport},
	{"text-adaptive", "text", adaptiveReport},
	{"json-adaptive", "json", adaptiveReport},
	{"markdown-anonymized", "markdown", func() *Report { return Anonymize(fixedReport(), fixtureUser) }},
	{"json-anonymized", "json", func() *Report { return Anonymize(mpiReport(), fixtureUser) }},
	{"text-variants", "text", variantsReport},
	{"markdown-variants", "markdown", variantsReport},
	{"json-variants", "json", variantsReport},
	{"csv-variants", "csv", variantsReport},
	{"gobench-variants", "gobench", variantsReport},
	{"text-jobs", "text", jobsReport},
	{"json-jobs", "json", jobsReport},
	{"text-io", "text", ioReport},
	{"markdown-io", "markdown", ioReport},
	{"json-io", "json", ioReport},
	{"csv-io", "csv", ioReport},
}

func TestGoldenVariants(t *testing.T) {
	for _, v := range goldenVariants {
		name := goldenName(CmdSweep, v.name)
		t.Run(name, func(t *testing.T) {
			f, err := Lookup(CmdSweep, v.format)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, name, render(t, f, []Run{{"", v.report()}}))
		})
	}
}

// Every golden file is one the tests above check: none is left behind
// by a format or a variant that is gone.
func TestNoStrayGoldenFiles(t *testing.T) {
	want := map[string]bool{}
	for _, f := range formats {
		want[goldenName(f.Command, f.Name)] = f.Command != CmdPlot
	}
	for _, v := range goldenVariants {
		want[goldenName(CmdSweep, v.name)] = true
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

func goldenName(cmd Command, name string) string { return string(cmd) + "-" + name }

// commandFixture is what cmd renders in TestGolden: one report, or for
// compare three.
func commandFixture(t *testing.T, cmd Command) []Run {
	switch cmd {
	case CmdSweep:
		return []Run{{"ext4.json", fixedReport()}}
	case CmdAnalyze:
		return []Run{{"stdin", referenceReport()}}
	case CmdInfo:
		return []Run{{"", infoReport()}}
	case CmdCompare:
		return []Run{{"ext4.json", fixedReport()}, {"gpfs.json", gpfsReport()}, {"mpi.json", mpiReport()}}
	case CmdRuntime, CmdApp:
		return nil // render gives their formats runtimeReport() and appReport()
	}
	t.Fatalf("no fixture for the formats of %s: add one to commandFixture", cmd)
	return nil
}

// render writes runs in format f: all of them, or the first for a
// format of one report.
func render(t *testing.T, f Format, runs []Run) []byte {
	t.Helper()
	var b bytes.Buffer
	var err error
	switch {
	case f.Runtime != nil:
		err = f.Runtime(&b, runtimeReport(t))
	case f.App != nil:
		err = f.App(&b, appReport(t))
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
