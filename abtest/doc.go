// Package abtest owns the statistics of `iobench tune`: deciding, while a
// user's program is being run, whether a candidate setting changes its wall
// time compared with the unchanged baseline, and by how much.
//
// A run is a sequence of blocks. Each block runs every arm (the baseline
// and each candidate) once, in a fresh random order (Plan). For block i and
// candidate c the datum is the paired log ratio d_i = ln(t_c,i / t_base,i)
// (LogRatio). Under the sharp null (the setting has no effect), and because
// the order within a block is random, the sign of d_i is a fair coin
// whatever the position effects (a warm cache for the second run, a slow
// drift of the machine), so a test on the signs is exact.
//
// Sequential is a betting e-process on those signs, checked after every
// block: by Ville's inequality it rejects a true null with probability at
// most alpha however many times it is looked at and whenever the looking
// stops, which repeated Mann-Whitney U tests do not (the tests show the U
// test near 0.2 where the e-process stays below 0.05). Inverting the same
// e-process gives an anytime-valid interval for the ratio of the medians.
//
// The intended use by the command:
//
//   - Screening: one Sequential per candidate, each at alpha/k for k
//     candidates (NewScreening, Bonferroni), fed every block until a
//     candidate is decided Faster or MaxBlocks is reached. Pick names the
//     winner: decided Faster, smallest Ratio.
//   - Confirmation: screening several candidates and keeping the best one
//     favours a lucky one (the winner's curse), so the winner is chosen on
//     screening blocks only and judged on confirm-phase blocks only: a
//     fresh NewSequential(alpha) fed with new blocks of the baseline and
//     the winner alone. Its decision, Ratio and RatioInterval are the ones
//     to report; none of the screening data enters them.
//   - Reporting: MedianInterval for each arm's median wall time (a
//     fixed-sample, distribution-free interval from order statistics).
//
// The package is pure computation: it does no I/O, starts no processes
// and reads no clock. It must not import the engine, the CLI, report, or
// anything that does I/O; it uses only the standard library and
// go-moremath.
package abtest
