package profile

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/iobench/iobench/iobench"
)

// Field is one flag a profile sets, with its value or how it is derived.
type Field struct {
	Flag  string `json:"flag"`  // flag name without dashes: "max"
	Value string `json:"value"` // "true", "3", "max(64 MiB, 4 x f_bsize)"
}

// String is the field as a user would write the flag: "--fsync",
// "--warmup=false", "--repeat 3".
func (f Field) String() string {
	switch f.Value {
	case "true":
		return "--" + f.Flag
	case "false":
		return "--" + f.Flag + "=false"
	}
	return "--" + f.Flag + " " + f.Value
}

// Fields lists what p sets, in flag terms. A flag given on the command
// line wins over each of them.
func (p Profile) Fields() []Field {
	fields := p.Sweep.fields()
	add := func(ok bool, flag, value string) {
		if ok {
			fields = append(fields, Field{flag, value})
		}
	}
	add(p.Fsync, "fsync", "true")
	add(p.Repeat > 0, "repeat", strconv.Itoa(p.Repeat))
	add(p.RepeatAuto, "repeat", "auto")
	add(p.Order != "", "order", string(p.Order))
	add(p.Order == "" && (p.Repeat > 1 || p.RepeatAuto), "order", string(iobench.Shuffled))
	add(p.Sync != "", "sync", string(p.Sync))
	add(p.Count > 0, "count", strconv.FormatInt(p.Count, 10))
	add(p.Source != "", "source", string(p.Source))
	add(p.NoWarmup, "warmup", "false")
	return fields
}

func (s Sweep) fields() []Field {
	var fields []Field
	if s.MinElems > 0 {
		fields = append(fields, Field{"min", elems(s.MinElems)})
	}
	switch {
	case s.MaxElems > 0:
		fields = append(fields, Field{"max", elems(s.MaxElems)})
	case s.Basis != BasisNone:
		fields = append(fields, Field{"max", fmt.Sprintf("max(%s, %d x %s)", flagSize(s.AtLeast), BasisFactor, s.Basis)})
	case s.AtLeast > 0:
		fields = append(fields, Field{"max", flagSize(s.AtLeast)})
	}
	return fields
}

// flagSize is a size as the flags take it: "64MiB".
func flagSize(n int64) string { return strings.ReplaceAll(size(n), " ", "") }

// elems is n float64 elements in bytes, as the flags take them; the
// reference program counts doubles, its profile's Expect says so.
func elems(n int64) string { return flagSize(8 * n) }

// Describe writes what `iobench profiles` prints: per profile its name,
// the flags it sets and where it expects the knee, one block each so that
// it fits a terminal.
func Describe(w io.Writer) error {
	var buf bytes.Buffer
	// Writes to a bytes.Buffer cannot fail; the one write to w is checked.
	block := func(name, about, sets, expect string) {
		fmt.Fprintf(&buf, "%s: %s\n  sets:    %s\n  expects: %s\n\n", name, about, sets, expect)
	}
	block(AutoName, "the default", "the profile below that matches the file system type, else generic", "what that profile expects")
	for _, p := range presets {
		block(p.Name, p.Description, p.sets(), p.Expect)
	}
	buf.WriteString("Flags given on the command line always win over a profile.\n")
	_, err := w.Write(buf.Bytes())
	return err
}

// sets is what a profile sets: the fields as flags, or "(defaults)".
func (p Profile) sets() string {
	fields := p.Fields()
	if len(fields) == 0 {
		return "(defaults)"
	}
	flags := make([]string, len(fields))
	for i, f := range fields {
		flags[i] = f.String()
	}
	return strings.Join(flags, " ")
}
