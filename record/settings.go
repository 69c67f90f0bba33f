package record

import "math/rand/v2"

// SourceKind says where the bytes written come from.
type SourceKind string

// Sources of the data written.
const (
	// SourceArray holds the whole data set in memory, like the reference
	// program.
	SourceArray SourceKind = "array"
	// SourceWindow reuses a window of about twice the largest write size,
	// so memory stays bounded whatever the count.
	SourceWindow SourceKind = "window"
)

// SyncMode is how the file system is flushed before each run (untimed).
type SyncMode string

// Sync modes.
const (
	SyncFS   SyncMode = "syncfs" // syncfs(2) on the target file system
	SyncAll  SyncMode = "sync"   // sync(2), every file system
	SyncNone SyncMode = "none"
)

// DataPattern is what the data written holds.
type DataPattern string

// Data patterns.
const (
	// DataRamp: element i holds the value i, as the reference program's
	// p[i] = i; compressible and deduplicable, but easy to check by eye.
	DataRamp DataPattern = "ramp"
	// DataRandom: incompressible bytes from a fast seeded generator
	// (Config.Seed), so --verify can regenerate them.
	DataRandom DataPattern = "random"
	// DataZero: zero bytes, what compressing or thin-provisioned storage
	// handles best.
	DataZero DataPattern = "zero"
)

// FlushMode is the flush after the last write of a run, inside the timing.
type FlushMode string

// Flush modes.
const (
	FlushFsync     FlushMode = "fsync"     // fsync(2): data and metadata
	FlushFdatasync FlushMode = "fdatasync" // fdatasync(2): data, and metadata only as reading it back needs
	FlushNone      FlushMode = "none"
)

// OpenSync is a synchronous-write flag on the data file's open.
type OpenSync string

// Open flags for synchronous writes.
const (
	OpenSyncOff OpenSync = ""      // neither
	OpenDSync   OpenSync = "dsync" // O_DSYNC: each write(2) returns once its data is stable
	OpenSyncAll OpenSync = "sync"  // O_SYNC: the same, with all metadata
)

// Order is the order in which the runs of a round visit the write sizes.
type Order string

// Run orders.
const (
	Ascending  Order = "ascending"
	Descending Order = "descending"
	Shuffled   Order = "shuffled"
)

// DropMode is how cached pages of the file are dropped before a read run.
type DropMode string

// Ways to keep the page cache out of read runs.
const (
	DropFadvise DropMode = "fadvise"     // fsync + posix_fadvise(DONTNEED)
	DropCaches  DropMode = "drop_caches" // also echo 1 > /proc/sys/vm/drop_caches (root)
)

// ShuffleRand is the generator a plan shuffles its rounds with, from the
// seed its record names, so that a seed gives the same order again.
func ShuffleRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}
