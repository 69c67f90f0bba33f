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
