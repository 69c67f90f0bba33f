package strace

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestLineCap: a line of exactly the cap is whole; one byte more makes it
// long, and it is then taken from its ends, whatever its line ending.
func TestLineCap(t *testing.T) {
	const max = 64
	line := func(n int) string { // a write line of n bytes
		head, tail := `write(1, "`, `", 2) = 2`
		return head + strings.Repeat("x", n-len(head)-len(tail)) + tail
	}
	tests := []struct {
		name  string
		input string
		long  int64
	}{
		{"at the cap", line(max) + "\n", 0},
		{"at the cap, CRLF", line(max) + "\r\n", 0},
		{"at the cap, no newline", line(max), 0},
		{"over the cap", line(max+1) + "\n", 1},
		{"over the cap, no newline", line(max + 1), 1},
		{"far over the cap", line(10*readSize) + "\n", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newParser(max)
			if err := p.readStream(Stream{R: strings.NewReader(tt.input)}); err != nil {
				t.Fatal(err)
			}
			got := p.finish()
			want := &Trace{
				Files: []File{{Path: "<stdout>", Writes: 1, Bytes: 2, Sizes: map[int64]int64{2: 1}, Syscalls: map[string]int64{"write": 1}}},
				PIDs:  1, Lines: 1, Long: tt.long,
			}
			if diff := cmp.Diff(want, got, cmpopts.EquateEmpty(), cmpopts.IgnoreFields(Trace{}, "Procs")); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestUnescape(t *testing.T) {
	tests := []struct{ in, want string }{
		{`plain`, "plain"},
		{`a\nb\tc\rd\ve\ff\ag\bh`, "a\nb\tc\rd\ve\ff\ag\bh"},
		{`\\ \" \'`, `\ " '`},
		{`\0\1\12\123\1234`, "\x00\x01\x0a\x53\x534"},
		{`\303\251`, "\u00e9"},
		{`\x41\x4a\x4B\x4g`, "AJK\x04g"},
		{`\xzz`, "xzz"},
		{`trailing\`, `trailing\`},
	}
	for _, tt := range tests {
		if got := string(unescape(nil, []byte(tt.in))); got != tt.want {
			t.Errorf("unescape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestArgEnd(t *testing.T) {
	tests := []struct {
		in   string
		want int // index of the ',' or ')' ending the first argument
	}{
		{`3, "x", 1)`, 1},
		{`"a, \"b\", c\\", 1)`, 15},
		{`[{iov_base="a)", iov_len=2}], 1)`, 28},
		{`3</tmp/a, b>, "x")`, 12},
		{`3<TCP:[1.2.3.4:5->6.7.8.9:10]>, "x")`, 30},
		{`1</dev/null<char 1:3>>, "x")`, 22},
		{`5</tmp/d>(deleted), "x")`, 18},
		{`AT_FDCWD</a,b>, "x")`, 14},
		{`"unclosed`, 9},
	}
	for _, tt := range tests {
		if got := argEnd([]byte(tt.in), 0); got != tt.want {
			t.Errorf("argEnd(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}
