package iobench

import (
	"cmp"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"time"

	"github.com/iobench/iobench/convert"
	"github.com/iobench/iobench/record"
)

// Plan lists the runs of a sweep with a fixed number of rounds: Repeat
// rounds, each visiting every size once in the configured order; with
// ModeBoth a read follows each write. Adaptive sweeps (Auto) plan each
// round after the last with RoundRuns and the same generator.
func Plan(c Config) []Run {
	rng := PlanRand(c)
	var runs []Run
	for round := 1; round <= c.Repeat; round++ {
		runs = append(runs, RoundRuns(c, round, c.Sizes, rng, len(runs))...)
	}
	return runs
}

// PlanRand is the generator that shuffles a plan's rounds, from its seed.
func PlanRand(c Config) *rand.Rand { return record.ShuffleRand(c.Seed) }

// RoundRuns lists one round's runs of sizes, numbered after the seq runs
// before it: every variant at every size once, in the configured order of
// sizes (a size's variants in their order), or all (variant, size) pairs
// shuffled together, so drift during the round hits every variant alike.
func RoundRuns(c Config, round int, sizes []int64, rng *rand.Rand, seq int) []Run {
	var runs []Run
	for _, p := range roundOrder(c.Order, variantSizes(c, sizes), rng) {
		for _, m := range c.Mode.Directions() {
			runs = append(runs, Run{Mode: m, WriteSize: p.size, Variant: p.variant, Round: round, Seq: seq + len(runs) + 1})
		}
	}
	return runs
}

// variantSize is one size of one variant in a round.
type variantSize struct {
	size    int64
	variant string
	index   int // the variant's place in the list
}

// variantSizes is every (variant, size) pair of a round, by size and then
// variant.
func variantSizes(c Config, in []int64) []variantSize {
	sizes := slices.Clone(in)
	slices.Sort(sizes)
	var out []variantSize
	for _, s := range sizes {
		for i, v := range c.VariantList() {
			out = append(out, variantSize{size: s, variant: v.Name, index: i})
		}
	}
	return out
}

// Runs is the number of timed runs the plan holds; for an adaptive sweep,
// those of its first MinAutoRounds rounds if each ran every size.
func (c Config) Runs() int {
	rounds := c.Repeat
	if c.Auto {
		rounds = MinAutoRounds
	}
	return rounds * len(c.Sizes) * len(c.Mode.Directions()) * len(c.VariantList())
}

// roundOrder orders a round's pairs, sorted by size and variant: largest
// size first for Descending (variants still in their order), or shuffled.
// With one variant it shuffles as a plan of sizes alone always did, so a
// seed gives the order it gave before variants existed.
func roundOrder(order Order, pairs []variantSize, rng *rand.Rand) []variantSize {
	switch order {
	case Descending:
		slices.SortStableFunc(pairs, func(a, b variantSize) int {
			return cmp.Or(cmp.Compare(b.size, a.size), cmp.Compare(a.index, b.index))
		})
	case Shuffled:
		rng.Shuffle(len(pairs), func(i, j int) { pairs[i], pairs[j] = pairs[j], pairs[i] })
	}
	return pairs
}

// PlanKeyExempt are the Config fields the ranks of one sweep may hold
// apart, and why: PlanKey leaves them out. Every other field, each of
// record.Settings included, is in the key, so a new setting is one the
// ranks must agree on unless it is listed here.
var PlanKeyExempt = map[string]string{
	"Dir":    "each rank names its own directory",
	"Count":  "--total gives each rank a share",
	"Sync":   "only one rank per node syncs",
	"Ranks":  "set by the cluster, the same on every rank",
	"Writer": "each rank's own place, for its own random data",
	"Source": "how a rank holds its data in memory",
	"Force":  "a rank's own free-space check",
	"Keep":   "a rank's own last file",
}

// planKey is what PlanKey encodes: the shared settings but the exempt
// ones, and the plan's other fields that change the runs, the
// collectives (Warmup, Mode, Auto and the adaptive settings) or what
// every rank must measure alike. Runs is a digest of Plan(c), so a field
// that changes the runs changes the key whether or not it is listed.
//
// It is printed with %+v: a String method on record.Settings would be
// promoted to planKey and print instead of the fields.
type planKey struct {
	record.Settings
	TimeBudget     time.Duration
	KneeFraction   float64
	ReferenceSizes []int64
	Fsync          bool
	ReadShift      int
	Type           convert.Type
	Convert        convert.Order
	Variants       []Variant
	Runs           string
	IO             string // TimeLimit, Data, Flush, OpenSync, Preallocate, Overwrite, Latency
}

// PlanKey encodes everything in c that decides the sequence of runs and of
// collective calls, in readable form. Processes that run one sweep
// together (MPI ranks) must have equal keys, or they would call the
// collectives a different number of times and hang. It leaves out what
// may differ between them (PlanKeyExempt).
func (c Config) PlanKey() string {
	k := planKey{Settings: c.Settings, TimeBudget: c.TimeBudget, KneeFraction: c.KneeFraction, ReferenceSizes: c.ReferenceSizes,
		Fsync: c.Fsync, ReadShift: c.ReadShift, Type: c.Type, Convert: c.Convert, Variants: c.Variants, Runs: runsDigest(Plan(c))}
	withoutExempt(&k.Settings)
	k.IO = c.ioKey()
	return fmt.Sprintf("%+v", k)
}

// withoutExempt zeroes the exempt fields of s.
func withoutExempt(s *record.Settings) {
	v := reflect.ValueOf(s).Elem()
	for name := range PlanKeyExempt {
		if f := v.FieldByName(name); f.IsValid() {
			f.SetZero()
		}
	}
}

// runsDigest is a short hash of runs: the plan of a long sweep has
// hundreds, too many to print in an error.
func runsDigest(runs []Run) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%v", runs))
	return fmt.Sprintf("%x", sum[:6])
}
