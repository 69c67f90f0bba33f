package program

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A wrapped program shows where ParseLauncher put the boundary: W
// before each app's program.
var wrapMark = []string{"W"}

func TestParseLauncher(t *testing.T) {
	tests := []struct {
		cmd, want string
		ranks     int
	}{
		// Open MPI
		{"mpirun -np 4 ./prog", "mpirun -np 4 W ./prog", 4},
		{"mpirun -n 4 ./prog -n 3 -x", "mpirun -n 4 W ./prog -n 3 -x", 4},
		{"mpirun --allow-run-as-root --oversubscribe -np 2 ./a.out in.dat", "mpirun --allow-run-as-root --oversubscribe -np 2 W ./a.out in.dat", 2},
		{"mpiexec -np 8 --hostfile hosts --map-by ppr:4:node --bind-to core ./prog", "mpiexec -np 8 --hostfile hosts --map-by ppr:4:node --bind-to core W ./prog", 8},
		{"mpirun -x OMPI_MCA_io=romio321 -x LD_LIBRARY_PATH --mca btl self,vader -np 2 prog", "mpirun -x OMPI_MCA_io=romio321 -x LD_LIBRARY_PATH --mca btl self,vader -np 2 W prog", 2},
		{"mpirun -mca io ompio -gmca pml ob1 -c 3 prog", "mpirun -mca io ompio -gmca pml ob1 -c 3 W prog", 3},
		{"mpirun -H n1,n2 -N 2 --prefix /opt/ompi --wdir /scratch ./prog", "mpirun -H n1,n2 -N 2 --prefix /opt/ompi --wdir /scratch W ./prog", 0},
		{"mpirun --npernode 4 --report-bindings --tag-output ./prog", "mpirun --npernode 4 --report-bindings --tag-output W ./prog", 0},
		{"/usr/lib64/openmpi/bin/mpirun --rank-by core -np 16 ./prog", "/usr/lib64/openmpi/bin/mpirun --rank-by core -np 16 W ./prog", 16},
		{"orterun -np 2 ./prog", "orterun -np 2 W ./prog", 2},
		{"prterun --np=2 ./prog", "prterun --np=2 W ./prog", 2},
		{"mpirun ./prog", "mpirun W ./prog", 0},
		{"mpirun -np 2 ./writer : -np 1 ./reader x", "mpirun -np 2 W ./writer : -np 1 W ./reader x", 3},
		{"mpirun -np 2 ./a : ./b", "mpirun -np 2 W ./a : W ./b", 0},
		{"mpirun -np 2 -- ./prog", "mpirun -np 2 -- W ./prog", 2},
		// MPICH hydra
		{"mpiexec.hydra -n 4 ./prog", "mpiexec.hydra -n 4 W ./prog", 4},
		{"mpiexec.hydra -f hosts -ppn 2 -np 4 ./prog", "mpiexec.hydra -f hosts -ppn 2 -np 4 W ./prog", 4},
		{"mpiexec.mpich -genv ROMIO_HINTS /tmp/h -env A 1 -hosts a,b -n 2 ./prog", "mpiexec.mpich -genv ROMIO_HINTS /tmp/h -env A 1 -hosts a,b -n 2 W ./prog", 2},
		{"mpiexec.hydra -genvall -l -bind-to core -n 1 ./a : -n 3 ./b", "mpiexec.hydra -genvall -l -bind-to core -n 1 W ./a : -n 3 W ./b", 4},
		{"mpirun.mpich -n 2 ./prog", "mpirun.mpich -n 2 W ./prog", 2},
		// Slurm
		{"srun -n 4 ./prog", "srun -n 4 W ./prog", 4},
		{"srun -n4 -N2 ./prog", "srun -n4 -N2 W ./prog", 4},
		{"srun --ntasks=8 --nodes=2 --export=ALL,A=1 --mpi=pmix ./prog -o out", "srun --ntasks=8 --nodes=2 --export=ALL,A=1 --mpi=pmix W ./prog -o out", 8},
		{"srun --ntasks 8 -c 2 -p batch -t 10:00 -o log.%j -e err.%j ./prog", "srun --ntasks 8 -c 2 -p batch -t 10:00 -o log.%j -e err.%j W ./prog", 8},
		{"srun -ln 2 --exclusive --kill-on-bad-exit=1 ./prog", "srun -ln 2 --exclusive --kill-on-bad-exit=1 W ./prog", 0},
		{"srun -K1 -n 2 --cpu-bind=cores ./prog", "srun -K1 -n 2 --cpu-bind=cores W ./prog", 2},
		{"srun -N 2 ./prog", "srun -N 2 W ./prog", 0},
		{"srun -n 1 ./a : -n 2 ./b", "srun -n 1 W ./a : -n 2 W ./b", 3},
		{"srun -n 2 -- ./prog -n 9", "srun -n 2 -- W ./prog -n 9", 2},
	}
	for _, tt := range tests {
		l, ok, err := ParseLauncher(strings.Fields(tt.cmd), "")
		if !ok || err != nil {
			t.Errorf("%s: ok %v, %v", tt.cmd, ok, err)
			continue
		}
		if got := strings.Join(l.Wrap(wrapMark), " "); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.cmd, got, tt.want)
		}
		if got := strings.Join(l.Wrap(nil), " "); got != tt.cmd {
			t.Errorf("%s: unwrapped %s", tt.cmd, got)
		}
		if l.Ranks() != tt.ranks {
			t.Errorf("%s: %d ranks, want %d", tt.cmd, l.Ranks(), tt.ranks)
		}
	}
}

// What cannot be split is said, naming the option, never guessed.
func TestParseLauncherRefuses(t *testing.T) {
	tests := []struct{ cmd, want string }{
		{"mpirun -np 2 --frobnicate 3 ./prog", "mpirun: --frobnicate: an option iobench does not know"},
		{"mpirun --app appfile", "mpirun: --app: the programs are in an appfile"},
		{"mpirun -np", "mpirun: -np: wants 1 value(s)"},
		{"mpirun -np 2", "mpirun: no program after the launcher's options"},
		{"mpirun -np 2 --oversubscribe", "mpirun: no program after the launcher's options"},
		{"mpirun --mca btl", "mpirun: --mca: wants 2 value(s)"},
		{"mpirun --mca=btl tcp ./prog", `mpirun: --mca=btl: takes 2 values, not "btl"`},
		{"mpirun -s -np 2 ./prog", "mpirun: -s: it copies the program"},
		{"mpirun --help", "mpirun: --help: a help request"},
		{"mpirun -np 2 ./a :", "mpirun: no program after the launcher's options"},
		{"mpiexec.hydra -configfile cfg", "mpiexec.hydra: -configfile: the programs are in a configuration file"},
		{"mpiexec.hydra -genv A", "mpiexec.hydra: -genv: wants 2 value(s)"},
		{"mpiexec.hydra -quux ./prog", "mpiexec.hydra: -quux: an option iobench does not know"},
		{"srun --multi-prog tasks.conf", "srun: --multi-prog: the programs are in a configuration file"},
		{"srun -n 2 -Y ./prog", "srun: -Y: -Y is an option iobench does not know"},
		{"srun --label=yes ./prog", `srun: --label=yes: takes 0 values, not "yes"`},
		{"srun -n", "srun: -n: wants 1 value(s)"},
		{"srun -n 2 --", "srun: no program after the launcher's options"},
	}
	for _, tt := range tests {
		_, ok, err := ParseLauncher(strings.Fields(tt.cmd), "")
		if !ok || err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: ok %v, error %v, want %q", tt.cmd, ok, err, tt.want)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error of more than one line: %q", tt.cmd, err)
		}
	}
}

func TestParseLauncherLeavesProgramsAlone(t *testing.T) {
	for _, cmd := range []string{"./prog -np 2", "sh -c mpirun", "mpirun-wrapper -np 2 x", "python3 run.py"} {
		if _, ok, err := ParseLauncher(strings.Fields(cmd), ""); ok || err != nil {
			t.Errorf("%s: ok %v, %v: not a launcher", cmd, ok, err)
		}
	}
}

// A generic mpirun that links to hydra, or sits beside it, is hydra's.
func TestLauncherOfFollowsLinks(t *testing.T) {
	dir := t.TempDir()
	hydra := filepath.Join(dir, "hydra", "mpiexec.hydra")
	ompi := filepath.Join(dir, "ompi", "orterun")
	for _, p := range []string{hydra, ompi} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, p, "#!/bin/sh\n", 0o755)
	}
	writeFile(t, filepath.Join(dir, "ompi", "mpiexec.hydra"), "#!/bin/sh\n", 0o755) // both MPIs in one directory
	links := map[string]string{"bin1/mpirun": hydra, "bin2/mpirun": ompi, "hydra/mpirun": ""}
	for link, target := range links {
		p := filepath.Join(dir, link)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if target == "" {
			writeFile(t, p, "#!/bin/sh\n", 0o755)
		} else if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]Launcher{"bin1": Hydra, "bin2": OpenMPI, "hydra": Hydra}
	for bin, k := range want {
		if got := LauncherOf("mpirun", filepath.Join(dir, bin)); got != k {
			t.Errorf("mpirun in %s: %q, want %q", bin, got, k)
		}
	}
	if diff := cmp.Diff(Slurm, LauncherOf("/usr/bin/srun", "")); diff != "" {
		t.Error(diff)
	}
}

// The io component a launcher's options choose: --mca above -x.
func TestLaunchMCA(t *testing.T) {
	for _, tc := range []struct {
		cmd, want string
		ok        bool
	}{
		{"mpirun --mca io romio321 -np 2 ./prog", "romio321", true},
		{"mpirun -mca io ompio -gmca pml ob1 -c 3 prog", "ompio", true},
		{"mpirun --gmca io ^ompio -np 2 prog", "^ompio", true},
		{"mpirun -x OMPI_MCA_io=romio341 -np 2 prog", "romio341", true},
		{"mpirun -x OMPI_MCA_io=romio321 --mca io ompio -np 2 prog", "ompio", true},
		{"mpirun --mca btl self,vader -np 2 prog --mca io romio321", "", false},
		{"mpirun -x OMPI_MCA_io_ompio_bytes_per_agg=1 -np 2 prog", "", false},
		{"mpiexec.hydra -genv OMPI_MCA_io romio321 -n 2 prog", "", false},
	} {
		l, ok, err := ParseLauncher(strings.Fields(tc.cmd), "")
		if !ok || err != nil {
			t.Fatalf("%s: ParseLauncher %v %v", tc.cmd, ok, err)
		}
		if got, opt, ok := l.MCA("io"); got != tc.want || ok != tc.ok || ok && !strings.HasSuffix(opt, tc.want) {
			t.Errorf("%s: MCA(io) = %q, %v; want %q, %v", tc.cmd, got, ok, tc.want, tc.ok)
		}
	}
}
