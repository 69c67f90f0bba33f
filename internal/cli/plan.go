package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/dustin/go-humanize"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/internal/progress"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/units"
)

// planLine is the one line printed before the first run: what will be
// written, where, and how many runs.
func planLine(cfg iobench.Config, dir string) string {
	per := cfg.TotalBytes()
	head := fmt.Sprintf("plan: %d write sizes (%s to %s) x %s per run (%d bytes)",
		len(cfg.Sizes), units.FormatSize(cfg.Sizes[0]), units.FormatSize(cfg.MaxSize()), humanize.IBytes(uint64(per)), per)
	head += variantJobWords(cfg)
	per *= int64(max(cfg.Jobs, 1))
	if cfg.Auto {
		first := len(cfg.Sizes) * len(cfg.Mode.Directions()) * len(cfg.VariantList())
		return fmt.Sprintf("%s, adaptive rounds: round 1 is %d runs, %s written to %s; at least %d rounds in all, the later ones of fewer sizes, within %s",
			head, first, humanize.IBytes(uint64(int64(first)*per)), dir, iobench.MinAutoRounds, budgetWords(cfg))
	}
	runs := cfg.Runs()
	return fmt.Sprintf("%s, %s: %d runs, %s written to %s",
		head, advice.RoundsWord(cfg.Repeat), runs, humanize.IBytes(uint64(int64(runs)*per)), dir)
}

// variantJobWords are the plan line's words on variants and jobs: "" for
// a plain sweep; the variants' tags (v1, v2) mark their runs' lines.
func variantJobWords(cfg iobench.Config) string {
	var s string
	if len(cfg.Variants) > 0 {
		tags := make([]string, len(cfg.Variants))
		for i, v := range cfg.Variants {
			tags[i] = fmt.Sprintf("v%d %s", i+1, v.Name)
		}
		s += fmt.Sprintf(" x %d variants interleaved (%s)", len(cfg.Variants), strings.Join(tags, ", "))
	}
	if cfg.Jobs > 1 {
		s += fmt.Sprintf(" x %d jobs at once", cfg.Jobs)
	}
	return s
}

func budgetWords(cfg iobench.Config) string {
	if cfg.TimeBudget > 0 {
		return "--time-budget " + cfg.TimeBudget.String()
	}
	return fmt.Sprintf("%d x the first round's time", iobench.DefaultBudgetRounds)
}

// writeDryRun is --dry-run: the plan in full, from the same config the
// sweep would run, and no I/O.
func writeDryRun(w io.Writer, cfg iobench.Config, dir, profile, why string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "dry run: nothing is written\n")
	fmt.Fprintf(&b, "profile:  %s (%s)\n", profile, why)
	fmt.Fprintf(&b, "dir:      %s\n", dir)
	fmt.Fprintf(&b, "%s\n", planLine(cfg, dir))
	fmt.Fprintf(&b, "data:     %d %s elements = %d bytes per run; source %s (%s in memory)\n",
		cfg.Count, cfg.Type, cfg.TotalBytes(), cfg.Source, humanize.IBytes(uint64(cfg.SourceBytes())))
	fmt.Fprintf(&b, "timing:   fsync %s; %s before each run (untimed); warm-up %s; order %s (seed %d; pass --seed %d to run this order)\n",
		onOff(cfg.FlushKind() == iobench.FlushFsync), cfg.Sync, onOff(cfg.Warmup), cfg.Order, cfg.Seed, cfg.Seed)
	fmt.Fprintf(&b, "i/o:      %s\n", ioPlanLine(cfg))
	var sizes []string
	for _, s := range cfg.Sizes {
		sizes = append(sizes, fmt.Sprintf("%s (%d)", units.FormatSize(s), s))
	}
	fmt.Fprintf(&b, "sizes:    %s\n", strings.Join(sizes, ", "))
	order := iobench.RoundRuns(cfg, 1, cfg.Sizes, iobench.PlanRand(cfg), 0)
	var first []string
	rec := cfg.Record()
	for _, r := range order {
		first = append(first, fmt.Sprintf("%s %s%s", r.Mode, units.FormatSize(r.WriteSize), progress.VariantTag(rec, r.Variant)))
	}
	fmt.Fprintf(&b, "round 1:  %s\n", strings.Join(first, ", "))
	if cfg.Auto {
		fmt.Fprintf(&b, "later:    rounds 2-%d run the sizes near round 1's knee and libgfortran's defaults; then only the sizes that decide the knee, until it is established or %s is spent\n",
			iobench.MinAutoRounds, budgetWords(cfg))
	} else if cfg.Repeat > 1 {
		fmt.Fprintf(&b, "later:    %d more rounds of every size, each in its own %s order\n", cfg.Repeat-1, cfg.Order)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
