// Package libcheck is what a runtime check (iobench runtime, app's price
// through a runtime) plans, records and concludes, as plain values; the
// writers that run it are package runtimes'. It holds:
//   - the runtimes (libgfortran, C stdio, MPI-IO, HDF5) and their default
//     buffers, and a writer's one run (Job, Measurement);
//   - each runtime's buffering rule as a pure function that predicts the
//     write(2) calls (Predict; PredictMPIIO and PredictHDF5 for the
//     libraries, from ROMIO's, OMPIO's and HDF5's sources), which the
//     tests check against the calls the writers count in /proc/self/io;
//   - the libraries' cases: which settings run where their rules say they
//     can change the calls (MPIIOCases, HDF5Cases), and what packing
//     strided memory costs MPI-IO (PackCost);
//   - a plan of shuffled, interleaved rounds over layout x byte order x
//     buffer (Plan), its adaptive rounds (Schedule), and its samples
//     (Sample, Result);
//   - the summary of its samples against a write(2) sweep: medians and
//     intervals, gains over the runtime's default, the gains the sweep
//     predicts, whether they agree, and the buffer each layout needs by
//     the runtime's rule (Summarize, Advice).
//
// It imports no engine and runs nothing, so a report reads it as records.
package libcheck
