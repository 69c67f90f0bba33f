// Package units reads and writes byte sizes the way HPC users type them:
// K, M, G, T and P are binary (4K = 4096 bytes, as dd, fio and IOR read
// them), with or without "i" and "B", in any case. The decimal spellings
// KB, MB, GB, TB and PB are refused rather than guessed, so a size is never
// silently other than what the user meant.
//
// The package knows nothing about flags: errors say what is wrong with the
// value, and the caller names the flag.
//
// It owns the spelling of sizes; it must not import any other iobench
// package.
package units
