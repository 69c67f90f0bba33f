package abtest

// Pick returns the index of the screening winner among tests (one per
// candidate, nil for a candidate that was dropped): of those decided
// Faster, the one with the smallest Ratio; the first of equals. ok is
// false when none is decided Faster. The winner still has to be
// confirmed on fresh blocks (see the package doc).
func Pick(tests []*Sequential) (index int, ok bool) {
	index = -1
	for i, t := range tests {
		if t == nil {
			continue
		}
		if _, dir := t.Decided(); dir != Faster {
			continue
		}
		if index < 0 || t.Ratio() < tests[index].Ratio() {
			index = i
		}
	}
	return index, index >= 0
}
