package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"github.com/iobench/iobench/advice"

	"github.com/iobench/iobench/convert"
	"github.com/iobench/iobench/fsinfo"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/runtimes"
)

// runtimeReport is a fixed gfortran run on ext4 with fsync: 256 MiB per
// run, 5 rounds, against a write(2) sweep whose curve rises to 256 KiB.
// Through the runtime the converted writes reach 90% of write(2), except
// at 16 MiB, where they fall short of what the sweep predicts, so the
// report has cases that agree and one that does not.
func runtimeReport(t *testing.T) *RuntimeReport {
	t.Helper()
	p := runtimes.Plan{Dir: "/scratch/alice/run1", Prefix: ".iobench-node17-1-000000000000", Elements: 32 << 20, RecordBytes: 1024,
		Layouts: runtimes.Layouts(), Orders: []convert.Order{convert.Native, convert.BigEndian},
		Buffers: []int64{8 << 10, 128 << 10, 256 << 10, 512 << 10, 16 << 20}, DefaultBuffer: runtimes.GfortranDefaultBuffer,
		Rounds: 5, Seed: 42, Fsync: true, Sync: iobench.SyncFS, Warmup: true}
	curve := func(size int64) float64 { return 2000 * float64(size) / float64(size+32<<10) }
	noise := []float64{1.0, 0.98, 1.02, 0.99, 1.01}
	var sweepRuns []knee.Runs
	for _, size := range iobench.PowersOfTwo(8<<10, 16<<20) {
		r := knee.Runs{Size: size}
		for _, f := range noise {
			r.MiBPerSec = append(r.MiBPerSec, curve(size)*f)
		}
		sweepRuns = append(sweepRuns, r)
	}
	sw := runtimes.NewSweep("a quick write(2) sweep of the same directory", sweepRuns, 256<<10, 256<<10, true, 0.95)
	res := &runtimes.Result{WarmupRan: true}
	for _, s := range p.Steps() {
		pat := runtimes.Pattern{Bytes: p.Bytes(), BufferBytes: s.BufferBytes, Swap: s.Swap()}
		if s.Layout == runtimes.LayoutRecords {
			pat.RecordBytes = p.RecordBytes
		}
		calls, err := runtimes.Predict(runtimes.Gfortran, pat)
		if err != nil {
			t.Fatal(err)
		}
		share := 0.9
		if s.BufferBytes == 16<<20 && s.Swap() {
			share = 0.6
		}
		mib := curve(min(p.Bytes()/calls.Count, 64<<20)) * share * noise[s.Round-1]
		res.Samples = append(res.Samples, runtimes.Sample{Step: s, Nanos: int64(float64(p.Bytes()) / (mib * iobench.MiB) * 1e9),
			Bytes: p.Bytes(), WriteCalls: calls.Count, WrittenBytes: p.Bytes(), RuntimeConvert: strings.ToUpper(strings.ReplaceAll(s.Convert, "-", "_"))})
	}
	cfg := NewRuntimeConfig(p)
	cfg.Profile, cfg.ProfileWhy = "ext4", "f_type 0xef53 is ext4"
	rr := &RuntimeReport{
		Header: Header{
			Tool:      Tool{Name: "iobench", Version: "0.1.0", Revision: "0123456789abcdef0123456789abcdef01234567", GoVersion: "go1.26.8"},
			Command:   []string{"iobench", "runtime", "gfortran", "--dir", "/scratch/alice/run1", "--size", "256MiB"},
			StartTime: fixtureStart, DurationSeconds: 61.5, Host: fixtureHostInfo(),
			FS: fsinfo.Info{Dir: "/scratch/alice/run1", ResolvedDir: "/scratch/alice/run1", Type: "ext4", BlockSize: 4096, IOBlockSize: 4096,
				MountPoint: "/scratch", Device: "/dev/nvme0n1p2"},
		},
		Runtime: runtimes.Gfortran, Compiler: "/usr/bin/gfortran (GNU Fortran (Debian 12.2.0-14) 12.2.0)",
		Config: cfg, Sweep: sw, WarmupRan: res.WarmupRan, Samples: res.Samples,
		Summary: runtimes.Summarize(runtimes.Gfortran, p, res, sw),
	}
	rr.SetApply()
	return rr
}

// The runtime report ends with the how-to-apply block; libgfortran's rows
// are marked measured, as it ran at the recommended 256 KiB.
func TestRuntimeReportAppliesWhatItMeasured(t *testing.T) {
	r := runtimeReport(t)
	var gf, others int
	for _, a := range r.Apply {
		switch {
		case a.Runtime == advice.RuntimeLibgfortran && a.Setting == "GFORTRAN_UNFORMATTED_BUFFER_SIZE" && a.Value == "262144":
			if !a.Measured {
				t.Errorf("%+v: want measured", a)
			}
			gf++
		case a.Runtime != advice.RuntimeLibgfortran && a.Measured:
			t.Errorf("%+v: only libgfortran ran", a)
		default:
			others++
		}
	}
	if gf != 1 || others == 0 {
		t.Errorf("apply rows %+v: want libgfortran at 262144 measured, and the other runtimes", r.Apply)
	}
	var b bytes.Buffer
	if err := RuntimeText(&b, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "measured through the runtime where marked") || !strings.Contains(b.String(), "# measured; ") {
		t.Errorf("text has no measured how-to-apply block:\n%s", b.String())
	}
}

func TestRuntimeTextSaysWhatWasMeasured(t *testing.T) {
	var b bytes.Buffer
	if err := RuntimeText(&b, runtimeReport(t)); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"Measured through libgfortran:",
		"Inferred from write(2):",
		"every run made exactly the calls the buffering rule predicts",
		"array, native: any buffer:",
		"array, big-endian: export GFORTRAN_UNFORMATTED_BUFFER_SIZE=262144 (256 KiB)",
		"records, native: export GFORTRAN_UNFORMATTED_BUFFER_SIZE=524288 (512 KiB)", // 2K
		"they agree",
		"differ (",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
}

func TestRuntimeCSVAndJSONParse(t *testing.T) {
	r := runtimeReport(t)
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
	var back RuntimeReport
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
	r := runtimeReport(t)
	r.Config.RepeatAuto = true
	r.Adaptive = &runtimes.Adaptive{Rounds: 8, CasesPerRound: []int{20, 20, 20, 6, 6, 6, 6, 4}, FirstRoundSeconds: 12.2, BudgetSeconds: 61,
		SpentSeconds: 58.4, Stop: iobench.StopBudget, NextRoundSeconds: 4.1,
		Undecided: []runtimes.UndecidedCase{{Case: runtimes.Case{Layout: runtimes.LayoutRecords, Convert: "big-endian", BufferBytes: 256 << 10}, Gain: true}}}
	var text bytes.Buffer
	if err := RuntimeText(&text, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"timing:     adaptive rounds (--repeat auto: at least 3 of every case, then the undecided recommended cases with their defaults, within a time budget of 5 x the first round)",
		"rounds:     8 adaptive rounds of 20, 20, 20, 6 (x4), 4 cases; stopped because the next round (about 4.1s) would overrun the budget; 58s of a 1m1s budget (5 x the first round's 12s); undecided: records big-endian 256 KiB (gain)\n",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("no %q in:\n%s", want, text.String())
		}
	}
	r.Adaptive.Stop, r.Adaptive.Undecided = iobench.StopEstablished, nil
	if line := RuntimeAdaptiveLine(r.Adaptive); !strings.Contains(line, "stopped because every recommended case is decided;") || strings.Contains(line, "undecided") {
		t.Errorf("established: %q", line)
	}
	var js bytes.Buffer
	if err := RuntimeJSON(&js, r); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Config   RuntimeConfig     `json:"config"`
		Adaptive runtimes.Adaptive `json:"adaptive"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil || !doc.Config.RepeatAuto || doc.Adaptive.Stop != iobench.StopEstablished || doc.Adaptive.Rounds != 8 {
		t.Errorf("JSON: %v; config %+v, adaptive %+v", err, doc.Config, doc.Adaptive)
	}
}
