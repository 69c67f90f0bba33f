package report

import (
	"encoding/csv"
	"io"
	"strconv"
	"time"
)

var csvHeader = []string{
	"mode", "write_size", "round", "seq", "seconds", "bytes", "calls",
	"short_writes", "eintr_retries", "mib_per_s", "start",
	"fs_type", "block_size", "element_type", "convert", "fsync", "source", "incomplete",
}

// CSV writes one row per run, with a header.
func CSV(w io.Writer, r *Report) error {
	cw := csv.NewWriter(w)
	_ = cw.Write(csvHeader)
	for _, row := range r.Results {
		for _, s := range row.Samples {
			_ = cw.Write([]string{
				string(s.Mode), itoa(s.WriteSize), strconv.Itoa(s.Round), strconv.Itoa(s.Seq),
				ftoa(s.Seconds), itoa(s.Bytes), itoa(s.Calls), itoa(s.ShortWrites), itoa(s.EINTR),
				ftoa(s.MiBPerSec()), s.Start.UTC().Format(time.RFC3339Nano),
				r.FS.Type, itoa(r.FS.BlockSize), r.Config.ElementType, r.Config.Convert,
				strconv.FormatBool(r.Config.Fsync), r.Config.Source, strconv.FormatBool(r.Incomplete),
			})
		}
	}
	cw.Flush()
	return cw.Error()
}
