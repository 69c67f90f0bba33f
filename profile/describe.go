package profile

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/units"
)

// Field is one setting a profile sets, with its value or how it is
// derived.
type Field struct {
	Setting iobench.Setting // iobench.SetMaxSize
	Value   string          // "true", "3", "max(64 MiB, 4 x f_bsize)"
}

// Words is the field as a user would write it, name giving the setting's
// words: "--fsync", "--warmup=false", "--repeat 3" with the CLI's flags.
func (f Field) Words(name func(iobench.Setting) string) string {
	switch f.Value {
	case "true":
		return name(f.Setting)
	case "false":
		return name(f.Setting) + "=false"
	}
	return name(f.Setting) + " " + f.Value
}

// Fields lists what p sets. A setting the caller gives wins over each.
func (p Profile) Fields() []Field {
	fields := p.Sweep.fields()
	add := func(ok bool, s iobench.Setting, value string) {
		if ok {
			fields = append(fields, Field{s, value})
		}
	}
	add(p.Fsync, iobench.SetFsync, "true")
	add(p.Repeat > 0, iobench.SetRepeat, strconv.Itoa(p.Repeat))
	add(p.RepeatAuto, iobench.SetRepeat, "auto")
	add(p.Order != "", iobench.SetOrder, string(p.Order))
	add(p.Order == "" && (p.Repeat > 1 || p.RepeatAuto), iobench.SetOrder, string(iobench.Shuffled))
	add(p.Sync != "", iobench.SetSync, string(p.Sync))
	add(p.Count > 0, iobench.SetCount, strconv.FormatInt(p.Count, 10))
	add(p.Source != "", iobench.SetSource, string(p.Source))
	add(p.NoWarmup, iobench.SetWarmup, "false")
	return fields
}

func (s Sweep) fields() []Field {
	var fields []Field
	if s.MinElems > 0 {
		fields = append(fields, Field{iobench.SetMinSize, elems(s.MinElems)})
	}
	switch {
	case s.MaxElems > 0:
		fields = append(fields, Field{iobench.SetMaxSize, elems(s.MaxElems)})
	case s.Basis != BasisNone:
		fields = append(fields, Field{iobench.SetMaxSize, fmt.Sprintf("max(%s, %d x %s)", flagSize(s.AtLeast), BasisFactor, s.Basis)})
	case s.AtLeast > 0:
		fields = append(fields, Field{iobench.SetMaxSize, flagSize(s.AtLeast)})
	}
	return fields
}

// flagSize is a size as the flags take it: "64MiB".
func flagSize(n int64) string { return units.FlagSize(n) }

// elems is n float64 elements in bytes, as the flags take them; the
// reference program counts doubles, its profile's Expect says so.
func elems(n int64) string { return flagSize(8 * n) }

// Describe writes per profile its name, the settings it sets (in name's
// words) and where it expects the knee, one block each so that it fits a
// terminal: what `iobench profiles` prints.
func Describe(w io.Writer, name func(iobench.Setting) string) error {
	var buf bytes.Buffer
	// Writes to a bytes.Buffer cannot fail; the one write to w is checked.
	block := func(name, about, sets, expect string) {
		fmt.Fprintf(&buf, "%s: %s\n  sets:    %s\n  expects: %s\n\n", name, about, sets, expect)
	}
	block(AutoName, "the default", "the profile below that matches the file system type, else generic", "what that profile expects")
	for _, p := range presets {
		block(p.Name, p.Description, p.sets(name), p.Expect)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// sets is what a profile sets: the fields in name's words, or "(defaults)".
func (p Profile) sets(name func(iobench.Setting) string) string {
	fields := p.Fields()
	if len(fields) == 0 {
		return "(defaults)"
	}
	flags := make([]string, len(fields))
	for i, f := range fields {
		flags[i] = f.Words(name)
	}
	return strings.Join(flags, " ")
}
