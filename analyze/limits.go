package analyze

// The limits of what Parse reads, all in one place. Each is what the
// largest report iobench writes can need, so that input beyond it is
// refused before it is decoded, in time and memory that do not depend on
// what the input claims to hold. docs/failures.md ("Input files") lists
// them.
const (
	// MaxInputBytes bounds the file. The largest report iobench writes
	// (64 adaptive rounds of 24 sizes, both directions, under MPI) is a
	// few MiB; more is not a report, and reading on would only exhaust
	// memory.
	MaxInputBytes = 64 << 20

	// minRunBytes is the fewest bytes any format iobench writes spends on
	// one run: a CSV row of its columns, or a JSON sample, whose field
	// names alone take 105 bytes.
	minRunBytes = 64

	// MaxRuns bounds the runs of a report: a file of MaxInputBytes holds
	// no more. Every list of an iobench JSON document has at most one
	// entry per run (results, samples, config.sizes, the spreads across
	// ranks and jobs, the knees per round) or a fixed few (16 variants, a
	// latency histogram's 1920 buckets), so MaxRuns also bounds the length
	// of any list.
	MaxRuns = MaxInputBytes / minRunBytes

	// maxListEntries bounds the entries of all lists of a JSON document
	// together, since many short lists cost as much to decode as one long
	// one: an entry decodes into up to a few hundred bytes. iobench
	// indents its JSON and spends more than 32 bytes on an entry on
	// average (a sample over 200, a latency bucket's pair over 60, a size
	// in config.sizes 10 but beside its row's 400), so a report of
	// MaxInputBytes has fewer. The entries of a list in a list, a
	// bucket's two bounds, are not counted: they decode into a fixed pair,
	// or are skipped as the wrong type.
	maxListEntries = MaxInputBytes / 32

	// maxJSONDepth is the deepest nesting of an iobench JSON document:
	// results[].samples[].latency.buckets[][], eight levels.
	maxJSONDepth = 8

	// maxCSVColumns bounds the header of a CSV: render.CSV writes about
	// twenty columns, and a spreadsheet may add a few.
	maxCSVColumns = 256
)
