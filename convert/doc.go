// Package convert holds the data-conversion kernels of iobench's converting
// writer: for each write they gather the next chunk of elements from a
// native-order source array into the write buffer, optionally byte-swapping
// every element (what a Fortran runtime does under -fconvert=big-endian,
// GCC PR libfortran/91030) and optionally taking every K-th element (the
// Fortran section buf(1:N:K)). Unpack is the inverse for reads.
//
// The kernels are one tight loop per swap width and stride case, chosen once
// in NewPacker; there is never a per-element call through a generic size,
// which is what made Open MPI's strided pack four times slower than needed.
//
// It owns the byte-order and stride kernels; it must not import any other
// iobench package: the engine and the tests call it, never the reverse.
package convert
