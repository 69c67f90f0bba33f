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
func WriteNewFile(path string, format func(io.Writer, *Report) error, r *Report) error {
	return WriteNew(path, func(w io.Writer) error { return format(w, r) })
}

// WriteNew is WriteNewFile for any content: write renders it. Its errors
// name the file, not the flag or field it came from.
func WriteNew(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err // *PathError: names the file
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
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return renameNoReplace(tmp.Name(), path)
}

// linkNoReplace publishes a file under a new name without replacing one:
// a hard link fails when the name exists.
func linkNoReplace(from, to string) error {
	err := os.Link(from, to)
	if errors.Is(err, os.ErrExist) {
		return existsError(to)
	}
	return err // *LinkError: names both files
}

// existsError refuses to replace the file at path.
func existsError(path string) error {
	return fmt.Errorf("%q already exists; not overwriting it", path)
}

// umask reads the process's file mode mask, which can only be read by
// setting it; set it straight back.
func umask() os.FileMode {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return os.FileMode(m)
}
