//go:build !mpi

package mpi

import (
	"errors"
	"testing"
)

// Without the mpi tag no file opens, and the error names the build.
func TestOpenFileNeedsMPIBuild(t *testing.T) {
	var w World
	if _, err := w.OpenFile(CommSelf, "/tmp/x", CreateExcl, nil); !errors.Is(err, ErrNeedsMPIBuild) {
		t.Errorf("OpenFile = %v, want %v", err, ErrNeedsMPIBuild)
	}
	if want := "MPI-IO needs the MPI build of iobench (go build -tags mpi)"; ErrNeedsMPIBuild.Error() != want {
		t.Errorf("error %q, want %q", ErrNeedsMPIBuild, want)
	}
	if LibraryVersion() != "" {
		t.Errorf("LibraryVersion() = %q without MPI", LibraryVersion())
	}
}
