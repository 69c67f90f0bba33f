package cli

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os"
	"testing"
)

// typedValue is element i as the Go type named by --type.
func typedValue(typ string, i int) any {
	switch typ {
	case "int32":
		return int32(i)
	case "int64":
		return int64(i)
	case "float32":
		return float32(i)
	case "float64":
		return float64(i)
	case "complex64":
		return complex(float32(i), 0)
	}
	return complex(float64(i), 0)
}

// TestKeptFileHoldsTheValuesInTheRequestedOrder checks the bytes on disk
// against encoding/binary for every type and byte order.
func TestKeptFileHoldsTheValuesInTheRequestedOrder(t *testing.T) {
	orders := map[string]binary.ByteOrder{
		"native": binary.NativeEndian, "big-endian": binary.BigEndian, "little-endian": binary.LittleEndian,
		"swap": swapped(),
	}
	for _, typ := range []string{"int32", "int64", "float32", "float64", "complex64", "complex128"} {
		for name, order := range orders {
			dir := t.TempDir()
			out, errOut, code := runCLI(t, "sweep", "--dir", dir, "--size", "64KiB", "--sizes", "4KiB,16KiB",
				"--type", typ, "--convert", name, "--keep", "--verify", "--format", "json", "--profile", "generic",
				"--sync", "none", "--no-progress")
			if code != 0 {
				t.Fatalf("%s %s: exit %d: %s", typ, name, code, errOut)
			}
			var doc struct {
				KeptFile string `json:"kept_file"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.KeptFile == "" {
				t.Fatalf("%s %s: no kept_file in the report (%v)", typ, name, err)
			}
			got, err := os.ReadFile(doc.KeptFile)
			if err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			for i := 0; want.Len() < len(got); i++ {
				_ = binary.Write(&want, order, typedValue(typ, i))
			}
			if !bytes.Equal(got, want.Bytes()) || len(got) != 64<<10 {
				t.Errorf("%s %s: file differs from encoding/binary's values (len %d)", typ, name, len(got))
			}
			if left := dirEntries(t, dir); len(left) != 1 {
				t.Errorf("%s %s: files in --dir %v, want just the kept one", typ, name, left)
			}
		}
	}
}

// swapped is the byte order opposite to this machine's.
func swapped() binary.ByteOrder {
	var probe [2]byte
	binary.NativeEndian.PutUint16(probe[:], 1)
	if probe[0] == 1 {
		return binary.BigEndian
	}
	return binary.LittleEndian
}
