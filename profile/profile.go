package profile

import (
	"fmt"
	"slices"
	"strings"

	"github.com/iobench/iobench/fsinfo"
	"github.com/iobench/iobench/iobench"
)

// Names of the --profile values with a meaning of their own.
const (
	// AutoName picks a profile from the file system (see Auto).
	AutoName = "auto"
	// Generic is the profile for file systems without one of their own.
	Generic = "generic"
)

// Profile is one preset. The zero value of each setting leaves the plan as
// the flags made it.
type Profile struct {
	Name        string // the --profile value
	Description string // what the file system is and why these settings
	Expect      string // where the knee should be, in words

	Fsync  bool // fsync before close, inside the timing
	Repeat int  // rounds; 0 leaves --repeat
	// RepeatAuto sets --repeat auto: adaptive rounds until the knee is
	// established, for file systems whose noise one round cannot judge.
	RepeatAuto bool
	Order      iobench.Order      // "": shuffled when more than one round, else ascending
	Sync       iobench.SyncMode   // flush between runs; "" leaves --sync
	Count      int64              // elements per run; 0 leaves --count/--size
	Source     iobench.SourceKind // "" leaves --source
	NoWarmup   bool               // skip the untimed warm-up pass
	Sweep      Sweep              // the write sizes
	Warning    string             // a note Apply always returns

	magics []int64  // statfs f_type values Auto matches
	types  []string // mount types Auto matches when the magic does not
}

// Sweep is how a profile picks the write sizes. Zero fields leave --min and
// --max as they are.
type Sweep struct {
	// MinElems and MaxElems, when set, give the range in elements, as the
	// reference program's bs does; Apply multiplies by the element size.
	MinElems int64
	MaxElems int64
	// AtLeast is the smallest largest write size, in bytes.
	AtLeast int64
	// Basis is a size of the file system the sweep must pass: the largest
	// write size is at least BasisFactor times it, so the knee near it has
	// a plateau after it to be measured against.
	Basis Basis
}

// BasisFactor is how far past the Basis size a sweep goes: two power-of-two
// steps, enough for the plateau rule to see a plateau after a knee there.
const BasisFactor = 4

// Basis names the file system size a sweep is scaled to.
type Basis string

// Bases a sweep can be scaled to.
const (
	BasisNone   Basis = ""
	BasisFBsize Basis = "f_bsize"     // statvfs f_bsize (GPFS: the file system block size)
	BasisWsize  Basis = "wsize"       // NFS wsize mount option
	BasisStripe Basis = "stripe size" // Lustre: lfs getstripe, else st_blksize
)

const (
	kib = 1 << 10
	mib = 1 << 20
)

// presets in the order `iobench profiles` lists them.
var presets = []Profile{
	{
		Name: "ext4", magics: []int64{fsinfo.MagicExt4}, types: []string{"ext2", "ext3", "ext4"},
		Description: "local ext2/3/4 disk; fsync so the page cache does not stand in for the disk",
		Expect:      "a knee around 64 KiB - 1 MiB",
		Fsync:       true, RepeatAuto: true, Sweep: Sweep{AtLeast: iobench.DefaultMaxSize},
	},
	{
		Name: "xfs", magics: []int64{fsinfo.MagicXFS}, types: []string{"xfs"},
		Description: "local XFS disk; fsync so the page cache does not stand in for the disk",
		Expect:      "a knee around 64 KiB - 1 MiB",
		Fsync:       true, RepeatAuto: true, Sweep: Sweep{AtLeast: iobench.DefaultMaxSize},
	},
	{
		Name: "btrfs", magics: []int64{fsinfo.MagicBtrfs}, types: []string{"btrfs"},
		Description: "local Btrfs disk; fsync so the page cache does not stand in for the disk",
		Expect:      "a knee around 64 KiB - 1 MiB",
		Fsync:       true, RepeatAuto: true, Sweep: Sweep{AtLeast: iobench.DefaultMaxSize},
	},
	{
		Name: "tmpfs", magics: []int64{fsinfo.MagicTmpfs}, types: []string{"tmpfs"},
		Description: "memory-backed; no fsync, which would do nothing here",
		Expect:      "a flat curve or an early knee: only the per-call cost of write(2) shows",
		Sweep:       Sweep{AtLeast: iobench.DefaultMaxSize},
		Warning:     "tmpfs: the file lives in memory, so this measures memory copy speed and system call cost, not storage",
	},
	{
		Name: "nfs", magics: []int64{fsinfo.MagicNFS}, types: []string{"nfs", "nfs4"},
		Description: "NFS; each wire transfer is capped at the wsize mount option",
		Expect:      "a knee near wsize",
		Fsync:       true, RepeatAuto: true, Sweep: Sweep{AtLeast: iobench.DefaultMaxSize, Basis: BasisWsize},
	},
	{
		Name: "lustre", magics: []int64{fsinfo.MagicLustre}, types: []string{"lustre"},
		Description: "Lustre; data is striped over OSTs in stripe-size pieces",
		Expect:      "a knee near the stripe size",
		Fsync:       true, RepeatAuto: true, Sweep: Sweep{AtLeast: iobench.DefaultMaxSize, Basis: BasisStripe},
	},
	{
		Name: "gpfs", magics: []int64{fsinfo.MagicGPFS}, types: []string{"gpfs"},
		Description: "IBM Storage Scale (GPFS), where PR 91030 was reported; f_bsize is the file system block size (64 KiB - 16 MiB)",
		Expect:      "a knee near the block size (f_bsize)",
		Fsync:       true, RepeatAuto: true, Sweep: Sweep{AtLeast: iobench.DefaultMaxSize, Basis: BasisFBsize},
	},
	{
		Name: "beegfs", magics: []int64{fsinfo.MagicBeeGFS}, types: []string{"beegfs"},
		Description: "BeeGFS; files are striped over storage targets in chunks",
		Expect:      "a knee near the chunk size, typically 512 KiB chunk (BeeGFS)",
		Fsync:       true, RepeatAuto: true, Sweep: Sweep{AtLeast: iobench.DefaultMaxSize},
	},
	{
		Name: "cephfs", magics: []int64{fsinfo.MagicCephFS}, types: []string{"ceph", "fuse.ceph-fuse"},
		Description: "CephFS; files are stored as RADOS objects",
		Expect:      "a knee near the object size, typically 4 MiB object (CephFS)",
		Fsync:       true, RepeatAuto: true, Sweep: Sweep{AtLeast: iobench.DefaultMaxSize},
	},
	{
		Name:        Generic,
		Description: "any file system without a profile of its own: the defaults",
		Expect:      "a knee somewhere in the sweep; compare it with f_bsize and st_blksize",
		RepeatAuto:  true,
	},
	{
		Name: "gfortran-pr91030",
		Description: "the experiment of the program posted in GCC PR libfortran/91030: 2.5e8 doubles, " +
			"write sizes of 2^10 .. 2^26 elements (8 KiB .. 512 MiB), open..close timed, sync(2) between runs; " +
			"iobench keeps its warm-up pass, whose absence made the reference's first size 8-10x low",
		Expect: "results in elements and bytes with true MiB/s " +
			`(the reference's "MiB/s" is Mi-doubles/s, 8x too small; its bs counts doubles)`,
		Repeat: 1, Order: iobench.Ascending, Sync: iobench.SyncAll, Count: iobench.DefaultCount,
		Source: iobench.SourceArray,
		Sweep:  Sweep{MinElems: 1 << 10, MaxElems: 1 << 26},
	},
}

// Names lists the valid --profile values: auto first, then every preset.
func Names() []string {
	names := []string{AutoName}
	for _, p := range presets {
		names = append(names, p.Name)
	}
	return names
}

// Lookup returns the preset called name. "auto" is not a preset: it needs
// the file system, so use Resolve or Auto for it.
func Lookup(name string) (Profile, error) {
	for _, p := range presets {
		if p.Name == name {
			return p, nil
		}
	}
	if name == AutoName {
		return Profile{}, fmt.Errorf("profile: Lookup cannot resolve %q without the file system; call Resolve", name)
	}
	return Profile{}, &iobench.ConfigError{Field: iobench.SetProfile, Value: name,
		Reason: fmt.Sprintf("unknown value %q (valid: %s)", name, strings.Join(Names(), ", "))}
}

// Resolve maps a --profile value to a profile and says why it was chosen:
// "auto" (or "") asks Auto, anything else Lookup.
func Resolve(name string, fs fsinfo.Info) (Profile, string, error) {
	if name == AutoName || name == "" {
		p, why := Auto(fs)
		return p, why, nil
	}
	p, err := Lookup(name)
	if err != nil {
		return Profile{}, "", err
	}
	return p, fmt.Sprintf("%s %s, on file system type %s", iobench.SetProfile.Ref(), name, describeFS(fs)), nil
}

// Auto picks the profile for fs and says why. The magic number decides
// first, as it cannot be spoofed by a mount type string; the mount type
// covers file systems whose magic is shared (FUSE). Anything else is
// generic.
func Auto(fs fsinfo.Info) (Profile, string) {
	for _, p := range presets {
		if slices.Contains(p.magics, fs.Magic) {
			return p, "auto: file system type " + describeFS(fs)
		}
	}
	for _, p := range presets {
		if fs.Type != "" && slices.Contains(p.types, fs.Type) {
			return p, "auto: file system type " + describeFS(fs)
		}
	}
	generic, _ := Lookup(Generic)
	return generic, "auto: file system type " + describeFS(fs) + " has no profile; using generic"
}

// describeFS is "gpfs (f_type 0x47504653)".
func describeFS(fs fsinfo.Info) string {
	name := fs.Type
	if name == "" {
		name = fs.MagicName
	}
	if name == "" {
		name = fsinfo.MagicName(fs.Magic)
	}
	if fs.Magic == 0 {
		return name
	}
	hex := fs.MagicHex
	if hex == "" {
		hex = fmt.Sprintf("%#x", fs.Magic)
	}
	return fmt.Sprintf("%s (f_type %s)", name, hex)
}
