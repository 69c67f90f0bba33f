package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// readerFile is the one file that may look a flag up by name: readRows
// and valueOf, by each row's own flag.
const readerFile = "options.go"

// flagLookups are cli.Context's methods that take a flag's name.
var flagLookups = map[string]bool{
	"String": true, "Int": true, "Int64": true, "Uint": true, "Uint64": true, "Bool": true, "Float64": true,
	"Duration": true, "IsSet": true, "StringSlice": true, "Value": true, "Generic": true, "Timestamp": true,
	"Path": true, "Float64Slice": true, "IntSlice": true, "Int64Slice": true, "Uint64Slice": true, "Count": true, "Set": true,
}

// No flag is read by name outside the reader: every command declares
// its flags as rows and takes the typed options readRows fills in.
func TestFlagsAreReadOnlyThroughTheirRows(t *testing.T) {
	fset, files := parsePackage(t, ".")
	names := declaredFlagNames(files)
	if len(names) < 50 {
		t.Fatalf("found %d flag names in the package's declarations; the test is broken", len(names))
	}
	var bad []string
	for _, path := range slices.Sorted(mapKeys(files)) {
		if filepath.Base(path) != readerFile {
			bad = append(bad, flagReads(fset, files[path], names, contextFields(files))...)
		}
	}
	if len(bad) > 0 {
		t.Errorf("flags read by name outside %s (read them through the command's rows):\n%s", readerFile, strings.Join(bad, "\n"))
	}
}

// The check finds what it is for: a lookup on a context, by any name,
// a lookup method with a literal name on any value, and a helper given
// a flag's name.
func TestFlagReadCheckFindsReadsByName(t *testing.T) {
	const src = `package cli
type run struct{ c *cli.Context }
func a(c *cli.Context, name string) {
	_ = c.String("dir")    // 4
	_ = c.IsSet(name)      // 5
	_ = opts.str("size")   // 6
	_ = v.Bool("brief")    // 7
}
func (r *run) b() { _ = r.c.Int(flag) } // 9
func d() { _ = c.Args().First(); _ = fmt.Sprint("x") }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "offender.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]*ast.File{"offender.go": f}
	got := flagReads(fset, f, map[string]bool{"dir": true, "size": true, "brief": true}, contextFields(files))
	var lines []string
	for _, g := range got {
		lines = append(lines, strings.SplitN(g, ":", 3)[1])
	}
	if want := []string{"4", "5", "6", "7", "9"}; !slices.Equal(lines, want) {
		t.Errorf("offending lines %v, want %v:\n%s", lines, want, strings.Join(got, "\n"))
	}
}

func parsePackage(t *testing.T, dir string) (*token.FileSet, map[string]*ast.File) {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset, files := token.NewFileSet(), map[string]*ast.File{}
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if files[p], err = parser.ParseFile(fset, p, src, 0); err != nil {
			t.Fatal(err)
		}
	}
	return fset, files
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// declaredFlagNames are the names and aliases of every cli flag the
// package declares (Name: and Aliases: of a cli.*Flag literal).
func declaredFlagNames(files map[string]*ast.File) map[string]bool {
	names := map[string]bool{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok || !isCLIType(lit.Type, "Flag") {
				return true
			}
			for _, e := range lit.Elts {
				kv, ok := e.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				for _, s := range stringLits(kv.Value) {
					if k, _ := kv.Key.(*ast.Ident); k != nil && (k.Name == "Name" || k.Name == "Aliases") {
						names[s] = true
					}
				}
			}
			return true
		})
	}
	return names
}

// isCLIType: e is cli.<X> with X ending in suffix.
func isCLIType(e ast.Expr, suffix string) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "cli" && strings.HasSuffix(sel.Sel.Name, suffix)
}

// isContextPtr: e is *cli.Context.
func isContextPtr(e ast.Expr) bool {
	star, ok := e.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	return ok && isCLIType(sel, "Context") && sel.Sel.Name == "Context"
}

// stringLits are the string literals e is or lists.
func stringLits(e ast.Expr) []string {
	var out []string
	ast.Inspect(e, func(n ast.Node) bool {
		if b, ok := n.(*ast.BasicLit); ok && b.Kind == token.STRING {
			if s, err := strconv.Unquote(b.Value); err == nil {
				out = append(out, s)
			}
		}
		return true
	})
	return out
}

// contextFields are the names of struct fields of type *cli.Context.
func contextFields(files map[string]*ast.File) map[string]bool {
	out := map[string]bool{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if fl, ok := n.(*ast.Field); ok && isContextPtr(fl.Type) {
				for _, name := range fl.Names {
					out[name.Name] = true
				}
			}
			return true
		})
	}
	return out
}

// flagReads are f's reads of a flag by name, as file:line: text.
func flagReads(fset *token.FileSet, f *ast.File, names, ctxFields map[string]bool) []string {
	var out []string
	report := func(n ast.Node, why string) {
		p := fset.Position(n.Pos())
		out = append(out, filepath.Base(p.Filename)+":"+strconv.Itoa(p.Line)+": "+why)
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		ctx := contextParams(fd)
		ast.Inspect(fd, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if why := badCall(call, names, ctx, ctxFields); why != "" {
				report(call, why)
			}
			return true
		})
	}
	return out
}

// contextParams are the names fd and its function literals give
// *cli.Context parameters or variables.
func contextParams(fd *ast.FuncDecl) map[string]bool {
	out := map[string]bool{}
	add := func(fields *ast.FieldList) {
		if fields == nil {
			return
		}
		for _, fl := range fields.List {
			if isContextPtr(fl.Type) {
				for _, n := range fl.Names {
					out[n.Name] = true
				}
			}
		}
	}
	if fd.Recv != nil {
		add(fd.Recv)
	}
	ast.Inspect(fd, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncType:
			add(n.Params)
		case *ast.ValueSpec:
			if n.Type != nil && isContextPtr(n.Type) {
				for _, id := range n.Names {
					out[id.Name] = true
				}
			}
		}
		return true
	})
	return out
}

// badCall says why call reads a flag by name, or "".
func badCall(call *ast.CallExpr, names, ctx, ctxFields map[string]bool) string {
	sel, isSel := call.Fun.(*ast.SelectorExpr)
	if isSel && flagLookups[sel.Sel.Name] && isContextExpr(sel.X, ctx, ctxFields) {
		return "cli.Context." + sel.Sel.Name + " looks a flag up by name"
	}
	for _, a := range call.Args {
		b, ok := a.(*ast.BasicLit)
		if !ok || b.Kind != token.STRING {
			continue
		}
		s, _ := strconv.Unquote(b.Value)
		if isSel && flagLookups[sel.Sel.Name] {
			return sel.Sel.Name + "(" + b.Value + ") looks a value up by a literal name"
		}
		if names[s] {
			return "a call given the flag name " + b.Value
		}
	}
	return ""
}

// isContextExpr: e is a *cli.Context, by the names that hold one.
func isContextExpr(e ast.Expr, ctx, ctxFields map[string]bool) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return ctx[e.Name]
	case *ast.SelectorExpr:
		return ctxFields[e.Sel.Name]
	case *ast.ParenExpr:
		return isContextExpr(e.X, ctx, ctxFields)
	}
	return false
}
