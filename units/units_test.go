package units_test

import (
	"errors"
	"testing"

	"github.com/iobench/iobench/units"
)

func TestParseBytes(t *testing.T) {
	tests := []struct {
		in   string
		want int64
	}{
		{"4096", 4096}, {"4096B", 4096}, {"4096b", 4096}, {" 8 ", 8},
		{"4K", 4096}, {"4k", 4096}, {"4Ki", 4096}, {"4KiB", 4096}, {"4kib", 4096}, {"4KIB", 4096},
		{"64K", 65536}, {"1M", 1 << 20}, {"1m", 1 << 20}, {"1MiB", 1 << 20}, {"2G", 2 << 30},
		{"1T", 1 << 40}, {"1P", 1 << 50}, {"1.5MiB", 3 << 19}, {"0.5K", 512}, {".5K", 512},
		{"4 KiB", 4096}, {"0", 0},
	}
	for _, tt := range tests {
		got, err := units.ParseBytes(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
}

func TestParseBytesRefusesDecimalUnits(t *testing.T) {
	tests := []struct {
		in, msg string
	}{
		{"4KB", `"4KB" uses a decimal unit; write 4KiB (4096 bytes) or 4000`},
		{"4kb", `"4kb" uses a decimal unit; write 4KiB (4096 bytes) or 4000`},
		{"1MB", `"1MB" uses a decimal unit; write 1MiB (1048576 bytes) or 1000000`},
		{"2GB", `"2GB" uses a decimal unit; write 2GiB (2147483648 bytes) or 2000000000`},
		{"1.5kB", `"1.5kB" uses a decimal unit; write 1.5KiB (1536 bytes) or 1500`},
	}
	for _, tt := range tests {
		_, err := units.ParseBytes(tt.in)
		var de *units.DecimalError
		if !errors.As(err, &de) || err.Error() != tt.msg {
			t.Errorf("ParseBytes(%q) error = %v; want %s", tt.in, err, tt.msg)
		}
	}
}

func TestParseBytesRefusesJunk(t *testing.T) {
	for _, in := range []string{"", "x", "K", "-4K", "+4K", "1e3", "0x10", "1_000", "4KX", "4KiBB", "4iB",
		"4 K B", "1..2K", ".", "4Q", "NaN", "Inf", "1,000"} {
		if n, err := units.ParseBytes(in); !errors.Is(err, units.ErrSyntax) {
			t.Errorf("ParseBytes(%q) = %d, %v; want a syntax error", in, n, err)
		}
	}
	for _, in := range []string{"0.3K", "1.0000001", "9000P", "99999999999999999999"} {
		var re *units.RangeError
		if _, err := units.ParseBytes(in); !errors.As(err, &re) {
			t.Errorf("ParseBytes(%q) error = %v; want a range error", in, err)
		}
	}
}

func TestFormatSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 512: "512 B", 1000: "1000 B", 1536: "1536 B", 1024: "1 KiB", 3 << 10: "3 KiB",
		65536: "64 KiB", 1 << 20: "1 MiB", 3 << 19: "1536 KiB", 1 << 30: "1 GiB", 1 << 40: "1 TiB"} {
		if got := units.FormatSize(n); got != want {
			t.Errorf("FormatSize(%d) = %q, want %q", n, got, want)
		}
	}
	if got := units.FlagSize(4096); got != "4KiB" {
		t.Errorf("FlagSize(4096) = %q", got)
	}
	if got := units.FlagSize(1000); got != "1000" {
		t.Errorf("FlagSize(1000) = %q", got)
	}
}
