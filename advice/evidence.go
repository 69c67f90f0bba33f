package advice

import (
	"fmt"
	"slices"
	"strings"

	"github.com/iobench/iobench/workload"
)

// Evidence is why a runtime's settings apply to a program: what in its
// log or trace shows the program wrote through that runtime.
type Evidence struct {
	Runtime string // one of ApplyRuntimes
	Why     string
}

// ProgramFacts are what is known of the program beyond its logs.
type ProgramFacts struct {
	// FortranExe: the executable the log names is linked with
	// libgfortran (checked by the caller, where it can read it).
	FortranExe bool
	// Linked is the runtimes the program was seen to load or link (by
	// package binary, from the executable and the shared objects its
	// processes opened), by runtime (ApplyRuntimes), with the evidence.
	Linked map[string]string
}

// RuntimesOf says which runtimes the inputs show the program wrote
// through, in ApplyRuntimes order: libgfortran (a Fortran executable, or
// write(2) calls of exactly its 128 KiB buffer), C stdio (the STDIO
// module), ROMIO and OMPIO (the MPI-IO module), HDF5 and PnetCDF (their
// modules), Lustre and GPFS (files on them).
func RuntimesOf(inputs []workload.Input, p ProgramFacts) []Evidence {
	var out []Evidence
	add := func(rt, why string) {
		if why != "" && !slices.ContainsFunc(out, func(e Evidence) bool { return e.Runtime == rt }) {
			out = append(out, Evidence{rt, why})
		}
	}
	for _, rt := range ApplyRuntimes() {
		add(rt, p.Linked[rt])
	}
	add(RuntimeLibgfortran, gfortranEvidence(inputs, p))
	add(RuntimeStdio, stdioEvidence(inputs))
	mpiio := mpiioEvidence(inputs)
	add(RuntimeROMIO, mpiio)
	add(RuntimeOMPIO, mpiio)
	add(RuntimeHDF5, moduleEvidence(inputs, "HDF5", "H5F", "H5D"))
	add(RuntimePnetCDF, moduleEvidence(inputs, "PnetCDF", "PNETCDF_FILE", "PNETCDF_VAR"))
	add(RuntimeLustre, fsEvidence(inputs, "lustre", "LUSTRE"))
	add(RuntimeGPFS, fsEvidence(inputs, "gpfs", ""))
	slices.SortStableFunc(out, func(a, b Evidence) int {
		return slices.Index(ApplyRuntimes(), a.Runtime) - slices.Index(ApplyRuntimes(), b.Runtime)
	})
	return out
}

// ApplyFor keeps the rows of the runtimes the evidence names.
func ApplyFor(rows []Apply, ev []Evidence) []Apply {
	var out []Apply
	for _, r := range rows {
		if slices.ContainsFunc(ev, func(e Evidence) bool { return e.Runtime == r.Runtime }) {
			out = append(out, r)
		}
	}
	return out
}

func gfortranEvidence(inputs []workload.Input, p ProgramFacts) string {
	if p.FortranExe {
		return "the executable is linked with libgfortran"
	}
	var calls int64
	for _, in := range inputs {
		for _, f := range writeLayer(in.Files) {
			if n := exactCalls(f, GfortranUnformattedDefault); f.Module != workload.ModuleSTDIO && n >= 2 && 2*n >= f.Writes {
				calls += n
			}
		}
	}
	if calls == 0 {
		return sequentialEvidence(inputs)
	}
	return fmt.Sprintf("%d write(2) calls of exactly %d bytes, libgfortran's default unformatted buffer", calls, GfortranUnformattedDefault)
}

// sequentialEvidence is libgfortran's sequential-access pattern with its
// default buffer: calls just over half of it.
func sequentialEvidence(inputs []workload.Input) string {
	for _, in := range inputs {
		for _, f := range writeLayer(in.Files) {
			if b, ok := RecogniseGfortranDefault(f); ok && f.Module != workload.ModuleSTDIO {
				return fmt.Sprintf("%s: %s", f.Path, b.Why)
			}
		}
	}
	return ""
}

func exactCalls(f workload.File, size int64) int64 {
	var n int64
	for _, c := range f.Sizes {
		if c.Exact() && c.Low == size {
			n += c.Calls
		}
	}
	return n
}

func stdioEvidence(inputs []workload.Input) string {
	var writes, bytes int64
	for _, in := range inputs {
		for _, f := range in.Files {
			if f.Module == workload.ModuleSTDIO && !strings.HasPrefix(f.Path, "<") {
				writes, bytes = writes+f.Writes, bytes+f.Bytes
			}
		}
	}
	if writes == 0 {
		return ""
	}
	return fmt.Sprintf("the STDIO module: %d fwrite calls of %d bytes on average (it keeps no size histogram, only the mean)", writes, bytes/writes)
}

func mpiioEvidence(inputs []workload.Input) string {
	var coll, indep int64
	for _, in := range inputs {
		for _, f := range in.Files {
			if f.Module == workload.ModuleMPIIO {
				coll, indep = coll+f.CollectiveWrites, indep+f.IndependentWrites
			}
		}
	}
	if coll+indep == 0 {
		return ""
	}
	kind := "collective buffering (cb_buffer_size, romio_cb_write) shapes most of them"
	if indep > coll {
		kind = "independent writes go through ind_wr_buffer_size"
	}
	return fmt.Sprintf("the MPI-IO module: %d collective and %d independent writes; %s", coll, indep, kind)
}

func moduleEvidence(inputs []workload.Input, library string, modules ...string) string {
	for _, in := range inputs {
		for _, m := range modules {
			if slices.Contains(in.Present, m) {
				return fmt.Sprintf("the log has the %s module (%s)", m, library)
			}
		}
	}
	return ""
}

func fsEvidence(inputs []workload.Input, fsType, module string) string {
	for _, in := range inputs {
		for _, f := range in.Files {
			if f.FSType == fsType {
				return fmt.Sprintf("%s is on %s (%s)", f.Path, f.Mount, fsType)
			}
		}
		if module != "" && slices.Contains(in.Present, module) {
			return fmt.Sprintf("the log has the %s module", module)
		}
	}
	return ""
}
