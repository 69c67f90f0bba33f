package iobench

import (
	"errors"
	"testing"
)

// TestValidSizesNamesTheSizeToChange: of sizes larger than the data the
// largest is named (the top of the range, --max), unless every size is,
// when the smallest is (--min); of sizes that are not whole elements,
// the smallest.
func TestValidSizesNamesTheSizeToChange(t *testing.T) {
	for _, tt := range []struct {
		sizes []int64
		want  string
	}{
		{[]int64{4096, 1 << 20, 1 << 26}, "67108864"},
		{[]int64{1 << 21, 1 << 22}, "2097152"},
		{[]int64{4, 8, 12}, "4"},
		{[]int64{4096, 8192}, ""},
	} {
		c := smallConfig()
		c.Count, c.Sizes = 1<<17, tt.sizes // 1 MiB of float64
		var ce *ConfigError
		err := c.ValidSizes()
		if got := ""; errors.As(err, &ce) {
			got = ce.Value
			if got != tt.want || ce.Field != SetSizes {
				t.Errorf("%v: %v names %s, want %s", tt.sizes, err, got, tt.want)
			}
		} else if tt.want != "" || err != nil {
			t.Errorf("%v: %v, want size %s named", tt.sizes, err, tt.want)
		}
	}
}
