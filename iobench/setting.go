package iobench

import (
	"fmt"
	"regexp"
)

// Setting names something a caller sets in a Config, in the library's
// errors, notes and warnings. The library writes a reference as {Name}
// (Ref); a caller renders references in its own words with Render: the
// CLI as its flags, a library caller as the Config fields. So a library
// caller is never told about a flag it does not have.
type Setting string

// Settings of a sweep. Most are Config fields; MinSize and MaxSize bound
// Sizes, Profile is the preset a caller chose.
const (
	SetDir          Setting = "Dir"
	SetCount        Setting = "Count"
	SetType         Setting = "Type"
	SetConvert      Setting = "Convert"
	SetStride       Setting = "Stride"
	SetSizes        Setting = "Sizes"
	SetMinSize      Setting = "MinSize"
	SetMaxSize      Setting = "MaxSize"
	SetRepeat       Setting = "Repeat"
	SetTimeBudget   Setting = "TimeBudget"
	SetKneeFraction Setting = "KneeFraction"
	SetOrder        Setting = "Order"
	SetSeed         Setting = "Seed"
	SetFsync        Setting = "Fsync"
	SetSync         Setting = "Sync"
	SetWarmup       Setting = "Warmup"
	SetSource       Setting = "Source"
	SetForce        Setting = "Force"
	SetVerify       Setting = "Verify"
	SetKeep         Setting = "Keep"
	SetMode         Setting = "Mode"
	SetDirect       Setting = "Direct"
	SetDrop         Setting = "Drop"
	SetProfile      Setting = "Profile"
	SetTimeLimit    Setting = "TimeLimit"
	SetData         Setting = "Data"
	SetFlush        Setting = "Flush"
	SetOpenSync     Setting = "OpenSync"
	SetPreallocate  Setting = "Preallocate"
	SetOverwrite    Setting = "Overwrite"
	SetLatency      Setting = "Latency"
	SetLatencyAll   Setting = "LatencyAll"
	SetJobs         Setting = "Jobs"
	SetVariants     Setting = "Variants"
	SetReadShift    Setting = "ReadShift"
)

// Ref is the setting as a reference inside a message: "{Count}".
func (s Setting) Ref() string { return "{" + string(s) + "}" }

// FieldName renders a setting as its Config field: the words for a
// library caller, and what Error methods use.
func FieldName(s Setting) string { return string(s) }

var settingRef = regexp.MustCompile(`\{([A-Z][A-Za-z]*)\}`)

// Render replaces each setting reference in text with name(setting).
func Render(text string, name func(Setting) string) string {
	return settingRef.ReplaceAllStringFunc(text, func(ref string) string {
		return name(Setting(ref[1 : len(ref)-1]))
	})
}

// RenderAll renders every text in place.
func RenderAll(texts []string, name func(Setting) string) []string {
	for i, t := range texts {
		texts[i] = Render(t, name)
	}
	return texts
}

// ConfigError is a setting a sweep cannot run with.
type ConfigError struct {
	Field  Setting // what is wrong
	Value  string  // its value as the library saw it
	Reason string  // why, in words that may reference settings ({Count})
}

// Error names the field and the reason in Config terms: "Count: 0 must be
// positive".
func (e *ConfigError) Error() string { return e.Message(FieldName) }

// Message is the error in a caller's words: name renders each setting.
func (e *ConfigError) Message(name func(Setting) string) string {
	return name(e.Field) + ": " + Render(e.Reason, name)
}

// configErr is a ConfigError on field with value v; the reason is
// formatted from format and args.
func configErr(field Setting, v any, format string, args ...any) *ConfigError {
	return &ConfigError{Field: field, Value: fmt.Sprint(v), Reason: fmt.Sprintf(format, args...)}
}
