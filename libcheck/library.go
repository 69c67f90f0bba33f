package libcheck

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/convert"
)

// LibraryPlan is what the libraries' writers need besides a case.
type LibraryPlan struct {
	Ranks     int   `json:"ranks,omitempty"`      // mpiio: the writer's ranks
	Hosts     int   `json:"hosts,omitempty"`      // mpiio: the nodes they run on
	CallBytes int64 `json:"call_bytes,omitempty"` // mpiio: file bytes per MPI call
	// Type and Stride are the strided memory of mpiio: every Stride-th
	// element of type Type (a convert.Type name).
	Type   string `json:"type,omitempty"`
	Stride int    `json:"stride,omitempty"`
	// Source is where mpiio's ranks write from: SourceArray (also "")
	// or SourceWindow.
	Source     string `json:"source,omitempty"`
	ChunkBytes int64  `json:"chunk_bytes,omitempty"` // hdf5: the chunked storage's chunk
	// Recommended is the value of each setting that applies the sweep's
	// recommendation, which the advice is drawn for.
	Recommended map[string]int64 `json:"recommended,omitempty"`
}

// The settings a library case can make (Case.Setting); their values are
// bytes (Case.BufferBytes).
// They are the names advice.LibraryValues gives the recommended values.
const (
	SettingCBBuffer    = advice.SettingCBBuffer    // ROMIO hint
	SettingIndWrBuffer = advice.SettingIndWrBuffer // ROMIO hint
	SettingBytesPerAgg = advice.SettingBytesPerAgg // OMPIO MCA parameter
	SettingAlignment   = advice.SettingAlignment   // threshold and alignment alike
	SettingSieve       = advice.SettingSieve
	SettingTconv       = advice.SettingTconv
)

// SwitchCBWrite is the ROMIO hint that turns two-phase collective
// buffering on whatever the requests (Case.Switch).
const SwitchCBWrite = "romio_cb_write=enable"

// MPI-IO's memory layouts (Case.Memory).
const (
	MemoryContiguous = "contiguous" // the elements one after the other
	MemoryStrided    = "strided"    // an MPI_Type_vector: the library gathers
	MemoryPacked     = "packed"     // the same array gathered by the writer's typed loop, written as bytes
)

// MPI-IO's sources (LibraryPlan.Source).
const (
	// SourceArray: each rank's whole data in memory, every call from
	// its own place, as a program writes its arrays.
	SourceArray = "array"
	// SourceWindow: one call's data, written again by every call, as
	// IOR writes its one buffer: the copy comes from the CPU cache.
	SourceWindow = "window"
)

// DataSource is lp.Source as the writer takes it.
func (lp LibraryPlan) DataSource() string {
	if lp.Source == "" {
		return SourceArray
	}
	return lp.Source
}

// MPI-IO's file layouts (Case.Layout).
const (
	LayoutPerRank Layout = "per-rank" // a file per rank, on MPI_COMM_SELF
	LayoutShared  Layout = "shared"   // one file on MPI_COMM_WORLD, the ranks' pieces of a call adjacent
)

// HDF5's storage layouts (Case.Storage).
const (
	StorageContiguous = "contiguous"
	StorageChunked    = "chunked"
)

// Group is the case without its setting: the cases of one group differ
// only in what they set, and each gain is over the group's default.
func (c Case) Group() Case {
	c.BufferBytes, c.Default, c.Setting, c.Switch = 0, false, "", ""
	return c
}

// elemBytes is the strided memory's element size; 0 for contiguous memory.
func (lp LibraryPlan) elemBytes() int64 {
	t, err := convert.ParseType(lp.Type)
	if err != nil {
		return 0
	}
	return int64(t.Size())
}

// librarySettings are the environment variables of an MPI-IO case: the
// component, and the aggregation buffer when the case sets it.
func librarySettings(j Job) []string {
	s := []string{"OMPI_MCA_io=" + j.Case.Component}
	if j.Case.Setting == SettingBytesPerAgg {
		s = append(s, fmt.Sprintf("OMPI_MCA_io_ompio_bytes_per_agg=%d", j.Case.BufferBytes))
	}
	return s
}

// MPIUnset are the variables a user's environment may hold that would
// change an MPI-IO case behind its back: every io MCA parameter and
// ROMIO's hints file.
func MPIUnset(env []string) []string {
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "OMPI_MCA_io") || k == "ROMIO_HINTS" {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// DataFiles are the paths job j's writer creates for rt: one file, or
// for MPI-IO's per-rank layout one per rank.
func (j Job) DataFiles(rt Runtime) []string {
	path := filepath.Join(j.Dir, j.Name)
	if rt != MPIIO || j.Case.Layout != LayoutPerRank {
		return []string{path}
	}
	base := strings.TrimSuffix(path, ".dat")
	out := make([]string, j.Library.Ranks)
	for r := range out {
		out[r] = fmt.Sprintf("%s-r%d.dat", base, r)
	}
	return out
}

// TotalBytes is the data all of the job's writer ranks write.
func (j Job) TotalBytes(rt Runtime) int64 {
	if rt == MPIIO {
		return j.Bytes() * int64(max(1, j.Library.Ranks))
	}
	return j.Bytes()
}

// validateLibrary checks what a library case needs.
func (j Job) validateLibrary(rt Runtime) error {
	c, lp := j.Case, j.Library
	switch {
	case rt == HDF5 && c.Storage != StorageContiguous && c.Storage != StorageChunked:
		return fmt.Errorf("job: hdf5 storage %q", c.Storage)
	case rt == HDF5 && c.Storage == StorageChunked && (lp.ChunkBytes < ElementBytes || lp.ChunkBytes%ElementBytes != 0):
		return fmt.Errorf("job: chunk of %d bytes: want a positive multiple of %d", lp.ChunkBytes, ElementBytes)
	case rt == HDF5:
		return nil
	case c.Component != OMPIO && c.Component != ROMIO:
		return fmt.Errorf("job: MPI-IO component %q", c.Component)
	case c.Layout != LayoutPerRank && c.Layout != LayoutShared:
		return fmt.Errorf("job: MPI-IO layout %q", c.Layout)
	case c.Memory != MemoryContiguous && c.Memory != MemoryStrided && c.Memory != MemoryPacked:
		return fmt.Errorf("job: MPI-IO memory %q", c.Memory)
	case lp.Ranks < 1 || lp.Stride < 1 || lp.elemBytes() == 0:
		return fmt.Errorf("job: %d ranks, stride %d, type %q", lp.Ranks, lp.Stride, lp.Type)
	case lp.DataSource() != SourceArray && lp.DataSource() != SourceWindow:
		return fmt.Errorf("job: MPI-IO source %q", lp.Source)
	case lp.CallBytes < 1 || lp.CallBytes > 1<<30 || lp.CallBytes%lp.elemBytes() != 0 || j.Bytes()%lp.elemBytes() != 0:
		return fmt.Errorf("job: calls of %d bytes: want at most 1 GiB, whole %s elements", lp.CallBytes, lp.Type)
	}
	return nil
}
