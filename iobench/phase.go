package iobench

import "sync/atomic"

// busiest is the phase a signal handler waits for: the first writer's
// that is in a call, else the first's.
func busiest(ws []*writer) Phase {
	for _, w := range ws {
		if p := w.phase.load(); p != PhaseIdle && p != PhaseCollect {
			return p
		}
	}
	return ws[0].phase.load()
}

// livePhase is a writer's Phase, for other goroutines to read.
type livePhase struct{ v atomic.Int32 }

func (p *livePhase) set(ph Phase) { p.v.Store(int32(ph)) }
func (p *livePhase) load() Phase  { return Phase(p.v.Load()) }
