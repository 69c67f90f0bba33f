package render

import (
	"encoding/json"
	"io"

	"github.com/iobench/iobench/report"
)

// JSON writes the report as one indented JSON document.
func JSON(w io.Writer, r *report.Report) error {
	out := *r
	if out.Warnings == nil {
		out.Warnings = []string{}
	}
	return encodeIndented(w, &out)
}

// encodeIndented writes v as one indented JSON document.
func encodeIndented(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	// Not for HTML: keep Anonymize's "<host>" readable, not "\u003chost\u003e".
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
