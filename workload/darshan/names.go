package darshan

import (
	"bufio"
	"errors"
	"io"
	"strconv"
)

// maxNameLen bounds one record's path; darshan's own paths stop at 4 KiB.
const maxNameLen = 1 << 20

var errNameTooLong = errors.New("name longer than 1 MiB")

// readNames reads the record id -> path table. From 3.10 on a name is
// NUL-terminated; 3.00 prefixed it with a uint32 length instead.
func (p *parser) readNames() error {
	p.log.Names = map[uint64]string{}
	m := p.h.names
	if m.len == 0 {
		return nil
	}
	br := bufio.NewReader(p.openRegion("names", m))
	var idBuf [8]byte
	for n := 0; ; n++ {
		if _, err := io.ReadFull(br, idBuf[:]); err == io.EOF {
			return nil
		} else if err != nil {
			return p.nameErr(err, n)
		}
		if n >= p.lim.MaxRecords {
			return &FormatError{Region: "names", Offset: int64(m.off), Err: ErrLimit,
				Reason: "more name records than the limit of " + strconv.Itoa(p.lim.MaxRecords)}
		}
		name, err := p.readName(br)
		if err != nil {
			return p.nameErr(err, n)
		}
		p.addName(p.h.order.Uint64(idBuf[:]), name)
	}
}

func (p *parser) readName(br *bufio.Reader) (string, error) {
	if p.h.minor == 0 {
		return p.readLengthPrefixed(br)
	}
	return readCString(br)
}

// addName keeps the first non-empty name of an id, as darshan does.
func (p *parser) addName(id uint64, name string) {
	if old, ok := p.log.Names[id]; !ok || old == "" {
		p.log.Names[id] = name
	}
}

func (p *parser) nameErr(err error, n int) error {
	var fe *FormatError
	if errors.As(err, &fe) {
		return err
	}
	reason := "region ends inside name record " + strconv.Itoa(n)
	if err == errNameTooLong {
		reason = "name record " + strconv.Itoa(n) + " is longer than 1 MiB"
	}
	return formatErr("names", int64(p.h.names.off), "%s", reason)
}

func (p *parser) readLengthPrefixed(br *bufio.Reader) (string, error) {
	var lenBuf [4]byte
	if _, err := io.ReadFull(br, lenBuf[:]); err != nil {
		return "", eofIsUnexpected(err)
	}
	n := p.h.order.Uint32(lenBuf[:])
	if n > maxNameLen {
		return "", errNameTooLong
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(br, b); err != nil {
		return "", eofIsUnexpected(err)
	}
	return string(b), nil
}

func readCString(br *bufio.Reader) (string, error) {
	var long []byte
	for {
		chunk, err := br.ReadSlice(0)
		switch {
		case err == nil && long == nil:
			return string(chunk[:len(chunk)-1]), nil
		case err == nil:
			return string(append(long, chunk[:len(chunk)-1]...)), nil
		case err != bufio.ErrBufferFull:
			return "", eofIsUnexpected(err)
		}
		long = append(long, chunk...)
		if len(long) > maxNameLen {
			return "", errNameTooLong
		}
	}
}

func eofIsUnexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}
