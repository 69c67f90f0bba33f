package knee

// Safe is the smallest size measured not worse than the plateau.
type Safe struct {
	Size     int64   `json:"write_size"` // 0 when no size is shown so yet
	Share    float64 `json:"share"`      // its median share of the plateau
	ShareLow float64 `json:"share_low"`  // the low end of that share's interval
}

// SafeSize is the smallest size whose runs are shown not worse than the
// plateau's (the knee k's band): the low end of its throughput's ratio to
// the plateau's is at least the knee fraction, with MinEstablishRuns runs
// or more on both sides. A test of "not worse", so that fewer runs widen
// the interval and never make a smaller size look safe.
func SafeSize(runs []Runs, k Result) Safe {
	plateau := PlateauRuns(runs, k)
	f := normFraction(k.Fraction)
	for _, r := range GroupRuns(runs) { // ascending sizes
		g := CompareGain(plateau, r.MiBPerSec, f)
		if g.Runs >= MinEstablishRuns && g.PlateauRuns >= MinEstablishRuns && g.High > 0 && g.High <= 1/f {
			return Safe{Size: r.Size, Share: 1 / g.Ratio, ShareLow: 1 / g.High}
		}
	}
	return Safe{}
}

// PlateauRuns are the runs of the sizes in the knee's band, from the knee
// to where a declining curve ends: what the recommended size reaches.
func PlateauRuns(runs []Runs, k Result) []float64 {
	var out []float64
	for _, r := range GroupRuns(runs) {
		if r.Size >= k.WriteSize && (k.DeclinesAbove == 0 || r.Size <= k.DeclinesAbove) {
			out = append(out, r.MiBPerSec...)
		}
	}
	return out
}
