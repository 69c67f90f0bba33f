package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/iobench/iobench"

// layers is the package graph (docs/architecture.md): a package imports
// only packages of lower layers. A new package gets a row here, where its
// imports put it; an import that points up or sideways fails the test.
var layers = map[string]int{
	// 0: leaves, no project imports
	"units": 0, "convert": 0, "fsinfo": 0, "hostinfo": 0, "binary": 0, "program": 0, "preload": 0, "abtest": 0,
	"mpi": 0, "workload/darshan": 0, "workload/strace": 0,
	"iobench/internal/platform": 0,
	// test helpers, the FUSE fault file system and the docs' test
	"internal/testkit/testenv": 0, "internal/testkit/testwait": 0, "internal/testkit/golden": 0, "internal/testkit/faultfs": 1, "internal/testkit/doccheck": 0,
	// 1: the inputs' model, the knee's statistics
	"workload": 1, "knee": 1,
	// 2: the records of a measurement; the advice over plain values
	"record": 2, "advice": 2,
	// 3: the sweep engine; a runtime check's plans, records and summary
	"iobench": 3, "libcheck": 3,
	// 4: what runs on the engine: runtimes, profiles, MPI wiring
	// and the verdict over records, a sweep's and a runtime check's
	"runtimes": 4, "profile": 4, "mpi/cluster": 4, "mpi/mpiio": 4, "verdict": 4,
	// 5-7: reports, their encoders, readers of saved records, progress
	"report": 5, "report/internal/page": 5,
	"report/render": 6, "report/internal/fixture": 6,
	"report/plot": 7, "analyze": 7, "internal/progress": 7,
	// 8-9: the command line
	"internal/cli": 8, "": 9,
}

// projectImports maps each package directory (module-relative) to the
// project packages its non-test files import, whatever their build tags.
func projectImports(t *testing.T) map[string][]string {
	out := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && path != ".") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		if dir == "." {
			dir = ""
		}
		if _, seen := out[dir]; !seen {
			out[dir] = nil // a package with no project imports still needs a layer
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if rel, ok := strings.CutPrefix(p, module+"/"); ok {
				out[dir] = append(out[dir], rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestPackageLayers(t *testing.T) {
	for pkg, imports := range projectImports(t) {
		slices.Sort(imports)
		imports = slices.Compact(imports)
		if strings.HasPrefix(pkg, "examples") || strings.HasPrefix(pkg, "scripts") {
			continue
		}
		from, ok := layers[pkg]
		if !ok {
			t.Errorf("package %q has no layer: give it a row in layers (layers_test.go) and docs/architecture.md", pkg)
			continue
		}
		for _, imp := range imports {
			if to, ok := layers[imp]; ok && to >= from {
				t.Errorf("%s (layer %d) imports %s (layer %d): a package imports only lower layers", pkg, from, imp, to)
			}
		}
	}
}

// runners are the packages that run things (the engine, the runtimes'
// writers, the MPI wiring, the command line); readers are the ones that
// hold or show records and must not import a runner, whatever its layer:
// a report read back from JSON needs none of them.
var (
	runners = []string{"iobench", "runtimes", "program", "preload", "mpi", "mpi/cluster", "mpi/mpiio", "profile", "internal/cli"}
	readers = []string{"record", "verdict", "libcheck", "report", "report/internal/page", "report/render",
		"report/internal/fixture", "report/plot", "analyze", "internal/progress"}
)

func TestRecordsImportNoRunner(t *testing.T) {
	all := projectImports(t)
	for _, pkg := range readers {
		imports, ok := all[pkg]
		if !ok {
			t.Errorf("reader %q is not a package any more: update readers", pkg)
		}
		for _, imp := range imports {
			if slices.Contains(runners, imp) {
				t.Errorf("%s imports %s: records and their readers import no engine, runner or command line", pkg, imp)
			}
		}
	}
}
