package analyze

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/iobench/iobench/convert"
	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
)

// The reference program prints, for each run:
//
//	Test using 2.500000e+08 doubles
//	Block size of file system: 4096
//	bs =       1024, 123.45 MiB/s
//
// with one "bs" line per size. bs counts doubles, and the "MiB/s" is
// N/seconds/2^20: Mi-doubles per second, an eighth of the true MiB/s.
const (
	testUsingPrefix = "Test using "
	blockSizePrefix = "Block size of file system:"
	bsPrefix        = "bs ="
	mibSuffix       = "MiB/s"

	doubleSize = 8
	// maxDoubles bounds N and bs (8 TiB), so that every byte count and
	// call count derived from them fits an int64.
	maxDoubles = 1 << 40
	// minPrinted is the smallest figure "%.2f MiB/s" prints above zero;
	// below it the time of the run cannot be recovered.
	minPrinted = 0.01
)

// isPR91030Line reports whether s is a line the reference program prints,
// on standard output or (perror) on standard error.
func isPR91030Line(s string) bool {
	for _, p := range []string{testUsingPrefix, blockSizePrefix, bsPrefix} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return isOpenFailure(s)
}

// isOpenFailure spots perror's "Open of out.dat failed: <reason>". It may
// sit anywhere in a line: with 2>&1 it lands after a cut "bs = ..., ".
func isOpenFailure(s string) bool {
	i := strings.Index(s, "Open of ")
	return i >= 0 && strings.Contains(s[i:], " failed")
}

// textParser reads the reference program's output line by line. A file
// may hold several runs of the program one after the other; each
// "Test using" line starts a new one, taken as a round.
type textParser struct {
	name    string
	in      Input
	rep     report.Report
	samples []record.Sample
	round   int            // runs seen so far
	n       int64          // N of the current run; 0 before the first
	count   int64          // N of the first run
	seen    map[int64]bool // bs printed in the current run

	// Findings that become notes.
	overrun, dupes, mixedN, mixedBlock, noN, prompts bool
}

// referenceN is the reference program's own N, assumed when a paste lacks
// its "Test using" line: MiB/s converts without N, seconds do not.
const referenceN = 250000000

// shellPrompt matches a pasted prompt line: "$ ./a.out", "user@n1:~/x$ ./a.out",
// "[user@n1 x]$ ./a.out", "# ./a.out".
var shellPrompt = regexp.MustCompile(`^(\S*|\[[^\]]*\])[$#%>]( |$)`)

// isShellPrompt reports whether line starts with a pasted prompt. Only its
// first maxPromptLen bytes are matched: a prompt is short, and a regular
// expression over a line of megabytes takes seconds.
func isShellPrompt(line string) bool {
	return shellPrompt.MatchString(line[:min(len(line), maxPromptLen)])
}

const maxPromptLen = 512

func parsePR91030(name string, data []byte) (*Input, error) {
	p := &textParser{name: name}
	no := 0
	for line := range strings.Lines(string(data)) {
		no++
		if err := p.line(no, strings.TrimSpace(line)); err != nil {
			return nil, err
		}
	}
	return p.finish()
}

func (p *textParser) fail(line int, err error) error {
	return &ParseError{File: p.name, Line: line, Msg: err.Error()}
}

func (p *textParser) line(no int, s string) error {
	switch {
	case s == "":
		return nil
	case isOpenFailure(s):
		return p.fail(no, fmt.Errorf("the reference program failed: %q", s[strings.Index(s, "Open of "):]))
	case strings.HasPrefix(s, testUsingPrefix):
		return p.testUsing(no, s)
	case strings.HasPrefix(s, blockSizePrefix):
		return p.blockSize(no, s)
	case strings.HasPrefix(s, bsPrefix):
		return p.bs(no, s)
	case isShellPrompt(s): // after the program's lines, which a prompt never is
		p.prompts = true
		return nil
	}
	return p.fail(no, fmt.Errorf("unexpected line %q", clip(s)))
}

// testUsing reads "Test using 2.500000e+08 doubles". %e keeps 7
// significant digits, so an N with more is known only to that precision.
func (p *textParser) testUsing(no int, s string) error {
	f := strings.Fields(s)
	if len(f) != 4 || f[3] != "doubles" {
		return p.fail(no, fmt.Errorf("%q is not \"Test using <N> doubles\"", clip(s)))
	}
	n, err := strconv.ParseFloat(f[2], 64)
	if err != nil || !(n >= 1 && n <= maxDoubles) || n != math.Trunc(n) {
		return p.fail(no, fmt.Errorf("N: %q is not a whole number of doubles from 1 to 2^40", f[2]))
	}
	p.round++
	p.n, p.seen = int64(n), map[int64]bool{}
	if p.count == 0 {
		p.count = p.n
	}
	p.mixedN = p.mixedN || p.n != p.count
	return nil
}

// blockSize reads statvfs's f_bsize.
func (p *textParser) blockSize(no int, s string) error {
	v := strings.TrimSpace(strings.TrimPrefix(s, blockSizePrefix))
	bs, err := strconv.ParseInt(v, 10, 64)
	if err != nil || bs <= 0 {
		return p.fail(no, fmt.Errorf("block size: %q is not a positive whole number", v))
	}
	if p.rep.FS.BlockSize == 0 {
		p.rep.FS.BlockSize = bs
	}
	p.mixedBlock = p.mixedBlock || bs != p.rep.FS.BlockSize
	return nil
}

// bs reads "bs = %10ld, %.2f MiB/s". The two halves are printed before and
// after the run, so a run that never finished leaves "bs = ..., " alone.
func (p *textParser) bs(no int, s string) error {
	bsText, rate, _ := strings.Cut(strings.TrimPrefix(s, bsPrefix), ",")
	rate = strings.TrimSpace(rate)
	if rate == "" {
		return p.fail(no, fmt.Errorf("%q has no MiB/s figure: the reference program stopped during this run", clip(s)))
	}
	bs, err := parseBS(strings.TrimSpace(bsText))
	if err != nil {
		return p.fail(no, err)
	}
	printed, err := parsePrinted(rate)
	if err != nil {
		return p.fail(no, err)
	}
	if len(p.samples) == MaxRuns {
		return tooManyRuns(p.name, no)
	}
	if p.n == 0 { // a paste without its header: convert anyway
		p.noN, p.round, p.n, p.count, p.seen = true, 1, referenceN, referenceN, map[int64]bool{}
	}
	p.add(bs, printed)
	return nil
}

func parseBS(s string) (int64, error) {
	bs, err := strconv.ParseInt(s, 10, 64)
	if err != nil || bs <= 0 || bs > maxDoubles {
		return 0, fmt.Errorf("bs: %q is not a whole number of doubles from 1 to 2^40", s)
	}
	return bs, nil
}

// parsePrinted reads "123.45 MiB/s". An "inf" is what the program prints
// when gettimeofday did not advance during the run.
func parsePrinted(s string) (float64, error) {
	num, ok := strings.CutSuffix(s, mibSuffix)
	if !ok {
		return 0, fmt.Errorf("%q is not \"<number> MiB/s\"", clip(s))
	}
	num = strings.TrimSpace(num)
	v, err := strconv.ParseFloat(num, 64)
	switch {
	case err != nil:
		return 0, fmt.Errorf("MiB/s: %q is not a finite number", clip(num))
	case math.IsInf(v, 1):
		return 0, fmt.Errorf("MiB/s: %q: the run took less than the timer's resolution; use a larger N", clip(num))
	case !(v >= minPrinted):
		return 0, fmt.Errorf("MiB/s: %q is below %.2f: too slow to time from the printed figure", clip(num), minPrinted)
	}
	return v, checkRate(v * doubleSize)
}

// add records one run. The program divides N, not what it really wrote,
// by the time, so the sample does the same: Bytes is N*8 and Seconds what
// the printed figure implies.
func (p *textParser) add(bs int64, printed float64) {
	size := bs * doubleSize
	p.dupes = p.dupes || p.seen[bs]
	p.seen[bs] = true
	p.overrun = p.overrun || p.n%bs != 0
	p.samples = append(p.samples, record.Sample{
		Run:     record.Run{Mode: record.ModeWrite, WriteSize: size, Round: p.round, Seq: len(p.samples) + 1},
		Seconds: float64(p.n) / (printed * record.MiB),
		Bytes:   p.n * doubleSize,
		Calls:   (p.n + bs - 1) / bs,
	})
	p.in.Original = append(p.in.Original, OriginalRow{
		BS: bs, MiBPerSec: printed, WriteSize: size, TrueMiBPerSec: printed * doubleSize, Round: p.round,
	})
}

func (p *textParser) finish() (*Input, error) {
	if len(p.samples) == 0 {
		return nil, &ParseError{File: p.name, Msg: "no \"bs = ..., ... MiB/s\" lines: nothing was measured"}
	}
	rows, err := summarize(p.name, p.samples, nil)
	if err != nil {
		return nil, err
	}
	p.rep.Tool = report.Tool{Name: report.ReferenceTool}
	p.rep.Results = rows
	p.rep.Config = p.config(rows)
	p.rep.Config.Clock = "gettimeofday, a wall clock"
	p.in.Report = &p.rep
	p.in.Notes = p.notes()
	return &p.in, nil
}

// config is the reference program's fixed plan: N float64 values held in
// one array, sync(2) before each run, no fsync, sizes ascending.
func (p *textParser) config(rows []record.SizeResult) report.Config {
	return report.Config{
		Settings: record.Settings{Count: p.count, Sizes: sizesOf(rows), Source: record.SourceArray,
			Sync: record.SyncAll, Repeat: p.round, Order: record.Ascending, Stride: 1, Mode: record.ModeWrite},
		ElementType: convert.Float64.String(), ElementSize: doubleSize,
		TotalBytes: p.count * doubleSize, SourceBytes: p.count * doubleSize,
		Convert: convert.Native.String(),
	}
}

func (p *textParser) notes() []string {
	notes := []string{
		"units converted: bs counts doubles (x8 for bytes); its MiB/s is Mi-doubles/s (x8 for true MiB/s)",
		"the reference program ignores write() errors and times open..close without fsync: short writes and a full disk pass silently, and with enough RAM it measures the page cache",
	}
	if p.overrun {
		notes = append(notes, "the reference program's last write passes bs*8 bytes even when fewer remain, reading past its array, so where bs does not divide N it writes more than N doubles; bytes and MiB/s count the intended N*8, as the program does")
	}
	if p.round > 1 {
		notes = append(notes, fmt.Sprintf("%d runs of the program in this file, taken as %d rounds", p.round, p.round))
	}
	if p.dupes {
		notes = append(notes, "a size appears more than once within one run; every line is kept as a sample of that size")
	}
	if p.mixedN {
		notes = append(notes, "the runs use different N: config.count is the first run's; each sample counts its own run's N")
	}
	if p.mixedBlock {
		notes = append(notes, "the runs report different block sizes; fs.block_size is the first")
	}
	if p.noN {
		notes = append(notes, fmt.Sprintf("no \"Test using <N> doubles\" line before the first bs line, so N is unknown: MiB/s and write sizes are converted without it, but seconds, calls and bytes assume the program's default N = %d", referenceN))
	}
	if p.prompts {
		notes = append(notes, "shell prompt lines in the paste were skipped")
	}
	return notes
}
