package render

import (
	"io"
	"regexp"
	"strings"
	"unicode/utf8"
)

// textWidth is the width of the text reports: prose wraps to it; tables
// and shell lines, which a wrap would break, are kept as they are.
const textWidth = 100

// kept marks a line the final wrap leaves alone.
const kept = "\x1e"

// table writes a text table (tabulate's cells), kept from wrapping.
func (p *printer) table(lines []string) {
	p.keep(strings.Split(strings.TrimSuffix(tabulate(lines), "\n"), "\n"))
}

// keep writes lines kept from wrapping: table rows, shell code.
func (p *printer) keep(lines []string) {
	for _, l := range lines {
		p.WriteString(kept + l + "\n")
	}
}

// FlushTo writes the page to w as it is, the marks of kept lines taken
// out: for formats that do not wrap (Markdown, comparisons).
func (p *printer) FlushTo(w io.Writer) error {
	_, err := io.WriteString(w, strings.ReplaceAll(p.String(), kept, ""))
	return err
}

// flushText writes the page to w with every line not kept wrapped to
// textWidth.
func (p *printer) flushText(w io.Writer) error {
	var out strings.Builder
	for _, line := range strings.SplitAfter(p.String(), "\n") {
		if l, ok := strings.CutPrefix(line, kept); ok {
			out.WriteString(l)
			continue
		}
		body, nl := strings.CutSuffix(line, "\n")
		glued := pValue.ReplaceAllString(unitAfterNumber.ReplaceAllString(body, "$1"+glue+"$2"), "p"+glue+"$1"+glue+"$2")
		out.WriteString(strings.ReplaceAll(strings.Join(wrap(glued, textWidth, hangingIndent(body)), "\n"), glue, " "))
		if nl {
			out.WriteString("\n")
		}
	}
	_, err := io.WriteString(w, out.String())
	return err
}

// unitAfterNumber is a size, a rate or a p-value, "2 MiB", "80 MiB/s",
// "p < 0.05", which a wrap keeps on one line; glue holds the parts
// together while it wraps.
var (
	unitAfterNumber = regexp.MustCompile(`([0-9]) ((?:[KMGT]i)?B\b|MiB/s)`)
	pValue          = regexp.MustCompile(`\bp ([<=]) ([0-9])`)
)

const glue = "\x00"

// labelled is a header line, "label:" padded to where its value starts.
var labelled = regexp.MustCompile(`^[a-z][a-z0-9 ()/'-]*: +`)

// hangingIndent is where a wrapped line's continuation starts: under a
// header line's value, two past an indented line's indent, else two in.
func hangingIndent(line string) string {
	lead := len(line) - len(strings.TrimLeft(line, " "))
	if m := labelled.FindString(line); m != "" && lead == 0 && len(m) >= 8 {
		return strings.Repeat(" ", utf8.RuneCountInString(m))
	}
	return strings.Repeat(" ", lead+2)
}

// wrap breaks s at spaces into lines of at most width columns, the
// continuations indented by indent; a word longer than a line stays
// whole, and spaces inside a line stay as they were (a header's padding).
func wrap(s string, width int, indent string) []string {
	if utf8.RuneCountInString(s) <= width {
		return []string{s}
	}
	body := strings.TrimLeft(s, " ")
	lead := s[:len(s)-len(body)]
	var lines []string
	line, fresh := lead, true
	for _, word := range strings.Split(body, " ") {
		switch {
		case fresh && word == "" && len(lines) > 0: // no blanks to start a continuation
		case fresh:
			line, fresh = line+word, false
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) <= width || word == "":
			line += " " + word
		default:
			lines = append(lines, strings.TrimRight(line, " "))
			line, fresh = indent+word, false
		}
	}
	return append(lines, strings.TrimRight(line, " "))
}
