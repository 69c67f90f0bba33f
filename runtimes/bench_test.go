package runtimes

import (
	"fmt"
	"os"
	"testing"

	"github.com/iobench/iobench/convert"
	"github.com/iobench/iobench/libcheck"
)

// BenchmarkRuntime writes 64 MiB through each runtime per iteration and
// reports its throughput and the write(2) calls it counted:
//
//	go test -run '^$' -bench Runtime -benchtime 5x ./runtimes
//
// On tmpfs it measures the runtime's copying and converting; on the disk
// under the temp dir, with fsync, the file system too.
func BenchmarkRuntime(b *testing.B) {
	const elements = 64 << 20 / libcheck.ElementBytes
	dirs := map[string]string{"disk-fsync": b.TempDir()}
	if d, err := os.MkdirTemp("/dev/shm", "iobench-runtimes-bench-"); err == nil {
		b.Cleanup(func() { os.RemoveAll(d) })
		dirs["tmpfs"] = d
	}
	for _, rt := range libcheck.Runtimes() {
		w := writerFor(b, rt)
		for fs, dir := range dirs {
			for _, order := range []convert.Order{convert.Native, convert.BigEndian} {
				for _, buf := range []int64{8 << 10, 128 << 10, 1 << 20} {
					name := fmt.Sprintf("%s/%s/%s/buffer=%d", rt, fs, order, buf)
					b.Run(name, func(b *testing.B) {
						j := libcheck.Job{Dir: dir, Elements: elements, BufferBytes: buf, Convert: order, Fsync: fs == "disk-fsync"}
						benchRuns(b, w, j)
					})
				}
			}
		}
	}
}

func benchRuns(b *testing.B, w *Writer, j libcheck.Job) {
	var mib, calls float64
	for i := 0; b.Loop(); i++ {
		j.Name = newName(b, w.Runtime(), i)
		m, err := w.Run(b.Context(), j)
		if err != nil {
			b.Fatal(err)
		}
		mib += m.MiBPerSec()
		calls += float64(m.WriteCalls)
	}
	b.ReportMetric(mib/float64(b.N), "MiB/s")
	b.ReportMetric(calls/float64(b.N), "calls/op")
}
