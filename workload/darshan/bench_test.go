package darshan

import (
	"bytes"
	"path/filepath"
	"testing"
)

// BenchmarkParseE3SM parses the largest shared log: 512 ranks, module
// regions of many zlib streams.
func BenchmarkParseE3SM(b *testing.B) {
	dir := sharedDarshan(b)
	data := readShared(b, filepath.Join(dir, "logs", "corpus", "e3sm_io_heatmaps_and_dxt_e3sm_io_heatmap_only.darshan"))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(bytes.NewReader(data), int64(len(data)), Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}
