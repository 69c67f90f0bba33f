package cli

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/libcheck"
)

// readsTable reads rows' flags from args as a command would, into o.
func readsTable[O any](t *testing.T, rows []optRow[O], o *O, args ...string) error {
	t.Helper()
	app := &cli.App{Name: "t", Flags: rowFlags(rows), Writer: &bytes.Buffer{}, ErrWriter: &bytes.Buffer{},
		Action: func(c *cli.Context) error { return readRows(c, rows, o) }}
	return app.Run(append([]string{"t"}, args...))
}

// tables are every command's rows, read with their defaults: a row whose
// field has another type than its flag's value fails here.
func tables(t *testing.T) map[string][]cli.Flag {
	out := map[string][]cli.Flag{}
	check := func(name string, flags []cli.Flag, err error) {
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		out[name] = flags
	}
	sw := newSweepOpts(iobench.DefaultConfig())
	check("sweep", sweepFlags(), readsTable(t, settingRows(sweepSettings()), &sw))
	rt := runtimeOpts{sweep: newSweepOpts(iobench.DefaultConfig())}
	check("runtime", runtimeFlags(), readsTable(t, runtimeRows(), &rt))
	for _, r := range []libcheck.Runtime{libcheck.MPIIO, libcheck.HDF5} {
		lo := libraryOpts{rt: runtimeOpts{sweep: newSweepOpts(iobench.DefaultConfig())}}
		check("runtime "+string(r), libraryFlags(r), readsTable(t, libraryRows(r), &lo))
	}
	var an analyzeOpts
	check("analyze", analyzeFlags(), readsTable(t, analyzeRows(), &an))
	var pl, cm runsOpts
	check("plot", plotFlags(), readsTable(t, plotRows(), &pl))
	check("compare", compareFlags(), readsTable(t, compareRows(), &cm))
	var in infoOpts
	check("info", infoFlags(), readsTable(t, infoRows(), &in))
	var cl cleanOpts
	check("clean", rowFlags(cleanRows()), readsTable(t, cleanRows(), &cl))
	var ap appOpts
	check("app", appFlags(), readsTable(t, appRows(), &ap))
	var tu tuneOpts
	check("tune", tuneFlags(), readsTable(t, tuneRows(), &tu))
	return out
}

func TestEveryTableReadsItsDefaults(t *testing.T) { _ = tables(t) }

// One flag name is one kind of value in every command: the same flag
// type, so that a value one command takes another does not refuse.
func TestAFlagNameIsOneKindOfValue(t *testing.T) {
	kinds := map[string]map[reflect.Type][]string{}
	for cmd, flags := range tables(t) {
		seen := map[string]bool{}
		for _, f := range flags {
			for _, n := range f.Names() {
				if seen[n] {
					t.Errorf("%s: --%s is declared twice", cmd, n)
				}
				seen[n] = true
				if kinds[n] == nil {
					kinds[n] = map[reflect.Type][]string{}
				}
				kinds[n][reflect.TypeOf(f)] = append(kinds[n][reflect.TypeOf(f)], cmd)
			}
		}
	}
	for name, byType := range kinds {
		if len(byType) > 1 {
			t.Errorf("--%s is of more than one type: %v", name, fmt.Sprint(byType))
		}
	}
}

// A command's options hold what its rows read: the sweep's switches go
// into the Config, other values into their fields, with whether given.
func TestRowsStoreTypedValues(t *testing.T) {
	sw := newSweepOpts(iobench.DefaultConfig())
	if err := readsTable(t, settingRows(sweepSettings()), &sw, "--size", "1MiB", "--verify", "--jobs", "3", "--hint", "a=b"); err != nil {
		t.Fatal(err)
	}
	if !sw.size.set || sw.size.v != "1MiB" || sw.count.set || !sw.cfg.Verify || sw.jobs.v != 3 || len(sw.hint.v) != 1 || !sw.given["size"] || sw.given["count"] {
		t.Errorf("read %+v", sw)
	}
	var in infoOpts
	if err := readsTable(t, infoRows(), &in); err != nil || in.dir.v != "." || in.dir.set {
		t.Errorf("info's --dir: %+v, %v; want the default . unset", in.dir, err)
	}
}
