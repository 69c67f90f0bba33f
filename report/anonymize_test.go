package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/internal/fixture"
	"github.com/iobench/iobench/report/render"
)

func TestAnonymize(t *testing.T) {
	orig := fixture.MPI()
	orig.Warnings = append(orig.Warnings, "cannot remove /scratch/alice/run2/iobench-0003.dat on node18: busy",
		"nothing written to /scratch/alice/run2.", "/scratch/alice/run2x is not /scratch/alice/run2",
		"left /scratch/alice/run2/.iobench-gpu_node_9-77-0123456789ab-shared.dat")
	orig.MPI.Hosts = append(orig.MPI.Hosts, "gpu-node-9") // data file names spell it gpu_node_9
	orig.FS.SuperOptions = "rw,vers=4.2,addr=10.1.2.3,clientaddr=10.1.2.99"
	anon := report.Anonymize(orig, fixture.User)
	var out bytes.Buffer
	for _, f := range []render.Reporter{render.Markdown, render.JSON, render.Text, render.CSV, render.Gobench} {
		if err := f(&out, anon); err != nil {
			t.Fatal(err)
		}
	}
	for _, secret := range []string{"alice", "node17", "node18", "cluster", "example.org", "scratch", "nvme0n1", "10.1.2", "/home", "gpu"} {
		if i := strings.Index(out.String(), secret); i >= 0 {
			t.Errorf("anonymized output still holds %q: ...%s...", secret, out.String()[max(i-60, 0):min(i+60, out.Len())])
		}
	}
	for _, want := range []string{"<host>", "<host-2>", "<dir>", "<mount>", "<device>", "addr=<addr>", "<dir>/iobench-0003.dat on <host-2>", "written to <dir>.", "<mount>/<user>/run2x is not <dir>", "<dir>/.iobench-<host-3>-77-"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("anonymized output lacks %q", want)
		}
	}
	if orig.Host.Hostname != fixture.Host || orig.MPI.Hosts[1] != "node18.cluster.example.org" || orig.FS.Dir != "/scratch/alice/run2" {
		t.Error("Anonymize changed the report it was given")
	}
	if diff := cmp.Diff(anon, report.Anonymize(orig, fixture.User)); diff != "" {
		t.Errorf("Anonymize is not stable (-first +second):\n%s", diff)
	}
}

func TestAnonymizePlaceholdersAreNotRescanned(t *testing.T) {
	r := fixture.Ext4()
	r.Host.Hostname = "dir" // a name that is also a placeholder's word
	r.Warnings = []string{"host dir is slow"}
	got := report.Anonymize(r, "host").Warnings[0]
	if got != "<user> <host> is slow" {
		t.Errorf("warning = %q, want %q", got, "<user> <host> is slow")
	}
}

func TestAnonymizeRelativeDir(t *testing.T) {
	r := fixture.Ext4()
	r.FS.Dir = "data"
	r.Command = []string{"iobench", "--dir", "data", "--dir=data", "--size", "1GiB"}
	a := report.Anonymize(r, "")
	if diff := cmp.Diff([]string{"iobench", "--dir", "<dir>", "--dir=<dir>", "--size", "1GiB"}, a.Command); diff != "" {
		t.Errorf("command (-want +got):\n%s", diff)
	}
	if a.FS.Dir != "<dir>" || !strings.HasPrefix(a.Warnings[0], "the data (256 MiB)") {
		t.Errorf("dir %q, warning %q: want <dir>, and the word data kept in messages", a.FS.Dir, a.Warnings[0])
	}
}
