//go:build !linux

package report

func renameNoReplace(from, to string) error { return linkNoReplace(from, to) }
