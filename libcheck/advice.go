package libcheck

import (
	"fmt"

	"github.com/iobench/iobench/convert"
	"github.com/iobench/iobench/knee"
)

// Advice is the buffer one layout and byte order needs in a runtime to
// write in calls of at least the sweep's recommended size, from the
// runtime's buffering rule, with what the runtime measured for it.
type Advice struct {
	Layout  Layout `json:"layout"`
	Convert string `json:"convert"`
	// BufferBytes is the buffer to set; 0 when the buffer does not matter
	// (a native array goes out in one write(2)) or the default is already
	// large enough (KeepDefault).
	BufferBytes int64  `json:"buffer_bytes"`
	KeepDefault bool   `json:"keep_default"`
	Rule        string `json:"rule"`              // the buffering rule behind BufferBytes
	Setting     string `json:"setting,omitempty"` // how to set it: an export or a setvbuf call
	// Measured: the runtime ran with BufferBytes in this plan, so Gain and
	// Sweep are figures of that very buffer.
	Measured bool             `json:"measured"`
	Gain     *knee.Gain       `json:"gain,omitempty"`
	Sweep    *SweepPrediction `json:"sweep,omitempty"`
	// Verdict is what the measured gain says: a Verdict* value.
	Verdict string `json:"verdict"`
	// Case is, for a library, the case that sets the advised value: its
	// group and setting.
	Case *Case `json:"case,omitempty"`
}

// Verdicts on an Advice.
const (
	VerdictSet         = "set"          // measurably faster than the default: set it
	VerdictEnough      = "enough"       // within the band of the default: the default does as well
	VerdictUndecided   = "undecided"    // faster or slower, but not measurably
	VerdictAny         = "any"          // the buffer does not change the write(2) calls
	VerdictNotMeasured = "not_measured" // the plan did not run the buffer
	VerdictNoKnee      = "no_knee"      // the sweep gave no size to aim at
)

// advise gives, per layout and byte order of p, the buffer rt needs for
// calls of at least the sweep's recommended size.
func advise(rt Runtime, p Plan, cases []CaseSummary, sw *Sweep) []Advice {
	var out []Advice
	k := int64(0)
	if sw != nil {
		k = sw.RecommendedBytes
		if k == 0 {
			k = sw.KneeBytes
		}
	}
	for _, l := range p.Layouts {
		for _, o := range p.Orders {
			a := Advice{Layout: l, Convert: o.String()}
			var need int64
			need, a.Rule = rule(rt, l, o, p.RecordBytes)
			switch {
			case need == 0:
				a.Verdict = VerdictAny
			case k == 0:
				a.Verdict, a.Rule = VerdictNoKnee, a.Rule+"; the write(2) sweep found no knee to aim at"
			default:
				a.BufferBytes = need * k
				if a.BufferBytes <= p.DefaultBuffer {
					a.KeepDefault = true
				}
				a.Setting = Setting(rt, a.BufferBytes)
				a.judge(cases, fraction(sw))
			}
			out = append(out, a)
		}
	}
	return out
}

// rule is how many times the target call size the buffer must be (0: the
// buffer does not matter) and why, for rt writing layout l in order o.
func rule(rt Runtime, l Layout, o convert.Order, record int64) (int64, string) {
	switch {
	case o.NeedsSwap():
		return 1, fmt.Sprintf("converted data pass through the buffer in %d-byte pieces, so every write(2) is one full buffer: the buffer is the write size", SwapChunk)
	case l == LayoutArray && rt == Gfortran:
		return 0, "a native array larger than half the buffer bypasses it: one write(2) of the whole array, whatever the buffer"
	case l == LayoutArray:
		return 0, "an fwrite larger than the buffer goes out directly: one write(2) of the whole array, whatever the buffer"
	case rt == Gfortran:
		return 2, fmt.Sprintf("records of %d bytes accumulate and the buffer is flushed once the next does not fit, at least half full: calls are between B/2 and B, so B must be at least twice the write size", record)
	}
	return 1, fmt.Sprintf("records of %d bytes fill the buffer and glibc writes it when full: every write(2) is one full buffer", record)
}

// Setting is how a program sets rt's buffer to n bytes.
func Setting(rt Runtime, n int64) string {
	if rt == Gfortran {
		return fmt.Sprintf("export GFORTRAN_UNFORMATTED_BUFFER_SIZE=%d", n)
	}
	return fmt.Sprintf("static char b[%d]; setvbuf(f, b, _IOFBF, sizeof b)", n) // a NULL buffer's size is ignored by glibc
}

func fraction(sw *Sweep) float64 {
	if sw != nil && sw.Fraction > 0 && sw.Fraction <= 1 {
		return sw.Fraction
	}
	return knee.DefaultFraction
}

// judge finds the measured case of the advised buffer and says what its
// gain over the default shows.
func (a *Advice) judge(cases []CaseSummary, fraction float64) {
	want := a.BufferBytes
	for _, cs := range cases {
		if cs.Layout != a.Layout || cs.Convert != a.Convert {
			continue
		}
		if a.KeepDefault && cs.Default || cs.BufferBytes == want {
			a.Measured = cs.BufferBytes == want
			a.Gain, a.Sweep = cs.Gain, cs.Sweep
			break
		}
	}
	switch {
	case a.KeepDefault:
		a.Verdict = VerdictEnough
	case !a.Measured:
		a.Verdict = VerdictNotMeasured
	default:
		a.Verdict = verdictOf(a.Gain, fraction)
	}
}
