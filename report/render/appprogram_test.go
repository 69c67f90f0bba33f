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

// A launcher's ranks are counted in the text and in JSON; a program
// without one says nothing of ranks (its goldens are unchanged).
func TestAppProgramSaysTheRanksTraced(t *testing.T) {
	tests := []struct {
		ranks report.AppRanks
		text  string
	}{
		{report.AppRanks{Launcher: "mpirun", Traced: 2, Asked: 2}, "ranks: traced 2 of 2 ranks (strace inside the launcher: mpirun itself is not traced)"},
		{report.AppRanks{Launcher: "srun", Traced: 3, Asked: 4}, "traced 3 of 4 ranks (strace inside the launcher: srun itself is not traced); 1 left no trace"},
		{report.AppRanks{Launcher: "mpiexec.hydra", Traced: 3}, "ranks: traced 3 ranks (strace inside the launcher: mpiexec.hydra itself is not traced); the command line does not say"},
	}
	for _, tt := range tests {
		rep := fixture.AppProgram()
		rep.Program.Ranks = &tt.ranks
		var text, js bytes.Buffer
		if err := AppText(&text, rep); err != nil {
			t.Fatal(err)
		}
		if err := AppJSON(&js, rep); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(strings.Fields(text.String()), " "); !strings.Contains(got, tt.text) {
			t.Errorf("the text lacks %q:\n%s", tt.text, text.String())
		}
		if !strings.Contains(js.String(), `"ranks": {`) || !strings.Contains(js.String(), `"launcher": "`+tt.ranks.Launcher+`"`) {
			t.Errorf("JSON lacks the ranks of %+v", tt.ranks)
		}
	}
	var js bytes.Buffer
	if err := AppJSON(&js, fixture.AppProgram()); err != nil || strings.Contains(js.String(), `"ranks"`) {
		t.Errorf("JSON of a program without a launcher has ranks (%v)", err)
	}
}
