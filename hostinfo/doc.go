// Package hostinfo gathers facts about the machine a benchmark ran on (kernel,
// CPU, memory, Go version), so a bug report carries them without asking.
// Reading is best effort: a fact that cannot be read is left empty.
//
// It owns facts about the machine; it must not import other iobench
// packages, and reads /proc and uname only.
package hostinfo
