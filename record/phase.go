package record

// Phase is what a sweep is doing right now, for a signal handler that
// must say what it waits for: a system call blocked in the kernel cannot
// be interrupted, only waited for or abandoned.
type Phase int32

const (
	PhaseIdle      Phase = iota
	PhaseFill            // filling the source array in memory
	PhaseSync            // syncfs or sync before a run
	PhaseOpen            // open(2) of a data file
	PhaseWrite           // write(2) calls
	PhaseRead            // read(2) calls
	PhaseFsync           // fsync(2) inside the timing
	PhaseClose           // close(2)
	PhaseRemove          // unlink(2) of a data file
	PhaseCollect         // waiting for the other ranks
	PhaseFdatasync       // fdatasync(2) inside the timing
)

var phaseWords = map[Phase]string{
	PhaseIdle:      "the sweep to stop",
	PhaseFill:      "the source array to stop filling",
	PhaseSync:      "a syncfs(2) in the kernel",
	PhaseOpen:      "an open(2) in the kernel",
	PhaseWrite:     "a write(2) in the kernel",
	PhaseRead:      "a read(2) in the kernel",
	PhaseFsync:     "an fsync(2) in the kernel",
	PhaseClose:     "a close(2) in the kernel",
	PhaseRemove:    "an unlink(2) in the kernel",
	PhaseCollect:   "the other ranks",
	PhaseFdatasync: "an fdatasync(2) in the kernel",
}

// Waiting says what an interrupted sweep waits for, e.g. "a write(2) in
// the kernel".
func (p Phase) Waiting() string { return phaseWords[p] }
