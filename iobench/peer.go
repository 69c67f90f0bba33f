package iobench

import (
	"os"

	"golang.org/x/sys/unix"
)

// identifier is a file system that can tell a name's identity without
// opening it or following a symlink.
type identifier interface {
	Identify(name string) (FileID, error)
}

// Identify is name's identity (lstat): none for anything but a regular
// file.
func (o OSFS) Identify(name string) (FileID, error) {
	var st unix.Stat_t
	if err := unix.Lstat(o.Path(name), &st); err != nil {
		return FileID{}, &os.PathError{Op: "stat", Path: o.Path(name), Err: err}
	}
	return statID(&st), nil
}

// peerID is the identity, as this host sees it, of a file another process
// created, given the creator's identity. On the creator's host both are
// the same device and inode. On another client of a network file system
// (NFS, Lustre, GPFS) the device number is the client's own while the
// inode number is the server's, the same on every client; so from another
// host the name must lead to a regular file with the creator's inode, and
// this host's device number completes the identity every later open and
// removal checks. The creator's host is in the file's name.
func (t *fileTable) peerID(name string, id FileID) (FileID, error) {
	l, named := parseLeftover(name, nameHost())
	idf, can := t.fs.(identifier)
	if !named || l.State != OtherHost || !can || id == (FileID{}) {
		return id, nil
	}
	local, err := idf.Identify(name)
	if err != nil {
		return FileID{}, err
	}
	if local.Ino != id.Ino || local == (FileID{}) {
		return FileID{}, &ReplacedError{Path: t.path(name), Want: id, Now: whatIs(local) + " as host " + nameHost() + " sees it (host " + l.Host + " made it)"}
	}
	return local, nil
}
