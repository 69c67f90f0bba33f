package report

import "fmt"

// Run is one report with the name a user knows it by, usually the file it
// was read from, for the writers of several reports: a comparison, a
// plot.
type Run struct {
	Name   string
	Report *Report
}

// CheckRuns refuses an empty list of runs or one without its report,
// for every writer of several reports.
func CheckRuns(runs []Run) error {
	if len(runs) == 0 {
		return fmt.Errorf("no reports given")
	}
	for i, run := range runs {
		if run.Report == nil {
			return fmt.Errorf("report %d (%s) is missing", i+1, run.Name)
		}
	}
	return nil
}
