package report

// Command names a command that writes formats; each offers its own
// list (render.Formats).
type Command string

// The commands that take a format.
const (
	CmdSweep   Command = "sweep"
	CmdAnalyze Command = "analyze"
	CmdCompare Command = "compare"
	CmdPlot    Command = "plot"
	CmdInfo    Command = "info"
	CmdRuntime Command = "runtime"
	CmdApp     Command = "app"
	CmdTune    Command = "tune"
)
