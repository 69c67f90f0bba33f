package report

import (
	"fmt"
	"strings"

	"github.com/iobench/iobench/iobench"
)

// Jobs describes a sweep with --jobs: several writers in one process.
// Each sample in Results is then the aggregate of one run over all jobs,
// as under MPI: all bytes over the span from the earliest start to the
// latest end.
type Jobs struct {
	Jobs       int      `json:"jobs"`
	SharedFile bool     `json:"shared_file"` // one file, disjoint segments
	PerJob     []JobRun `json:"per_job"`     // per-run spread across jobs
}

// JobRun is the spread of one run's per-job throughputs.
type JobRun struct {
	Variant         string  `json:"variant,omitempty"`
	Mode            string  `json:"mode"`
	WriteSize       int64   `json:"write_size"`
	Round           int     `json:"round"`
	MinMiBPerSec    float64 `json:"min_mib_per_s"`
	MedianMiBPerSec float64 `json:"median_mib_per_s"`
	MaxMiBPerSec    float64 `json:"max_mib_per_s"`
	SlowestJob      int     `json:"slowest_job"`
}

func newJobs(j *iobench.JobsResult) *Jobs {
	if j == nil {
		return nil
	}
	out := &Jobs{Jobs: j.Jobs, SharedFile: j.SharedFile, PerJob: make([]JobRun, len(j.PerJob))}
	for i, s := range j.PerJob {
		out.PerJob[i] = JobRun{Variant: s.Variant, Mode: string(s.Mode), WriteSize: s.WriteSize, Round: s.Round,
			MinMiBPerSec: s.MinMiBPerSec, MedianMiBPerSec: s.MedianMiBPerSec, MaxMiBPerSec: s.MaxMiBPerSec, SlowestJob: s.SlowestRank}
	}
	return out
}

// jobsLine describes the writers in one line, from the plan (the header
// is printed before any run) and, once known, the file layout.
func jobsLine(c Config, j *Jobs) string {
	layout := ""
	if j != nil {
		layout = "; a file per job"
		if j.SharedFile {
			layout = "; one shared file, disjoint segments"
		}
	}
	return fmt.Sprintf("%d writers (goroutines) in this process, lined up before each run, one syncing%s; --count/--size per job; results are aggregates: all jobs' bytes over the span from the first start to the last end",
		c.Jobs, layout)
}

// jobSummaries are rankSummaries of the jobs: the same figures, by job.
func jobSummaries(j *Jobs, rows []iobench.SizeResult) []rankSummary {
	runs := make([]RankRun, len(j.PerJob))
	for i, r := range j.PerJob {
		runs[i] = RankRun{Variant: r.Variant, Mode: r.Mode, WriteSize: r.WriteSize, Round: r.Round, MinMiBPerSec: r.MinMiBPerSec,
			MedianMiBPerSec: r.MedianMiBPerSec, MaxMiBPerSec: r.MaxMiBPerSec, SlowestRank: r.SlowestJob}
	}
	return rankSummaries(&MPI{PerRank: runs}, rows)
}

func jobHead() []string {
	return []string{"size", "bytes", "aggregate MiB/s", "job min", "job median", "job max", "slowest job"}
}

const jobCaption = "per job (MiB/s of single jobs, median over rounds):"

func (p *printer) textJobs(r *Report, rows []iobench.SizeResult) {
	if r.Jobs != nil {
		p.textSpread(jobCaption, jobHead(), jobSummaries(r.Jobs, rows))
	}
}

func (p *printer) mdJobs(r *Report, rows []iobench.SizeResult) {
	if r.Jobs != nil {
		p.mdSpread(jobCaption, jobHead(), jobSummaries(r.Jobs, rows))
	}
}

// textSpread is the table of a run's spread across ranks or jobs, under
// its caption; nothing when no size has one.
func (p *printer) textSpread(caption string, head []string, sums []rankSummary) {
	if len(sums) == 0 {
		return
	}
	p.f("\n%s\n", caption)
	lines := []string{strings.Join(head, "\t") + "\t"}
	for _, s := range sums {
		lines = append(lines, strings.Join(s.cells(), "\t")+"\t")
	}
	p.WriteString(tabulate(lines))
}

// mdSpread is textSpread as a Markdown table.
func (p *printer) mdSpread(caption string, head []string, sums []rankSummary) {
	if len(sums) == 0 {
		return
	}
	p.f("\n%s\n\n", mdSentence(caption))
	var body [][]string
	for _, s := range sums {
		body = append(body, s.cells())
	}
	p.mdTable(head, body)
}
