//go:build !race

package iobench

const raceEnabled = false
