package analyze

import (
	"bytes"
	"errors"
	"fmt"
)

// scannedDoc is what scanJSON learns of a document in one pass over its
// bytes, before anything is decoded.
type scannedDoc struct {
	start, end int // the first JSON value is data[start:end]
	// tool and results are the root object's values of those names, as
	// written; nil when absent.
	tool, results []byte
}

// boundsError is a document beyond the limits, at byte off.
type boundsError struct {
	off int
	msg string
}

func (e *boundsError) Error() string { return e.msg }

// errMalformed is a document whose brackets do not match or whose string
// does not end; the JSON decoder says where and why.
var errMalformed = errors.New("malformed JSON")

// jsonScanner walks the structure of a JSON value: strings, brackets,
// commas and colons, leaving the decoder to check everything else.
type jsonScanner struct {
	data    []byte
	stack   []jsonFrame
	entries int // entries of all lists so far
	doc     scannedDoc
	key     []byte // the root member being read
	value   int    // where its value starts; -1 before its colon
}

// jsonFrame is one open object or list.
type jsonFrame struct {
	list    bool
	inList  bool // an entry of a list
	entries int
	waiting bool // a list expecting an entry: after '[' or ','
}

// scanJSON checks the first JSON value of data against the limits, so
// that a document beyond them is refused before it is decoded, and finds
// where it ends and the root's "tool" and "results". The value must be an
// object, which detect has seen.
func scanJSON(data []byte) (scannedDoc, error) {
	s := &jsonScanner{data: data, value: -1, stack: make([]jsonFrame, 0, maxJSONDepth)}
	s.doc.start = len(data) - len(bytes.TrimLeft(data, jsonSpace))
	for i := s.doc.start; i < len(data); i++ {
		c := data[i]
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' {
			continue
		}
		if err := s.countEntry(i, c); err != nil {
			return scannedDoc{}, err
		}
		end, err := s.step(i, c)
		if err != nil || s.doc.end > 0 {
			return s.doc, err
		}
		i = end
	}
	return scannedDoc{}, errMalformed
}

// step takes the significant byte data[i] and returns the index of the
// last byte it consumed.
func (s *jsonScanner) step(i int, c byte) (int, error) {
	switch c {
	case '"':
		end := stringEnd(s.data, i)
		if end < 0 {
			return 0, errMalformed
		}
		if len(s.stack) == 1 && s.value < 0 {
			s.key = s.data[i+1 : end]
		}
		return end, nil
	case '{', '[':
		if len(s.stack) == maxJSONDepth {
			return 0, &boundsError{i, fmt.Sprintf("nested more than %d deep: not an iobench report", maxJSONDepth)}
		}
		inList := len(s.stack) > 0 && s.top().list
		s.stack = append(s.stack, jsonFrame{list: c == '[', inList: inList, waiting: c == '['})
	case '}', ']':
		return i, s.close(i, c)
	case ',':
		s.endMember(i)
		if top := s.top(); top != nil && top.list {
			top.waiting = true
		}
	case ':':
		if len(s.stack) == 1 {
			s.value = i + 1
		}
	}
	return i, nil
}

func (s *jsonScanner) top() *jsonFrame {
	if len(s.stack) == 0 {
		return nil
	}
	return &s.stack[len(s.stack)-1]
}

// close ends the innermost object or list; closing the root ends the
// document.
func (s *jsonScanner) close(i int, c byte) error {
	top := s.top()
	if top == nil || top.list != (c == ']') {
		return errMalformed
	}
	s.endMember(i)
	s.stack = s.stack[:len(s.stack)-1]
	if len(s.stack) == 0 {
		s.doc.end = i + 1
	}
	return nil
}

// countEntry counts c as an entry of the innermost list when it starts
// one, and refuses a list or a document with more entries than iobench
// writes. The entries of a list in a list are left out of the document's
// count (see maxListEntries).
func (s *jsonScanner) countEntry(i int, c byte) error {
	top := s.top()
	if top == nil || !top.waiting || c == ']' {
		return nil
	}
	top.waiting = false
	top.entries++
	if !top.inList {
		s.entries++
	}
	switch {
	case top.entries > MaxRuns:
		return &boundsError{i, fmt.Sprintf("a list of more than %d entries: not an iobench report, whose lists hold at most one entry per run", MaxRuns)}
	case s.entries > maxListEntries:
		return &boundsError{i, fmt.Sprintf("more than %d list entries: not an iobench report", maxListEntries)}
	}
	return nil
}

// endMember records the root member that ends at data[i], a ',' or the
// closing brace, if it is "tool" or "results". As in decoding, names
// match in any case and a repeated name's last value counts.
func (s *jsonScanner) endMember(i int) {
	if len(s.stack) != 1 || s.value < 0 {
		return
	}
	v := bytes.TrimRight(bytes.TrimLeft(s.data[s.value:i], jsonSpace), jsonSpace)
	switch {
	case bytes.EqualFold(s.key, []byte("tool")):
		s.doc.tool = v
	case bytes.EqualFold(s.key, []byte("results")):
		s.doc.results = v
	}
	s.key, s.value = nil, -1
}

// stringEnd is the index of the quote that closes the string opening at
// data[open], -1 if none does.
func stringEnd(data []byte, open int) int {
	for j := open + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j
		}
	}
	return -1
}
