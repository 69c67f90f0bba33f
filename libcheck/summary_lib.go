package libcheck

import (
	"fmt"
	"strings"

	"github.com/iobench/iobench/knee"
)

// CallRange is a count of calls that may vary from run to run between
// Min and Max (OMPIO's semaphore file, which ranks race to create).
type CallRange struct {
	Min int64 `json:"min"`
	Max int64 `json:"max"`
}

// libraryPrediction is a library rule's calls for one case.
type libraryPrediction struct {
	Data     Calls
	Overhead CallRange
	Rule     string
}

// PredictCase is what a library's rules give case c of plan p: the data's
// calls and the library's own, and the rule's name.
func PredictCase(rt Runtime, p Plan, c Case) (Calls, CallRange, string, error) {
	lp, err := predictLibrary(rt, p, c)
	return lp.Data, lp.Overhead, lp.Rule, err
}

// predictLibrary is PredictHDF5 or PredictMPIIO for case c of plan p.
func predictLibrary(rt Runtime, p Plan, c Case) (libraryPrediction, error) {
	if rt == HDF5 {
		h, err := PredictHDF5(p.hdf5Pattern(c))
		rule := h.Rule
		if c.Setting == SettingAlignment {
			rule += "; H6 alignment moves the data, no call"
		}
		return libraryPrediction{h.Data, CallRange{h.Metadata, h.Metadata}, rule}, err
	}
	m, err := PredictMPIIO(p.mpiioPattern(c))
	return libraryPrediction{m.Data, CallRange{m.OverheadMin, m.OverheadMax}, m.Rule}, err
}

func (p Plan) hdf5Pattern(c Case) HDF5Pattern {
	pat := HDF5Pattern{Elements: p.Elements, BigEndian: c.Swap()}
	if c.Layout == LayoutRecords {
		pat.RecordBytes = p.RecordBytes
	}
	if c.Storage == StorageChunked {
		pat.ChunkBytes = p.Library.ChunkBytes
	}
	switch c.Setting {
	case SettingTconv:
		pat.TconvBytes = c.BufferBytes
	case SettingSieve:
		pat.SieveBytes = c.BufferBytes
	}
	return pat
}

func (p Plan) mpiioPattern(c Case) MPIIOPattern {
	lp := p.Library
	pat := MPIIOPattern{Component: c.Component, Ranks: lp.Ranks, Hosts: lp.Hosts, Shared: c.Layout == LayoutShared,
		Collective: c.Collective, RankBytes: p.Bytes(), CallBytes: lp.CallBytes}
	if c.Memory == MemoryStrided {
		pat.ElemBytes = lp.elemBytes()
	}
	if c.Switch == SwitchCBWrite {
		pat.CBWrite = CBWriteEnable
	}
	switch c.Setting {
	case SettingCBBuffer:
		pat.CBBufferBytes = c.BufferBytes
	case SettingIndWrBuffer:
		pat.IndWrBytes = c.BufferBytes
	case SettingBytesPerAgg:
		pat.BytesPerAgg = c.BufferBytes
	}
	return pat
}

// defaultOf is the case c's gains are over: its group's default.
func (p Plan) defaultOf(c Case) Case {
	if p.CaseList == nil {
		return Case{Layout: c.Layout, Convert: c.Convert, BufferBytes: p.DefaultBuffer, Default: true}
	}
	for _, d := range p.CaseList {
		if d.Default && d.Group() == c.Group() {
			return d
		}
	}
	return Case{}
}

// TotalBytes is the data of one run: for MPI-IO, every rank's.
func (p Plan) totalBytes(rt Runtime) int64 {
	if rt == MPIIO {
		return p.Bytes() * int64(max(1, p.Library.Ranks))
	}
	return p.Bytes()
}

// libraryCalls sets a library case's predicted calls and whether every
// run made them: the data's exactly, the overhead's within its range.
func (cs *CaseSummary) libraryCalls(rt Runtime, p Plan, ss []Sample, counted bool) {
	over, pack := make([]float64, len(ss)), make([]float64, len(ss))
	for i, s := range ss {
		over[i], pack[i] = float64(s.OverheadCalls), float64(s.PackNanos)
	}
	cs.OverheadCalls, cs.PackNanos = int64(knee.Median(over)), int64(knee.Median(pack))
	lp, err := predictLibrary(rt, p, cs.Case)
	if err != nil {
		cs.NoRule = err.Error()
		return
	}
	cs.Predicted, cs.Rule, cs.PredictedOverhead = lp.Data, lp.Rule, &lp.Overhead
	cs.CallsAsPredicted = counted
	for _, s := range ss {
		cs.CallsAsPredicted = cs.CallsAsPredicted && s.DataCalls() == lp.Data.Count &&
			s.OverheadCalls >= lp.Overhead.Min && s.OverheadCalls <= lp.Overhead.Max
	}
}

// PackCost is what gathering strided memory cost at MPI-IO's calls, per
// rank, for one component, layout and mode: the library's, as the time
// its strided case took beyond its contiguous case, and the writer's
// typed loop's (iobench's way of packing), timed inside its packed case.
type PackCost struct {
	Component  string `json:"component"`
	Layout     Layout `json:"layout"`
	Collective bool   `json:"collective"`
	// Slowdown is the strided case's median time over the contiguous one's.
	Slowdown float64 `json:"slowdown"`
	// LibraryGBps is a rank's bytes over the extra time (10^9 bytes per
	// second; 0 when there was none) and LibraryShare that time's share of
	// the strided case's.
	LibraryGBps  float64 `json:"library_gb_per_s"`
	LibraryShare float64 `json:"library_share"`
	// PackerGBps and PackerShare are the same for the writer's typed
	// loop, of the packed case's time.
	PackerGBps  float64 `json:"packer_gb_per_s"`
	PackerShare float64 `json:"packer_share"`
}

// packCosts is a PackCost for each group whose strided, contiguous and
// packed default cases all ran.
func packCosts(p Plan, cases []CaseSummary) []PackCost {
	find := func(c Case, memory string) *CaseSummary {
		for i := range cases {
			cs := &cases[i]
			if cs.Default && cs.Component == c.Component && cs.Layout == c.Layout && cs.Collective == c.Collective && cs.Memory == memory {
				return cs
			}
		}
		return nil
	}
	rank := float64(p.Bytes())
	var out []PackCost
	for i := range cases {
		s := &cases[i]
		if !s.Default || s.Memory != MemoryStrided {
			continue
		}
		c, pk := find(s.Case, MemoryContiguous), find(s.Case, MemoryPacked)
		if c == nil || pk == nil || s.MiBPerSec <= 0 || c.MiBPerSec <= 0 || pk.MiBPerSec <= 0 {
			continue
		}
		ts, tc, tp := p.seconds(s), p.seconds(c), p.seconds(pk)
		pc := PackCost{Component: s.Component, Layout: s.Layout, Collective: s.Collective, Slowdown: ts / tc}
		if extra := ts - tc; extra > 0 {
			pc.LibraryGBps, pc.LibraryShare = rank/extra/1e9, extra/ts
		}
		if pack := float64(pk.PackNanos) / 1e9; pack > 0 {
			pc.PackerGBps, pc.PackerShare = rank/pack/1e9, pack/tp
		}
		out = append(out, pc)
	}
	return out
}

// seconds is the median time of a case's run, from its median rate.
func (p Plan) seconds(cs *CaseSummary) float64 {
	return float64(p.totalBytes(MPIIO)) / (cs.MiBPerSec * (1 << 20))
}

// adviseLibrary is an Advice for each case that sets a library's
// recommended value (Plan.Library.Recommended), judged by its measured
// gain over its group's default.
func adviseLibrary(rt Runtime, p Plan, cases []CaseSummary, sw *Sweep) []Advice {
	var out []Advice
	for i := range cases {
		cs := &cases[i]
		if !p.recommended(cs.Case) {
			continue
		}
		c := cs.Case
		a := Advice{Layout: c.Layout, Convert: c.Convert, BufferBytes: c.BufferBytes, Case: &c, Setting: LibrarySetting(c),
			Measured: true, Gain: cs.Gain, Sweep: cs.Sweep, Rule: libraryRule(cs, cases)}
		a.Verdict = verdictOf(cs.Gain, fraction(sw))
		out = append(out, a)
	}
	return out
}

// recommended: c sets a value the apply block recommends.
func (p Plan) recommended(c Case) bool {
	if c.Default {
		return false
	}
	if c.Setting == "" {
		_, ok := p.Library.Recommended[c.Switch]
		return ok
	}
	v, ok := p.Library.Recommended[c.Setting]
	return ok && v == c.BufferBytes
}

// libraryRule says what the rule gives the case beside its default.
func libraryRule(cs *CaseSummary, cases []CaseSummary) string {
	if cs.NoRule != "" {
		return cs.NoRule
	}
	for _, d := range cases {
		if d.Default && d.Group() == cs.Group() && d.NoRule == "" {
			return fmt.Sprintf("%s: %d write(2) calls for the data, %d with the default", cs.Rule, cs.Predicted.Count, d.Predicted.Count)
		}
	}
	return cs.Rule
}

// verdictOf is what a measured gain says.
func verdictOf(g *knee.Gain, fraction float64) string {
	switch {
	case g == nil:
		return VerdictUndecided
	case g.Significant:
		return VerdictSet
	case g.Ratio <= 1/fraction:
		return VerdictEnough
	}
	return VerdictUndecided
}

// LibrarySetting is how a program sets case c's setting.
func LibrarySetting(c Case) string {
	v := c.BufferBytes
	switch c.Setting {
	case SettingBytesPerAgg:
		return fmt.Sprintf("export %s=%d", SettingBytesPerAgg, v)
	case SettingCBBuffer, SettingIndWrBuffer:
		s := fmt.Sprintf(`MPI_Info_set(info, "%s", "%d")`, c.Setting, v)
		if c.Switch != "" {
			s = switchSetting(c.Switch) + "; " + s
		}
		return s
	case SettingAlignment:
		return fmt.Sprintf("H5Pset_alignment(fapl, %d, %d)", v, v)
	case SettingSieve:
		return fmt.Sprintf("H5Pset_sieve_buf_size(fapl, %d)", v)
	case SettingTconv:
		return fmt.Sprintf("H5Pset_buffer(dxpl, %d, NULL, NULL)", v)
	}
	return switchSetting(c.Switch)
}

func switchSetting(sw string) string {
	if sw == "" {
		return ""
	}
	k, v, _ := strings.Cut(sw, "=")
	return fmt.Sprintf(`MPI_Info_set(info, "%s", "%s")`, k, v)
}
