package report

// ReferenceTool names results that analyze read from the output of the
// GCC PR91030 benchmark program; its JSON is an iobench report too.
const ReferenceTool = "pr91030-bench.c"

// KnownTool reports whether a JSON report's tool.name is one iobench
// writes: its own sweeps, and analyze's conversion of the reference's output.
func KnownTool(name string) bool { return name == "iobench" || name == ReferenceTool }
