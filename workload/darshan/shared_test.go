package darshan

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// sharedDarshan is the folder of test logs: $IOBENCH_SHARED/darshan, or
// the shared folder beside the repository. Tests skip without it.
func sharedDarshan(t testing.TB) string {
	t.Helper()
	dir, err := sharedDir()
	if err != nil {
		t.Skipf("no shared Darshan logs: %v", err)
	}
	return dir
}

func sharedDir() (string, error) {
	dir := filepath.Join("..", "..", "..", "shared", "darshan")
	if s := os.Getenv("IOBENCH_SHARED"); s != "" {
		dir = filepath.Join(s, "darshan")
	}
	_, err := os.Stat(filepath.Join(dir, "logs"))
	return dir, err
}

// sharedLogs lists every log of logs/corpus and logs/generated.
func sharedLogs(t testing.TB) []string {
	t.Helper()
	dir := sharedDarshan(t)
	var logs []string
	for _, sub := range []string{"corpus", "generated"} {
		m, err := filepath.Glob(filepath.Join(dir, "logs", sub, "*.darshan"))
		if err != nil {
			t.Fatal(err)
		}
		logs = append(logs, m...)
	}
	if len(logs) == 0 {
		t.Fatalf("no logs under %s", dir)
	}
	slices.Sort(logs)
	return logs
}

func readShared(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
