package report

import (
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/record"
)

// KneeFor is the knee of one direction: ReadKnee for reads when the
// sweep measured both, else Knee.
func (r *Report) KneeFor(mode record.Mode) knee.Estimate {
	if mode == record.ModeRead && r.ReadKnee != nil {
		return *r.ReadKnee
	}
	return r.Knee
}

// ModeRows are the rows of one direction, in order.
func ModeRows(rows []record.SizeResult, mode record.Mode) []record.SizeResult {
	n := 0
	for _, row := range rows {
		if row.Mode == mode {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]record.SizeResult, 0, n) // one copy: a row is hundreds of bytes
	for _, row := range rows {
		if row.Mode == mode {
			out = append(out, row)
		}
	}
	return out
}
