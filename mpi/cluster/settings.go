package cluster

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Setting is one value every rank must be given alike, by name: a flag
// that decides which collective calls a rank makes or what the report
// says of all ranks.
type Setting struct {
	Name  string `json:"name"`
	Value string `json:"value"` // as typed, for messages
	// Canon is the value parsed and printed one way ("8MiB" and
	// "8388608" alike), compared in place of Value when both ranks
	// give one.
	Canon string `json:"canon,omitempty"`
}

// key is what two ranks' values are compared by.
func (s Setting) key() string {
	if s.Canon != "" {
		return s.Canon
	}
	return s.Value
}

// SettingDiff is a setting in which a rank differs from rank 0.
type SettingDiff struct {
	Name, Mine, Rank0 string
}

// SettingsMismatchError is a rank given other settings than rank 0.
type SettingsMismatchError struct {
	Diffs []SettingDiff
}

func (e *SettingsMismatchError) Error() string {
	parts := make([]string, len(e.Diffs))
	for i, d := range e.Diffs {
		parts[i] = fmt.Sprintf("%s %q (rank 0: %q)", d.Name, d.Mine, d.Rank0)
	}
	return "given other values than rank 0: " + strings.Join(parts, ", ") + "; every rank must be given the same"
}

// SameSettings checks that this rank was given rank 0's settings; it
// returns a *SettingsMismatchError on each rank that was not, nil on the
// others. Call it before any step whose collective calls depend on
// them, and pass its error to Agree. All ranks must call it; one that
// failed before it had settings passes nil.
func (cl *Cluster) SameSettings(mine []Setting) error {
	b, _ := json.Marshal(mine) // plain strings always encode
	first, err := cl.c.Bcast(b)
	if err != nil {
		return err
	}
	var rank0 []Setting
	if err := json.Unmarshal(first, &rank0); err != nil {
		return fmt.Errorf("cluster: the settings from rank 0: %w", err)
	}
	if rank0 == nil {
		return nil // rank 0 failed before it read its own; its failure stops the job
	}
	if diffs := diffSettings(mine, rank0); len(diffs) > 0 {
		return &SettingsMismatchError{Diffs: diffs}
	}
	return nil
}

// notGiven stands for a setting one side does not have.
const notGiven = "(none)"

// diffSettings lists, in rank 0's order and then this rank's, the
// settings whose values differ or that only one side has.
func diffSettings(mine, rank0 []Setting) []SettingDiff {
	values := func(list []Setting) map[string]Setting {
		m := make(map[string]Setting, len(list))
		for _, s := range list {
			m[s.Name] = s
		}
		return m
	}
	my, theirs := values(mine), values(rank0)
	var out []SettingDiff
	for _, s := range rank0 {
		v, ok := my[s.Name]
		if !ok {
			out = append(out, SettingDiff{Name: s.Name, Mine: notGiven, Rank0: s.Value})
		} else if v.key() != s.key() {
			out = append(out, SettingDiff{Name: s.Name, Mine: v.Value, Rank0: s.Value})
		}
	}
	for _, s := range mine {
		if _, ok := theirs[s.Name]; !ok {
			out = append(out, SettingDiff{Name: s.Name, Mine: s.Value, Rank0: notGiven})
		}
	}
	return out
}
