package render

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/iobench/iobench/record"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/report/internal/fixture"
)

// applyBlock is the text report's how-to-apply block: its header and the
// lines up to the next blank line; nil when there is none.
func applyBlock(t *testing.T, r *report.Report) []string {
	t.Helper()
	var b bytes.Buffer
	if err := Text(&b, r); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "how to apply it") })
	if i < 0 {
		return nil
	}
	j := i + slices.Index(lines[i:], "")
	return lines[i:j]
}

// TestTextApplyBlock: the lines of the block that depend on the file
// system and on --for.
func TestTextApplyBlock(t *testing.T) {
	const header = "how to apply it, from the 2 MiB knee (every value inferred from write(2) calls, none measured"
	const header2 = "  through the runtime itself; the JSON and Markdown reports say why each):"
	tests := []struct {
		name          string
		fs            string      // file system type; "": the fixture's ext4
		block, stripe int64       // f_bsize (0: the fixture's) and Lustre stripe size
		mode          record.Mode // "": write
		applyFor      []string
		want          []string // lines the block has, in order; nil: no block
	}{
		{name: "lustre, stripe known and large enough", fs: "lustre", stripe: 4 << 20, applyFor: []string{"romio", "lustre"}, want: []string{
			header, header2,
			"# ROMIO (MPICH, Intel MPI, Cray MPICH)",
			"cat > romio-hints <<'EOF'",
			"striping_unit 4194304",
			"cb_buffer_size 16777216",
			"ind_wr_buffer_size 4194304",
			"EOF",
			`export ROMIO_HINTS="$PWD/romio-hints"         # a hints file, one key and value a line`,
			"# HPE Cray MPICH: the same hints", // the line with it would pass 100 columns
			"export MPICH_MPIIO_HINTS='*:striping_unit=4194304:cb_buffer_size=16777216:ind_wr_buffer_size=4194304'",
			"# Lustre",
			"lfs setstripe -S 4194304 /scratch/alice/run1  # the stripe size now: no change is needed",
		}},
		{name: "lustre, stripe unknown", fs: "lustre", applyFor: []string{"lustre"}, want: []string{
			header, header2, "# Lustre", "# unless lfs getstripe -d <dir> shows this or more already", "lfs setstripe -S 2097152 /scratch/alice/run1",
		}},
		{name: "gpfs", fs: "gpfs", block: 16 << 20, applyFor: []string{"gpfs", "hdf5"}, want: []string{
			header, header2,
			"# HDF5", "# on the file access property list, before H5Fcreate: H5Pset_alignment(fapl, 16777216, 16777216);",
			"# GPFS", "# write whole, aligned blocks: block size 16777216 (16 MiB)",
		}},
		{name: "--for a runtime not on this file system", applyFor: []string{"gpfs"},
			want: []string{"how to apply it: nothing for gpfs on this file system (ext4)"}},
		{name: "read knee: no write buffer to set", mode: "read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := fixture.Ext4()
			if tt.fs != "" {
				r.FS.Type = tt.fs
			}
			if tt.mode != "" {
				r.Config.Mode = tt.mode
			}
			if tt.block > 0 {
				r.FS.BlockSize = tt.block
			}
			r.Config.StripeSize, r.ApplyFor = tt.stripe, tt.applyFor
			r.SetResult(fixture.Result(r))
			if diff := cmp.Diff(tt.want, applyBlock(t, r)); diff != "" {
				t.Errorf("how-to-apply block (-want +got):\n%s", diff)
			}
		})
	}
	if got := applyBlock(t, fixture.GPFS()); got != nil {
		t.Errorf("no knee, yet a block:\n%s", strings.Join(got, "\n"))
	}
}
