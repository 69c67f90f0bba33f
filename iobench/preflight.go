package iobench

import (
	"fmt"
	"os"

	"github.com/dustin/go-humanize"
	"golang.org/x/sys/unix"

	"github.com/iobench/iobench/fsinfo"
)

// SpaceMargin is the free space kept beyond the data files, so a sweep
// never fills a shared file system to the last block: 64 MiB, or a tenth
// of a file system smaller than 640 MiB, and at least 2% of the data.
const SpaceMargin = 64 << 20

// FilesAtOnce is the most data files the plan keeps on disk at one time.
func (c Config) FilesAtOnce() int64 {
	n := int64(1)
	if c.Mode != ModeWrite {
		n++ // the file read runs read
	}
	if c.Keep {
		n++ // the last run's file stays until the next one is written
	}
	return n
}

// SpaceNeeded is the free space, in bytes, a sweep needs on a file system
// of fsTotal bytes.
func (c Config) SpaceNeeded(fsTotal uint64) int64 {
	return SpaceFor(c.TotalBytes()*c.FilesAtOnce()*int64(max(c.Ranks, 1))*int64(max(c.Jobs, 1)), fsTotal)
}

// SpaceFor is the room data bytes need on a file system of fsTotal
// bytes: the data and a margin, so the run never fills it.
func SpaceFor(data int64, fsTotal uint64) int64 {
	return data + max(min(SpaceMargin, int64(fsTotal/10)), data/50)
}

// Preflight checks, before any I/O, that the sweep can run: Dir is a
// writable directory with room for the data, and the source fits in memory.
func Preflight(c Config, fs fsinfo.Info, memAvailable uint64) error {
	if fs.ReadOnly {
		return configErr(SetDir, c.Dir, "%q is on a read-only file system (%s mounted at %s)", c.Dir, fs.Type, fs.MountPoint)
	}
	if err := unix.Access(fs.ResolvedDir, unix.W_OK); err != nil {
		return configErr(SetDir, c.Dir, "%q is not writable: %s", c.Dir, Describe(err))
	}
	if err := checkDropCaches(c); err != nil {
		return err
	}
	need := c.SpaceNeeded(fs.TotalBytes)
	if !c.Force && uint64(need) > fs.AvailBytes {
		return configErr(SetDir, c.Dir, "%q has %s available, the sweep needs %s (%d bytes: data plus a margin); free space, lower %s, or pass %s",
			c.Dir, humanize.IBytes(fs.AvailBytes), humanize.IBytes(uint64(need)), need, SetCount.Ref(), SetForce.Ref())
	}
	if memAvailable > 0 && c.Source == SourceWindow && uint64(c.SourceBytes()) > memAvailable {
		return configErr(SetStride, c.Stride, "the window source needs %s of memory (twice the largest write times the stride) but only %s is available; lower %s or %s",
			humanize.IBytes(uint64(c.SourceBytes())), humanize.IBytes(memAvailable), SetStride.Ref(), SetMaxSize.Ref())
	}
	if memAvailable > 0 && uint64(c.MemoryBytes()) > memAvailable {
		return configErr(SetSource, c.Source, "the %s source needs %s of memory but only %s is available; use %s window (about %s) or a smaller %s",
			c.Source, humanize.IBytes(uint64(c.MemoryBytes())), humanize.IBytes(memAvailable), SetSource.Ref(), humanize.IBytes(uint64(c.windowBytes())), SetCount.Ref())
	}
	return nil
}

func (c Config) windowBytes() int64 {
	w := c
	w.Source = SourceWindow
	return w.SourceBytes()
}

// Warnings are facts about the plan that make results easy to misread;
// they reference settings ({Fsync}), which a caller renders (Render).
// (What a file system type implies, such as tmpfs measuring memory, comes
// with its profile.)
func Warnings(c Config, fs fsinfo.Info, memTotal uint64) []string {
	var w []string
	// On tmpfs there is nothing but the page cache; its profile says so.
	if !c.Durable() && c.Mode != ModeRead && memTotal > 0 && uint64(c.TotalBytes()) < memTotal && !fs.InMemory() {
		w = append(w, fmt.Sprintf("the data (%s) fits in RAM (%s) and %s is off: results may measure the page cache, not the file system; use %s or a %s larger than RAM",
			humanize.IBytes(uint64(c.TotalBytes())), humanize.IBytes(memTotal), SetFsync.Ref(), SetFsync.Ref(), SetCount.Ref()))
	}
	if !c.Warmup {
		w = append(w, "no warm-up pass ("+SetWarmup.Ref()+"=false): the first run may be several times slower than the rest")
	}
	return w
}

// dropCachesPath is the kernel's page cache switch (a variable for tests).
var dropCachesPath = "/proc/sys/vm/drop_caches"

// checkDropCaches fails before the first run, not at the first read run,
// when --drop-caches cannot work: opening the switch for writing, without
// writing, tells whether this process may use it.
func checkDropCaches(c Config) error {
	if c.Drop != DropCaches || c.Mode == ModeWrite {
		return nil
	}
	f, err := os.OpenFile(dropCachesPath, os.O_WRONLY, 0)
	if err != nil {
		return configErr(SetDrop, c.Drop, "cannot write %s: %s; run as root, or leave out %s (the fadvise drop still applies)", dropCachesPath, DescribePath(err), SetDrop.Ref())
	}
	return f.Close()
}
