package iobench

import (
	"slices"
	"time"
)

// convertBudget is how long each write size's in-memory pack is timed.
const convertBudget = 50 * time.Millisecond

// measureConversion times the pack step alone, per write size, so a report
// can show whether conversion or the file system limits a row.
func (r *Runner) measureConversion(res *Result) {
	if r.packer.Identity() || r.Config.Mode == ModeRead {
		return
	}
	res.ConvertMiBPerSec = map[int64]float64{}
	for _, size := range slices.Sorted(slices.Values(r.Config.Sizes)) {
		res.ConvertMiBPerSec[size] = r.packSpeed(size)
	}
}

func (r *Runner) packSpeed(size int64) float64 {
	es := r.Config.ElemSize()
	per := size / es
	var bytes int64
	start := time.Now()
	for first := int64(0); ; first += per {
		if first >= r.Config.Count {
			first = 0
		}
		n := min(per, r.Config.Count-first)
		r.packer.Pack(r.buf[:n*es], r.src.region(first, n))
		bytes += n * es
		if el := time.Since(start); el >= convertBudget {
			return float64(bytes) / el.Seconds() / MiB
		}
	}
}
