package cli

import (
	"errors"
	"fmt"
	"os"

	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/mpi"
	"github.com/iobench/iobench/mpi/cluster"
	"github.com/iobench/iobench/report"
)

// mpiJob is the cluster as the sweep command sees it: errors in flag
// words, results in report types. It is the engine's Coordinator through
// the embedded *cluster.Cluster.
type mpiJob struct {
	*cluster.Cluster
}

// newCluster joins the MPI job; nil without MPI. Under mpirun -np 1 it is
// a cluster of one, so the report has the same form.
func newCluster(w *mpi.World) (*mpiJob, error) {
	if w == nil || !mpi.Enabled() {
		return nil, nil
	}
	host, _ := os.Hostname() // an unnamed host is still a rank
	cl, err := cluster.New(w, cluster.Member{Host: host, PID: os.Getpid()})
	if err != nil {
		return nil, err
	}
	return &mpiJob{cl}, nil
}

// configure is cluster.Configure for --total and --shared-file.
func (j *mpiJob) configure(cfg *iobench.Config, total, sharedFile bool) (*iobench.Shared, string, error) {
	return j.Configure(cfg, cluster.Files{SplitCount: total, Shared: sharedFile})
}

// samePlan is cluster.SamePlan, its mismatch told in terms of --profile:
// a rank's plan differs when its file system chose another profile.
func (j *mpiJob) samePlan(cfg iobench.Config) error {
	err := j.SamePlan(cfg)
	var pm *cluster.PlanMismatchError
	if errors.As(err, &pm) {
		return fmt.Errorf("--profile: %w, as its file system chose another profile; give --profile and the sizes explicitly", err)
	}
	return err
}

// gather is cluster.Gather with the ranks and their spread as the report
// shows them; nil on ranks other than 0.
func (j *mpiJob) gather(res *iobench.Result) (*iobench.Result, *report.MPI, error) {
	agg, spread, err := j.Gather(res)
	if err != nil || agg == nil {
		return nil, nil, err
	}
	info := j.layout()
	info.PerRank = report.NewWriterRuns(spread)
	return agg, info, nil
}

// layout is the job as the report describes it before the first run:
// ranks, nodes and their hosts.
func (j *mpiJob) layout() *report.MPI {
	nodes := j.Nodes()
	return &report.MPI{Ranks: j.Size(), Nodes: len(nodes), Hosts: nodes}
}
