package report

import (
	"encoding/csv"
	"io"
	"slices"
	"strconv"
	"time"
)

var csvHeader = []string{
	"mode", "write_size", "round", "seq", "seconds", "bytes", "calls",
	"short_writes", "eintr_retries", "mib_per_s", "start",
	"fs_type", "block_size", "element_type", "convert", "fsync", "source", "incomplete",
	"time_limited", "flush", "data",
}

// CSV writes one row per run, with a header. The runs of an interleaved
// sweep carry their variant's type and byte order, and its name in a
// last column, variant, that only such a sweep's CSV has.
func CSV(w io.Writer, r *Report) error {
	cw := csv.NewWriter(w)
	head := csvHeader
	if len(r.Variants) > 0 {
		head = append(slices.Clip(head), "variant")
	}
	_ = cw.Write(head)
	for _, v := range r.Views() {
		csvRows(cw, v, len(r.Variants) > 0)
	}
	cw.Flush()
	return cw.Error()
}

func csvRows(cw *csv.Writer, r *Report, variants bool) {
	for _, row := range r.Results {
		for _, s := range row.Samples {
			rec := []string{
				string(s.Mode), itoa(s.WriteSize), strconv.Itoa(s.Round), strconv.Itoa(s.Seq),
				ftoa(s.Seconds), itoa(s.Bytes), itoa(s.Calls), itoa(s.ShortWrites), itoa(s.EINTR),
				ftoa(s.MiBPerSec()), s.Start.UTC().Format(time.RFC3339Nano),
				r.FS.Type, itoa(r.FS.BlockSize), r.Config.ElementType, r.Config.Convert,
				strconv.FormatBool(r.Config.Fsync), r.Config.Source, strconv.FormatBool(r.Incomplete),
				strconv.FormatBool(s.TimeLimited), r.Config.Flush, r.Config.Data,
			}
			if variants {
				rec = append(rec, s.Variant)
			}
			_ = cw.Write(rec)
		}
	}
}
