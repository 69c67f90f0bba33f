package strace

import (
	"bytes"
	"math"
)

// atFDCWD is what AT_FDCWD is, as strace prints it under -X raw.
const atFDCWD = -100

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isWordChar(c byte) bool {
	return isDigit(c) || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
}

func allDigits(b []byte) bool {
	for _, c := range b {
		if !isDigit(c) {
			return false
		}
	}
	return true
}

func trimLeftSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	return b
}

func trimSpace(b []byte) []byte {
	b = trimLeftSpace(b)
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// skipString returns the index past the string that opens at s[i], a
// quote, or len(s) if it does not close.
func skipString(s []byte, i int) int {
	end, _ := stringEnd(s, i)
	return end
}

// stringEnd is skipString telling also whether the string closes: strace
// escapes a quote inside as \" and a backslash as \\.
func stringEnd(s []byte, i int) (int, bool) {
	from := i + 1
	for {
		k := bytes.IndexByte(s[from:], '"')
		if k < 0 {
			return len(s), false
		}
		q := from + k
		backslashes := 0
		for b := q - 1; b >= from && s[b] == '\\'; b-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return q + 1, true
		}
		from = q + 1
	}
}

// socketWord is the length of a "TCP:[" opening an -yy socket annotation,
// whose brackets hold a raw '>' ("1.2.3.4:5->6.7.8.9:10"), or 0.
func socketWord(b []byte) int {
	n := 0
	for n < len(b) && (isWordChar(b[n]) || b[n] == '-') {
		n++
	}
	if n == 0 || !bytes.HasPrefix(b[n:], []byte(":[")) {
		return 0
	}
	return n + 2
}

// annotation returns the content of the -y annotation that opens at
// s[i], a '<', and the index past it and past a "(deleted)" after it.
// A path's own '<' and '>' are escaped; a raw '<' opens -yy's nested
// device annotation: "/dev/null<char 1:3>".
func annotation(s []byte, i int) (content []byte, end int) {
	j := i + 1
	if w := socketWord(s[j:]); w > 0 {
		k := bytes.IndexByte(s[j+w:], ']')
		if k < 0 {
			return s[i+1:], len(s)
		}
		j += w + k + 1
	}
	for depth := 1; ; {
		k := bytes.IndexByte(s[j:], '>')
		if k < 0 {
			return s[i+1:], len(s)
		}
		depth += bytes.Count(s[j:j+k], []byte{'<'}) - 1
		j += k + 1
		if depth <= 0 {
			return s[i+1 : j-1], afterDeleted(s, j)
		}
	}
}

func skipAnnotation(s []byte, i int) int {
	_, end := annotation(s, i)
	return end
}

func afterDeleted(s []byte, j int) int {
	if bytes.HasPrefix(s[j:], []byte("(deleted)")) {
		return j + len("(deleted)")
	}
	return j
}

// argEnd returns the index of the ',' or ')' that ends the argument
// starting at s[i], or len(s).
func argEnd(s []byte, i int) int {
	depth := 0
	for i < len(s) {
		switch c := s[i]; {
		case c == '"':
			i = skipString(s, i)
			continue
		case c == '<' && i > 0 && isWordChar(s[i-1]):
			i = skipAnnotation(s, i)
			continue
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			if depth == 0 {
				return i
			}
			depth--
		case c == ',' && depth == 0:
			return i
		}
		i++
	}
	return i
}

// argsClose returns the index of the ')' closing the arguments that
// start at s[i], or -1.
func argsClose(s []byte, i int) int {
	for {
		e := argEnd(s, i)
		if e >= len(s) {
			return -1
		}
		if s[e] == ')' {
			return e
		}
		i = e + 1
	}
}

// argList iterates over the arguments of a call, trimmed.
type argList struct {
	s []byte
	i int
}

func (a *argList) next() ([]byte, bool) {
	if a.i > len(a.s) {
		return nil, false
	}
	e := argEnd(a.s, a.i)
	arg := trimSpace(a.s[a.i:e])
	a.i = e + 1
	return arg, true
}

// nth returns the n-th argument, from 0.
func (a *argList) nth(n int) ([]byte, bool) {
	for ; n > 0; n-- {
		if _, ok := a.next(); !ok {
			return nil, false
		}
	}
	return a.next()
}

// parseInt parses all of b: decimal or 0x hex, maybe negative.
func parseInt(b []byte) (int64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	var n uint64
	var ok bool
	if len(b) > 2 && b[0] == '0' && b[1] == 'x' {
		n, ok = parseUint(b[2:], 16)
	} else {
		n, ok = parseUint(b, 10)
	}
	if neg {
		return -int64(n), ok
	}
	return int64(n), ok
}

// parseUint parses digits of base into a value below 2^63.
func parseUint(b []byte, base uint64) (uint64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	safe := len(b) <= 18 && base == 10 || len(b) <= 15 // no overflow possible
	var n uint64
	for _, c := range b {
		d := digitValue(c)
		if d >= base || !safe && n > (math.MaxInt64-d)/base {
			return 0, false
		}
		n = n*base + d
	}
	return n, true
}

func digitValue(c byte) uint64 {
	switch {
	case isDigit(c):
		return uint64(c - '0')
	case 'a' <= c && c <= 'f':
		return uint64(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return uint64(c-'A') + 10
	}
	return 99
}

// intPrefix parses the number that b starts with; n is its length, 0
// if b starts with none.
func intPrefix(b []byte) (v int64, n int) {
	if n < len(b) && b[n] == '-' {
		n++
	}
	digits := isDigit
	if bytes.HasPrefix(b[n:], []byte("0x")) {
		n += 2
		digits = func(c byte) bool { return digitValue(c) < 16 }
	}
	for n < len(b) && digits(b[n]) {
		n++
	}
	v, ok := parseInt(b[:n])
	if !ok {
		return 0, 0
	}
	return v, n
}

// fdArg parses a descriptor argument: "3", "0x3", "AT_FDCWD", "-100",
// each maybe with an -y annotation, "3</tmp/out.dat>".
func fdArg(arg []byte) (fd int64, annot []byte, ok bool) {
	num := arg
	if lt := bytes.IndexByte(arg, '<'); lt >= 0 {
		num, annot = arg[:lt], nil
		annot, _ = annotation(arg, lt)
	}
	if bytes.Equal(num, []byte("AT_FDCWD")) {
		return atFDCWD, annot, true
	}
	fd, ok = parseInt(num)
	return fd, annot, ok
}

// result is what follows a call's arguments: "= 3", "= -1 EAGAIN (...)",
// "= ? <unavailable>", "= 3</tmp/out.dat>", each maybe with " <0.000012>".
type result struct {
	unknown bool
	ret     int64
	annot   []byte
	errno   []byte
	nanos   int64
	timed   bool
}

func parseResult(s []byte) (r result, ok bool) {
	s = trimLeftSpace(s)
	if len(s) < 2 || s[0] != '=' || s[1] != ' ' {
		return r, false
	}
	s = trimLeftSpace(s[1:])
	if len(s) > 0 && s[0] == '?' {
		r.unknown, s = true, s[1:]
	} else {
		v, n := intPrefix(s)
		if n == 0 {
			return r, false
		}
		r.ret, s = v, s[n:]
		if len(s) > 0 && s[0] == '<' {
			var end int
			r.annot, end = annotation(s, 0)
			s = s[end:]
		}
	}
	s = trimLeftSpace(s)
	if r.ret < 0 {
		r.errno = errnoName(s)
	}
	r.nanos, r.timed = trailingDuration(s)
	return r, true
}

func errnoName(b []byte) []byte {
	n := 0
	for n < len(b) && ('A' <= b[n] && b[n] <= 'Z' || isDigit(b[n]) || b[n] == '_') {
		n++
	}
	if n == 0 {
		return nil
	}
	return b[:n]
}

// trailingDuration parses the -T duration that ends a line: "<0.000123>".
func trailingDuration(b []byte) (int64, bool) {
	if len(b) < 3 || b[len(b)-1] != '>' {
		return 0, false
	}
	lt := bytes.LastIndexByte(b, '<')
	if lt < 0 {
		return 0, false
	}
	return parseDuration(b[lt+1 : len(b)-1])
}

// parseDuration parses seconds with a fraction, as nanoseconds.
func parseDuration(b []byte) (int64, bool) {
	dot := bytes.IndexByte(b, '.')
	if dot <= 0 || dot > 9 || !allDigits(b[:dot]) || !allDigits(b[dot+1:]) || len(b) == dot+1 {
		return 0, false
	}
	var ns int64
	for _, c := range b[:dot] {
		ns = ns*10 + int64(c-'0')
	}
	frac := b[dot+1:]
	for i := range 9 {
		ns *= 10
		if i < len(frac) {
			ns += int64(frac[i] - '0')
		}
	}
	return ns, true
}

// unescape appends to dst the bytes that the inside of a string strace
// printed stands for: it escapes with \n-style letters, \x hex (-x) and
// octal of up to three digits.
func unescape(dst, q []byte) []byte {
	for i := 0; i < len(q); i++ {
		if q[i] != '\\' || i+1 == len(q) {
			dst = append(dst, q[i])
			continue
		}
		i++
		c, n := unescapeOne(q[i:])
		dst = append(dst, c)
		i += n - 1
	}
	return dst
}

// unescapeOne decodes the escape after a backslash; n is its length.
func unescapeOne(e []byte) (c byte, n int) {
	switch e[0] {
	case 'n':
		return '\n', 1
	case 't':
		return '\t', 1
	case 'r':
		return '\r', 1
	case 'v':
		return '\v', 1
	case 'f':
		return '\f', 1
	case 'a':
		return '\a', 1
	case 'b':
		return '\b', 1
	case 'x':
		return numberEscape(e, 1, 16, 2)
	}
	if '0' <= e[0] && e[0] <= '7' {
		return numberEscape(e, 0, 8, 3)
	}
	return e[0], 1
}

// numberEscape decodes up to max digits of base after skip letters.
func numberEscape(e []byte, skip int, base uint64, max int) (byte, int) {
	v, n := uint64(0), skip
	for n < len(e) && n < skip+max && digitValue(e[n]) < base {
		v = v*base + digitValue(e[n])
		n++
	}
	if n == skip {
		return e[0], 1
	}
	return byte(v), n
}

// annotPath is the file name of an -y annotation's content: the path
// without -yy's device part and " (deleted)", unescaped; a socket's or
// pipe's name ("TCP:[...]", "pipe:[1234]") as strace printed it.
func annotPath(dst, content []byte) []byte {
	c := content
	if w := socketWord(c); w > 0 {
		if k := bytes.IndexByte(c[w:], ']'); k >= 0 {
			c = c[:w+k+1]
		}
	} else if k := bytes.IndexByte(c, '<'); k >= 0 {
		c = c[:k]
	}
	c = bytes.TrimSuffix(c, []byte(" (deleted)"))
	return unescape(dst, c)
}

// stringArg returns the bytes a string argument stands for, with "..."
// after them if strace cut the string.
func stringArg(dst, arg []byte) ([]byte, bool) {
	if len(arg) < 2 || arg[0] != '"' {
		return dst, false
	}
	end, closed := stringEnd(arg, 0)
	if !closed {
		return dst, false
	}
	dst = unescape(dst, arg[1:end-1])
	if bytes.HasPrefix(arg[end:], []byte("...")) {
		dst = append(dst, "..."...)
	}
	return dst, true
}
