package report

import (
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/knee"
)

// KneeFor is the knee of one direction: ReadKnee for reads when the
// sweep measured both, else Knee.
func (r *Report) KneeFor(mode iobench.Mode) knee.Estimate {
	if mode == iobench.ModeRead && r.ReadKnee != nil {
		return *r.ReadKnee
	}
	return r.Knee
}

// ModeRows are the rows of one direction, in order.
func ModeRows(rows []iobench.SizeResult, mode iobench.Mode) []iobench.SizeResult {
	n := 0
	for _, row := range rows {
		if row.Mode == mode {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]iobench.SizeResult, 0, n) // one copy: a row is hundreds of bytes
	for _, row := range rows {
		if row.Mode == mode {
			out = append(out, row)
		}
	}
	return out
}
