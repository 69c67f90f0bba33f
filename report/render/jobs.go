package render

import (
	"fmt"
	"strings"

	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/internal/page"
)

// jobsLine describes the writers in one line, from the plan (the header
// is printed before any run) and, once known, the file layout.
func jobsLine(c report.Config, j *report.Jobs) string {
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

func jobHead() []string {
	return []string{"size", "bytes", "aggregate MiB/s", "job min", "job median", "job max", "slowest job"}
}

const jobCaption = "per job (MiB/s of single jobs, median over rounds):"

func (p *printer) textJobs(r *report.Report, rows []record.SizeResult) {
	if r.Jobs != nil {
		p.textSpread(jobCaption, jobHead(), spreadSummaries(r.Jobs.PerJob, rows))
	}
}

func (p *printer) mdJobs(r *report.Report, rows []record.SizeResult) {
	if r.Jobs != nil {
		p.mdSpread(jobCaption, jobHead(), spreadSummaries(r.Jobs.PerJob, rows))
	}
}

// textSpread is the table of a run's spread across ranks or jobs, under
// its caption; nothing when no size has one.
func (p *printer) textSpread(caption string, head []string, sums []spreadSummary) {
	if len(sums) == 0 {
		return
	}
	p.F("\n%s\n", caption)
	lines := []string{strings.Join(head, "\t") + "\t"}
	for _, s := range sums {
		lines = append(lines, strings.Join(s.cells(), "\t")+"\t")
	}
	p.table(lines)
}

// mdSpread is textSpread as a Markdown table.
func (p *printer) mdSpread(caption string, head []string, sums []spreadSummary) {
	if len(sums) == 0 {
		return
	}
	p.F("\n%s\n\n", page.Sentence(caption))
	var body [][]string
	for _, s := range sums {
		body = append(body, s.cells())
	}
	p.mdTable(head, body)
}
