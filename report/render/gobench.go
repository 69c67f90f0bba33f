package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
)

// Gobench writes every run in the Go benchmark format
// (golang.org/design/14313-benchmark-format), so that benchstat can
// compare sweeps:
//
//	iobench sweep --format gobench | benchstat -col /size -
//
// Configuration lines come first; then one line per run, named
// BenchmarkWrite or BenchmarkRead with the size and conversion as
// sub-benchmark keys, 1 iteration, the run's time as ns/op, and its
// throughput twice: MB/s as Go's testing package prints it, and MiB/s.
func Gobench(w io.Writer, r *report.Report) error {
	var p printer
	for _, kv := range append(gobenchConfig(r), gobenchIO(r.Config)...) {
		p.F("%s: %s\n", kv[0], kv[1])
	}
	if r.Incomplete { // a config line, so benchstat shows it above the table
		p.F("incomplete: true (%s)\n", strings.Join(strings.Fields(r.Error), " "))
	}
	for _, v := range r.Views() {
		for _, row := range v.Results {
			for _, s := range row.Samples {
				p.F("%s\n", gobenchLine(v.Config, s))
			}
		}
	}
	return p.FlushTo(w)
}

// gobenchConfig is what benchstat shows above its tables and uses to tell
// files apart; keys are lower case without spaces, as the format demands.
func gobenchConfig(r *report.Report) [][2]string {
	c := r.Config
	return [][2]string{
		{"goos", goos(r.Host.Kernel)},
		{"goarch", goarch(r.Host.Arch)},
		{"pkg", "iobench"},
		{"cpu", r.Host.CPUModel},
		{"iobench", r.Tool.Version},
		{"fs", r.FS.Type},
		{"blocksize", itoa(r.FS.BlockSize)},
		{"element", c.ElementType},
		{"convert", c.Convert},
		{"fsync", fmt.Sprint(c.Fsync)},
		{"direct", fmt.Sprint(c.Direct)},
		{"source", string(c.Source)},
		{"stride", fmt.Sprint(c.Stride)},
		{"total_bytes", itoa(c.TotalBytes)},
	}
}

// gobenchLine is one run. MB/s is bytes / 1e6 / seconds, the unit Go's
// testing.B.SetBytes reports (decimal megabytes), so the numbers match any
// Go benchmark next to them; MiB/s (2^20 bytes) is the unit of every other
// iobench format and comes as an extra metric.
func gobenchLine(c report.Config, s record.Sample) string {
	name := "BenchmarkWrite"
	if s.Mode == record.ModeRead {
		name = "BenchmarkRead"
	}
	mbps := 0.0
	if s.Seconds > 0 {
		mbps = float64(s.Bytes) / 1e6 / s.Seconds
	}
	// A variant's other settings are keys too: /type=int32, /direct=true.
	for _, kv := range strings.Fields(s.Variant) {
		if !strings.HasPrefix(kv, "convert=") {
			name += "/" + kv
		}
	}
	return fmt.Sprintf("%s/size=%d/convert=%s 1 %.0f ns/op %.2f MB/s %.2f MiB/s",
		name, s.WriteSize, c.Convert, s.Seconds*1e9, mbps, s.MiBPerSec())
}

// goos maps a `uname -sr` kernel ("Linux 6.1.0") to GOOS ("linux").
func goos(kernel string) string {
	f := strings.Fields(kernel)
	if len(f) == 0 {
		return "unknown"
	}
	return strings.ToLower(f[0])
}

// goarch maps `uname -m` to GOARCH; names Go spells the same pass through.
func goarch(machine string) string {
	switch machine {
	case "x86_64":
		return "amd64"
	case "aarch64", "arm64":
		return "arm64"
	case "i386", "i686":
		return "386"
	case "":
		return "unknown"
	}
	return machine
}

// gobenchIO is how the runs did their I/O, where the report says so.
func gobenchIO(c report.Config) [][2]string {
	var out [][2]string
	for _, kv := range [][2]string{{"flush", c.Flush}, {"data", c.Data}, {"open_sync", string(c.OpenSync)}} {
		if kv[1] != "" {
			out = append(out, kv)
		}
	}
	if c.TimeLimit > 0 {
		out = append(out, [2]string{"time_limit", formatSeconds(c.TimeLimit)})
	}
	return out
}
