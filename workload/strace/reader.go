package strace

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// What of an overlong line is kept: enough of its start for the pid,
// timestamp, name and descriptor (an -y path is at most 4 KiB, escaped up
// to four times), enough of its end for the count and the result.
const (
	headKeep = 64 << 10
	tailKeep = 4 << 10
	readSize = 64 << 10
)

// lineReader splits a stream into lines of at most max bytes; of a longer
// line it keeps the head and the tail, so no line is ever held whole.
type lineReader struct {
	br         *bufio.Reader
	max        int
	head, tail []byte
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, readSize), max: max}
}

// next returns the next line without its line end, and for a line over
// max its tail too. At the end of the stream it returns io.EOF.
func (lr *lineReader) next() (line, tail []byte, long bool, err error) {
	lr.head, lr.tail = lr.head[:0], lr.tail[:0]
	read := 0
	for {
		chunk, err := lr.br.ReadSlice('\n')
		read += len(chunk)
		switch {
		case long:
			lr.keepTail(chunk)
		case len(lr.head)+lineLen(chunk) <= lr.max:
			lr.head = append(lr.head, chunk...)
		default:
			long = true
			lr.keepTail(lr.head)
			lr.keepTail(chunk)
			lr.keepHead(chunk)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err == io.EOF && read > 0 {
			err = nil
		}
		if long {
			return trimEOL(lr.head), trimEOL(lr.tail), true, err
		}
		return trimEOL(lr.head), nil, false, err
	}
}

// keepHead cuts the line read so far to its first bytes.
func (lr *lineReader) keepHead(chunk []byte) {
	keep := min(headKeep, lr.max)
	if len(lr.head) > keep {
		lr.head = lr.head[:keep]
	}
	lr.head = append(lr.head, chunk[:min(len(chunk), keep-len(lr.head))]...)
}

// keepTail keeps the last bytes of the line read so far.
func (lr *lineReader) keepTail(chunk []byte) {
	keep := min(tailKeep, lr.max)
	if len(chunk) >= keep {
		lr.tail = append(lr.tail[:0], chunk[len(chunk)-keep:]...)
		return
	}
	lr.tail = append(lr.tail, chunk...)
	if extra := len(lr.tail) - keep; extra > 0 {
		n := copy(lr.tail, lr.tail[extra:])
		lr.tail = lr.tail[:n]
	}
}

// lineLen is a chunk's length without the "\n" or "\r\n" ending it.
func lineLen(chunk []byte) int {
	if !bytes.HasSuffix(chunk, []byte{'\n'}) {
		return len(chunk)
	}
	return len(trimEOL(chunk))
}

func trimEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte{'\n'})
	return bytes.TrimSuffix(b, []byte{'\r'})
}

// shortened rebuilds an overlong line from its head and tail as the line
// it would be with its data strings empty, ‘write(3, ""..., 1048576) =
// 1048576’: the head up to the first string, the tail from the end of the
// last. It returns nil if either end holds no string.
func shortened(dst, head, tail []byte) []byte {
	open := firstQuote(head)
	close := bytes.LastIndexByte(tail, '"')
	if open < 0 || close < 0 {
		return nil
	}
	dst = append(dst[:0], head[:open]...)
	dst = append(dst, `""`...)
	return append(dst, tail[close+1:]...)
}

// firstQuote is the index of the first string's opening quote, past the
// -y annotations whose paths may hold escaped quotes.
func firstQuote(b []byte) int {
	for i := 0; i < len(b); {
		switch {
		case b[i] == '"':
			return i
		case b[i] == '<' && i > 0 && isDigit(b[i-1]):
			i = skipAnnotation(b, i)
		default:
			i++
		}
	}
	return -1
}

// attachNote is the note strace -f prints, without -o, into the middle
// of the line of a clone when the child appears.
var attachNote = []byte("strace: Process ")

// splitAttachNote returns the part of a line before such a note, if the
// line ends with one.
func splitAttachNote(line []byte) ([]byte, bool) {
	if !bytes.HasSuffix(line, []byte(" attached")) && !bytes.HasSuffix(line, []byte(" detached")) {
		return nil, false
	}
	i := bytes.LastIndex(line, attachNote)
	if i <= 0 {
		return nil, false
	}
	pid := line[i+len(attachNote) : len(line)-len(" attached")]
	if len(pid) == 0 || !allDigits(pid) {
		return nil, false
	}
	return line[:i], true
}
