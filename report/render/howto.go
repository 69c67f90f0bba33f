package report

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/units"
)

// applyHeader introduces the block: what the values come from and
// whether they were measured, and where the reasons are; "" when there is
// no block and nothing to say about it.
func applyHeader(r *Report, reasons string) string {
	rec := r.Recommendation
	if rec == nil {
		return ""
	}
	if len(rec.Apply) == 0 {
		if rec.Basis != advice.BasisKnee || len(r.ApplyFor) == 0 || r.Config.primaryMode() != iobench.ModeWrite {
			return ""
		}
		return fmt.Sprintf("how to apply it: nothing for %s on this file system (%s)", strings.Join(r.ApplyFor, ", "), orDefault(r.FS.Type, "type unknown"))
	}
	measured := 0
	for _, a := range rec.Apply {
		if a.Measured {
			measured++
		}
	}
	how := "every value inferred from write(2) calls, none measured through the runtime itself"
	if measured > 0 {
		how = "measured through the runtime where marked, the others inferred from write(2) calls"
	}
	if !rec.KneeEstablished {
		how = "the knee is not established, so these are provisional; " + how
	}
	return fmt.Sprintf("how to apply it, from the %s knee (%s; %s):", units.FormatSize(rec.BufferSize), how, reasons)
}

// hintsFile is the name the block gives ROMIO's hints file.
const hintsFile = "romio-hints"

// applyLines are the settings as lines to paste into a shell: exports,
// a here-document for the hints file, commands; what is not shell (C
// calls, facts) is a comment. Each runtime starts with a comment naming
// it, and the comments beside the settings line up.
func applyLines(rows []advice.Apply, dir string) []string {
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
			lines = append(lines, line{code: "# " + comment + ": " + code})
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
		return []string{ShellJoin([]string{"lfs", "setstripe", "-S", a.Value, orDefault(dir, "<dir>")})}
	case envName.MatchString(a.Setting):
		return []string{"export " + a.Setting + "=" + shellWord(a.Value)}
	}
	return []string{"# " + a.Setting + " " + a.Value}
}

var (
	envName    = regexp.MustCompile(`^[A-Z][A-Za-z0-9_]*$`)
	shellPlain = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)
)

// shellWord quotes v for a shell when it needs it.
func shellWord(v string) string {
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

func (p *printer) textApply(r *Report) {
	head := applyHeader(r, "the JSON and Markdown reports say why each")
	if head == "" {
		return
	}
	p.f("\n%s\n", head)
	if len(r.Recommendation.Apply) > 0 {
		p.f("%s\n", strings.Join(applyLines(r.Recommendation.Apply, r.FS.ResolvedDir), "\n"))
	}
	if r.Verified != nil || r.KeptFile != "" || len(r.LeftFiles) > 0 || len(r.AllWarnings()) > 0 || r.Incomplete {
		p.f("\n") // the block ends before the lines that follow it
	}
}

func (p *printer) mdApply(r *Report) {
	head := applyHeader(r, "why, below")
	if head == "" {
		return
	}
	p.f("\n%s\n", mdSentence(head))
	as := r.Recommendation.Apply
	if len(as) == 0 {
		return
	}
	p.f("\n")
	p.fenced("sh", applyLines(as, r.FS.ResolvedDir))
	p.f("\n")
	p.mdApplyRuntimes(as)
}

// mdApplyRuntimes is the notes of each runtime's rows.
func (p *printer) mdApplyRuntimes(as []advice.Apply) {
	for i := 0; i < len(as); {
		j := i
		for j < len(as) && as[j].Runtime == as[i].Runtime {
			j++
		}
		p.mdApplyNotes(as[i:j])
		i = j
	}
}

// mdApplyNotes is one runtime's notes: what its values rest on once,
// when every row shares it, then each setting's own note.
func (p *printer) mdApplyNotes(as []advice.Apply) {
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
		p.f("- %s, %s\n", title, basis)
	} else {
		p.f("- %s:\n", title)
	}
	for _, a := range as {
		note := a.Note
		if basis != "" {
			note, _ = splitNote(a.Note)
		}
		p.f("  - `%s`: %s\n", mdSetting(a), note)
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
