package report

import "github.com/iobench/iobench/record"

// Jobs describes a sweep with --jobs: several writers in one process.
// Each sample in Results is then the aggregate of one run over all jobs,
// as under MPI: all bytes over the span from the earliest start to the
// latest end.
type Jobs struct {
	Jobs       int     `json:"jobs"`
	SharedFile bool    `json:"shared_file"` // one file, disjoint segments
	PerJob     JobRuns `json:"per_job"`     // per-run spread across jobs
}

func newJobs(j *record.JobsResult) *Jobs {
	if j == nil {
		return nil
	}
	return &Jobs{Jobs: j.Jobs, SharedFile: j.SharedFile, PerJob: NewWriterRuns(j.PerJob)}
}
