package report

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
)

// WriteNewFile writes the report to path atomically: a temp file in the
// same directory, then a rename that refuses to replace an existing file,
// so a reader never sees half a report and no user file is overwritten.
func WriteNewFile(path string, format Reporter, r *Report) error {
	return writeNewFile(path, func(w io.Writer) error { return format(w, r) })
}

// WriteNew is WriteNewFile for any content: write renders it.
func WriteNew(path string, write func(io.Writer) error) error { return writeNewFile(path, write) }

// writeNewFile is WriteNewFile for any content: write renders it.
func writeNewFile(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("--output: %w", err)
	}
	defer os.Remove(tmp.Name())
	// CreateTemp makes the file 0600; a report is for colleagues too, so
	// give it the mode a plain create would (0666 less the umask).
	err = tmp.Chmod(0o666 &^ umask())
	if err == nil {
		err = write(tmp)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("--output: writing %s: %w", path, err)
	}
	return renameNoReplace(tmp.Name(), path)
}

// linkNoReplace publishes a file under a new name without replacing one:
// a hard link fails when the name exists.
func linkNoReplace(from, to string) error {
	err := os.Link(from, to)
	if errors.Is(err, os.ErrExist) {
		return fmt.Errorf("--output: %q already exists; not overwriting it", to)
	}
	if err != nil {
		return fmt.Errorf("--output: %w", err)
	}
	return nil
}

// umask reads the process's file mode mask, which can only be read by
// setting it; set it straight back.
func umask() os.FileMode {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return os.FileMode(m)
}
