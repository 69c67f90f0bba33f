package cli

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/urfave/cli/v2"
)

// settingsWith are the settings a rank given args checks against rank 0.
func settingsWith(t *testing.T, args ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	app := &cli.App{Name: "t", Flags: sweepFlags(), Writer: &bytes.Buffer{}, ErrWriter: &bytes.Buffer{},
		Action: func(c *cli.Context) error {
			for _, s := range agreedSettings(c) {
				out[s.Name] = s.Value
			}
			return nil
		}}
	if err := app.Run(append([]string{"t"}, args...)); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return out
}

// Every flag but a rank's own (where it writes, its free-space check, its
// terminal) is checked: one given another value differs from the
// defaults in that flag alone.
func TestAgreedSettingsCoverEveryFlagButARanksOwn(t *testing.T) {
	base := settingsWith(t)
	examples := map[string]string{"output": "/tmp/r.json", "shared-file": "true", "total": "true", "api": "mpiio",
		"collective": "true", "hint": "cb_nodes=2", "dry-run": "true", "anonymize": "true", "for": "gfortran", "no-progress": "true"}
	for _, s := range sweepSettings() {
		value := s.example
		if value == "" {
			value = examples[s.name()]
		}
		if value == "" {
			t.Errorf("--%s: no example value to check it by", s.name())
			continue
		}
		got := settingsWith(t, "--"+s.name()+"="+value)
		var differ []string
		for name, v := range got {
			if base[name] != v {
				differ = append(differ, name)
			}
		}
		want := []string{"--" + s.name()}
		if perRankFlags[s.name()] {
			want = nil
		}
		if diff := cmp.Diff(want, differ); diff != "" {
			t.Errorf("--%s=%s: settings that differ (-want +got):\n%s", s.name(), value, diff)
		}
	}
}

// Each flag a rank may set for itself is one of the sweep's (settingNamed
// panics on another name).
func TestPerRankFlagsAreFlags(t *testing.T) {
	for name := range perRankFlags {
		_ = settingNamed(name)
	}
}

// A rank stopped by a launcher says which rank it is, which ranks of its
// host are gone, and names the files that stayed, a few and a count.
func TestStopLine(t *testing.T) {
	for _, c := range []struct {
		gone []goneRank
		left []string
		want string
	}{
		{[]goneRank{{1, 4242}}, nil,
			"rank 2 (n1): stopping, as rank 1 (pid 4242) is gone (killed: a signal, the OOM killer) and the job cannot finish; the data files are removed"},
		{[]goneRank{{0, 7}, {1, 8}}, []string{"/d/a.dat"},
			"rank 2 (n1): stopping, as rank 0 (pid 7) and rank 1 (pid 8) are gone (killed: a signal, the OOM killer) and the job cannot finish; left behind: /d/a.dat (remove with: iobench clean --dir /d)"},
		{[]goneRank{{0, 7}, {1, 8}, {3, 9}, {4, 10}}, nil,
			"rank 2 (n1): stopping, as rank 0 (pid 7), rank 1 (pid 8), rank 3 (pid 9) and 1 more are gone (killed: a signal, the OOM killer) and the job cannot finish; the data files are removed"},
		{nil, []string{"/d/a", "/d/b", "/d/c", "/d/d", "/d/e"},
			"rank 2 (n1): stopping; left behind: /d/a, /d/b, /d/c and 2 more (remove with: iobench clean --dir /d)"},
	} {
		if got := stopLine(2, "n1", c.gone, c.left, "/d"); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}
