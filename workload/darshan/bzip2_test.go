package darshan

import (
	"bytes"
	"compress/bzip2"
	"io"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// bzip2Compress writes data as one bzip2 stream. Go has no bzip2 writer,
// so the tests carry this small one: run-length coding, the
// Burrows-Wheeler transform, move-to-front with zero runs, and one
// canonical Huffman code of near-equal lengths (correct, not small).
func bzip2Compress(data []byte) []byte {
	const blockMax = 90000 // under level 1's 100 kB, leaving room for run coding
	w := &bitWriter{}
	w.bytes([]byte("BZh1"))
	var combined uint32
	for len(data) > 0 {
		n := min(len(data), blockMax/2)
		crc := bzip2CRC(data[:n])
		combined = (combined<<1 | combined>>31) ^ crc
		writeBzip2Block(w, data[:n], crc)
		data = data[n:]
	}
	w.bits(0x177245385090, 48)
	w.bits(uint64(combined), 32)
	return w.flush()
}

func writeBzip2Block(w *bitWriter, data []byte, crc uint32) {
	rle := runLengthEncode(data)
	last, origPtr := bwt(rle)
	used, syms := mtfAndZeroRuns(last)
	alpha := len(used) + 2
	lengths := completeCodeLengths(alpha)
	codes := canonicalCodes(lengths)

	w.bits(0x314159265359, 48)
	w.bits(uint64(crc), 32)
	w.bits(0, 1) // not randomised
	w.bits(uint64(origPtr), 24)
	writeUsedMap(w, used)
	const groups = 2
	selectors := (len(syms) + 49) / 50
	w.bits(groups, 3)
	w.bits(uint64(selectors), 15)
	for range selectors {
		w.bits(0, 1) // table 0, move-to-front index 0
	}
	for range groups {
		writeCodeLengths(w, lengths)
	}
	for _, s := range syms {
		w.bits(uint64(codes[s]), uint(lengths[s]))
	}
}

// runLengthEncode is bzip2's first stage: 4 to 255 equal bytes become
// four bytes and a count of the rest.
func runLengthEncode(data []byte) []byte {
	var out []byte
	for i := 0; i < len(data); {
		j := i
		for j < len(data) && data[j] == data[i] && j-i < 255 {
			j++
		}
		n := j - i
		if n >= 4 {
			out = append(out, data[i], data[i], data[i], data[i], byte(n-4))
		} else {
			out = append(out, data[i:j]...)
		}
		i = j
	}
	return out
}

// bwt sorts the cyclic rotations of s by prefix doubling, returning the
// last column and the row of s itself.
func bwt(s []byte) ([]byte, int) {
	n := len(s)
	rank := make([]int, n)
	idx := make([]int, n)
	for i := range s {
		rank[i], idx[i] = int(s[i]), i
	}
	tmp := make([]int, n)
	for k := 1; ; k *= 2 {
		key := func(i int) [2]int { return [2]int{rank[i], rank[(i+k)%n]} }
		slices.SortStableFunc(idx, func(a, b int) int {
			ka, kb := key(a), key(b)
			if ka[0] != kb[0] {
				return ka[0] - kb[0]
			}
			return ka[1] - kb[1]
		})
		tmp[idx[0]] = 0
		for i := 1; i < n; i++ {
			tmp[idx[i]] = tmp[idx[i-1]]
			if key(idx[i]) != key(idx[i-1]) {
				tmp[idx[i]]++
			}
		}
		copy(rank, tmp)
		if rank[idx[n-1]] == n-1 || k >= n {
			break
		}
	}
	last := make([]byte, n)
	orig := 0
	for row, i := range idx {
		last[row] = s[(i+n-1)%n]
		if i == 0 {
			orig = row
		}
	}
	return last, orig
}

// mtfAndZeroRuns codes the used bytes by move-to-front, zero runs in
// bijective base 2 (RUNA, RUNB), and ends with the end-of-block symbol.
func mtfAndZeroRuns(last []byte) (used []byte, syms []int) {
	var seen [256]bool
	for _, b := range last {
		seen[b] = true
	}
	for b := range 256 {
		if seen[b] {
			used = append(used, byte(b))
		}
	}
	list := slices.Clone(used)
	zeros := 0
	flush := func() {
		for zeros > 0 {
			zeros--
			syms = append(syms, zeros&1) // RUNA 0, RUNB 1
			zeros /= 2
		}
	}
	for _, b := range last {
		j := bytes.IndexByte(list, b)
		copy(list[1:j+1], list[:j])
		list[0] = b
		if j == 0 {
			zeros++
			continue
		}
		flush()
		syms = append(syms, j+1)
	}
	flush()
	return used, append(syms, len(used)+1)
}

func writeUsedMap(w *bitWriter, used []byte) {
	var ranges uint16
	for _, b := range used {
		ranges |= 0x8000 >> (b / 16)
	}
	w.bits(uint64(ranges), 16)
	for r := range 16 {
		if ranges&(0x8000>>r) == 0 {
			continue
		}
		var set uint16
		for _, b := range used {
			if int(b/16) == r {
				set |= 0x8000 >> (b % 16)
			}
		}
		w.bits(uint64(set), 16)
	}
}

// completeCodeLengths gives n symbols a complete prefix code: lengths L-1
// and L with L = ceil(log2 n).
func completeCodeLengths(n int) []int {
	l := bits.Len(uint(n - 1))
	short := 1<<l - n
	lengths := make([]int, n)
	for i := range lengths {
		lengths[i] = l
		if i < short {
			lengths[i] = l - 1
		}
	}
	return lengths
}

// canonicalCodes assigns codes as bzip2 does: by length, then symbol.
func canonicalCodes(lengths []int) []int {
	codes := make([]int, len(lengths))
	code := 0
	for l := 1; l <= 20; l++ {
		for s, sl := range lengths {
			if sl == l {
				codes[s] = code
				code++
			}
		}
		code <<= 1
	}
	return codes
}

func writeCodeLengths(w *bitWriter, lengths []int) {
	cur := lengths[0]
	w.bits(uint64(cur), 5)
	for _, l := range lengths {
		for ; cur < l; cur++ {
			w.bits(0b10, 2)
		}
		for ; cur > l; cur-- {
			w.bits(0b11, 2)
		}
		w.bits(0, 1)
	}
}

// bzip2CRC is CRC-32 with polynomial 0x04c11db7, most significant bit
// first.
func bzip2CRC(data []byte) uint32 {
	crc := ^uint32(0)
	for _, b := range data {
		crc ^= uint32(b) << 24
		for range 8 {
			if crc&0x80000000 != 0 {
				crc = crc<<1 ^ 0x04c11db7
			} else {
				crc <<= 1
			}
		}
	}
	return ^crc
}

type bitWriter struct {
	out  []byte
	acc  uint64
	nacc uint
}

func (w *bitWriter) bits(v uint64, n uint) {
	for i := int(n) - 1; i >= 0; i-- {
		w.acc = w.acc<<1 | (v>>uint(i))&1
		w.nacc++
		if w.nacc == 8 {
			w.out = append(w.out, byte(w.acc))
			w.acc, w.nacc = 0, 0
		}
	}
}

func (w *bitWriter) bytes(b []byte) {
	for _, c := range b {
		w.bits(uint64(c), 8)
	}
}

func (w *bitWriter) flush() []byte {
	if w.nacc > 0 {
		w.bits(0, 8-w.nacc)
	}
	return w.out
}

func TestBzip2TestEncoder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	big := make([]byte, 200000)
	for i := range big {
		big[i] = byte(rng.IntN(4)) // long enough for several blocks
	}
	cases := map[string][]byte{
		"one byte":  {7},
		"text":      []byte("POSIX_WRITES POSIX_WRITES POSIX_WRITES\n"),
		"long run":  bytes.Repeat([]byte{0}, 1000),
		"runs of 4": bytes.Repeat([]byte{1, 1, 1, 1, 2}, 300),
		"all bytes": func() []byte {
			b := make([]byte, 512)
			for i := range b {
				b[i] = byte(i)
			}
			return b
		}(),
		"periodic":   bytes.Repeat([]byte("ab"), 777),
		"many block": big,
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := io.ReadAll(bzip2.NewReader(bytes.NewReader(bzip2Compress(data))))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, data) {
				t.Errorf("round trip gave %d bytes, want %d", len(got), len(data))
			}
		})
	}
}
