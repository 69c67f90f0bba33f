package render

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/libcheck"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/internal/fixture"
)

// The runtime report ends with the how-to-apply block, marked measured
// where the runtime ran with that buffer.
func TestRuntimeTextAppliesWhatItMeasured(t *testing.T) {
	var b bytes.Buffer
	if err := RuntimeText(&b, fixture.Runtime()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "measured through the runtime where marked") || !strings.Contains(b.String(), "# measured; ") {
		t.Errorf("text has no measured how-to-apply block:\n%s", b.String())
	}
}

func TestRuntimeTextSaysWhatWasMeasured(t *testing.T) {
	var b bytes.Buffer
	if err := RuntimeText(&b, fixture.Runtime()); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"Measured through libgfortran:",
		"Inferred from write(2):",
		"every run made exactly the calls the buffering rule predicts",
		"array, native: any buffer:",
		"array, big-endian: export GFORTRAN_UNFORMATTED_BUFFER_SIZE=262144: 256 KiB measured x1.11 (1.07-1.16) over the default (128 KiB)",
		"records, native: export GFORTRAN_UNFORMATTED_BUFFER_SIZE=524288: 512 KiB measured x1.18", // 2K
		"array, big-endian: a buffer of 256 KiB: converted data",
		"they agree",
		"differ (",
	} {
		if !strings.Contains(oneLine(out), want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
}

func TestRuntimeCSVAndJSONParse(t *testing.T) {
	r := fixture.Runtime()
	var b bytes.Buffer
	if err := RuntimeCSV(&b, r); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+len(r.Summary.Cases) || len(rows[0]) != len(runtimeCSVHeader) {
		t.Errorf("%d rows of %d columns, want %d of %d", len(rows), len(rows[0]), 1+len(r.Summary.Cases), len(runtimeCSVHeader))
	}
	b.Reset()
	if err := RuntimeJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	var back report.RuntimeReport
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Summary.Cases) != 20 || len(back.Summary.Advice) != 4 || len(back.Samples) != 100 {
		t.Errorf("JSON holds %d cases, %d advice, %d samples; want 20, 4, 100", len(back.Summary.Cases), len(back.Summary.Advice), len(back.Samples))
	}
}

// An adaptive runtime report says what its rounds did and why they
// stopped, in text and JSON.
func TestRuntimeAdaptiveReport(t *testing.T) {
	r := fixture.Runtime()
	r.Config.RepeatAuto = true
	r.Adaptive = &libcheck.Adaptive{Rounds: 8, CasesPerRound: []int{20, 20, 20, 6, 6, 6, 6, 4}, FirstRoundSeconds: 12.2, BudgetSeconds: 61,
		SpentSeconds: 58.4, Stop: record.StopBudget, NextRoundSeconds: 4.1,
		Undecided: []libcheck.UndecidedCase{{Case: libcheck.Case{Layout: libcheck.LayoutRecords, Convert: "big-endian", BufferBytes: 256 << 10}, Gain: true}}}
	var text bytes.Buffer
	if err := RuntimeText(&text, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"timing: adaptive rounds (--repeat auto: at least 3 of every case, then the undecided recommended cases with their defaults, within a time budget of 5 x the first round)",
		"rounds: 8 adaptive rounds of 20, 20, 20, 6 (x4), 4 cases; stopped because the next round (about 4.1s) would overrun the budget; 58s of a 1m1s budget (5 x the first round's 12s); undecided: records big-endian 256 KiB (gain) write(2):",
	} {
		if !strings.Contains(oneLine(text.String()), want) {
			t.Errorf("no %q in:\n%s", want, text.String())
		}
	}
	r.Adaptive.Stop, r.Adaptive.Undecided = record.StopEstablished, nil
	if line := RuntimeAdaptiveLine(r.Adaptive); !strings.Contains(line, "stopped because every recommended case is decided;") || strings.Contains(line, "undecided") {
		t.Errorf("established: %q", line)
	}
	var js bytes.Buffer
	if err := RuntimeJSON(&js, r); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Config   report.RuntimeConfig `json:"config"`
		Adaptive libcheck.Adaptive    `json:"adaptive"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil || !doc.Config.RepeatAuto || doc.Adaptive.Stop != record.StopEstablished || doc.Adaptive.Rounds != 8 {
		t.Errorf("JSON: %v; config %+v, adaptive %+v", err, doc.Config, doc.Adaptive)
	}
}

// A buffer the runtime measured slower than its default is never what the
// verdict or the how-to-apply block sets, and the verdict says slower.
func TestRuntimeVerdictNeverSetsASlowerBuffer(t *testing.T) {
	r := fixture.Runtime()
	for i, a := range r.Summary.Advice {
		if a.BufferBytes == 256<<10 {
			r.Summary.Advice[i].Gain = &knee.Gain{Ratio: 0.78, Low: 0.75, High: 0.79, P: 0.0079, Runs: 5, PlateauRuns: 5}
		}
	}
	r.SetApply()
	var b bytes.Buffer
	if err := RuntimeText(&b, r); err != nil {
		t.Fatal(err)
	}
	out := oneLine(b.String())
	for _, want := range []string{
		"array, big-endian: keep the default (128 KiB): 256 KiB measured x0.78 (0.75-0.79) over the default (128 KiB); slower, p = 0.0079: established",
		"# measured; the default: 256 KiB measured slower than the default export GFORTRAN_UNFORMATTED_BUFFER_SIZE=131072",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, b.String())
		}
	}
	if strings.Contains(out, "GFORTRAN_UNFORMATTED_BUFFER_SIZE=262144") || strings.Contains(out, "no real gain") {
		t.Errorf("sets the slower 256 KiB, or calls a loss no real gain:\n%s", b.String())
	}
}

// oneLine is text with its wrapped lines joined and runs of blanks as one.
func oneLine(text string) string {
	return strings.Join(strings.Fields(text), " ")
}
