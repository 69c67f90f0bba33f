package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// BinVar and MPIBinVar name an iobench binary and its MPI build that
// scripts/test.sh builds once for every package of a test run.
const (
	BinVar    = "IOBENCH_TEST_BIN"
	MPIBinVar = "IOBENCH_TEST_MPI_BIN"
)

var builds sync.Map // build tags -> *build

type build struct {
	once sync.Once
	path string
	err  error
}

// Binary is the iobench command built with tags from the module at root:
// the one scripts/test.sh built when it named it, else built once per
// test process into dir.
func Binary(dir, root string, tags ...string) (string, error) {
	name, envVar := "iobench", BinVar
	if len(tags) > 0 {
		name, envVar = "iobench-"+strings.Join(tags, "-"), MPIBinVar
	}
	if p := os.Getenv(envVar); p != "" {
		return p, nil
	}
	v, _ := builds.LoadOrStore(name, &build{})
	b := v.(*build)
	b.once.Do(func() {
		b.path = filepath.Join(dir, name)
		args := []string{"build", "-buildvcs=auto", "-o", b.path}
		if len(tags) > 0 {
			args = append(args, "-tags", strings.Join(tags, ","))
		}
		if out, err := exec.Command("go", append(args, root)...).CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	})
	return b.path, b.err
}
