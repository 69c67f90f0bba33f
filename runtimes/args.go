package runtimes

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/iobench/iobench/libcheck"
)

// libraryArgs are the writer's arguments for job j on path.
func libraryArgs(j libcheck.Job, rt libcheck.Runtime, path string) []string {
	i64 := func(n int64) string { return strconv.FormatInt(n, 10) }
	c, lp := j.Case, j.Library
	if rt == libcheck.HDF5 {
		chunk, tconv, align, sieve := int64(0), int64(0), int64(0), int64(0)
		if c.Storage == libcheck.StorageChunked {
			chunk = lp.ChunkBytes
		}
		switch c.Setting {
		case libcheck.SettingTconv:
			tconv = c.BufferBytes
		case libcheck.SettingAlignment:
			align = c.BufferBytes
		case libcheck.SettingSieve:
			sieve = c.BufferBytes
		}
		return []string{path, i64(j.Elements), i64(j.RecordBytes), i64(chunk), flag(c.Swap()), i64(tconv), i64(align), i64(sieve), flag(j.Fsync)}
	}
	mode := "independent"
	if c.Collective {
		mode = "collective"
	}
	return []string{strings.TrimSuffix(path, ".dat"), i64(j.Bytes()), i64(lp.CallBytes), string(c.Layout), mode, c.Memory,
		lp.Type, strconv.Itoa(lp.Stride), flag(j.Fsync), hintList(c), lp.DataSource()}
}

// hintList is the case's MPI_Info hints as the writer takes them.
func hintList(c libcheck.Case) string {
	var hints []string
	if c.Switch != "" {
		hints = append(hints, c.Switch)
	}
	if c.Setting == libcheck.SettingCBBuffer || c.Setting == libcheck.SettingIndWrBuffer {
		hints = append(hints, fmt.Sprintf("%s=%d", c.Setting, c.BufferBytes))
	}
	if len(hints) == 0 {
		return "-"
	}
	return strings.Join(hints, ",")
}
