package mpi

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// env returns a getenv over a fixed map, so tests never read the real
// environment (which is set when the tests run under mpirun).
func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestLauncherSize(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want int
	}{
		{"none", nil, 0},
		{"open mpi", map[string]string{"OMPI_COMM_WORLD_SIZE": "4"}, 4},
		{"mpich hydra", map[string]string{"PMI_SIZE": "8"}, 8},
		{"srun step", map[string]string{"SLURM_STEP_NUM_TASKS": "16", "SLURM_NTASKS": "32"}, 16},
		{"sbatch only", map[string]string{"SLURM_NTASKS": "32"}, 32},
		{"open mpi first", map[string]string{"OMPI_COMM_WORLD_SIZE": "2", "PMI_SIZE": "3", "SLURM_NTASKS": "5"}, 2},
		{"unparsable skipped", map[string]string{"OMPI_COMM_WORLD_SIZE": "four", "PMI_SIZE": "3"}, 3},
		{"zero skipped", map[string]string{"OMPI_COMM_WORLD_SIZE": "0", "SLURM_NTASKS": "6"}, 6},
		{"negative skipped", map[string]string{"PMI_SIZE": "-1"}, 0},
		{"spaces not trimmed", map[string]string{"PMI_SIZE": " 3"}, 0},
		{"pmix has no size", map[string]string{"PMIX_RANK": "1"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := LauncherSize(env(tt.env)); got != tt.want {
				t.Errorf("LauncherSize(%v) = %d, want %d", tt.env, got, tt.want)
			}
		})
	}
}

func TestLauncherRank(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want int
	}{
		{"none", nil, 0},
		{"open mpi", map[string]string{"OMPI_COMM_WORLD_RANK": "3"}, 3},
		{"mpich hydra", map[string]string{"PMI_RANK": "7"}, 7},
		{"pmix", map[string]string{"PMIX_RANK": "5"}, 5},
		{"slurm", map[string]string{"SLURM_PROCID": "9"}, 9},
		{"zero is a rank", map[string]string{"OMPI_COMM_WORLD_RANK": "0", "SLURM_PROCID": "9"}, 0},
		{"open mpi first", map[string]string{"OMPI_COMM_WORLD_RANK": "1", "PMI_RANK": "2"}, 1},
		{"unparsable skipped", map[string]string{"PMI_RANK": "x", "SLURM_PROCID": "2"}, 2},
		{"negative skipped", map[string]string{"PMI_RANK": "-2", "SLURM_PROCID": "4"}, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := LauncherRank(env(tt.env)); got != tt.want {
				t.Errorf("LauncherRank(%v) = %d, want %d", tt.env, got, tt.want)
			}
		})
	}
}

func TestGatherLayout(t *testing.T) {
	tests := []struct {
		name    string
		counts  []int64
		want    []int
		wantErr bool
	}{
		{"one rank", []int64{5}, []int{0, 5}, false},
		{"variable", []int64{0, 1, 2, 0, 3}, []int{0, 0, 1, 3, 3, 6}, false},
		{"all empty", []int64{0, 0}, []int{0, 0, 0}, false},
		{"at the limit", []int64{maxCount - 1, 1}, []int{0, maxCount - 1, maxCount}, false},
		{"one too large", []int64{1, maxCount + 1}, nil, true},
		{"total too large", []int64{maxCount, 1}, nil, true},
		{"negative", []int64{-1}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := gatherLayout(tt.counts)
			if (err != nil) != tt.wantErr {
				t.Fatalf("gatherLayout(%v) error = %v, want error %v", tt.counts, err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("gatherLayout(%v) offsets (-want +got):\n%s", tt.counts, diff)
			}
		})
	}
}

func TestOpValid(t *testing.T) {
	for _, op := range []Op{Min, Max, Sum} {
		if !op.valid() {
			t.Errorf("Op(%d).valid() = false, want true", op)
		}
	}
	for _, op := range []Op{-1, Sum + 1} {
		if op.valid() {
			t.Errorf("Op(%d).valid() = true, want false", op)
		}
	}
}
