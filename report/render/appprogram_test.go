package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/internal/fixture"
)

// appProgramGoldenNames are the golden files of `app -- PROG`'s report,
// one per app format.
func appProgramGoldenNames() []string {
	var out []string
	for _, f := range Formats(report.CmdApp) {
		out = append(out, "app-program-"+f.Name)
	}
	return out
}

// TestGoldenAppProgram renders a program's report, its run, libraries,
// call sizes, curve and price through the runtime, in every app format.
func TestGoldenAppProgram(t *testing.T) {
	for _, f := range Formats(report.CmdApp) {
		t.Run(f.Name, func(t *testing.T) {
			var b bytes.Buffer
			if err := f.App(&b, fixture.AppProgram()); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "app-program-"+f.Name, b.Bytes())
		})
	}
}

// The text says both estimates and what the runtime's writer measured.
func TestAppProgramSaysThePriceThroughTheRuntime(t *testing.T) {
	var b bytes.Buffer
	if err := AppText(&b, fixture.AppProgram()); err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(b.String()), " ")
	for _, want := range []string{
		"through the runtime: C stdio's writer, 64-byte records",
		"0.241 s (0.236 s-0.25 s) with a 4.0 KiB buffer, 0.139 s (0.135 s-0.144 s) with a 2.0 MiB buffer",
		"saves 0.102 s (0.092 s to 0.115 s)",
		"through C stdio's own writer",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the text lacks %q:\n%s", want, b.String())
		}
	}
}
