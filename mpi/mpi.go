package mpi

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// Op is a reduction operator for the Allreduce methods.
type Op int

// Reduction operators.
const (
	Min Op = iota
	Max
	Sum
)

// valid reports whether op is one of the declared operators; both builds
// reject other values the same way.
func (op Op) valid() bool {
	return op == Min || op == Max || op == Sum
}

// errOp is the error for an Op outside Min, Max, Sum.
func errOp(op Op) error {
	return fmt.Errorf("mpi: unknown reduction Op(%d)", int(op))
}

// maxCount is the largest element count one MPI call takes: counts and
// displacements are C ints.
const maxCount = math.MaxInt32

var (
	errInitTwice = errors.New("mpi: Init called more than once")
	errFinalized = errors.New("mpi: World used after Finalize")
)

// gatherLayout turns the per-rank byte counts of a Gather into offsets into
// one receive buffer: rank i's bytes are at offs[i]:offs[i+1]. MPI counts
// and displacements are C ints, so it fails when a count or the total does
// not fit; every rank sees the same counts and so fails alike.
func gatherLayout(counts []int64) (offs []int, err error) {
	offs = make([]int, len(counts)+1)
	for i, n := range counts {
		if n < 0 || n > maxCount {
			return nil, fmt.Errorf("mpi: Gather: rank %d sends %d bytes; the limit is %d", i, n, maxCount)
		}
		offs[i+1] = offs[i] + int(n)
		if offs[i+1] > maxCount {
			return nil, fmt.Errorf("mpi: Gather: ranks 0..%d send %d bytes in all; the limit is %d", i, offs[i+1], maxCount)
		}
	}
	return offs, nil
}

// Environment variables in which launchers announce the job, in the order
// they are tried. Open MPI's mpirun sets OMPI_COMM_WORLD_*; MPICH's Hydra
// and Intel MPI set PMI_*; PMIx launchers (srun --mpi=pmix, prterun) set
// PMIX_RANK but no size. For Slurm, SLURM_STEP_NUM_TASKS is set by srun for
// its tasks, while SLURM_NTASKS is also set in the batch script itself, so
// it comes last.
var (
	launcherSizeVars = []string{
		"OMPI_COMM_WORLD_SIZE",
		"PMI_SIZE",
		"SLURM_STEP_NUM_TASKS",
		"SLURM_NTASKS",
	}
	launcherRankVars = []string{
		"OMPI_COMM_WORLD_RANK",
		"PMI_RANK",
		"PMIX_RANK",
		"SLURM_PROCID",
	}
)

// LauncherSize returns the number of tasks that a launcher (mpirun, mpiexec,
// srun) announced in the environment, or 0 when none did. It reads the
// variables through getenv (os.Getenv in production) and takes the first
// that holds a positive integer. A caller uses it to warn when a build
// without MPI was started as many tasks, each of which would run alone.
func LauncherSize(getenv func(string) string) int {
	return firstInt(getenv, launcherSizeVars, 1)
}

// LauncherRank returns this task's rank as announced by a launcher, or 0
// when none did. It takes the first variable that holds a non-negative
// integer.
func LauncherRank(getenv func(string) string) int {
	return firstInt(getenv, launcherRankVars, 0)
}

// firstInt returns the value of the first variable in names that parses as
// an integer no smaller than lowest, or 0.
func firstInt(getenv func(string) string, names []string, lowest int) int {
	for _, name := range names {
		n, err := strconv.Atoi(getenv(name))
		if err == nil && n >= lowest {
			return n
		}
	}
	return 0
}
