package render

import (
	"encoding/csv"
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
)

var csvHeader = []string{
	"mode", "write_size", "round", "seq", "seconds", "bytes", "calls",
	"short_writes", "eintr_retries", "mib_per_s", "start",
	"fs_type", "block_size", "element_type", "convert", "fsync", "source", "incomplete",
	"time_limited", "flush", "data",
}

// csvLatencyHeader is the columns a sweep with per-call latency adds:
// each run's own quantiles, µs.
var csvLatencyHeader = []string{"p50_us", "p90_us", "p99_us", "max_us", "max_bound_us", "timed_calls"}

// CSV writes one row per run, with a header. The runs of an interleaved
// sweep carry their variant's type and byte order, and its name in a
// column, variant, that only such a sweep's CSV has; a sweep with
// latency adds the run's call times last.
func CSV(w io.Writer, r *report.Report) error {
	cw := csv.NewWriter(w)
	head := csvHeader
	variants := len(r.Variants) > 0
	if variants {
		head = append(slices.Clip(head), "variant")
	}
	if r.Config.Latency {
		head = append(slices.Clip(head), csvLatencyHeader...)
	}
	_ = cw.Write(head)
	for _, v := range r.Views() {
		csvRows(cw, v, variants)
	}
	cw.Flush()
	return cw.Error()
}

// csvLatency is a run's latency columns; empty cells for a run without.
func csvLatency(l *record.Latency) []string {
	s := l.Summary()
	if s == nil {
		return make([]string, len(csvLatencyHeader))
	}
	return []string{ftoa(s.P50), ftoa(s.P90), ftoa(s.P99), ftoa(s.Max), ftoa(s.MaxBound), itoa(s.TimedCalls)}
}

func csvRows(cw *csv.Writer, r *report.Report, variants bool) {
	for _, row := range r.Results {
		for _, s := range row.Samples {
			rec := []string{
				string(s.Mode), itoa(s.WriteSize), strconv.Itoa(s.Round), strconv.Itoa(s.Seq),
				ftoa(s.Seconds), itoa(s.Bytes), itoa(s.Calls), itoa(s.ShortWrites), itoa(s.EINTR),
				ftoa(s.MiBPerSec()), s.Start.UTC().Format(time.RFC3339Nano),
				r.FS.Type, itoa(r.FS.BlockSize), r.Config.ElementType, r.Config.Convert,
				strconv.FormatBool(r.Config.Fsync), string(r.Config.Source), strconv.FormatBool(r.Incomplete),
				strconv.FormatBool(s.TimeLimited), r.Config.Flush, r.Config.Data,
			}
			if variants {
				rec = append(rec, s.Variant)
			}
			if r.Config.Latency {
				rec = append(rec, csvLatency(s.Latency)...)
			}
			_ = cw.Write(rec)
		}
	}
}
