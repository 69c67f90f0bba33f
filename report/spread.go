package report

import (
	"bytes"
	"encoding/json"

	"github.com/iobench/iobench/record"
)

// WriterRun is the spread of one run's throughputs across its writers:
// the ranks of an MPI job, or the jobs of --jobs.
type WriterRun struct {
	Variant         string  `json:"variant,omitempty"`
	Mode            string  `json:"mode"`
	WriteSize       int64   `json:"write_size"`
	Round           int     `json:"round"`
	MinMiBPerSec    float64 `json:"min_mib_per_s"`
	MedianMiBPerSec float64 `json:"median_mib_per_s"`
	MaxMiBPerSec    float64 `json:"max_mib_per_s"`
	// Slowest is the writer that moved its data slowest; its JSON name
	// says what a writer is (RankRuns, JobRuns).
	Slowest int `json:"-"`
}

// NewWriterRuns are the spreads the engine measured, as the report
// keeps them.
func NewWriterRuns(spread []record.RankSpread) []WriterRun {
	out := make([]WriterRun, len(spread))
	for i, s := range spread {
		out[i] = WriterRun{Variant: s.Variant, Mode: string(s.Mode), WriteSize: s.WriteSize, Round: s.Round,
			MinMiBPerSec: s.MinMiBPerSec, MedianMiBPerSec: s.MedianMiBPerSec, MaxMiBPerSec: s.MaxMiBPerSec, Slowest: s.SlowestRank}
	}
	return out
}

// RankRuns are the spreads across MPI ranks: "slowest_rank" in JSON.
type RankRuns []WriterRun

// JobRuns are the spreads across --jobs: "slowest_job" in JSON.
type JobRuns []WriterRun

func (rs RankRuns) MarshalJSON() ([]byte, error) { return marshalRuns(rs, writerRank) }

func (rs JobRuns) MarshalJSON() ([]byte, error) { return marshalRuns(rs, writerJob) }

func (rs *RankRuns) UnmarshalJSON(b []byte) error { return unmarshalRuns(b, (*[]WriterRun)(rs)) }

func (rs *JobRuns) UnmarshalJSON(b []byte) error { return unmarshalRuns(b, (*[]WriterRun)(rs)) }

// writerRunJSON is a WriterRun as JSON has it: the slowest writer under
// the name of its kind, the other left out.
type writerRunJSON struct {
	WriterRun
	SlowestRank *int `json:"slowest_rank,omitempty"`
	SlowestJob  *int `json:"slowest_job,omitempty"`
}

type writerKind int

const (
	writerRank writerKind = iota
	writerJob
)

func marshalRuns(rs []WriterRun, kind writerKind) ([]byte, error) {
	if rs == nil {
		return []byte("null"), nil
	}
	out := make([]writerRunJSON, len(rs))
	for i := range rs {
		out[i].WriterRun = rs[i]
		if kind == writerRank {
			out[i].SlowestRank = &rs[i].Slowest
		} else {
			out[i].SlowestJob = &rs[i].Slowest
		}
	}
	return marshalUnescaped(out)
}

// marshalUnescaped is json.Marshal for a MarshalJSON method: it leaves
// "<host>" as it is, since the encoder around it escapes HTML or not.
func marshalUnescaped(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), err
}

// unmarshalRuns takes the slowest writer under either name.
func unmarshalRuns(b []byte, rs *[]WriterRun) error {
	var in []writerRunJSON
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	*rs = nil
	if in == nil {
		return nil
	}
	*rs = make([]WriterRun, len(in))
	for i, r := range in {
		(*rs)[i] = r.WriterRun
		if p := r.SlowestRank; p != nil {
			(*rs)[i].Slowest = *p
		}
		if p := r.SlowestJob; p != nil {
			(*rs)[i].Slowest = *p
		}
	}
	return nil
}
