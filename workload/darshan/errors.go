package darshan

import "fmt"

// FormatError says what is wrong with a log and where.
type FormatError struct {
	Region string // "header", "job", "names", or a module name such as "POSIX"
	// Offset is the file offset of the bad field, or of the region's
	// start when the fault is in its decompressed data.
	Offset int64
	Reason string
	Err    error // the decompressor's error, if that is the cause
}

// Error says "darshan: region (file offset N): reason".
func (e *FormatError) Error() string {
	msg := fmt.Sprintf("darshan: %s (file offset %d): %s", e.Region, e.Offset, e.Reason)
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the underlying error, such as ErrLimit.
func (e *FormatError) Unwrap() error { return e.Err }

func formatErr(region string, off int64, format string, args ...any) *FormatError {
	return &FormatError{Region: region, Offset: off, Reason: fmt.Sprintf(format, args...)}
}
