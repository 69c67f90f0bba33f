package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/iobench/iobench/internal/testkit/golden"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/libcheck"
)

// Every entry is read: into its Config field (a switch, perhaps with a
// read that checks it), by its own read, by the entry its readWith names
// (which must read), or by the command (cmd). Names are unique.
func TestEverySettingIsRead(t *testing.T) {
	byName := map[string]setting{}
	for _, s := range sweepSettings() {
		if _, dup := byName[s.name()]; dup {
			t.Errorf("--%s is in the table twice", s.name())
		}
		byName[s.name()] = s
	}
	for _, s := range sweepSettings() {
		ways := 0
		for _, b := range []bool{s.read != nil || s.into != nil, s.readWith != "", s.cmd} {
			if b {
				ways++
			}
		}
		if ways != 1 {
			t.Errorf("--%s: give exactly one of read (or into), readWith and cmd (it has %d)", s.name(), ways)
		}
		if (s.store == nil) == (s.into == nil) {
			t.Errorf("--%s: give its row a field (store) or a Config switch (into), one of them", s.name())
		}
		// An into of another kind than its flag's value fails in
		// TestEveryTableReadsItsDefaults (storeInto).
		if w, ok := byName[s.readWith]; s.readWith != "" && (!ok || w.read == nil) {
			t.Errorf("--%s: readWith %q is not an entry with a read", s.name(), s.readWith)
		}
		if !s.cmd && (len(s.settings()) == 0 || s.settings()[0] == "") {
			t.Errorf("--%s fills in the Config but names no setting its errors can be told by", s.name())
		}
	}
}

// configWith is the Config the sweep's flags give with args added to the
// defaults, read as the command reads them.
func configWith(t *testing.T, args ...string) iobench.Config {
	t.Helper()
	var cfg iobench.Config
	app := &cli.App{Name: "t", Flags: sweepFlags(), Writer: &bytes.Buffer{}, ErrWriter: &bytes.Buffer{},
		Action: func(c *cli.Context) error {
			var err error
			cfg, err = configFromFlags(c)
			return err
		}}
	if !slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "--dir=") }) {
		args = append(args, "--dir=.")
	}
	if err := app.Run(append([]string{"t"}, args...)); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return cfg
}

// Each entry's example value, set alone, changes the plan key unless the
// engine lists what it sets as one the ranks of an MPI job may hold apart
// (iobench.PlanKeyExempt), and reaches the report's config exactly when
// the table says reported.
func TestTableSaysWhatChangesThePlanKeyAndTheReport(t *testing.T) {
	base := configWith(t)
	baseKey := base.PlanKey()
	baseReport := reportConfigJSON(t, base)
	for _, s := range sweepSettings() {
		if s.cmd {
			continue
		}
		if s.example == "" {
			t.Errorf("--%s has no example value to test it with", s.name())
			continue
		}
		cfg := configWith(t, "--"+s.name()+"="+s.example)
		if changed, want := cfg.PlanKey() != baseKey, !planExempt(s); changed != want {
			t.Errorf("--%s=%s: plan key changed %v; the engine's PlanKeyExempt says it should: %v", s.name(), s.example, changed, want)
		}
		if changed := reportConfigJSON(t, cfg) != baseReport; changed != s.reported {
			t.Errorf("--%s=%s: the report's config changed %v, the table says reported: %v", s.name(), s.example, changed, s.reported)
		}
	}
}

// planExempt says whether every setting s sets may differ between the
// ranks of one sweep's plan, by the engine's list.
func planExempt(s setting) bool {
	for _, set := range s.settings() {
		if _, ok := iobench.PlanKeyExempt[string(set)]; !ok {
			return false
		}
	}
	return true
}

func reportConfigJSON(t *testing.T, cfg iobench.Config) string {
	t.Helper()
	b, err := json.Marshal(cfg.Record())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A library setting is named in messages by the flags of the table that
// set it, in table order.
func TestSettingsAreToldByTheirFlags(t *testing.T) {
	for s, want := range map[iobench.Setting]string{
		iobench.SetCount:           "--count/--size",
		iobench.SetVariants:        "--convert/--type/--direct",
		iobench.SetMaxSize:         "--max",
		iobench.Setting("Unknown"): "Unknown",
	} {
		if got := flagWords(s); got != want {
			t.Errorf("flagWords(%s) = %q, want %q", s, got, want)
		}
	}
	if got := flagOf(iobench.SetCount); got != "--count" {
		t.Errorf("flagOf(Count) = %q, want --count", got)
	}
}

// `iobench runtime` shares the sweep's flags word for word, its own
// defaults apart.
func TestRuntimeSharesTheSweepFlags(t *testing.T) {
	sweep := map[string]cli.DocGenerationFlag{}
	for _, f := range sweepFlags() {
		sweep[f.Names()[0]] = f.(cli.DocGenerationFlag)
	}
	shared := 0
	for _, f := range runtimeFlags() {
		name := f.Names()[0]
		s, ok := sweep[name]
		if !ok || slices.Contains([]string{"convert", "repeat", "time-budget", "format"}, name) {
			continue // the runtime's own
		}
		shared++
		if got, want := f.(cli.DocGenerationFlag).GetUsage(), s.GetUsage(); got != want {
			t.Errorf("runtime --%s: usage %q, sweep's %q", name, got, want)
		}
	}
	if shared != 12 {
		t.Errorf("runtime shares %d of the sweep's flags, want 12", shared)
	}
}

// docs/flags.md is the table, rendered: go test ./internal/cli -update
// rewrites it.
func TestFlagReferenceIsTheTable(t *testing.T) {
	golden.Check(t, "internal/cli", "../../docs/flags.md", []byte(flagReference()))
}

// flagReference renders the table as Markdown, a table per category.
func flagReference() string {
	var b strings.Builder
	b.WriteString("# Flag reference\n\n" +
		"Generated from the settings table (`internal/cli/settings.go`) by\n" +
		"`go test ./internal/cli -run TestFlagReferenceIsTheTable -update`; a test\n" +
		"fails when the two differ. Sizes are bytes or binary units (`4K` = `4KiB`\n" +
		"= 4096 bytes; `4KB` is refused). \"Ranks agree\": under MPI every rank must\n" +
		"be given the same value (a job whose ranks differ is refused on every rank),\n" +
		"else each rank may give its own.\n")
	byCat := map[string][]setting{}
	var cats []string
	for _, s := range sweepSettings() {
		if _, ok := byCat[s.category]; !ok {
			cats = append(cats, s.category)
		}
		byCat[s.category] = append(byCat[s.category], s)
	}
	slices.Sort(cats)
	b.WriteString("\n## `iobench sweep`\n")
	for _, cat := range cats {
		entries := byCat[cat]
		slices.SortFunc(entries, func(a, b setting) int { return strings.Compare(a.name(), b.name()) })
		fmt.Fprintf(&b, "\n### %s\n\n| flag | default | ranks agree | meaning |\n|---|---|---|---|\n", cat)
		for _, s := range entries {
			agree := "yes"
			if perRankFlags[s.name()] {
				agree = "no"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", flagCell(s.flag), defaultCell(s.flag), agree, mdEscape(s.flag.(cli.DocGenerationFlag).GetUsage()))
		}
	}
	for _, cmd := range []struct {
		name  string
		flags []cli.Flag
	}{{"gfortran|stdio", runtimeFlags()}, {"mpiio", libraryFlags(libcheck.MPIIO)}, {"hdf5", libraryFlags(libcheck.HDF5)}} {
		fmt.Fprintf(&b, "\n## `iobench runtime %s`\n\n| flag | default | meaning |\n|---|---|---|\n", cmd.name)
		for _, f := range cmd.flags {
			fmt.Fprintf(&b, "| %s | %s | %s |\n", flagCell(f), defaultCell(f), mdEscape(f.(cli.DocGenerationFlag).GetUsage()))
		}
	}
	return b.String()
}

func flagCell(f cli.Flag) string {
	var names []string
	for _, n := range f.Names() {
		dash := "--"
		if len(n) == 1 {
			dash = "-"
		}
		names = append(names, "`"+dash+n+"`")
	}
	return strings.Join(names, ", ")
}

// defaultCell is the default as --help gives it, a quoted value in code.
func defaultCell(f cli.Flag) string {
	text := f.(cli.DocGenerationFlag).GetDefaultText()
	if len(text) > 1 && strings.HasPrefix(text, `"`) && strings.HasSuffix(text, `"`) {
		return "`" + mdEscape(text[1:len(text)-1]) + "`"
	}
	return mdEscape(text)
}

func mdEscape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// storeInto converts within a kind and refuses, without a panic, any
// other pair and an into that is not a field's pointer.
func TestStoreInto(t *testing.T) {
	var cfg iobench.Config
	for _, ok := range []struct {
		at  any
		val any
	}{{&cfg.Sync, "none"}, {&cfg.Count, 5}, {&cfg.Stride, 2}, {&cfg.Verify, true}} {
		if err := storeInto(ok.at, ok.val, "x"); err != nil {
			t.Errorf("storeInto(%T, %v) = %v", ok.at, ok.val, err)
		}
	}
	if cfg.Sync != "none" || cfg.Count != 5 || cfg.Stride != 2 || !cfg.Verify {
		t.Errorf("cfg = %+v after the stores", cfg.Settings)
	}
	for _, bad := range []struct {
		at  any
		val any
	}{{&cfg.Sizes, []string{"1"}}, {&cfg.Stride, "2"}, {&cfg.Sync, 3}, {cfg.Stride, 2}, {(*int)(nil), 2}, {&cfg.Verify, nil},
		{&cfg.TimeBudget, 5}, {&cfg.Stride, time.Second}, {new(int8), 300}} {
		if err := storeInto(bad.at, bad.val, "x"); err == nil || !strings.Contains(err.Error(), "--x: ") {
			t.Errorf("storeInto(%T, %#v) = %v, want the table's bug named", bad.at, bad.val, err)
		}
	}
}

// An into row sets the library setting named after its field, the first
// field of the Config (at the Config's own address) among them.
func TestSettingOfNamesTheField(t *testing.T) {
	for want, into := range map[iobench.Setting]func(*iobench.Config) any{
		iobench.SetCount:  func(c *iobench.Config) any { return &c.Count },
		iobench.SetSync:   func(c *iobench.Config) any { return &c.Sync },
		iobench.SetVerify: func(c *iobench.Config) any { return &c.Verify },
		iobench.SetKeep:   func(c *iobench.Config) any { return &c.Keep },
		"":                func(c *iobench.Config) any { return c.Stride },
	} {
		if got := settingOf(into); got != want {
			t.Errorf("settingOf = %q, want %q", got, want)
		}
	}
}

// A word setting the table stores as it is (into a string kind) has its
// rule in the Config: a value outside its words is refused by Validate,
// naming the setting, so a new one cannot be added without its rule.
func TestEveryWordSettingIsChecked(t *testing.T) {
	for _, s := range sweepSettings() {
		if s.into == nil || reflect.ValueOf(s.into(&iobench.Config{})).Elem().Kind() != reflect.String {
			continue
		}
		err := configWith(t, "--"+s.name()+"=no-such-word").Validate()
		var ce *iobench.ConfigError
		if !errors.As(err, &ce) || ce.Field != s.settings()[0] {
			t.Errorf("--%s=no-such-word: Validate = %v, want its rule's ConfigError on %s", s.name(), err, s.settings()[0])
		}
	}
}
