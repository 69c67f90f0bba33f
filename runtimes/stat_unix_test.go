//go:build unix

package runtimes

import (
	"encoding/binary"
	"os"
	"syscall"
)

// blksize is st_blksize, which sets glibc's default stdio buffer.
func blksize(fi os.FileInfo) int64 { return int64(fi.Sys().(*syscall.Stat_t).Blksize) }

func littleEndianHost() bool { return binary.NativeEndian.Uint16([]byte{1, 0}) == 1 }
