// Package page is what the report renderers write with: a page in
// memory written out once, Markdown fences and sentences, shell quoting,
// and the how-to-apply block that sweep, runtime and app reports share.
package page

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/units"
)

// Page holds a report in memory. Renderers write into it and write
// the result with one call, so there is exactly one write error to check
// and a failed write never leaves a reporter half way through its logic.
type Page struct{ bytes.Buffer }

// F prints to the page as fmt.Printf prints to stdout.
func (p *Page) F(format string, args ...any) { fmt.Fprintf(&p.Buffer, format, args...) }

// FlushTo writes everything printed so far to w.
func (p *Page) FlushTo(w io.Writer) error {
	_, err := w.Write(p.Bytes())
	return err
}

// Sentence turns "knee: ..." into "Knee: ...", as a paragraph reads.
func Sentence(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Fenced writes lines as a fenced code block whose fence is longer than
// any backtick run inside, so no content can close it early.
func (p *Page) Fenced(lang string, lines []string) {
	fence := "```"
	for _, l := range lines {
		for strings.Contains(l, fence) {
			fence += "`"
		}
	}
	p.F("%s%s\n%s\n%s\n", fence, lang, strings.Join(lines, "\n"), fence)
}

// shellSafe matches words a POSIX shell takes literally, and placeholders
// such as <dir> left by Anonymize, which are meant to be read, not run.
var shellSafe = regexp.MustCompile(`^([A-Za-z0-9_@%+=:,./-]+|[A-Za-z0-9_@%+=:,./-]*<[a-z0-9-]+>[A-Za-z0-9_@%+=:,./<>-]*)$`)

// ShellJoin quotes a command line so that pasting it into a shell runs the
// same command: words with shell metacharacters go in single quotes.
func ShellJoin(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		if shellSafe.MatchString(a) {
			quoted[i] = a
		} else {
			quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(quoted, " ")
}

// hintsFile is the name the block gives ROMIO's hints file.
const hintsFile = "romio-hints"

// ApplyLines are the settings as lines to paste into a shell: exports,
// a here-document for the hints file, commands; what is not shell (C
// calls, facts) is a comment. Each runtime starts with a comment naming
// it, and the comments beside the settings line up.
func ApplyLines(rows []advice.Apply, dir string) []string {
	type line struct{ code, comment string }
	var lines []line
	last := ""
	for _, a := range rows {
		if a.Runtime != last {
			lines = append(lines, line{code: "# " + advice.RuntimeTitle(a.Runtime)})
			last = a.Runtime
		}
		comment := a.Comment
		if a.Measured {
			comment = "measured; " + comment
		}
		if code := commentLine(a); code != "" { // not shell: all of it a comment
			if one := "# " + comment + ": " + code; len(one) <= maxCommentLine {
				lines = append(lines, line{code: one})
			} else {
				lines = append(lines, line{code: "# " + comment + ":"}, line{code: "#   " + code})
			}
			continue
		}
		code := settingLines(dir, a)
		for _, c := range code[:len(code)-1] {
			lines = append(lines, line{code: c})
		}
		lines = append(lines, line{code: code[len(code)-1], comment: comment})
	}
	width := 0
	for _, l := range lines {
		if l.comment != "" && len(l.code) <= maxAligned {
			width = max(width, len(l.code))
		}
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.code
		if l.comment != "" {
			out[i] = fmt.Sprintf("%-*s  # %s", width, l.code, l.comment)
		}
	}
	return out
}

// maxAligned is the longest setting whose comment the others line up
// with; a longer one keeps its comment two spaces after it.
const maxAligned = 56

// maxCommentLine is the widest comment line kept whole: reports wrap at
// 100 columns, and a C call split inside would not paste.
const maxCommentLine = 98

// commentLine is a setting that is not shell, C calls and facts, as the
// comment shows it; "" for the others.
func commentLine(a advice.Apply) string {
	switch {
	case a.Runtime == advice.RuntimeGPFS:
		return fmt.Sprintf("%s %s (%s)", a.Setting, a.Value, units.FormatSize(parseBytes(a.Value)))
	case a.Setting == "setvbuf" || a.Setting == "H5Pset_alignment":
		return a.Value
	}
	return ""
}

// settingLines are the shell lines of one setting, before its comment.
func settingLines(dir string, a advice.Apply) []string {
	switch {
	case a.Setting == "ROMIO_HINTS":
		return append(append([]string{"cat > " + hintsFile + " <<'EOF'"}, strings.Split(a.Value, "\n")...),
			"EOF", `export ROMIO_HINTS="$PWD/`+hintsFile+`"`)
	case a.Setting == "lfs setstripe -S":
		return []string{ShellJoin([]string{"lfs", "setstripe", "-S", a.Value, cmp.Or(dir, "<dir>")})}
	case envName.MatchString(a.Setting):
		return []string{"export " + a.Setting + "=" + ShellWord(a.Value)}
	}
	return []string{"# " + a.Setting + " " + a.Value}
}

var (
	envName    = regexp.MustCompile(`^[A-Z][A-Za-z0-9_]*$`)
	shellPlain = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)
)

// ShellWord quotes v for a shell when it needs it.
func ShellWord(v string) string {
	if shellPlain.MatchString(v) {
		return v
	}
	return "'" + strings.ReplaceAll(v, "'", `'\''`) + "'"
}

func parseBytes(s string) int64 {
	var n int64
	fmt.Sscan(s, &n)
	return n
}

// ApplyNotes are the notes of each runtime's rows.
func (p *Page) ApplyNotes(as []advice.Apply) {
	for i := 0; i < len(as); {
		j := i
		for j < len(as) && as[j].Runtime == as[i].Runtime {
			j++
		}
		p.applyNotes(as[i:j])
		i = j
	}
}

// applyNotes is one runtime's notes: what its values rest on once,
// when every row shares it, then each setting's own note.
func (p *Page) applyNotes(as []advice.Apply) {
	_, basis := splitNote(as[0].Note)
	for _, a := range as {
		if _, b := splitNote(a.Note); b != basis {
			basis = ""
		}
	}
	title := advice.RuntimeTitle(as[0].Runtime)
	if basis != "" {
		for _, l := range [][2]string{{"Not measured through " + title + ": ", "not measured through it: "},
			{"Measured through " + title + " itself ", "measured through it "}} {
			if rest, ok := strings.CutPrefix(basis, l[0]); ok {
				basis = l[1] + rest
			}
		}
		p.F("- %s, %s\n", title, basis)
	} else {
		p.F("- %s:\n", title)
	}
	for _, a := range as {
		note := a.Note
		if basis != "" {
			note, _ = splitNote(a.Note)
		}
		p.F("  - `%s`: %s\n", mdSetting(a), note)
	}
}

// splitNote parts a note into what the setting does and what its value
// rests on, the last sentence HowToApply adds, ("Not measured through
// ...", "Measured through ..."); basis is "" when there is none.
func splitNote(note string) (how, basis string) {
	for _, lead := range []string{" Not measured through ", " Measured through "} {
		if i := strings.LastIndex(note, lead); i >= 0 {
			return note[:i], note[i+1:]
		}
	}
	return note, ""
}

// mdSetting is a setting as one line of code.
func mdSetting(a advice.Apply) string {
	switch {
	case commentLine(a) != "" && a.Runtime != advice.RuntimeGPFS:
		return a.Value
	case a.Setting == "ROMIO_HINTS":
		return a.Setting + " file: " + strings.ReplaceAll(a.Value, "\n", "; ")
	case envName.MatchString(a.Setting):
		return a.Setting + "=" + a.Value
	}
	return a.Setting + " " + a.Value
}
