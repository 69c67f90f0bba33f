package profile

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"

	"github.com/iobench/iobench/fsinfo"
	"github.com/iobench/iobench/iobench"
	"github.com/iobench/iobench/units"
)

// Overrides are the settings a caller set explicitly; a profile leaves
// them as they are. A nil Overrides sets none.
type Overrides map[iobench.Setting]bool

// Apply sets the sweep in cfg from p, except the settings in given (of
// those a profile sets: Sizes, MinSize, MaxSize, Repeat, Order, Fsync,
// Sync, Count, Source, Warmup). cfg must hold the plan the caller made.
//
// The largest write size may come from fs (f_bsize, the wsize mount option)
// or, on Lustre, from `lfs getstripe` run through env. When the data per
// run is smaller than the profile's largest write size, the sweep stops at
// the data size. The notes say what was derived and anything the user
// should know; the error says when the sweep cannot fit the data at all.
func (p Profile) Apply(cfg *iobench.Config, fs fsinfo.Info, given Overrides, env Env) (notes []string, err error) {
	p.applySettings(cfg, given)
	if p.Warning != "" {
		notes = append(notes, p.Warning)
	}
	sweepNotes, err := p.applySweep(cfg, fs, given, env)
	return append(notes, sweepNotes...), err
}

// applySettings sets everything but the write sizes.
func (p Profile) applySettings(cfg *iobench.Config, isSet Overrides) {
	if !isSet[iobench.SetFsync] {
		cfg.Fsync = p.Fsync
	}
	switch {
	case isSet[iobench.SetRepeat]:
	case p.RepeatAuto:
		cfg.Auto, cfg.Repeat = true, iobench.MinAutoRounds
	case p.Repeat > 0:
		cfg.Auto, cfg.Repeat = false, p.Repeat
	}
	if !isSet[iobench.SetOrder] {
		cfg.Order = p.order(cfg.Repeat)
	}
	if p.Sync != "" && !isSet[iobench.SetSync] {
		cfg.Sync = p.Sync
	}
	if p.Count > 0 && !isSet[iobench.SetCount] {
		cfg.Count = p.Count
	}
	if p.Source != "" && !isSet[iobench.SetSource] {
		cfg.Source = p.Source
	}
	if p.NoWarmup && !isSet[iobench.SetWarmup] {
		cfg.Warmup = false
	}
}

// order is the profile's order, or the engine's rule: shuffled when there
// is more than one round, so that drift over time (a filling cache, a
// neighbour's job) spreads over all sizes instead of biasing the last ones.
func (p Profile) order(repeat int) iobench.Order {
	switch {
	case p.Order != "":
		return p.Order
	case repeat > 1:
		return iobench.Shuffled
	default:
		return iobench.Ascending
	}
}

// applySweep sets cfg.Sizes to powers of two from the smallest to the
// largest write size, keeping an explicit Sizes list untouched and an
// explicit MinSize or MaxSize as given.
func (p Profile) applySweep(cfg *iobench.Config, fs fsinfo.Info, isSet Overrides, env Env) ([]string, error) {
	if isSet[iobench.SetSizes] || len(cfg.Sizes) == 0 {
		return nil, nil
	}
	lo, hi := slices.Min(cfg.Sizes), cfg.MaxSize()
	if p.Sweep.MinElems > 0 && !isSet[iobench.SetMinSize] {
		lo = p.Sweep.MinElems * cfg.ElemSize()
	}
	want, derived := p.wantMax(cfg, fs, env)
	var notes []string
	switch {
	case want == 0:
	case isSet[iobench.SetMaxSize]:
		if want > hi {
			notes = append(notes, fmt.Sprintf("%s: keeping %s %s, though %s would sweep to %s; the knee may lie beyond %[2]s",
				p.Name, iobench.SetMaxSize.Ref(), units.FormatSize(hi), orProfile(derived), units.FormatSize(want)))
		}
	default:
		hi = max(want, lo)
		if derived != "" {
			notes = append(notes, fmt.Sprintf("%s: %s -> sweeping to %s", p.Name, derived, units.FormatSize(hi)))
		}
	}
	if !isSet[iobench.SetMaxSize] {
		var note string
		var err error
		if hi, note, err = p.fitData(cfg.TotalBytes(), lo, hi); err != nil {
			return notes, err
		}
		if note != "" {
			notes = append(notes, note)
		}
	}
	cfg.Sizes = units.PowersOfTwo(min(lo, hi), hi)
	return notes, nil
}

// fitData lowers the largest write size hi, which the profile and not the
// user chose, to the data per run: a write larger than the whole run cannot
// happen, and a user who asked for that little data meant it.
func (p Profile) fitData(data, lo, hi int64) (int64, string, error) {
	if hi <= data {
		return hi, "", nil
	}
	capped := floorPow2(data)
	if capped < lo {
		return hi, "", &iobench.ConfigError{Field: iobench.SetProfile, Value: p.Name,
			Reason: fmt.Sprintf("%s sweeps from %d bytes, more than the data per run (%d bytes); raise %s", p.Name, lo, data, iobench.SetCount.Ref())}
	}
	note := fmt.Sprintf("%s: the data per run is only %s; sweeping to %s instead of %s (raise %s to go further)",
		p.Name, units.FormatSize(data), units.FormatSize(capped), units.FormatSize(hi), iobench.SetCount.Ref())
	return capped, note, nil
}

// wantMax is the largest write size the profile asks for (0: keep the
// flag's), and in words what it was derived from ("f_bsize 16 MiB"; empty
// when it was not derived from the file system).
func (p Profile) wantMax(cfg *iobench.Config, fs fsinfo.Info, env Env) (int64, string) {
	s := p.Sweep
	switch {
	case s.MaxElems > 0:
		return s.MaxElems * cfg.ElemSize(), ""
	case s.Basis == BasisNone:
		return ceilPow2(s.AtLeast), ""
	}
	base, derived := p.basisSize(cfg, fs, env)
	return ceilPow2(max(s.AtLeast, BasisFactor*base)), derived
}

// basisSize reads the size the sweep is scaled to, 0 when unknown, and
// says where it came from.
func (p Profile) basisSize(cfg *iobench.Config, fs fsinfo.Info, env Env) (int64, string) {
	switch p.Sweep.Basis {
	case BasisFBsize:
		return known("f_bsize", fs.BlockSize)
	case BasisWsize:
		return wsize(fs)
	case BasisStripe:
		dir := fs.ResolvedDir
		if dir == "" {
			dir = cfg.Dir
		}
		return stripeSize(dir, fs, env)
	}
	return 0, ""
}

// wsize reads the NFS wsize option. The kernel shows it in the
// per-superblock options; the per-mount list is checked too for fixtures
// and kernels that put it there.
func wsize(fs fsinfo.Info) (int64, string) {
	for _, opts := range []string{fs.SuperOptions, fs.MountOptions} {
		v, ok := fsinfo.OptionValue(opts, "wsize")
		if !ok {
			continue
		}
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n > 0 {
			return n, "wsize " + units.FormatSize(n)
		}
		return 0, fmt.Sprintf("wsize %q unreadable", v)
	}
	return 0, "wsize unknown (no wsize mount option)"
}

// known describes a size that may be unknown (0).
func known(name string, n int64) (int64, string) {
	if n <= 0 {
		return 0, name + " unknown"
	}
	return n, name + " " + units.FormatSize(n)
}

func orProfile(derived string) string {
	if derived == "" {
		return "the profile"
	}
	return derived
}

// ceilPow2 is the smallest power of two >= n, or 0 for n <= 0.
func ceilPow2(n int64) int64 {
	if n <= 0 {
		return 0
	}
	return 1 << bits.Len64(uint64(n-1))
}

// floorPow2 is the largest power of two <= n, or 0 for n <= 0.
func floorPow2(n int64) int64 {
	if n <= 0 {
		return 0
	}
	return 1 << (bits.Len64(uint64(n)) - 1)
}
