package cli

import (
	"io"
	"os"
)

// testEnv is an environment with the given writers, no MPI world, and
// the process's variables, for running the command in a test.
func testEnv(stdout, stderr io.Writer) *env {
	return &env{stdout: stdout, stderr: stderr, console: stderr, getenv: os.Getenv}
}
