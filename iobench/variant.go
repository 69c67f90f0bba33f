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

// VariantCountError is the rule of the variants' number, for a command
// that makes them before the whole plan: at most MaxVariants.
func (c Config) VariantCountError() error {
	if len(c.Variants) > MaxVariants {
		return configErr(SetVariants, len(c.Variants), "%d variants are more than %d (each runs every size in every round)", len(c.Variants), MaxVariants)
	}
	return nil
}

// validVariants checks each variant as a plan of its own, and that the
// variants can be told apart.
func (c Config) validVariants() error {
	if err := c.VariantCountError(); err != nil {
		return err
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
	buf    []byte // conversion buffer, one write size; nil without conversion
	// stampEvery is the elements per write call of the last write pass
	// when its blocks were stamped (stampsBlocks), 0 otherwise.
	stampEvery int64
}

// newVariantData makes the packer, source and conversion buffer of the
// variant whose plan is cfg; src, if not nil, is a source of the same
// data to share. On failure it holds what it allocated, for free.
func newVariantData(name string, cfg Config, src *source, stop func() bool, progress func(int64)) (*variantData, error) {
	d := &variantData{name: name, cfg: cfg, src: src}
	packer, err := convert.NewPacker(cfg.Type, cfg.Convert, cfg.Stride)
	if err != nil {
		return d, err
	}
	d.packer = packer
	if src == nil {
		if d.src, err = newSource(cfg, stop, progress); err != nil {
			return d, err
		}
	}
	if !packer.Identity() {
		d.buf, err = allocAligned(cfg.MaxSize())
	}
	return d, err
}

// variantSet is the data of every variant of a sweep, and which of them
// the runs use now.
type variantSet struct {
	plan    Config         // the sweep as given, every variant in it
	all     []*variantData // in plan order
	cur     *variantData
	scratch []byte // read runs' destination with several variants (readScratch)
}

// setup prepares the data of every variant of plan; variants of one
// element type share a source (a conversion reads it, never writes it).
// fill reports the bytes of the source filled so far.
func (vs *variantSet) setup(plan Config, stop func() bool, fill func(int64)) error {
	vs.plan = plan
	for _, v := range plan.VariantList() {
		d, err := newVariantData(v.Name, plan.ForVariant(v), vs.sourceOf(v.Type), stop, fill)
		vs.all = append(vs.all, d) // held even on failure, so free frees what was allocated
		if err != nil {
			return err
		}
	}
	return nil
}

// sourceOf is the source a variant of element type t shares, nil if none.
func (vs *variantSet) sourceOf(t convert.Type) *source {
	var src *source
	for _, d := range vs.all {
		if d.cfg.Type == t {
			src = d.src
		}
	}
	return src
}

// use makes the named variant current and returns its plan; "" (or a
// name not in the plan) is the first.
func (vs *variantSet) use(name string) Config {
	vs.cur = vs.all[0]
	for _, d := range vs.all {
		if d.name == name {
			vs.cur = d
		}
	}
	return vs.cur.cfg
}

// free returns every variant's source and buffer, a shared source once,
// and the read scratch.
func (vs *variantSet) free() {
	var freed []*source
	for _, d := range vs.all {
		if d.src != nil && !slices.Contains(freed, d.src) {
			freed = append(freed, d.src)
			d.src.free()
		}
		freeAligned(d.buf)
	}
	freeAligned(vs.scratch)
	vs.cur, vs.scratch = nil, nil
}

// readScratch is where read runs put the data when the sweep has
// several variants: the read file holds the first variant's bytes, and
// reading them into a source another variant shares (another byte
// order, another type) would change what later runs write. One variant
// reads into its own source, as the reference program reads into its
// array. nil for one variant, whose blocks are not stamped.
func (vs *variantSet) readScratch() ([]byte, error) {
	// One variant reads into its source, unless its blocks are stamped:
	// the stamps read back would stay in the window.
	if len(vs.all) < 2 && !vs.plan.stampsBlocks() {
		return nil, nil
	}
	if vs.scratch == nil {
		b, err := allocAligned(vs.plan.MaxSize())
		if err != nil {
			return nil, err
		}
		vs.scratch = b
	}
	return vs.scratch, nil
}

// measureConversions times each variant's pack step (convertSpeeds):
// the first variant's in Result.ConvertMiBPerSec, every named variant's
// in VariantConvertMiBPerSec.
func (vs *variantSet) measureConversions(res *Result) {
	for i, d := range vs.all {
		speeds := d.convertSpeeds()
		if i == 0 {
			res.ConvertMiBPerSec = speeds
		}
		if d.name != "" && speeds != nil {
			if res.VariantConvertMiBPerSec == nil {
				res.VariantConvertMiBPerSec = map[string]map[int64]float64{}
			}
			res.VariantConvertMiBPerSec[d.name] = speeds
		}
	}
}
