// Package knee finds where a throughput-versus-write-size curve levels off.
//
// The input is the median curve of a write-size sweep: one Point per write
// size, usually powers of two. Find applies the plateau rule (the smallest
// size from which every larger one reaches a fraction of the plateau), in
// a form that one bad run cannot move, classifies the curve's shape
// (plateau, declines, flat, rising, too few points), and also reports
// where the Kneedle method (Satopaa et al. 2011) puts the knee. Stability repeats Find over independent rounds, and
// CV and Median help the caller judge how noisy each size was.
//
// The package knows nothing about the CLI or about how throughput was
// measured; it works on numbers only.
//
// It owns the statistics of the curve; it must not import the engine,
// report, fsinfo, or anything that does I/O (units only, for sizes).
package knee
