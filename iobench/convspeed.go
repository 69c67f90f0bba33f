package iobench

import (
	"slices"
	"time"
)

// convertBudget is how long each write size's in-memory pack is timed.
const convertBudget = 50 * time.Millisecond

// convertSpeeds times the pack step alone, per write size, so a report
// can show whether conversion or the file system limits a row; nil when
// the variant's writes convert nothing.
func (d *variantData) convertSpeeds() map[int64]float64 {
	if d.packer.Identity() || d.cfg.Mode == ModeRead {
		return nil
	}
	speeds := map[int64]float64{}
	for _, size := range slices.Sorted(slices.Values(d.cfg.Sizes)) {
		speeds[size] = d.packSpeed(size)
	}
	return speeds
}

func (d *variantData) packSpeed(size int64) float64 {
	es := d.cfg.ElemSize()
	per := size / es
	var bytes int64
	start := time.Now()
	for first := int64(0); ; first += per {
		if first >= d.cfg.Count {
			first = 0
		}
		n := min(per, d.cfg.Count-first)
		d.packer.Pack(d.buf[:n*es], d.src.region(first, n))
		bytes += n * es
		if el := time.Since(start); el >= convertBudget {
			return float64(bytes) / el.Seconds() / MiB
		}
	}
}
