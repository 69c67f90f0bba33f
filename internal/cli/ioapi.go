package cli

import (
	"fmt"
	"os"
	"slices"

	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/mpi"
	"github.com/iobench/iobench/mpi/mpiio"
	"github.com/iobench/iobench/report"
)

// The values of --api.
const (
	apiPOSIX = "posix" // write(2) and read(2)
	apiMPIIO = "mpiio" // MPI_File_write_at(_all) and MPI_File_read_at(_all)
)

// romioHintsVar names the hints file ROMIO reads; iobench reads it itself
// for --api mpiio, so its hints reach OMPIO too, which ignores the variable.
const romioHintsVar = "ROMIO_HINTS"

// maxMPIIOCall is the largest write size one MPI-IO call takes: counts
// are C ints, and sizes are powers of two.
const maxMPIIOCall = 1 << 30

// ioAPI is how a sweep's data moves: --api, --collective and the hints
// from ROMIO_HINTS and --hint, in the order MPI_File_open gets them.
type ioAPI struct {
	mpiio      bool
	collective bool
	hints      []report.RequestedHint
}

// ioAPIFromFlags reads --api, --collective, --hint and the ROMIO_HINTS
// file, and refuses what this build cannot do.
func ioAPIFromFlags(o *sweepOpts, getenv func(string) string) (ioAPI, error) {
	var a ioAPI
	switch api := o.api.v; api {
	case apiPOSIX:
	case apiMPIIO:
		a.mpiio = true
	default:
		return a, usagef("--api: unknown value %q (valid: %s, %s)", api, apiPOSIX, apiMPIIO)
	}
	if o.readShift.set && !mpi.Enabled() {
		return a, usagef("--read-shift: reads another MPI rank's file; it needs the MPI build of iobench (go build -tags mpi) run by mpirun or srun")
	}
	if !a.mpiio {
		for _, f := range []struct {
			flag string
			set  bool
		}{{"--collective", o.collective.set}, {"--hint", o.hint.set}} {
			if f.set {
				return a, usagef("%s: applies to --api %s", f.flag, apiMPIIO)
			}
		}
		return a, nil
	}
	if !mpi.Enabled() {
		return a, usagef("--api %s: needs the MPI build of iobench (go build -tags mpi)", apiMPIIO)
	}
	a.collective = o.collective.v
	if path := getenv(romioHintsVar); path != "" {
		text, err := os.ReadFile(path)
		if err != nil {
			return a, usagef("%s: the hints file: %w", romioHintsVar, err)
		}
		hints, err := mpiio.ParseHints(path, string(text))
		if err != nil {
			return a, usagef("%s: %w", romioHintsVar, err)
		}
		a.add(hints, romioHintsVar+"="+path)
	}
	for _, s := range o.hint.v {
		h, err := mpiio.ParseHint(s)
		if err != nil {
			return a, usagef("--hint: %w", err)
		}
		a.add([]mpi.Hint{h}, "--hint")
	}
	return a, nil
}

// add appends hints from source; a key given again replaces the earlier
// value in place, so --hint overrides ROMIO_HINTS.
func (a *ioAPI) add(hints []mpi.Hint, source string) {
	for _, h := range hints {
		rh := report.RequestedHint{Hint: report.Hint{Key: h.Key, Value: h.Value}, Source: source}
		if i := slices.IndexFunc(a.hints, func(o report.RequestedHint) bool { return o.Key == h.Key }); i >= 0 {
			a.hints[i] = rh
		} else {
			a.hints = append(a.hints, rh)
		}
	}
}

// check refuses the settings MPI-IO cannot honour, naming each flag.
func (a ioAPI) check(cfg iobench.Config, shared bool) error {
	if !a.mpiio {
		return nil
	}
	for _, v := range cfg.VariantList() {
		if v.Direct {
			return usagef("--direct: MPI-IO has no O_DIRECT; use --api %s", apiPOSIX)
		}
	}
	switch {
	case cfg.FlushKind() == iobench.FlushFdatasync:
		return usagef("--flush fdatasync: MPI-IO's one flush is MPI_File_sync; use --flush fsync with --api %s", apiMPIIO)
	case cfg.OpenSync != iobench.OpenSyncOff:
		return usagef("--open-sync: MPI-IO has no O_DSYNC or O_SYNC; use --api %s", apiPOSIX)
	case cfg.Preallocate:
		return usagef("--preallocate: fallocate works on descriptors, which MPI-IO does not give; use --api %s", apiPOSIX)
	case cfg.Jobs > 1:
		return usagef("--jobs: MPI calls come from one thread per rank; run more ranks instead (mpirun -np)")
	case cfg.MaxSize() > maxMPIIOCall:
		return usagef("--api %s: write size %d bytes is above %d, the largest power of two one MPI call moves (its count is a C int)", apiMPIIO, cfg.MaxSize(), maxMPIIOCall)
	}
	return nil
}

// requested is the hints as MPI_File_open takes them.
func (a ioAPI) requested() []mpi.Hint {
	out := make([]mpi.Hint, len(a.hints))
	for i, h := range a.hints {
		out[i] = mpi.Hint{Key: h.Key, Value: h.Value}
	}
	return out
}

// dataFS is the file system the sweep's data goes through: the directory
// itself, or MPI-IO on it. All ranks call it (the largest share is a
// collective).
func (j *sweepJob) dataFS(shared *iobench.Shared) (iobench.FS, error) {
	osfs := iobench.OSFS{Dir: j.fs.ResolvedDir, RawSyscalls: j.fs.Local()}
	if !j.io.mpiio {
		return osfs, nil
	}
	most := j.cfg.TotalBytes()
	if j.cl != nil {
		var err error
		if most, err = j.cl.Max(most); err != nil {
			return nil, err
		}
	}
	j.mpiio = &mpiio.FS{OS: osfs, World: j.env.world, Collective: j.io.collective, Hints: j.io.requested(),
		MaxRankBytes: most, FlushInTiming: j.cfg.FlushKind() == iobench.FlushFsync}
	if shared != nil {
		j.mpiio.SharedName = shared.Name
	}
	return j.mpiio, nil
}

// describeMPI is what the report says of the job's files: their layout,
// the API, the hints requested and the read shift.
func (j *sweepJob) describeMPI(info *report.MPI) {
	info.SharedFile, info.CountPerRank, info.RunBytes = j.shared, !j.total, j.runBytes
	info.API, info.ReadShift = apiPOSIX, j.cfg.ReadShift
	if !j.io.mpiio {
		return
	}
	info.API = apiMPIIO
	m := &report.MPIIO{Library: mpi.LibraryVersion(), Collective: j.io.collective, Comm: "MPI_COMM_SELF",
		HintsRequested: slices.Clone(j.io.hints)}
	if m.HintsRequested == nil {
		m.HintsRequested = []report.RequestedHint{}
	}
	if j.shared {
		m.Comm = "MPI_COMM_WORLD"
	}
	info.MPIIO = m
}

// reportHints adds rank 0's hints as MPI_File_get_info gave them for the
// timed data files, after the sweep.
func (j *sweepJob) reportHints(info *report.MPI) {
	m := info.MPIIO
	if m == nil || j.mpiio == nil {
		return
	}
	if got, ok := j.mpiio.Reported(j.shared); ok {
		m.HintsInEffect = make([]report.Hint, len(got))
		for i, h := range got {
			m.HintsInEffect[i] = report.Hint{Key: h.Key, Value: h.Value}
		}
	}
	m.CompareHints()
	if m.HintsEchoed {
		j.rep.Warnings = append(j.rep.Warnings, report.HintsEchoWarning)
	}
}

// mpiWarnings are the warnings about the MPI layout known before the
// sweep: a read shift that cannot keep a client cache out.
func (j *sweepJob) mpiWarnings() []string {
	n := j.cfg.ReadShift
	if j.cl == nil || n == 0 {
		return nil
	}
	switch {
	case n%j.cl.Size() == 0:
		return []string{fmt.Sprintf("--read-shift %d is a multiple of the %d ranks, so every rank reads the file it wrote", n, j.cl.Size())}
	case len(j.cl.Nodes()) == 1:
		return []string{"--read-shift: all ranks run on one node, which has one page cache, so reading another rank's file does not keep cached pages out; only the cache drop before each read run does"}
	}
	return nil
}
