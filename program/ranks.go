package program

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// RankPrefix begins the name of every rank's trace file.
const RankPrefix = "rank."

// rankScript runs in place of each rank's program: $1 the trace
// directory, $2 strace, then strace's options, "--" and the program.
// The file is named by rank, host and the shell's pid, which strace
// keeps by exec: pids of different hosts may be equal, hosts differ. A
// node that cannot see the directory or has no strace runs the rank
// untraced, so the job still runs and the missing trace tells it.
const rankScript = `d=$1 s=$2; shift 2
[ -x "$s" ] || s=$(command -v strace) || s=
if [ -n "$s" ] && [ -d "$d" ] && [ -w "$d" ]; then
  exec "$s" -o "$d/` + RankPrefix + `${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-${SLURM_PROCID:-x}}}.$(uname -n).$$" "$@"
fi
while [ "$1" != -- ]; do shift; done
shift; exec "$@"`

// RankWrapper is what the launcher starts in place of each rank's
// program: strace with args (without -o) writing into dir.
func RankWrapper(strace string, args []string, dir string) []string {
	w := []string{"/bin/sh", "-c", rankScript, "iobench-rank", dir, strace}
	return append(append(w, args...), "--")
}

// TracedRanks runs the launcher with each rank of each app under its own
// strace (RankWrapper), and waits; the launcher itself is not traced.
func TracedRanks(ctx context.Context, s Spec, l Launch, strace string, args []string, dir string) (Result, error) {
	return s.run(ctx, l.Wrap(RankWrapper(strace, args, dir)), true)
}

// RankTraces are the ranks' trace files in dir, by name; empty ones
// (a rank whose strace wrote nothing) are left out.
func RankTraces(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		info, err := e.Info()
		if err == nil && info.Mode().IsRegular() && info.Size() > 0 && strings.HasPrefix(e.Name(), RankPrefix) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	slices.Sort(out)
	return out, nil
}
