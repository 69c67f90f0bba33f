// Package advice turns a measured curve and its knee into a buffer size
// recommendation, with what to set for libgfortran.
//
// The knee (package knee) is the smallest write size that reaches a
// fraction of the plateau, with an interval and whether it is established.
// Recommend turns it into the buffer size to use, tests the runs at
// libgfortran's default buffer sizes against the plateau runs to say
// whether the GFORTRAN_*_BUFFER_SIZE variables are worth setting (only a
// significant gain earns an export line), and compares the knee with the
// block sizes the file system reports, which libgfortran itself never
// looks at.
//
// EstimateCost holds a program's writes (package workload) against a
// measured curve: what they cost now, at the recommended size, and by
// whose settings (RuntimesOf, ApplyFor).
//
// It owns the judgement from numbers to advice; it must not import the
// engine (iobench), report, urfave/cli, or anything that does I/O.
package advice
