package iobench

import (
	"errors"
	"fmt"
)

// How a run does its I/O beyond the calls themselves: synchronous opens,
// preallocation, one file overwritten by every run, and per-call
// latency. The flush and the time limit are the pass's (pass.go).

// openSyncFS is fs opening its data files for synchronous writes as mode
// asks, when it can; setupIO refuses one that cannot.
func openSyncFS(mode OpenSync, fs FS) FS {
	if so, ok := fs.(syncOpener); ok && mode != OpenSyncOff {
		return so.withOpenSync(mode)
	}
	return fs
}

// setupIO checks and prepares what Config asks of the runs' I/O, before
// any.
func (w *writer) setupIO() error {
	c := w.cfg
	if w.shared != nil && (c.Overwrite || c.Preallocate) {
		set := SetOverwrite
		if !c.Overwrite {
			set = SetPreallocate
		}
		return configErr(set, true, "applies to a file per process; a shared file is created for each run by one process")
	}
	if _, ok := w.fs.(syncOpener); c.OpenSync != OpenSyncOff && !ok {
		return configErr(SetOpenSync, c.OpenSync, "this file system (%T) cannot open files for synchronous writes", w.fs)
	}
	if c.LatencyAll && !c.Latency {
		return configErr(SetLatencyAll, true, "times the calls {Latency} measures; set {Latency} too")
	}
	if c.Latency {
		w.lat = newLatencyRecorder(clockCost(), c.Seed, c.LatencyAll)
	}
	return nil
}

// newFile is how a write run gets a new data file: open creates it inside
// the timing; with Preallocate it is created and allocated now, untimed,
// and open reopens it. *name is the file's name once it was created.
func (w *writer) newFile(tag string, name *string) (open func() (File, error), err error) {
	create := func() (File, error) {
		n, f, err := w.files.create(w.prefix+"-"+tag, w.cfg.Direct)
		*name = n
		return f, err
	}
	if !w.cfg.Preallocate {
		return create, nil
	}
	f, err := create()
	if err != nil {
		return nil, wrapOp("open", err)
	}
	err = allocate(f, w.cfg.TotalBytes())
	if cerr := f.Close(); err == nil {
		err = wrapOp("close", cerr)
	}
	if err != nil {
		return nil, err
	}
	return func() (File, error) { return w.fs.OpenWrite(*name, w.files.id(*name), w.cfg.Direct, 0) }, nil
}

// allocate makes f size bytes long with its blocks allocated (fallocate).
func allocate(f File, size int64) error {
	a, ok := f.(Allocator)
	if !ok {
		return wrapOp("fallocate", errors.ErrUnsupported)
	}
	return wrapOp("fallocate", a.Allocate(size))
}

// layOut creates the file Overwrite writes into and writes the data to it
// once in full, untimed, so every run overwrites blocks that exist (with
// Preallocate, fallocated first). It stays until teardown removes it.
func (w *writer) layOut() error {
	name, _, err := w.writeFile(Run{Mode: ModeWrite, WriteSize: w.cfg.MaxSize()}, "overwrite", noTimeLimit)
	if err != nil {
		return fmt.Errorf("laying out the file to overwrite: %w", err)
	}
	w.overwrite = name
	return nil
}

// overwriteRun is a write run into the laid-out file, from its start,
// timed from open to close.
func (w *writer) overwriteRun(run Run) (Sample, error) {
	name := w.overwrite
	s, err := w.timed(run, w.cfg.TimeLimit, func() (File, error) {
		return w.fs.OpenWrite(name, w.files.id(name), w.cfg.Direct, 0)
	}, (*pass).write)
	if err == nil && w.cfg.Verify {
		err = w.verifyRun(name, s)
	}
	if err != nil {
		return s, runError(run, w.files.path(name), s.Bytes, err)
	}
	return s, nil
}

// ioKey is the settings of this file that every process of one sweep
// must share, for PlanKey: Overwrite adds a collective step.
func (c Config) ioKey() string {
	return fmt.Sprintf("%s %s %s %q %t %t %t %t", c.TimeLimit, c.DataKind(), c.FlushKind(), c.OpenSync, c.Preallocate, c.Overwrite, c.Latency, c.LatencyAll)
}
