package doccheck

import (
	"regexp"
	"strings"
)

// block is one ```sh block of a document.
type block struct {
	doc    string   // the document's path, from the module root
	line   int      // the line of its opening fence
	lines  []string // its lines, markers included
	hidden []string // markers in HTML comments just above the fence
}

// fence opens a block of shell commands; other languages (text, console
// output) are not commands.
var fence = regexp.MustCompile("^\\s*```(sh|bash|shell)\\s*$")

// blocksOf are the shell blocks of a Markdown document, in order.
func blocksOf(doc, text string) []block {
	var out []block
	var cur *block
	var hidden []string
	for i, l := range strings.Split(text, "\n") {
		if m := htmlMarker.FindStringSubmatch(l); cur == nil && m != nil {
			hidden = append(hidden, m[1])
			continue
		}
		switch {
		case cur == nil && fence.MatchString(l):
			cur = &block{doc: doc, line: i + 1, hidden: hidden}
		case cur != nil && strings.HasPrefix(strings.TrimSpace(l), "```"):
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, l)
		}
		hidden = nil
	}
	return out
}

// htmlMarker is a marker a reader does not see: "<!-- example -->" on the
// lines just above a block, for the README's first commands.
var htmlMarker = regexp.MustCompile(`^<!-- (.+) -->$`)

// markers are the block's leading comment lines of the form "# key: value"
// or "# key", and its hidden markers: needs (may repeat), example, run by.
func (b block) markers() map[string][]string {
	m := map[string][]string{}
	add := func(key string) {
		k, v, _ := strings.Cut(key, ":")
		m[strings.TrimSpace(k)] = append(m[strings.TrimSpace(k)], strings.TrimSpace(v))
	}
	for _, h := range b.hidden {
		add(h)
	}
	for _, l := range b.lines {
		key, ok := strings.CutPrefix(strings.TrimSpace(l), "# ")
		if !ok {
			break
		}
		add(key)
	}
	return m
}

// script is the block as bash runs it: an example's commands made small.
func (b block) script() string {
	if _, ok := b.markers()["example"]; !ok {
		return strings.Join(b.lines, "\n") + "\n"
	}
	var out []string
	for _, l := range joinContinued(b.lines) {
		out = append(out, small(l))
	}
	return strings.Join(out, "\n") + "\n"
}

// joinContinued makes each command one line (a line ending in a
// backslash goes on with the next), so the rules see all its flags.
func joinContinued(lines []string) []string {
	var out []string
	cont := false
	for _, l := range lines {
		if cont {
			out[len(out)-1] += " " + strings.TrimSpace(l)
		} else {
			out = append(out, l)
		}
		last := &out[len(out)-1]
		cont = strings.HasSuffix(*last, "\\")
		*last = strings.TrimSuffix(*last, "\\")
	}
	return out
}

// The rules that make an example small: every data size becomes
// exampleSize and every largest write exampleMax, a sweep or runtime check that does not choose them gets
// exampleFlags, the reference program writes referenceN doubles, and go
// test runs each benchmark once and fuzzes briefly.
const (
	exampleSize = "8MiB"
	exampleMax  = "1MiB"
	referenceN  = "1048576"
)

var (
	sizeFlag  = regexp.MustCompile(`--size[ =]\S+`)
	maxFlag   = regexp.MustCompile(`--max[ =]\S+`)
	iobenchAt = regexp.MustCompile(`((?:^|[\s;&|(])(?:\S*/)?iobench(?:-mpi)?)(\s+(?:sweep|runtime\s+\w+))?(\s+-)`)
	countFlag = regexp.MustCompile(`\s-count[ =]\d+`)
	benchTime = regexp.MustCompile(`\s-benchtime[ =]\S+`)
	fuzzTime  = regexp.MustCompile(`\s-fuzztime[ =]\S+`)
)

// exampleFlags are added to a sweep ("") or a runtime check ("runtime")
// that does not set the flag, nor the one that stands in for it.
var exampleFlags = []struct{ kind, flag, value, unless string }{
	{"", "--size", exampleSize, "--count"},
	{"", "--max", exampleMax, "--sizes"},
	{"", "--repeat", "1", "--time-budget"},
	{"runtime", "--size", exampleSize, "--count"},
	{"runtime", "--repeat", "1", "--time-budget"},
}

func small(line string) string {
	line = sizeFlag.ReplaceAllString(line, "--size "+exampleSize)
	line = maxFlag.ReplaceAllString(line, "--max "+exampleMax)
	if strings.Contains(line, "pr91030-bench.c") {
		line = strings.Replace(line, "gcc ", "gcc -DN="+referenceN+" ", 1)
	}
	if strings.Contains(line, "go test") {
		line = countFlag.ReplaceAllString(line, " -count 1")
		line = benchTime.ReplaceAllString(line, "")
		line = fuzzTime.ReplaceAllString(line, " -fuzztime 2s")
		if strings.Contains(line, " -bench ") {
			line = strings.Replace(line, " -bench ", " -benchtime 1x -bench ", 1)
		}
		return line
	}
	return iobenchAt.ReplaceAllStringFunc(line, func(m string) string {
		sub := iobenchAt.FindStringSubmatch(m)
		kind := ""
		if strings.Contains(sub[2], "runtime") {
			kind = "runtime"
		}
		var add []string
		for _, f := range exampleFlags {
			if f.kind == kind && !hasFlag(line, f.flag) && (f.unless == "" || !hasFlag(line, f.unless)) {
				add = append(add, f.flag, f.value)
			}
		}
		if len(add) == 0 {
			return m
		}
		return sub[1] + sub[2] + " " + strings.Join(add, " ") + sub[3]
	})
}

func hasFlag(line, flag string) bool {
	return strings.Contains(line, flag+" ") || strings.Contains(line, flag+"=")
}
