// Package verdict says what a sweep's records show, over plain values:
// the rows by size, the knees with their intervals and how they move
// between rounds, the recommendation and how to apply it, the runtimes'
// defaults judged against the measured sizes (Verdict), the variants'
// curves and ratios, and the warnings these call for (Summarize). The
// sweep and analyze both call Summarize, so the same samples give the
// same verdict. It reads records (package record) and advice, never the
// engine, and prints nothing.
package verdict
