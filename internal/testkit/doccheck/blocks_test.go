package doccheck

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBlocksAndMarkers(t *testing.T) {
	doc := "text\n```sh\n# needs: gpfs\n# needs: mpi\niobench sweep --dir /gpfs/x\n```\n```text\nnot run\n```\n```bash\n# example\nmkdir -p x\n```\n"
	bs := blocksOf("d.md", doc)
	if len(bs) != 2 || bs[0].line != 2 || bs[1].line != 10 {
		t.Fatalf("blocks %+v: want the sh block at line 2 and the bash block at 10", bs)
	}
	if diff := cmp.Diff(map[string][]string{"needs": {"gpfs", "mpi"}}, bs[0].markers()); diff != "" {
		t.Errorf("markers (-want +got):\n%s", diff)
	}
	if _, ok := bs[1].markers()["example"]; !ok {
		t.Errorf("example marker not read: %v", bs[1].markers())
	}
	hidden := blocksOf("r.md", "<!-- example -->\n<!-- needs: gfortran -->\n```sh\nls\n```\n<!-- example -->\n\n```sh\nls\n```\n")
	if diff := cmp.Diff(map[string][]string{"example": {""}, "needs": {"gfortran"}}, hidden[0].markers()); diff != "" {
		t.Errorf("hidden markers (-want +got):\n%s", diff)
	}
	if m := hidden[1].markers(); len(m) != 0 {
		t.Errorf("a marker above a blank line is not the block's: %v", m)
	}
}

func TestExamplesRunSmall(t *testing.T) {
	for in, want := range map[string]string{
		"iobench sweep --dir x --jobs 4":                                        "iobench sweep --size 8MiB --max 1MiB --repeat 1 --dir x --jobs 4",
		"mkdir -p x && iobench sweep --dir x --size 1GiB --max 4MiB --repeat 3": "mkdir -p x && iobench sweep --dir x --size 8MiB --max 1MiB --repeat 3",
		"bin/iobench --dir x --sizes 4K,1M":                                     "bin/iobench --size 8MiB --repeat 1 --dir x --sizes 4K,1M",
		"iobench runtime gfortran --dir rt --seed 1":                            "iobench runtime gfortran --size 8MiB --repeat 1 --dir rt --seed 1",
		"iobench sweep --dir x --repeat auto --time-budget 1m":                  "iobench sweep --size 8MiB --max 1MiB --dir x --repeat auto --time-budget 1m",
		"scripts/knee-repeat.sh d 5 --size 256MiB":                              "scripts/knee-repeat.sh d 5 --size 8MiB",
		"gcc -O2 -o p testdata/pr91030-bench.c && ./p":                          "gcc -DN=1048576 -O2 -o p testdata/pr91030-bench.c && ./p",
		"iobench clean --dir x":                                                 "iobench clean --dir x",
		"iobench analyze a.json --format json":                                  "iobench analyze a.json --format json",
		"go test ./iobench -run XXX -bench Fill -count 4":                       "go test ./iobench -run XXX -benchtime 1x -bench Fill -count 1",
		"go test ./x -bench B -benchtime 30x -count 4":                          "go test ./x -benchtime 1x -bench B -count 1",
		"go test ./analyze -run '^$' -fuzz F -fuzztime 30s":                     "go test ./analyze -run '^$' -fuzz F -fuzztime 2s",
	} {
		if got := small(in); got != want {
			t.Errorf("small(%q)\n = %q\nwant %q", in, got, want)
		}
	}
}

func TestExampleCommandsSpanningLinesAreOneCommand(t *testing.T) {
	b := block{lines: []string{"# example", "iobench sweep --dir d \\", "    --size 256MiB --max 16MiB", "ls"}}
	want := "# example\niobench sweep --repeat 1 --dir d  --size 8MiB --max 1MiB\nls\n"
	if got := b.script(); got != want {
		t.Errorf("script:\n%q\nwant\n%q", got, want)
	}
}
