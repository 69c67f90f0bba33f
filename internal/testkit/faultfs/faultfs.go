//go:build linux

package faultfs

import (
	"context"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"

	"github.com/iobench/iobench/internal/testkit/testenv"
)

// Op is an operation a fault can be set on.
type Op int

const (
	Write Op = iota
	Fsync
	Close // the flush on close(2)
	Unlink
	Statfs // statfs(2) of any path on the mount
)

// Fault is what an operation does instead of succeeding at once. Zero is
// no fault.
type Fault struct {
	Err   syscall.Errno // fail with this errno
	Delay time.Duration // then (or instead) take this long
	// Hang blocks until Release, as a dead server does. Like an NFS client,
	// the kernel then lets only a fatal signal end the wait: it sends the
	// server an interrupt, which a hung call answers with EINTR.
	Hang bool
	// Deaf makes a hang ignore interrupts too: not even SIGKILL ends the
	// wait until Release (FUSE waits out a request its server holds).
	Deaf  bool
	Short bool // writes only: accept half the bytes
}

// FS is one mounted fault file system.
type FS struct {
	Dir     string // the mount point
	mu      sync.Mutex
	faults  map[Op]Fault
	hits    map[Op]int
	hung    map[Op]int
	release chan struct{}
	server  *fuse.Server
}

// Mount mounts a fault file system over a new temp directory and
// unmounts it when the test ends.
func Mount(t testing.TB) *FS {
	t.Helper()
	testenv.Full(t, "root and a FUSE mount")
	if os.Geteuid() != 0 {
		t.Skip("mounting a FUSE file system needs root")
	}
	if _, err := os.Stat("/dev/fuse"); err != nil {
		t.Skip("no /dev/fuse:", err)
	}
	f := &FS{Dir: t.TempDir(), faults: map[Op]Fault{}, hits: map[Op]int{}, hung: map[Op]int{}, release: make(chan struct{})}
	root := &fs.LoopbackRoot{Path: t.TempDir()}
	root.NewNode = func(r *fs.LoopbackRoot, _ *fs.Inode, _ string, _ *syscall.Stat_t) fs.InodeEmbedder {
		return &node{LoopbackNode: fs.LoopbackNode{RootData: r}, ff: f}
	}
	var st syscall.Stat_t
	if err := syscall.Stat(root.Path, &st); err != nil {
		t.Fatal(err)
	}
	root.Dev = uint64(st.Dev)
	root.RootNode = root.NewNode(root, nil, "", &st)
	opts := &fs.Options{MountOptions: fuse.MountOptions{DirectMount: true, FsName: "faultfs", Name: "faultfs", AllowOther: true}}
	server, err := fs.Mount(f.Dir, root.RootNode, opts)
	if err != nil {
		t.Skip("cannot mount a FUSE file system here:", err)
	}
	f.server = server
	t.Cleanup(f.unmount)
	return f
}

func (f *FS) unmount() {
	f.Release()
	if f.server.Unmount() != nil {
		_ = syscall.Unmount(f.Dir, syscall.MNT_DETACH)
	}
}

// Set makes op do fault from now on; Fault{} heals it.
func (f *FS) Set(op Op, fault Fault) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.faults[op] = fault
}

// Release lets every hung operation go on, and no later one hang.
func (f *FS) Release() {
	f.mu.Lock()
	defer f.mu.Unlock()
	select {
	case <-f.release:
	default:
		close(f.release)
	}
}

// Hits is how many times op was called.
func (f *FS) Hits(op Op) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.hits[op]
}

// Hung is how many calls of op are hanging now.
func (f *FS) Hung(op Op) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.hung[op]
}

// inject applies op's fault: it returns the errno to fail with (0: go on)
// and whether a write is to be short.
func (f *FS) inject(ctx context.Context, op Op) (syscall.Errno, bool) {
	f.mu.Lock()
	fault := f.faults[op]
	f.hits[op]++
	if fault.Hang {
		f.hung[op]++
	}
	f.mu.Unlock()
	if fault.Hang {
		var errno syscall.Errno
		select {
		case <-f.release:
		case <-deaf(ctx, fault.Deaf):
			errno = syscall.EINTR
		}
		f.mu.Lock()
		f.hung[op]--
		f.mu.Unlock()
		if errno != 0 {
			return errno, false
		}
	}
	time.Sleep(fault.Delay)
	return fault.Err, fault.Short
}

type node struct {
	fs.LoopbackNode
	ff *FS
}

var (
	_ fs.NodeCreater  = (*node)(nil)
	_ fs.NodeOpener   = (*node)(nil)
	_ fs.NodeUnlinker = (*node)(nil)
	_ fs.NodeStatfser = (*node)(nil)
)

func (n *node) Statfs(ctx context.Context, out *fuse.StatfsOut) syscall.Errno {
	if errno, _ := n.ff.inject(ctx, Statfs); errno != 0 {
		return errno
	}
	return n.LoopbackNode.Statfs(ctx, out)
}

func (n *node) Create(ctx context.Context, name string, flags, mode uint32, out *fuse.EntryOut) (*fs.Inode, fs.FileHandle, uint32, syscall.Errno) {
	in, fh, fl, errno := n.LoopbackNode.Create(ctx, name, flags, mode, out)
	return in, n.wrap(fh), fl, errno
}

func (n *node) Open(ctx context.Context, flags uint32) (fs.FileHandle, uint32, syscall.Errno) {
	fh, fl, errno := n.LoopbackNode.Open(ctx, flags)
	return n.wrap(fh), fl, errno
}

func (n *node) Unlink(ctx context.Context, name string) syscall.Errno {
	if errno, _ := n.ff.inject(ctx, Unlink); errno != 0 {
		return errno
	}
	return n.LoopbackNode.Unlink(ctx, name)
}

func (n *node) wrap(fh fs.FileHandle) fs.FileHandle {
	if lf, ok := fh.(*fs.LoopbackFile); ok {
		return &file{LoopbackFile: lf, ff: n.ff}
	}
	return fh
}

// file is a loopback file whose writes, fsyncs and flushes obey the faults.
type file struct {
	*fs.LoopbackFile
	ff *FS
}

func (f *file) Write(ctx context.Context, data []byte, off int64) (uint32, syscall.Errno) {
	errno, short := f.ff.inject(ctx, Write)
	if errno != 0 {
		return 0, errno
	}
	if short && len(data) > 1 {
		data = data[:len(data)/2]
	}
	return f.LoopbackFile.Write(ctx, data, off)
}

func (f *file) Fsync(ctx context.Context, flags uint32) syscall.Errno {
	if errno, _ := f.ff.inject(ctx, Fsync); errno != 0 {
		return errno
	}
	return f.LoopbackFile.Fsync(ctx, flags)
}

func (f *file) Flush(ctx context.Context) syscall.Errno {
	if errno, _ := f.ff.inject(ctx, Close); errno != 0 {
		return errno
	}
	return f.LoopbackFile.Flush(ctx)
}

// PassthroughFd refuses FUSE passthrough: the kernel would send reads and
// writes straight to the backing file, past the faults.
func (f *file) PassthroughFd() (int, bool) { return -1, false }

// deaf is ctx's Done, or nil (never ready) for a hang deaf to interrupts.
func deaf(ctx context.Context, isDeaf bool) <-chan struct{} {
	if isDeaf {
		return nil
	}
	return ctx.Done()
}
