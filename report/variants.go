package report

import (
	"strings"

	"github.com/iobench/iobench/verdict"
)

// Views are the reports a renderer shows one by one: r itself, or for an
// interleaved sweep one per variant (VariantReport).
func (r *Report) Views() []*Report {
	if len(r.Variants) == 0 {
		return []*Report{r}
	}
	out := make([]*Report, len(r.Variants))
	for i := range r.Variants {
		out[i] = r.VariantReport(i)
	}
	return out
}

// VariantReport is variant i of an interleaved sweep as a report of its
// own: its rows, knees and settings. The recommendation stays with the
// first variant's; the others have none.
func (r *Report) VariantReport(i int) *Report {
	v := *r
	name := r.Variants[i].Name
	v.Variant = name
	v.Results = verdict.VariantRows(r.Results, name)
	v.Knee, v.ReadKnee, v.KneeStability = r.Variants[i].Knee, r.Variants[i].ReadKnee, r.Variants[i].KneeStability
	v.Variants, v.Ratios = nil, nil
	for _, cv := range r.Config.Variants {
		if cv.Name == name {
			v.Config.ElementType, v.Config.ElementSize, v.Config.Count = cv.ElementType, cv.ElementSize, cv.Count
			v.Config.Convert, v.Config.Direct = cv.Convert, cv.Direct
		}
	}
	v.Config.Variants = nil
	if i > 0 {
		v.Recommendation = nil
	}
	return &v
}

// ExpandVariants is runs with each interleaved sweep as one run per
// variant, named "name variant", for the writers of several reports
// (compare, plot), which then show every variant's curve.
func ExpandVariants(runs []Run) []Run {
	var out []Run
	for _, run := range runs {
		if run.Report == nil || len(run.Report.Variants) == 0 {
			out = append(out, run)
			continue
		}
		for _, v := range run.Report.Views() {
			out = append(out, Run{Name: strings.TrimSpace(run.Name + " " + v.Variant), Report: v})
		}
	}
	return out
}
