package iobench

import (
	"fmt"
	"slices"
	"strings"

	"github.com/iobench/iobench/convert"
)

// Variant is one way of writing the same bytes that a sweep compares with
// others in one interleaved plan: an element type, a byte order in the
// file, with or without O_DIRECT. Every variant writes the same number of
// bytes per run (Config.TotalBytes), so their throughputs compare size by
// size; the first is the reference the others are measured against.
type Variant struct {
	// Name labels the variant's runs (Run.Variant) and report rows: the
	// settings that differ between the variants, "convert=big-endian".
	Name    string
	Type    convert.Type
	Convert convert.Order
	Direct  bool
}

// MaxVariants bounds the variants of one sweep: each multiplies its runs.
const MaxVariants = 16

// NewVariants is every combination of the types, byte orders and O_DIRECT
// settings given, the first of each list first (types vary slowest), each
// named by the settings that have more than one value:
// "type=int32 convert=big-endian". With one value of each it returns nil:
// a sweep of one variant is a plain sweep.
func NewVariants(types []convert.Type, orders []convert.Order, directs []bool) []Variant {
	if len(types)*len(orders)*len(directs) <= 1 {
		return nil
	}
	var out []Variant
	for _, t := range types {
		for _, o := range orders {
			for _, d := range directs {
				var name []string
				if len(types) > 1 {
					name = append(name, "type="+t.String())
				}
				if len(orders) > 1 {
					name = append(name, "convert="+o.String())
				}
				if len(directs) > 1 {
					name = append(name, fmt.Sprintf("direct=%t", d))
				}
				out = append(out, Variant{Name: strings.Join(name, " "), Type: t, Convert: o, Direct: d})
			}
		}
	}
	return out
}

// VariantList is the variants the sweep runs: Variants, or the one the
// Config's own Type, Convert and Direct make, unnamed.
func (c Config) VariantList() []Variant {
	if len(c.Variants) > 0 {
		return c.Variants
	}
	return []Variant{{Type: c.Type, Convert: c.Convert, Direct: c.Direct}}
}

// VariantNames are the names of the sweep's variants in order; nil for a
// sweep of one.
func (c Config) VariantNames() []string {
	var out []string
	for _, v := range c.Variants {
		out = append(out, v.Name)
	}
	return out
}

// ForVariant is the plan of one variant's runs: its type, byte order and
// O_DIRECT, and as many of its elements as make the sweep's bytes.
func (c Config) ForVariant(v Variant) Config {
	bytes := c.TotalBytes()
	c.Type, c.Convert, c.Direct = v.Type, v.Convert, v.Direct
	if size := int64(v.Type.Size()); size > 0 {
		c.Count = bytes / size
	}
	c.Variants = nil
	return c
}

// validVariants checks each variant as a plan of its own, and that the
// variants can be told apart.
func (c Config) validVariants() error {
	if len(c.Variants) > MaxVariants {
		return configErr(SetVariants, len(c.Variants), "%d variants are more than %d (each runs every size in every round)", len(c.Variants), MaxVariants)
	}
	var names []string
	for _, v := range c.Variants {
		switch {
		case v.Name == "":
			return configErr(SetVariants, v.Name, "every variant of a sweep of several needs a name")
		case slices.Contains(names, v.Name):
			return configErr(SetVariants, v.Name, "variant %q is listed twice", v.Name)
		}
		names = append(names, v.Name)
		if size := int64(v.Type.Size()); c.TotalBytes()%size != 0 {
			return configErr(SetType, v.Type, "the data (%d bytes per run) is not a whole number of %d-byte %s elements, so variant %q cannot write the same bytes as the others; adjust %s",
				c.TotalBytes(), size, v.Type, v.Name, SetCount.Ref())
		}
		if err := c.ForVariant(v).Validate(); err != nil {
			return err
		}
	}
	return nil
}

// MemoryBytes is the memory the sweep's sources take in all: one source
// per element type among the variants, for each job.
func (c Config) MemoryBytes() int64 {
	var total int64
	var seen []convert.Type
	for _, v := range c.VariantList() {
		if !slices.Contains(seen, v.Type) {
			seen = append(seen, v.Type)
			total += c.ForVariant(v).SourceBytes()
		}
	}
	return total * int64(max(c.Jobs, 1))
}

// variantData is what the runs of one variant write with.
type variantData struct {
	name   string
	cfg    Config // the plan of the variant's runs (ForVariant)
	src    *source
	packer *convert.Packer
	buf    []byte
}

// setupVariants prepares the data of every variant; variants of one
// element type share a source (a conversion reads it, never writes it).
// It leaves the first variant current.
func (r *Runner) setupVariants() error {
	r.plan = r.Config
	for _, v := range r.plan.VariantList() {
		r.Config = r.plan.ForVariant(v)
		var src *source
		for _, d := range r.variants {
			if d.cfg.Type == v.Type {
				src = d.src
			}
		}
		err := r.setupData(src)
		// Held even on failure, so teardown frees what was allocated.
		r.variants = append(r.variants, &variantData{name: v.Name, cfg: r.Config, src: r.src, packer: r.packer, buf: r.buf})
		if err != nil {
			return err
		}
	}
	r.useVariant("")
	return nil
}

// useVariant makes the named variant's plan and data current; "" (or a
// name not in the plan) is the first.
func (r *Runner) useVariant(name string) {
	if len(r.variants) == 0 {
		return
	}
	d := r.variants[0]
	for _, v := range r.variants {
		if v.name == name {
			d = v
		}
	}
	r.Config, r.src, r.packer, r.buf = d.cfg, d.src, d.packer, d.buf
}

// freeData returns every variant's source and buffer, each once.
func (r *Runner) freeData() {
	srcs := []*source{r.src}
	bufs := [][]byte{r.buf}
	for _, d := range r.variants {
		srcs, bufs = append(srcs, d.src), append(bufs, d.buf)
	}
	var freed []*source
	for _, s := range srcs {
		if s != nil && !slices.Contains(freed, s) {
			freed = append(freed, s)
			s.free()
		}
	}
	var done []*byte
	for _, b := range bufs {
		if len(b) > 0 && !slices.Contains(done, &b[0]) {
			done = append(done, &b[0])
			freeAligned(b)
		}
	}
	r.src, r.buf = nil, nil
}

// measureConversions times each variant's pack step (measureConversion):
// the first variant's in Result.ConvertMiBPerSec, every named variant's
// in VariantConvertMiBPerSec.
func (r *Runner) measureConversions(res *Result) {
	defer r.useVariant("")
	for i, d := range r.variants {
		r.useVariant(d.name)
		one := &Result{}
		r.measureConversion(one)
		if i == 0 {
			res.ConvertMiBPerSec = one.ConvertMiBPerSec
		}
		if d.name != "" && one.ConvertMiBPerSec != nil {
			if res.VariantConvertMiBPerSec == nil {
				res.VariantConvertMiBPerSec = map[string]map[int64]float64{}
			}
			res.VariantConvertMiBPerSec[d.name] = one.ConvertMiBPerSec
		}
	}
}
