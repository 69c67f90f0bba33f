package hostinfo

import "golang.org/x/sys/unix"

// uname returns the kernel as `uname -sr` prints it and the machine as
// `uname -m` does; both are empty if uname(2) fails.
func uname() (kernel, arch string) {
	var u unix.Utsname
	if err := unix.Uname(&u); err != nil {
		return "", ""
	}
	return unix.ByteSliceToString(u.Sysname[:]) + " " + unix.ByteSliceToString(u.Release[:]),
		unix.ByteSliceToString(u.Machine[:])
}
