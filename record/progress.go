package record

// ETAError is how far the time left that the progress display showed
// was from the time the timed runs really took, at a quarter, half and
// three quarters of them: the estimate over the truth, less 1 (+0.2: it
// said 20% too long, -0.2: 20% too short).
type ETAError struct {
	AtQuarter       float64 `json:"at_quarter"`
	AtHalf          float64 `json:"at_half"`
	AtThreeQuarters float64 `json:"at_three_quarters"`
	// TimedSeconds is the span of the timed runs, from the first round's
	// start to the last run's end.
	TimedSeconds float64 `json:"timed_seconds"`
}
