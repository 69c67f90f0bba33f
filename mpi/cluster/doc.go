// Package cluster is the protocol by which the ranks of an MPI job run one
// sweep together: it learns each rank's host, agrees on failure at every
// step (Agree), shares out the count, the seed and the file names
// of rank 0 (Configure), checks that every rank runs rank 0's plan
// (SamePlan), passes each rank's read file to the rank that reads it
// (Shift, for --read-shift), lets rank 0 choose each adaptive round for
// all (Decide) and aggregates the ranks' samples at rank 0 (Gather). A
// *Cluster is the engine's iobench.Coordinator.
//
// It speaks to MPI only through Collective, which *mpi.World satisfies and
// tests fake with goroutines. It returns its own types and typed errors
// and must not import report, urfave/cli or anything else of the command:
// internal/cli maps them to the report and to flag names.
package cluster
