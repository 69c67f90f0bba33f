package advice

import (
	"cmp"
	"math"
	"slices"

	"github.com/iobench/iobench/workload"
)

// CurvePoint is one write size of a measured write(2) curve.
type CurvePoint struct {
	Size      int64
	MiBPerSec float64 // the median
	// Low and High bound the median (its confidence interval); both are
	// the median when the curve had one run there.
	Low, High float64
}

// CostCurve is a measured curve, as the estimate of a program's writes
// needs it.
type CostCurve struct {
	Points []CurvePoint // sorted by size, all with a positive median
	// Recommended is the buffer the curve's recommendation gives
	// (Recommendation.BufferSize); 0: none, so no estimate at it.
	Recommended int64
	// Fraction is the knee's band: a gain whose low end clears
	// 1/Fraction is more than the band's width of noise.
	Fraction float64
	// StdioBuffer is the size of C stdio's write(2) calls on the curve's
	// file system (glibc's default buffer for its st_blksize).
	StdioBuffer int64
}

// Seconds is an estimated time and its interval, in seconds.
type Seconds struct{ Est, Low, High float64 }

func (s Seconds) add(o Seconds) Seconds {
	return Seconds{s.Est + o.Est, s.Low + o.Low, s.High + o.High}
}

// Bases of a file's estimate: where its write(2) sizes come from.
const (
	BasisCalls = "write(2) calls"                          // the log counted them (POSIX, strace)
	BasisStdio = "write(2) calls inferred from the buffer" // C stdio's buffer makes them; STDIO counts fwrite calls
	BasisMPIIO = "MPI-IO calls"                            // no POSIX record: MPI-IO's sizes stand for them
)

// ClassCost is one size class of a file's writes on the curve.
type ClassCost struct {
	workload.SizeClass
	Bytes int64 // its bytes: exact for an exact size, else estimated from the file's total
	// Outside: some of its sizes are outside the curve's range, so it is
	// not estimated (nothing is extrapolated).
	Outside       bool
	Now           Seconds // at the curve's throughput of its sizes
	AtRecommended Seconds // in writes of the recommended size (the same, when already larger)
}

// FileCost is what one file's writes cost on the curve.
type FileCost struct {
	Input        int // the index of its input
	Path, Module string
	Basis        string // a Basis* value
	Classes      []ClassCost
	// Estimated* are the calls and bytes the estimate covers; Outside*
	// those of classes outside the curve.
	EstimatedCalls, EstimatedBytes int64
	OutsideCalls, OutsideBytes     int64
	Now, AtRecommended             Seconds
	// Unchanged is the part of Now in classes already at or above the
	// recommended size, which stays as it is.
	Unchanged Seconds
	// Measured is the write time the log measured, summed over ranks.
	Measured float64
}

// Saving is what issuing the writes at the recommended size would save.
func (f FileCost) Saving() Seconds {
	return Seconds{f.Now.Est - f.AtRecommended.Est, f.Now.Low - f.AtRecommended.High, f.Now.High - f.AtRecommended.Low}
}

// Gain is how many times faster the writes would be at the recommended
// size, with its interval from the curve's intervals and the bins' ends;
// 0 without an estimate. The classes that stay as they are take the same
// time on both sides, whatever it is, which the interval keeps.
func (f FileCost) Gain() (gain, low, high float64) {
	if f.AtRecommended.Est <= 0 || f.AtRecommended.Low <= 0 {
		return 0, 0, 0
	}
	u := f.Unchanged
	now := Seconds{f.Now.Est - u.Est, f.Now.Low - u.Low, f.Now.High - u.High}
	at := Seconds{f.AtRecommended.Est - u.Est, f.AtRecommended.Low - u.Low, f.AtRecommended.High - u.High}
	ratio := func(u, a, b float64) float64 { return (u + a) / (u + b) }
	low = min(ratio(u.Low, now.Low, at.High), ratio(u.High, now.Low, at.High))
	high = max(ratio(u.Low, now.High, at.Low), ratio(u.High, now.High, at.Low))
	return f.Now.Est / f.AtRecommended.Est, low, high
}

// SmallWrites is the check Drishti makes (write calls below 1 MiB, by
// Darshan's bins, so 1 MiB writes included, more than 10% of the calls
// and more than 1000), held against the measured curve.
type SmallWrites struct {
	Calls, Of int64 // small write(2) calls, of all
	Flagged   bool  // Drishti's rule would flag them
	Cost      FileCost
	// Agrees: the curve says they cost real time: issued at the
	// recommended size they would be faster by more than the knee's band,
	// even at the low end of the gain's interval.
	Agrees bool
}

// Drishti's thresholds for small writes.
const (
	drishtiShare = 0.10
	drishtiCalls = 1000
)

// Cost is what a program's writes cost on a measured curve.
type Cost struct {
	Files []FileCost
	Total FileCost
	// AccountsFor is the estimate now over the time the logs measured in
	// the same writes (0 when they measured none).
	AccountsFor float64
	Small       SmallWrites
}

// EstimateCost estimates, for each file of the inputs' write(2) layer, the
// time its writes take at the curve's throughput of their sizes and the
// time they would take issued at the recommended size. The write(2)
// layer of a path is its POSIX (or strace) record; a path with none is
// taken through STDIO (its calls inferred from the stdio buffer) or
// MPI-IO (its call sizes).
func EstimateCost(inputs []workload.Input, c CostCurve) Cost {
	var out Cost
	small := FileCost{Path: "writes below 1 MiB", Basis: BasisCalls}
	for i, in := range inputs {
		for _, f := range writeLayer(in.Files) {
			fc := fileCost(f, c)
			fc.Input = i
			out.Files = append(out.Files, fc)
			out.Total = sum(out.Total, fc)
			if fc.Basis == BasisCalls {
				out.Small.Of += f.Writes
				s := smallPart(fc, c)
				out.Small.Calls += s.EstimatedCalls + s.OutsideCalls
				small = sum(small, s)
			}
		}
	}
	out.Total.Path, out.Total.Basis = "all files", ""
	if out.Total.Measured > 0 {
		out.AccountsFor = out.Total.Now.Est / out.Total.Measured
	}
	out.Small.Cost = small
	out.Small.Flagged = out.Small.Calls > drishtiCalls && float64(out.Small.Calls) > drishtiShare*float64(out.Small.Of)
	if _, low, _ := small.Gain(); low > 0 && c.Fraction > 0 {
		out.Small.Agrees = low > 1/c.Fraction
	}
	return out
}

// writeLayer keeps, per path, the file whose sizes are closest to its
// write(2) calls: POSIX or strace, else STDIO, else MPI-IO.
func writeLayer(files []workload.File) []workload.File {
	rank := map[string]int{workload.ModulePOSIX: 0, workload.ModuleStrace: 0, workload.ModuleSTDIO: 1, workload.ModuleMPIIO: 2}
	best := map[string]int{}
	for i, f := range files {
		if j, ok := best[f.Path]; !ok || rank[f.Module] < rank[files[j].Module] {
			best[f.Path] = i
		}
	}
	var out []workload.File
	for i, f := range files {
		if best[f.Path] == i {
			out = append(out, f)
		}
	}
	return out
}

// fileCost estimates one file.
func fileCost(f workload.File, c CostCurve) FileCost {
	fc := FileCost{Path: f.Path, Module: f.Module, Basis: BasisCalls, Measured: f.WriteSeconds}
	classes := f.Sizes
	switch {
	case f.Module == workload.ModuleSTDIO:
		fc.Basis, classes = BasisStdio, stdioCalls(f, c.StdioBuffer)
	case f.Module == workload.ModuleMPIIO:
		fc.Basis = BasisMPIIO
	}
	for i, b := range classBytes(classes, f.Bytes) {
		cc := classCost(classes[i], b, c)
		fc.Classes = append(fc.Classes, cc)
		fc = addClass(fc, cc)
	}
	return fc
}

// stdioCalls are the write(2) calls C stdio makes for a file's fwrites:
// full buffers of b bytes, or, when the mean fwrite is at least a buffer,
// calls of about that size, which glibc writes past its buffer.
func stdioCalls(f workload.File, b int64) []workload.SizeClass {
	if f.Bytes <= 0 || b <= 0 {
		return nil
	}
	if mean := f.MeanSize(); mean >= b {
		return []workload.SizeClass{{Low: mean, High: mean, Calls: f.Writes}}
	}
	return []workload.SizeClass{{Low: b, High: b, Calls: (f.Bytes + b - 1) / b}}
}

// byteRange is what a class's bytes are known to be.
type byteRange struct{ est, low, high int64 }

// classBytes splits a file's bytes over its classes: an exact size's are
// its size times its calls; the bins share the rest, each within what its
// ends allow, in proportion to calls times the bin's middle (geometric).
// A rest the bins cannot hold (a log whose total disagrees with its
// counts) is taken as the nearest they can.
func classBytes(classes []workload.SizeClass, total int64) []byteRange {
	out := make([]byteRange, len(classes))
	rest := total
	var weight float64
	for i, c := range classes {
		if c.Exact() {
			n := satMul(c.Low, c.Calls)
			out[i] = byteRange{n, n, n}
			rest = max(rest-n, 0)
			continue
		}
		weight += binWeight(c, total)
	}
	var lows, highs int64
	for i, c := range classes {
		if !c.Exact() {
			out[i].low = satMul(c.Low, c.Calls)
			out[i].high = max(out[i].low, satMul(min(c.High, rest), c.Calls))
			lows, highs = satAdd(lows, out[i].low), satAdd(highs, out[i].high)
		}
	}
	rest = min(max(rest, lows), highs)
	for i, c := range classes {
		if c.Exact() {
			continue
		}
		r := &out[i]
		r.low, r.high = max(r.low, rest-(highs-r.high)), min(r.high, rest-(lows-r.low))
		var share float64
		if weight > 0 {
			share = binWeight(c, total) / weight
		}
		r.est = min(max(int64(share*float64(rest)), r.low), r.high)
	}
	return out
}

// binWeight is a bin's calls times its middle size (geometric).
func binWeight(c workload.SizeClass, total int64) float64 {
	return float64(c.Calls) * math.Sqrt(float64(max(c.Low, 1))*float64(max(min(c.High, total), 1)))
}

func satMul(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}

func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// classCost estimates one class with bytes b.
func classCost(cl workload.SizeClass, b byteRange, c CostCurve) ClassCost {
	cc := ClassCost{SizeClass: cl, Bytes: b.est}
	lo, hi, ok := c.span()
	if !ok || cl.Low < lo || cl.High > hi || b.est <= 0 {
		cc.Outside = ok && b.est > 0
		return cc
	}
	mean := cl.Low
	if cl.Calls > 0 {
		mean = min(max(b.est/cl.Calls, cl.Low), cl.High)
	}
	slow, fast := c.extremes(cl.Low, cl.High)
	cc.Now = Seconds{seconds(b.est, c.at(mean).MiBPerSec), seconds(b.low, fast), seconds(b.high, slow)}
	cc.AtRecommended = cc.Now
	if r := c.Recommended; r > 0 && mean < r && r >= lo && r <= hi {
		at := c.at(r)
		cc.AtRecommended = Seconds{seconds(b.est, at.MiBPerSec), seconds(b.low, at.High), seconds(b.high, at.Low)}
	}
	return cc
}

func seconds(bytes int64, mibPerSec float64) float64 {
	if mibPerSec <= 0 {
		return 0
	}
	return float64(bytes) / (1 << 20) / mibPerSec
}

func addClass(fc FileCost, cc ClassCost) FileCost {
	if cc.Outside {
		fc.OutsideCalls += cc.Calls
		fc.OutsideBytes += cc.Bytes
		return fc
	}
	fc.EstimatedCalls += cc.Calls
	fc.EstimatedBytes += cc.Bytes
	fc.Now, fc.AtRecommended = fc.Now.add(cc.Now), fc.AtRecommended.add(cc.AtRecommended)
	if cc.Now == cc.AtRecommended {
		fc.Unchanged = fc.Unchanged.add(cc.Now)
	}
	return fc
}

// SumCosts adds up files' costs.
func SumCosts(files []FileCost) FileCost {
	var t FileCost
	for _, f := range files {
		t = sum(t, f)
	}
	return t
}

func sum(a, b FileCost) FileCost {
	a.EstimatedCalls += b.EstimatedCalls
	a.EstimatedBytes += b.EstimatedBytes
	a.OutsideCalls += b.OutsideCalls
	a.OutsideBytes += b.OutsideBytes
	a.Now, a.AtRecommended = a.Now.add(b.Now), a.AtRecommended.add(b.AtRecommended)
	a.Unchanged = a.Unchanged.add(b.Unchanged)
	a.Measured += b.Measured
	return a
}

// smallPart is the part of a file's cost in Drishti's small writes.
func smallPart(fc FileCost, c CostCurve) FileCost {
	out := FileCost{Path: fc.Path, Basis: fc.Basis}
	for _, cc := range fc.Classes {
		if cc.Low <= workload.SmallWriteLimit {
			out.Classes = append(out.Classes, cc)
			out = addClass(out, cc)
		}
	}
	return out
}

// span is the range of sizes the curve measured.
func (c CostCurve) span() (lo, hi int64, ok bool) {
	if len(c.Points) == 0 {
		return 0, 0, false
	}
	return c.Points[0].Size, c.Points[len(c.Points)-1].Size, true
}

// at is the curve at size s within its span: each of the median and the
// interval's ends interpolated linearly in log2(size) between the two
// measured sizes around s.
func (c CostCurve) at(s int64) CurvePoint {
	i, found := slices.BinarySearchFunc(c.Points, s, func(p CurvePoint, s int64) int { return cmp.Compare(p.Size, s) })
	if found {
		return c.Points[i]
	}
	a, b := c.Points[i-1], c.Points[i]
	t := (math.Log2(float64(s)) - math.Log2(float64(a.Size))) / (math.Log2(float64(b.Size)) - math.Log2(float64(a.Size)))
	lerp := func(x, y float64) float64 { return x + t*(y-x) }
	return CurvePoint{Size: s, MiBPerSec: lerp(a.MiBPerSec, b.MiBPerSec), Low: lerp(a.Low, b.Low), High: lerp(a.High, b.High)}
}

// extremes are the slowest (interval's low end) and fastest (high end)
// throughput anywhere in [lo, hi]: at its ends or at a measured size
// between them.
func (c CostCurve) extremes(lo, hi int64) (slow, fast float64) {
	slow, fast = math.Inf(1), 0
	for _, p := range []CurvePoint{c.at(lo), c.at(hi)} {
		slow, fast = min(slow, p.Low), max(fast, p.High)
	}
	for _, p := range c.Points {
		if p.Size > lo && p.Size < hi {
			slow, fast = min(slow, p.Low), max(fast, p.High)
		}
	}
	return slow, fast
}
