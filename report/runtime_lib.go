package report

import (
	"github.com/iobench/iobench/libcheck"
	"github.com/iobench/iobench/verdict"
)

// LibraryReport is what `iobench runtime mpiio|hdf5` produced: a runtime
// report whose cases are an I/O library's, the library's plan, and apply
// rows measured through the library where it ran their values.
type LibraryReport struct {
	RuntimeReport
	Library LibraryConfig `json:"library"`
}

// LibraryConfig is a library's plan as reported.
type LibraryConfig struct {
	libcheck.LibraryPlan
	Version string `json:"version,omitempty"` // the library: "Open MPI 4.1.4", "HDF5 1.10.8"
	Launch  string `json:"launch,omitempty"`  // how each MPI writer job was started
	// Notes say which settings the plan left out, and why.
	Notes []string `json:"notes,omitempty"`
	// Unmeasured says, per apply runtime, why this run did not measure
	// it: another check does, or the library is not installed.
	Unmeasured map[string]string `json:"unmeasured,omitempty"`
}

// SetApply fills the how-to-apply block from the sweep's knee
// (verdict.LibraryCheck.Apply); a library's report has no verdict.
func (r *LibraryReport) SetApply() {
	r.Verdict = nil
	r.Apply = verdict.LibraryCheck{RuntimeCheck: r.check(), Library: r.Library.LibraryPlan, Unmeasured: r.Library.Unmeasured}.Apply()
}
