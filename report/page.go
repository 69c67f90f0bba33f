package report

import (
	"cmp"
	"io"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/report/internal/page"
)

// The app renderers (app*.go) are still in this package and call the
// page helpers by these names; when they move to report/render, this file
// goes.

type printer struct{ page.Page }

func (p *printer) f(format string, args ...any) { p.F(format, args...) }

func (p *printer) flushTo(w io.Writer) error { return p.FlushTo(w) }

func (p *printer) fenced(lang string, lines []string) { p.Fenced(lang, lines) }

func (p *printer) mdApplyRuntimes(as []advice.Apply) { p.ApplyNotes(as) }

func applyLines(rows []advice.Apply, dir string) []string { return page.ApplyLines(rows, dir) }

func mdSentence(s string) string { return page.Sentence(s) }

func shellWord(v string) string { return page.ShellWord(v) }

func orDefault(s, def string) string { return cmp.Or(s, def) }

// ShellJoin quotes a command line for a shell: page.ShellJoin.
func ShellJoin(args []string) string { return page.ShellJoin(args) }
