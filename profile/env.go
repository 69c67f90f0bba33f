package profile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/iobench/iobench/fsinfo"
	"github.com/iobench/iobench/units"
)

// Env is how Apply runs commands (only `lfs getstripe`, on Lustre), so
// tests can pretend lfs exists or not. A zero Env has no commands.
type Env struct {
	// LookPath finds a command, like exec.LookPath.
	LookPath func(file string) (string, error)
	// Output runs a command and returns its standard output, like
	// exec.Command(name, args...).Output().
	Output func(name string, args ...string) ([]byte, error)
}

// CommandTimeout bounds each command DefaultEnv runs: lfs on a hung Lustre
// client would otherwise hang iobench before it wrote a byte.
const CommandTimeout = 10 * time.Second

// DefaultEnv runs real commands through os/exec, each within
// CommandTimeout.
func DefaultEnv() Env {
	return Env{LookPath: exec.LookPath, Output: output}
}

func output(name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), CommandTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, name, args...).Output()
	var ee *exec.ExitError
	if errors.As(err, &ee) && len(bytes.TrimSpace(ee.Stderr)) > 0 {
		err = fmt.Errorf("%w: %s", err, firstLine(ee.Stderr))
	}
	return out, err
}

// stripeSize asks `lfs getstripe -d --stripe-size DIR` for the stripe size
// new files in dir get (-d: the directory itself, not every file in it),
// and falls back to st_blksize, which Lustre sets from the stripe size but
// caps (at most 4 MiB, often 2 MiB).
func stripeSize(dir string, fs fsinfo.Info, env Env) (int64, string) {
	n, err := StripeSize(dir, env)
	if err != nil {
		return stBlksize(fs, err.Error())
	}
	return n, "stripe size " + units.FormatSize(n) + " (lfs getstripe)"
}

// StripeSize is the stripe size new files in dir get, from `lfs getstripe
// -d --stripe-size DIR`; an error says why it is unknown ("no lfs
// command", "lfs getstripe failed: ..."). It never guesses: st_blksize,
// which Lustre caps, is not a stripe size.
func StripeSize(dir string, env Env) (int64, error) {
	if env.LookPath == nil || env.Output == nil {
		return 0, errors.New("no lfs command")
	}
	lfs, err := env.LookPath("lfs")
	if err != nil {
		return 0, errors.New("no lfs command")
	}
	out, err := env.Output(lfs, "getstripe", "-d", "--stripe-size", dir)
	if err != nil {
		return 0, errors.New("lfs getstripe failed: " + err.Error())
	}
	n, ok := parseStripeSize(out)
	if !ok {
		return 0, fmt.Errorf("lfs getstripe printed %q", firstLine(out))
	}
	return n, nil
}

func stBlksize(fs fsinfo.Info, why string) (int64, string) {
	n, derived := known("st_blksize", fs.IOBlockSize)
	return n, derived + " (" + why + ")"
}

// parseStripeSize reads "4194304" or "stripe_size: 4194304". A directory
// with a composite (PFL) default layout prints one size per component; the
// largest is the one large sequential writes end up in.
func parseStripeSize(out []byte) (int64, bool) {
	var best int64
	for _, line := range strings.Split(string(out), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		if n, err := strconv.ParseInt(fields[len(fields)-1], 10, 64); err == nil && n > best {
			best = n
		}
	}
	return best, best > 0
}

func firstLine(b []byte) string {
	line, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	return line
}
