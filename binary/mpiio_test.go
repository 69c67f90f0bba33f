package binary

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Each source of Open MPI's io component, and its precedence: what the
// trace shows ran, the launcher's --mca, OMPI_MCA_io, the files (the
// user's over the installation's), the release's default.
func TestMPIIOComponentFrom(t *testing.T) {
	dir := t.TempDir()
	conf := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	site := conf("site.conf", "# the installation's\nbtl = self,vader\nio = romio321\n")
	user := conf("user.conf", "io=ompio # mine\n")
	empty := conf("empty.conf", "mtl = ^ofi\n")
	lib := "/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/"
	tests := []struct {
		name, version string
		s             MPIIOSources
		want, why     string
	}{
		{"trace: OMPIO's fcoll opened", "4.1.4", MPIIOSources{Opened: []string{lib + "mca_io_romio321.so", lib + "mca_io_ompio.so", lib + "mca_fcoll_vulcan.so"}, Launcher: "romio321"},
			"ompio", "mca_fcoll_vulcan.so opened"},
		{"trace: ROMIO's alone", "4.1.4", MPIIOSources{Opened: []string{lib + "mca_io_romio321.so", lib + "mca_io_ompio.so"}, Env: []string{"OMPI_MCA_io=ompio"}},
			"romio321", "mca_io_romio321.so opened and none of OMPIO's"},
		{"launcher over the environment", "4.1.4", MPIIOSources{Launcher: "romio321", Env: []string{"OMPI_MCA_io=ompio"}},
			"romio321", "the launcher's --mca io romio321"},
		{"environment over the files", "4.1.4", MPIIOSources{Env: []string{"OMPI_MCA_io=^ompio"}, ParamFiles: []string{site, user}},
			"romio321", "OMPI_MCA_io=^ompio"},
		{"the user's file over the installation's", "4.1.4", MPIIOSources{ParamFiles: []string{site, user}},
			"ompio", "io = ompio in " + user},
		{"the installation's file", "5.0.3", MPIIOSources{ParamFiles: []string{site, empty}, FSType: "ext4"},
			"romio321", "io = romio321 in " + site},
		{"no setting: the default, said why", "4.1.4", MPIIOSources{ParamFiles: []string{empty}, FSType: "ext4"},
			"ompio", "Open MPI >= 2 defaults to OMPIO"},
		{"no setting, Lustre, 4.1", "4.1.4", MPIIOSources{ParamFiles: []string{}, FSType: "lustre"},
			"romio321", "outranks OMPIO on lustre"},
		{"no setting, no release", "", MPIIOSources{FSType: "xfs"},
			"ompio", "the release is not known"},
	}
	for _, tt := range tests {
		got, why := MPIIOComponentFrom(OpenMPI, tt.version, tt.s)
		if got != tt.want || !strings.Contains(why, tt.why) {
			t.Errorf("%s: %q, %q; want %q, ~%q", tt.name, got, why, tt.want, tt.why)
		}
	}
}

// The parameter files Open MPI reads: OMPI_MCA_mca_param_files, else
// the installation's and the user's.
func TestDefaultParamFiles(t *testing.T) {
	for _, tc := range []struct {
		env  []string
		lib  string
		want []string
	}{
		{[]string{"HOME=/home/u"}, "/opt/ompi/lib/libmpi.so.40", []string{"/opt/ompi/etc/openmpi-mca-params.conf", "/home/u/.openmpi/mca-params.conf"}},
		{[]string{"OPAL_PREFIX=/sw/ompi", "HOME=/h"}, "/opt/ompi/lib/libmpi.so.40", []string{"/sw/ompi/etc/openmpi-mca-params.conf", "/h/.openmpi/mca-params.conf"}},
		{nil, "/usr/lib/x86_64-linux-gnu/libmpi.so.40", []string{"/usr/etc/openmpi-mca-params.conf", "/etc/openmpi/openmpi-mca-params.conf"}},
		{[]string{"OMPI_MCA_mca_param_files=/a.conf:/b.conf", "HOME=/h"}, "", []string{"/a.conf", "/b.conf"}},
		{nil, "", nil},
	} {
		if got := DefaultParamFiles(tc.env, tc.lib); !slices.Equal(got, tc.want) {
			t.Errorf("DefaultParamFiles(%q, %q) = %q, want %q", tc.env, tc.lib, got, tc.want)
		}
	}
}
