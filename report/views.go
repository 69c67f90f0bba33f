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
	var out []iobench.SizeResult
	for _, row := range rows {
		if row.Mode == mode {
			out = append(out, row)
		}
	}
	return out
}
