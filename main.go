// Command iobench measures how file write throughput depends on the size of
// each write(2), finds the knee where it levels off, and says which buffer
// size a program should use on that file system.
//
// The program is package internal/cli; this file only starts it.
package main

import (
	"os"

	"github.com/iobench/iobench/internal/cli"
)

func main() { os.Exit(cli.Main()) }
