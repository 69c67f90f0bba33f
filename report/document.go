package report

import (
	"encoding/json"
	"slices"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/verdict"
)

// reportJSON is a Report's JSON document, field by field in the order
// it has always had: the summary's fields stand among the run's, and
// warnings hold the run's and the summary's in one list.
type reportJSON struct {
	Header
	Config         Config                  `json:"config"`
	WarmupRan      bool                    `json:"warmup_ran"`
	Results        []record.SizeResult     `json:"results"`
	Knee           knee.Estimate           `json:"knee"`
	ReadKnee       *knee.Estimate          `json:"read_knee,omitempty"`
	KneeStability  *knee.Spread            `json:"knee_stability,omitempty"`
	Adaptive       *record.Adaptive        `json:"adaptive,omitempty"`
	Recommendation *advice.Recommendation  `json:"recommendation,omitempty"`
	Verdict        verdict.Verdict         `json:"verdict"`
	MPI            *MPI                    `json:"mpi,omitempty"`
	Jobs           *Jobs                   `json:"jobs,omitempty"`
	Variants       []verdict.VariantResult `json:"variants,omitempty"`
	Ratios         []verdict.VariantRatio  `json:"ratios,omitempty"`
	KeptFile       string                  `json:"kept_file,omitempty"`
	LeftFiles      []record.LeftFile       `json:"left_files,omitempty"`
	Verified       *record.Verified        `json:"verified,omitempty"`
	Warnings       []string                `json:"warnings"`
	Incomplete     bool                    `json:"incomplete"`
	Error          string                  `json:"error,omitempty"`
	ETAError       *record.ETAError        `json:"eta_error,omitempty"`
}

// MarshalJSON writes the report's JSON document.
func (r Report) MarshalJSON() ([]byte, error) {
	s := r.Summary
	return marshalUnescaped(reportJSON{Header: r.Header, Config: r.Config, WarmupRan: r.WarmupRan, Results: s.Results,
		Knee: s.Knee, ReadKnee: s.ReadKnee, KneeStability: s.KneeStability, Adaptive: r.Adaptive,
		Recommendation: s.Recommendation, Verdict: s.Verdict, MPI: r.MPI, Jobs: r.Jobs, Variants: s.Variants, Ratios: s.Ratios,
		KeptFile: r.KeptFile, LeftFiles: r.LeftFiles, Verified: r.Verified, Warnings: r.AllWarnings(),
		Incomplete: r.Incomplete, Error: r.Error, ETAError: r.ETAError})
}

// UnmarshalJSON reads a report's JSON document. Its warnings that the
// summary it holds derives (the same words from the same knee) are the
// summary's again; the others are the run's.
func (r *Report) UnmarshalJSON(b []byte) error {
	var d reportJSON
	if err := json.Unmarshal(b, &d); err != nil {
		return err
	}
	s := verdict.Summary{Results: d.Results, Knee: d.Knee, ReadKnee: d.ReadKnee, KneeStability: d.KneeStability,
		Recommendation: d.Recommendation, Variants: d.Variants, Ratios: d.Ratios, Warnings: verdict.KneeWarnings(d.Knee), Verdict: d.Verdict}
	*r = Report{Header: d.Header, Config: d.Config, WarmupRan: d.WarmupRan, Summary: s, Adaptive: d.Adaptive,
		MPI: d.MPI, Jobs: d.Jobs, KeptFile: d.KeptFile, LeftFiles: d.LeftFiles, Verified: d.Verified,
		Warnings: runWarnings(d.Warnings, s.Warnings), Incomplete: d.Incomplete, Error: d.Error, ETAError: d.ETAError}
	return nil
}

// runWarnings are a document's warnings less one of each the summary
// derives.
func runWarnings(all []string, derived []verdict.Warning) []string {
	out := slices.Clone(all)
	for _, w := range derived {
		if i := slices.Index(out, w.Text); i >= 0 {
			out = slices.Delete(out, i, i+1)
		}
	}
	return out
}
