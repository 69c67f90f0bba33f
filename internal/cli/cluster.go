package cli

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
	"golang.org/x/sys/unix"

	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/mpi"
	"github.com/iobench/iobench/mpi/cluster"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/units"
)

// mpiJob is the cluster as the sweep command sees it: errors in flag
// words, results in report types. It is the engine's Coordinator through
// the embedded *cluster.Cluster.
type mpiJob struct {
	*cluster.Cluster
	dir string // --dir, where this rank's data files are
}

// joinCluster joins the MPI job; nil without MPI. Under mpirun -np 1 it
// is a cluster of one, so the report has the same form. The signal
// handler finds the job in e.
func (e *env) joinCluster() (*mpiJob, error) {
	if e.world == nil || !mpi.Enabled() {
		return nil, nil
	}
	e.joined.Store(true)
	host, _ := os.Hostname() // an unnamed host is still a rank
	cl, err := cluster.New(e.world, cluster.Member{Host: host, PID: os.Getpid()})
	if err != nil {
		return nil, err
	}
	j := &mpiJob{Cluster: cl}
	e.cluster.Store(j)
	return j, nil
}

// joinToStop is for a rank whose command failed before it joined the
// others (a flag the parser refused): they wait for it in their first
// collective calls, so it makes those calls, tells them its error, and
// every rank stops with one line naming it. Without MPI, or once
// joined, it returns err as it is.
func (e *env) joinToStop(err error) error {
	if err == nil || e.ranks() < 2 || e.joined.Load() {
		return err
	}
	j, jerr := e.joinCluster()
	if jerr != nil || j == nil {
		return errors.Join(err, jerr)
	}
	_ = j.SameSettings(nil) // rank 0's settings; this rank has none to compare
	return j.Agree(err)
}

// perRankFlags are the sweep's flags a rank may be given for itself:
// where it writes, its own free-space check and its own terminal. Every
// other flag decides which collective calls a rank makes (--format, -o,
// --shared-file, --api, --dry-run), what it measures (--size, --fsync)
// or what the report says of all ranks, so every rank must be given the
// same value.
var perRankFlags = map[string]bool{"dir": true, "force": true, "no-progress": true, "progress": true}

// agreedSettings are this rank's values of the flags every rank must be
// given alike.
func agreedSettings(c *cli.Context) []cluster.Setting {
	var out []cluster.Setting
	for _, s := range sweepSettings() {
		if !perRankFlags[s.name()] {
			out = append(out, agreedSetting(c, s.flag))
		}
	}
	return out
}

// commandSettings are this rank's values of every flag of the command
// but the per-rank ones.
func commandSettings(c *cli.Context) []cluster.Setting {
	var out []cluster.Setting
	for _, f := range c.Command.Flags {
		if name := f.Names()[0]; !perRankFlags[name] {
			out = append(out, agreedSetting(c, f))
		}
	}
	return out
}

// agreedSetting is a flag's value as typed and as parsed: sizes in
// bytes, durations in nanoseconds, numbers in one spelling, element by
// element of a list, so that --size 8MiB and --size 8388608 agree.
func agreedSetting(c *cli.Context, f cli.Flag) cluster.Setting {
	text := flagText(c, f)
	return cluster.Setting{Name: "--" + f.Names()[0], Value: text, Canon: canonicalValue(text)}
}

func canonicalValue(text string) string {
	parts := strings.Split(text, ",")
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if d, err := time.ParseDuration(p); err == nil && p != "0" {
			parts[i] = strconv.FormatInt(int64(d), 10) + "ns"
		} else if v, err := strconv.ParseFloat(p, 64); err == nil {
			parts[i] = strconv.FormatFloat(v, 'f', -1, 64)
		} else if n, err := units.ParseBytes(p); err == nil {
			parts[i] = strconv.FormatInt(n, 10)
		} else {
			parts[i] = p
		}
	}
	return strings.Join(parts, ",")
}

// flagText is f's value on the command line, or its default.
func flagText(c *cli.Context, f cli.Flag) string {
	switch v := valueOf(c, f).val.(type) {
	case []string:
		return strings.Join(v, ",")
	case bool:
		return strconv.FormatBool(v)
	case int:
		return strconv.Itoa(v)
	case uint64:
		return strconv.FormatUint(v, 10)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case string:
		return v
	default:
		return fmt.Sprint(v)
	}
}

// agreeOnStart stops every rank when one could not start (err, its
// own) or was given other flags than rank 0, before any step whose
// collective calls the flags decide: ranks given another --format or
// --shared-file waited for each other for ever, and another --size made
// a report that read as valid.
func (j *mpiJob) agreeOnStart(c *cli.Context, err error) error {
	differ := j.SameSettings(agreedSettings(c))
	var sm *cluster.SettingsMismatchError
	if errors.As(differ, &sm) {
		differ = &usageError{differ}
	}
	return j.Agree(cmp.Or(err, differ))
}

// configure is cluster.Configure for --total and --shared-file.
func (j *mpiJob) configure(cfg *iobench.Config, total, sharedFile bool) (*iobench.Shared, string, error) {
	j.dir = cfg.Dir
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
	return &report.MPI{Ranks: j.Size(), Nodes: len(nodes), Hosts: nodes, PerRankSamples: report.PerRankSummarised}
}

// stopRank is a rank's answer to a launcher's signal, which comes when
// the job aborts (a rank was killed) with a SIGKILL soon after, maybe
// while this rank waits in a collective call for the dead one: it
// removes the data files now, its own and those its host's gone ranks
// left (r.RemoveFiles), and says which rank it is and why it stops,
// naming any file that stayed. If a rank of its host is gone the job
// cannot finish, so it exits at once instead of waiting for the SIGKILL.
// r is the job the handler found active, stored after Configure set the
// directory and the peers this reads.
func (e *env) stopRank(r stoppable) {
	r.RemoveFiles()
	j := e.cluster.Load()
	if j == nil {
		return
	}
	var gone []goneRank
	for _, rank := range j.GoneRanks(processExists) {
		gone = append(gone, goneRank{rank, j.Member(rank).PID})
	}
	left := j.leftBehind()
	if len(gone) == 0 && len(left) == 0 {
		return
	}
	e.say(fmt.Sprintf("iobench: %s\n", stopLine(j.Rank(), j.Host(j.Rank()), gone, left, j.dir)), false)
	if len(gone) > 0 {
		e.cleanups.run()
		os.Exit(exitInterrupted)
	}
}

// processExists: a signal 0 reaches it, or it exists but is not ours.
func processExists(pid int) bool {
	err := unix.Kill(pid, 0)
	return err == nil || errors.Is(err, unix.EPERM)
}

// leftBehind are the data files of this rank and of its host's gone
// ranks still in the directory, after their removal.
func (j *mpiJob) leftBehind() []string {
	found, err := iobench.FindLeftovers(j.dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, l := range found {
		mine := l.PID == os.Getpid()
		if mine || l.State == iobench.RunGone && hasPeerPrefix(l.Name, j.PeerPrefixes()) {
			out = append(out, filepath.Join(j.dir, l.Name))
		}
	}
	return out
}

func hasPeerPrefix(name string, prefixes []string) bool {
	return slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(name, p+"-") })
}

// listedInStop is how many gone ranks, and files left, a stop line
// names before counting.
const listedInStop = 3

// goneRank is a rank of this host whose process is gone.
type goneRank struct{ rank, pid int }

// stopLine says which rank stops and why: the ranks of its host that
// are gone, and the data files in dir that stayed (left, paths).
func stopLine(rank int, host string, gone []goneRank, left []string, dir string) string {
	line := fmt.Sprintf("rank %d (%s): stopping", rank, host)
	if len(gone) > 0 {
		names := make([]string, len(gone))
		for i, g := range gone {
			names[i] = fmt.Sprintf("rank %d (pid %d)", g.rank, g.pid)
		}
		line += fmt.Sprintf(", as %s gone (killed: a signal, the OOM killer) and the job cannot finish", listed(names, "is", "are"))
	}
	if len(left) == 0 {
		return line + "; the data files are removed"
	}
	return line + fmt.Sprintf("; left behind: %s (remove with: iobench clean --dir %s)", listed(left, "", ""), dir)
}

// listed names the first few of items and counts the rest, with the
// verb for one or for more: "a is", "a and b are", "a, b, c and 2 more are".
func listed(items []string, one, more string) string {
	verb := more
	if len(items) == 1 {
		verb = one
	}
	shown := items[:min(len(items), listedInStop)]
	s := strings.Join(shown[:len(shown)-1], ", ")
	last := shown[len(shown)-1]
	if rest := len(items) - len(shown); rest > 0 {
		s, last = strings.Join(shown, ", "), fmt.Sprintf("%d more", rest)
	}
	if s != "" {
		s += " and "
	}
	return strings.TrimSpace(s + last + " " + verb)
}
