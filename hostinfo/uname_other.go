//go:build !linux

package hostinfo

// uname returns empty strings off Linux: Read leaves facts it cannot read
// the Linux way empty rather than guess them.
func uname() (kernel, arch string) {
	return "", ""
}
