//go:build race

package cluster

// raceDetector: the race detector is on, and slows thousands of fake
// ranks by minutes.
const raceDetector = true
