// Package fsinfo describes the file system a benchmark writes to: its type,
// block sizes, capacity and mount facts, so that a throughput number can be
// read next to what the file system asked for (GPFS wants megabyte writes,
// NFS caps each transfer at wsize, tmpfs measures memory, not storage).
//
// Parsing is pure and portable (ParseMountInfo, FindMount, MagicName,
// OptionValue); Stat needs Linux.
//
// It owns what the kernel says about a directory's file system; it must
// not import the engine, report or the CLI, and never writes anything.
package fsinfo
