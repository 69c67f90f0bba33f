// Package profile holds sweep presets per file system: what a sweep on GPFS,
// Lustre, NFS or a local disk should cover to find that file system's knee,
// and the reference experiment of GCC PR libfortran/91030.
//
// A Profile is plain data. Auto picks one from the file system facts
// (statfs f_type, mount type); Apply turns it into a sweep plan, deriving
// the largest write size from the block size, wsize or stripe size, and
// never touching what the user set with a flag. Describe prints the table
// behind `iobench profiles`.
//
// It owns the presets and how a preset becomes a plan; it must not import
// report or urfave/cli: a caller says which settings it set (Overrides) and
// renders the settings its notes and errors reference (iobench.Render).
package profile
