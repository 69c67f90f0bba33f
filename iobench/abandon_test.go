package iobench

import (
	"context"
	"testing"
	"time"

	"github.com/iobench/iobench/internal/testkit/testwait"
)

// An unlink(2) that hangs in the kernel, then a second Ctrl-C: Abandon
// names the file whose removal hangs, though it is no longer the
// writer's to remove.
func TestAbandonNamesAFileWhoseRemovalHangs(t *testing.T) {
	m := newMemFS()
	release := make(chan struct{})
	defer close(release)
	m.onRemove = func() { <-release }
	c := smallConfig()
	c.Sizes = []int64{1024}
	r := &Runner{Config: c, FS: m}
	done := make(chan error, 1)
	go func() {
		_, err := r.Run(context.Background())
		done <- err
	}()
	testwait.Until(t, "a removal in the kernel", func() bool { return r.Phase() == PhaseRemove })
	names := m.names()
	left := r.Abandon(time.Millisecond) // the removal is held until the test ends
	if len(names) != 1 || len(left) != 1 || left[0] != names[0] {
		t.Errorf("Abandon named %v; want the file whose removal hangs, %v", left, names)
	}
	release <- struct{}{}
	testwait.Recv(t, "end of the run", done)
}
