package iobench

import (
	"errors"
	"testing"
)

// Ctrl-C while a large array fills answers within one fill chunk, not
// after the fill: the stop is checked between chunks.
func TestFillStopsWithinAChunkOfTheStop(t *testing.T) {
	c := DefaultConfig()
	c.Count = 8 * fillChunk / c.ElemSize() // eight chunks
	var filled int64
	stop := func() bool { return filled >= fillChunk }
	_, err := newSource(c, stop, func(n int64) { filled = max(filled, n) })
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("newSource = %v, want ErrInterrupted", err)
	}
	if filled != fillChunk {
		t.Errorf("filled %d bytes after the stop at %d, want one chunk (%d) of %d", filled, fillChunk, fillChunk, c.SourceBytes())
	}
}
