package program

// tables are the launchers' options by the values they take. An option
// not listed is refused: guessing its values would start the tracer on
// an option's value, or the program with the launcher's options.
var tables = map[Launcher]optTable{OpenMPI: openMPIOpts, Hydra: hydraOpts, Slurm: slurmOpts}

// openMPIOpts are Open MPI 4.1's mpirun options (mpirun --help all) and
// 5's prterun common ones; -name and --name are the same option.
var openMPIOpts = optTable{
	long: names(map[int][]string{
		0: {"allow-run-as-root", "bind-to-core", "bind-to-socket", "bycore", "bynode", "byslot", "continuous",
			"d", "debug-devel", "debug", "debug-daemons", "debug-daemons-file", "disable-recovery",
			"display-allocation", "display-devel-allocation", "display-devel-map", "display-diffable-map",
			"display-map", "display-topo", "do-not-launch", "do-not-resolve", "enable-instant-on-support",
			"enable-recovery", "fwd-mpirun-port", "get-stack-traces", "index-argv-by-rank", "leave-session-attached",
			"merge-stderr-to-stdout", "nolocal", "nooversubscribe", "noprefix", "novm", "output-proctable",
			"oversubscribe", "pernode", "q", "quiet", "report-bindings", "report-child-jobs-separately",
			"report-state-on-timeout", "set-cwd-to-session-dir", "show-progress", "tag-output", "timestamp-output",
			"tv", "use-hwthread-cpus", "use-regexp", "v", "verbose", "xml", "dvm", "bind-to-none"},
		1: {"am", "bind-to", "c", "np", "n", "cf", "cartofile", "cpu-list", "cpu-set", "cpus-per-proc", "cpus-per-rank",
			"debugger", "default-hostfile", "H", "host", "hnp", "hostfile", "launch-agent", "machinefile", "map-by",
			"max-restarts", "max-vm-size", "N", "npernode", "npersocket", "ompi-server", "output-filename", "path",
			"personality", "ppr", "prefix", "preload-files", "rank-by", "report-events", "report-pid", "report-uri",
			"rf", "rankfile", "stdin", "timeout", "tune", "wd", "wdir", "x", "xml-file", "xterm", "output",
			"display", "runtime-options", "pmixmca", "prtemca"},
		2: {"mca", "gmca"},
	}),
	refuse: map[string]string{
		"app": "the programs are in an appfile", "h": "a help request, not a run", "help": "a help request, not a run",
		"V": "a version request, not a run", "version": "a version request, not a run",
		"s":              "it copies the program to the nodes, which would copy the tracer's shell instead",
		"preload-binary": "it copies the program to the nodes, which would copy the tracer's shell instead",
	},
	np: []string{"-np", "--np", "-n", "--n", "-c"},
}

// hydraOpts are MPICH 4's mpiexec.hydra options (mpiexec -h).
var hydraOpts = optTable{
	long: names(map[int][]string{
		0: {"genvall", "genvnone", "envall", "envnone", "prepend-rank", "l", "verbose", "v", "print-all-exitcodes",
			"disable-auto-cleanup", "dac", "enable-x", "disable-x", "silent-abort", "profile", "pmi-port",
			"disable-hostname-propagation", "enable-hostname-propagation", "skip-launch-node", "exitinfo", "nameserver-enable"},
		1: {"n", "np", "f", "hostfile", "machinefile", "hosts", "host", "ppn", "wdir", "dir", "genvlist", "envlist",
			"launcher", "bootstrap", "launcher-exec", "bootstrap-exec", "rmk", "bind-to", "binding", "map-by", "topolib",
			"demux", "iface", "nameserver", "prepend-pattern", "outfile-pattern", "errfile-pattern", "gpus-per-proc",
			"usize", "localhost", "ranks-per-proc", "order-nodes", "tmpdir", "pmi-args", "membind", "gpu-subdevs-per-proc",
			"genvexcl", "envexcl", "timeout", "arch"},
		2: {"genv", "env", "gpath"},
	}),
	refuse: map[string]string{
		"configfile": "the programs are in a configuration file", "h": "a help request, not a run",
		"help": "a help request, not a run", "info": "an information request, not a run", "version": "a version request, not a run",
	},
	np: []string{"-n", "-np", "--n", "--np"},
}

// slurmOpts are Slurm's srun options (srun --help): getopt's letters,
// and long names with --name value or --name=value.
var slurmOpts = optTable{
	short: map[byte]int{'A': 1, 'b': 1, 'B': 1, 'c': 1, 'C': 1, 'd': 1, 'D': 1, 'e': 1, 'E': 0, 'G': 1, 'H': 0,
		'i': 1, 'I': optional, 'J': 1, 'k': optional, 'K': optional, 'l': 0, 'L': 1, 'm': 1, 'M': 1, 'n': 1,
		'N': 1, 'o': 1, 'O': 0, 'p': 1, 'q': 1, 'Q': 0, 's': 0, 'S': 1, 't': 1, 'T': 1, 'u': 0, 'v': 0,
		'w': 1, 'W': 1, 'x': 1, 'X': 0, 'Z': 0, 'h': 0, 'V': 0},
	long: names(map[int][]string{
		0: {"preserve-env", "hold", "label", "overcommit", "quiet", "oversubscribe", "unbuffered", "verbose",
			"disable-status", "no-allocate", "contiguous", "exact", "overlap", "pty", "spread-job", "test-only",
			"whole", "use-min-nodes", "reboot", "send-libs", "disable-perfparse", "quit-on-interrupt"},
		1: {"account", "begin", "extra-node-info", "cpus-per-task", "constraint", "dependency", "chdir", "error",
			"gpus", "input", "job-name", "licenses", "distribution", "clusters", "cluster", "ntasks", "nodes", "output",
			"partition", "qos", "core-spec", "time", "threads", "nodelist", "wait", "exclude", "export", "mpi",
			"mem", "mem-per-cpu", "mem-per-gpu", "gres", "gres-flags", "gpus-per-task", "gpus-per-node", "gpus-per-socket",
			"cpus-per-gpu", "gpu-bind", "cpu-bind", "mem-bind", "ntasks-per-node", "ntasks-per-socket", "ntasks-per-core",
			"ntasks-per-gpu", "hint", "reservation", "signal", "jobid", "het-group", "pack-group", "cpu-freq", "comment",
			"sockets-per-node", "cores-per-socket", "threads-per-core", "mincpus", "tmp", "network", "switches",
			"prolog", "epilog", "task-prolog", "task-epilog", "uid", "gid", "container", "container-id", "open-mode",
			"mail-type", "mail-user", "accel-bind", "profile", "resv-ports", "time-min", "deadline", "delay-boot",
			"wckey", "tres-per-task", "tres-bind", "acctg-freq", "mcs-label", "bb", "bbf", "cpus-per-node", "export-file",
			"gpu-freq", "nodefile", "priority", "power", "thread-spec", "ext", "segment"},
		optional: {"immediate", "no-kill", "kill-on-bad-exit", "exclusive", "bcast", "propagate", "nice", "x11",
			"slurmd-debug", "debugger-test", "compress", "cpu-bind-verbose"},
	}),
	refuse: map[string]string{
		"multi-prog": "the programs are in a configuration file", "help": "a help request, not a run",
		"usage": "a help request, not a run", "version": "a version request, not a run",
		"h": "a help request, not a run", "V": "a version request, not a run",
	},
	np: []string{"-n", "--ntasks"},
}

// names turns a list per number of values into a map by name.
func names(byValues map[int][]string) map[string]int {
	out := map[string]int{}
	for n, list := range byValues {
		for _, name := range list {
			out[name] = n
		}
	}
	return out
}
