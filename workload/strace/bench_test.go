package strace_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/iobench/iobench/workload/strace"
)

// benchTrace generates a trace of n lines from four pids writing to
// files they open and close, one line in 40 an unfinished call and its
// resumption, as strace -f -tt -T prints it, with -y if annotated.
func benchTrace(n int, annotated bool) []byte {
	var b bytes.Buffer
	fdOf := func(pid int) string {
		if annotated {
			return fmt.Sprintf("3</data/run/out.%d.dat>", pid)
		}
		return "3"
	}
	for i := range n {
		pid := 1000 + i%4
		ts := fmt.Sprintf("%d 12:00:%02d.%06d ", pid, i/1000000%60, i%1000000)
		switch {
		case i%1000 < 4:
			fmt.Fprintf(&b, "%sopenat(AT_FDCWD, \"/data/run/out.%d.dat\", O_WRONLY|O_CREAT|O_TRUNC, 0644) = 3 <0.000021>\n", ts, pid)
		case i%40 == 10:
			fmt.Fprintf(&b, "%swrite(%s, \"\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\"..., 1048576 <unfinished ...>\n", ts, fdOf(pid))
		case i%40 == 14:
			fmt.Fprintf(&b, "%s<... write resumed>) = 1048576 <0.000912>\n", ts) // the pid of i%40 == 10
		case i%1000 >= 996:
			fmt.Fprintf(&b, "%sclose(%s) = 0 <0.000004>\n", ts, fdOf(pid))
		default:
			fmt.Fprintf(&b, "%swrite(%s, \"abcdefghabcdefghabcdefghabcdefgh\"..., %d) = %d <0.000011>\n", ts, fdOf(pid), 8192, 8192)
		}
	}
	return b.Bytes()
}

// BenchmarkParse parses a generated trace of a million lines; MB/s is
// of the trace's text.
func BenchmarkParse(b *testing.B) {
	for _, annotated := range []bool{false, true} {
		data := benchTrace(1_000_000, annotated)
		b.Run(fmt.Sprintf("y=%v", annotated), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				tr, err := strace.Parse(bytes.NewReader(data))
				if err != nil || tr.Skipped != 0 || len(tr.Files) != 4 {
					b.Fatalf("Parse: %v, %d skipped at %v, %d files", err, tr.Skipped, tr.SkippedAt, len(tr.Files))
				}
			}
			b.ReportMetric(float64(1_000_000*b.N)/b.Elapsed().Seconds(), "lines/s")
		})
	}
}
