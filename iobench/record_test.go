package iobench

import (
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/iobench/iobench/convert"
	"github.com/iobench/iobench/knee"
	"github.com/iobench/iobench/units"
)

// unreported are the plan's fields a report does not record, and why; a
// new field of Config must reach Config.Record or be listed here.
var unreported = map[string]string{
	"Dir":            "the header's file system records where it ran",
	"Force":          "skips a check, measures nothing differently",
	"Keep":           "the report names the kept file (Report.KeptFile)",
	"Ranks":          "the report's MPI block records the ranks",
	"Writer":         "one writer's place; the report aggregates the writers",
	"ReadShift":      "the report's MPI block records it (MPI.ReadShift)",
	"ReferenceSizes": "where adaptive rounds spend runs; the samples show them",
}

// TestEverySettingIsRecorded: changing any field of the plan, alone,
// changes the record a report keeps of it, unless it is listed as
// unreported; each shared setting (record.Settings) reaches the record
// as it is.
func TestEverySettingIsRecorded(t *testing.T) {
	base := DefaultConfig()
	typ := reflect.TypeOf(base)
	for i := range typ.NumField() {
		f := typ.Field(i)
		tag, tagged := f.Tag.Lookup("record")
		why, skip := unreported[f.Name]
		switch {
		case !tagged:
			t.Errorf("Config.%s has no record tag: name the record.Config field that reports it, or \"-\"", f.Name)
		case skip != (tag == "-"):
			t.Errorf("Config.%s: tag %q, and unreported lists it: %v; a field not reported is tagged \"-\" and listed with the reason", f.Name, tag, skip)
		case f.Anonymous:
			checkSharedSettings(t, base, i)
		default:
			c := base
			changeField(t, reflect.ValueOf(&c).Elem().Field(i), f)
			diff := cmp.Diff(base.Record(), c.Record())
			if skip && diff != "" {
				t.Errorf("Config.%s is listed as unreported (%s), but the record changes with it", f.Name, why)
			} else if !skip && diff == "" {
				t.Errorf("Config.%s changed, and its record did not: report it in Config.Record or list it in unreported", f.Name)
			}
		}
	}
}

// checkSharedSettings changes each field of the embedded settings, the
// field at of Config, and wants the record's copy to change with it.
func checkSharedSettings(t *testing.T, base Config, at int) {
	t.Helper()
	settings := reflect.TypeOf(base).Field(at).Type
	for j := range settings.NumField() {
		c := base
		changeField(t, reflect.ValueOf(&c).Elem().Field(at).Field(j), settings.Field(j))
		got := reflect.ValueOf(c.Record().Settings).Field(j).Interface()
		if want := reflect.ValueOf(c.Settings).Field(j).Interface(); !reflect.DeepEqual(got, want) || cmp.Equal(base.Record(), c.Record()) {
			t.Errorf("Settings.%s = %v, and the record has %v", settings.Field(j).Name, want, got)
		}
	}
}

// changeField sets v, the field f of a default plan, to another value.
func changeField(t *testing.T, v reflect.Value, f reflect.StructField) {
	t.Helper()
	switch {
	case f.Type == reflect.TypeOf(time.Duration(0)):
		v.SetInt(v.Int() + int64(3*time.Second))
	case f.Type == reflect.TypeOf([]Variant(nil)):
		v.Set(reflect.ValueOf([]Variant{{Name: "convert=big-endian", Type: convert.Float64, Convert: convert.BigEndian}}))
	case f.Type.Kind() == reflect.Bool:
		v.SetBool(!v.Bool())
	case f.Type.Kind() == reflect.String:
		v.SetString(v.String() + "x")
	case f.Type.Kind() == reflect.Float64:
		v.SetFloat(v.Float() + 0.25)
	case v.CanInt():
		v.SetInt(v.Int() + 1)
	case v.CanUint():
		v.SetUint(v.Uint() + 1)
	case f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.Int64:
		v.Set(reflect.Append(v, reflect.ValueOf(int64(1<<27))))
	default:
		t.Fatalf("Config.%s: no way to change a %v here; add one", f.Name, f.Type)
	}
}

// TestRecordOfTheDefaultConfig: the record spells the plan out, enums as
// words, sizes in bytes, the knee fraction defaulted.
func TestRecordOfTheDefaultConfig(t *testing.T) {
	c := DefaultConfig()
	c.Sizes = units.PowersOfTwo(4<<10, 1<<20)
	c.KneeFraction = 0.9
	got := c.Record()
	if got.ElementType != c.Type.String() || got.TotalBytes != c.TotalBytes() || got.Mode != c.Mode ||
		got.Order != c.Order || got.KneeFraction != 0.9 || len(got.Sizes) != 9 || got.Variants != nil {
		t.Errorf("Record(DefaultConfig) = %+v", got)
	}
	c.KneeFraction = 0
	if got := c.Record(); got.KneeFraction != knee.DefaultFraction {
		t.Errorf("a plan without a knee fraction is reported with %v, want the default %v", got.KneeFraction, knee.DefaultFraction)
	}
}
