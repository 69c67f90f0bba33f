package iobench

import (
	"errors"
	"math"
	"testing"
)

// The knee fraction's one rule: a share in (0, 1]; a plan's 0 is unset.
func TestKneeFractionRule(t *testing.T) {
	for _, f := range []float64{0, 0.5, 0.95, 1} {
		c := DefaultConfig()
		c.KneeFraction = f
		if err := c.Validate(); err != nil {
			t.Errorf("knee fraction %v refused: %v", f, err)
		}
	}
	for _, f := range []float64{-1, 1.5, math.NaN(), math.Inf(1)} {
		c := DefaultConfig()
		c.KneeFraction = f
		var ce *ConfigError
		if err := c.Validate(); !errors.As(err, &ce) || ce.Field != SetKneeFraction {
			t.Errorf("knee fraction %v: %v, want a ConfigError of %s", f, err, SetKneeFraction)
		}
	}
	if (Config{}).KneeFractionError() == nil {
		t.Error("a command's knee fraction of 0 passed: it must be in (0, 1]")
	}
}
