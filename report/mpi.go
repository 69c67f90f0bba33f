package report

// MPIIO is how a sweep with --api mpiio moved the data, and the hints: those
// requested and those MPI_File_get_info reported for the data files.
type MPIIO struct {
	Library    string `json:"library,omitempty"` // MPI_Get_library_version, first line
	Collective bool   `json:"collective"`        // MPI_File_write_at_all / read_at_all, not write_at / read_at
	// Comm is the communicator the timed data files were opened on:
	// MPI_COMM_SELF (a file per rank) or MPI_COMM_WORLD (the shared file).
	Comm           string          `json:"comm"`
	HintsRequested []RequestedHint `json:"hints_requested"`
	// HintsInEffect are rank 0's MPI_File_get_info of the first timed data
	// file; nil when no such file was opened.
	HintsInEffect []Hint `json:"hints_in_effect"`
	// HintsNotInEffect are the requested keys that MPI_File_get_info left
	// out or reported with another value.
	HintsNotInEffect []string `json:"hints_not_in_effect,omitempty"`
	// HintsEchoed: MPI_File_get_info returned exactly the requested hints
	// and nothing more, unknown keys included. Such a library (Open MPI
	// 4's OMPIO) echoes what it was given, so the list shows nothing of
	// what it applied.
	HintsEchoed bool `json:"hints_echoed"`
}

// RequestedHint is a hint passed to MPI_File_open and where it came from:
// "--hint" or "ROMIO_HINTS=<file>".
type RequestedHint struct {
	Hint
	Source string `json:"source"`
}

// Hint is one MPI-IO hint, an MPI_Info key and value.
type Hint struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

func (h Hint) String() string { return h.Key + "=" + h.Value }

// CompareHints fills HintsNotInEffect and HintsEchoed from the requested
// and in-effect lists.
func (m *MPIIO) CompareHints() {
	m.HintsNotInEffect, m.HintsEchoed = nil, false
	if m.HintsInEffect == nil {
		return
	}
	inEffect := map[string]string{}
	for _, h := range m.HintsInEffect {
		inEffect[h.Key] = h.Value
	}
	for _, h := range m.HintsRequested {
		if v, ok := inEffect[h.Key]; !ok || v != h.Value {
			m.HintsNotInEffect = append(m.HintsNotInEffect, h.Key)
		}
	}
	m.HintsEchoed = len(m.HintsRequested) > 0 && len(m.HintsNotInEffect) == 0 && len(m.HintsInEffect) == len(m.HintsRequested)
}

// HintsEchoWarning is the warning for a library that echoes hints.
const HintsEchoWarning = "MPI_File_get_info returned exactly the hints given and nothing more, unknown keys included: this MPI library echoes hints (Open MPI 4's OMPIO does), so the report cannot show which it applied; OMPIO takes its tuning from MCA parameters (ompi_info --param io ompio --level 9)"
