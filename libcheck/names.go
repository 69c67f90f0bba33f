package libcheck

import (
	"fmt"
	"strings"

	"github.com/iobench/iobench/units"
)

// CaseName is a library case's group in words: "romio321 shared
// collective strided", "chunked records big-endian".
func CaseName(c Case) string {
	if c.Component != "" {
		mode := "independent"
		if c.Collective {
			mode = "collective"
		}
		return fmt.Sprintf("%s %s %s %s", c.Component, c.Layout, mode, c.Memory)
	}
	return fmt.Sprintf("%s %s %s", c.Storage, c.Layout, c.Convert)
}

// SettingName is what a library case sets, in words: "default",
// "cb_buffer_size 32 MiB", "romio_cb_write=enable".
func SettingName(c Case) string {
	var parts []string
	if c.Switch != "" {
		parts = append(parts, c.Switch)
	}
	if c.Setting != "" {
		parts = append(parts, c.Setting+" "+units.FormatSize(c.BufferBytes))
	}
	if len(parts) == 0 {
		return "default"
	}
	return strings.Join(parts, ", ")
}
