// Package verdict says what records show, over plain values. For a
// sweep (Summarize): the rows by size, the knees with their intervals and
// how they move between rounds, the recommendation and how to apply it,
// the runtimes' defaults judged against the measured sizes (Verdict),
// the variants' curves and ratios, and the warnings these call for; the
// sweep and analyze both call it, so the same samples give the same
// verdict. For a runtime check (RuntimeCheck.Judge, LibraryCheck.Apply):
// what to set per layout from the gains measured through the runtime,
// and the how-to-apply rows. It reads records (record, libcheck) and
// advice, never the engine or a runner, and prints nothing.
package verdict
