package cli

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/iobench/iobench/advice"
	"github.com/iobench/iobench/binary"
	"github.com/iobench/iobench/preload"
	"github.com/iobench/iobench/report"
	"github.com/iobench/iobench/units"
)

// candidate is one setting tune tries on the program.
type candidate struct {
	name    string
	env     []string // NAME=VALUE for the program
	source  string   // app's advice, a neighbour of it, --set
	advised bool     // the value app's estimate is for
	code    []string // how to set it in the program, for the apply lines
	shim    bool     // the stdio shim: its traced run reports that it loaded
}

// sourceSet is the source of a candidate the user gave.
const sourceSet = "--set"

// maxTuneBuffer caps the neighbours tune tries: a buffer per open file.
const maxTuneBuffer = 256 << 20

// candidates are the settings to try: for each runtime the program
// links, app's advised value and its neighbours; then each --set. cannot
// lists the knobs no environment reaches.
func candidates(rep *report.AppReport, sets []string, shim *preload.Shim, shimWhy, scratch string) (out []candidate, cannot []string) {
	p := rep.Program
	kinds := map[string]bool{}
	for _, l := range p.Libraries {
		kinds[l.Kind] = true
	}
	if kinds[string(binary.Gfortran)] {
		out = append(out, gfortranCandidates(rep)...)
	}
	if kinds[string(binary.IntelFortran)] {
		out = append(out, intelCandidate(rep))
	}
	if stdioWrites(p) {
		if shim != nil {
			out = append(out, stdioCandidates(rep, *shim)...)
		} else {
			cannot = append(cannot, "C stdio: "+shimWhy)
		}
	}
	if kinds[string(binary.OpenMPI)] || kinds[string(binary.MPICH)] {
		out = append(out, mpiCandidates(rep, kinds[string(binary.OpenMPI)], scratch)...)
		cannot = append(cannot, passedThrough(p)...)
	}
	if kinds[string(binary.HDF5)] {
		cannot = append(cannot, "HDF5: its alignment, chunk cache and metadata block size are set by the program (H5Pset_alignment, H5Pset_cache, H5Pset_meta_block_size), not from outside; tune tries the MPI-IO and stdio settings beneath it")
	}
	cannot = append(cannot, unreachable(kinds)...)
	if len(out) == 0 {
		cannot = append(cannot, ownCalls(rep)...)
	}
	for _, s := range sets {
		out = append(out, candidate{name: s, env: []string{s}, source: sourceSet})
	}
	return dedupe(out), cannot
}

// stdioWrites says whether C stdio made the program's calls.
func stdioWrites(p *report.AppProgram) bool {
	return slices.ContainsFunc(p.Behaviours, func(b advice.Behaviour) bool { return b.Runtime == advice.RuntimeStdio })
}

// advisedValue is the first apply row's value for setting, parsed.
func advisedValue(rep *report.AppReport, setting string) int64 {
	if rep.Estimate == nil {
		return 0
	}
	for _, a := range rep.Estimate.Apply {
		if a.Setting == setting {
			if m := firstNumber.FindString(a.Value); m != "" {
				v, _ := strconv.ParseInt(m, 10, 64)
				return v
			}
		}
	}
	return 0
}

var firstNumber = regexp.MustCompile(`\d+`)

// neighbours are v/2, v and 2v, without the value already in effect.
func neighbours(v, current, floor int64) []int64 {
	var out []int64
	for _, n := range []int64{v / 2, v, 2 * v} {
		if n > floor && n != current && n <= maxTuneBuffer {
			out = append(out, n)
		}
	}
	return out
}

// gfortranCandidates are app's advised buffer and its neighbours for
// each libgfortran buffer whose calls app recognised (unformatted,
// formatted); for both when it recognised neither, as the call sizes
// alone cannot say which the program writes.
func gfortranCandidates(rep *report.AppReport) []candidate {
	var out []candidate
	for _, k := range gfortranKnobs(rep.Program.Behaviours) {
		current := envBytes(k.knob, k.def)
		v := advisedValue(rep, k.knob)
		if v == 0 {
			v = 8 * current
		}
		for _, n := range neighbours(v, current, k.def/16) {
			kv := fmt.Sprintf("%s=%d", k.knob, n)
			out = append(out, candidate{name: kv, env: []string{kv}, source: sourceOf(n == v), advised: n == v})
		}
	}
	return out
}

type gfortranKnob struct {
	knob string
	def  int64
}

// gfortranKnobs are the buffers the behaviours show, unformatted first;
// both when none shows.
func gfortranKnobs(bs []advice.Behaviour) []gfortranKnob {
	all := []gfortranKnob{{advice.KnobUnformatted, advice.GfortranUnformattedDefault}, {advice.KnobFormatted, advice.GfortranFormattedDefault}}
	seen := slices.DeleteFunc(slices.Clone(all), func(k gfortranKnob) bool {
		return !slices.ContainsFunc(bs, func(b advice.Behaviour) bool { return b.Runtime == advice.RuntimeLibgfortran && b.Knob == k.knob })
	})
	if len(seen) == 0 {
		return all
	}
	return seen
}

func sourceOf(advised bool) string {
	if advised {
		return "app's advice"
	}
	return "a neighbour of app's advice"
}

func intelCandidate(rep *report.AppReport) candidate {
	v := advisedValue(rep, "FORT_BLOCKSIZE")
	if v == 0 {
		v = 1 << 20
	}
	env := []string{"FORT_BUFFERED=true", fmt.Sprintf("FORT_BLOCKSIZE=%d", v), "FORT_BUFFERCOUNT=1"}
	return candidate{name: strings.Join(env, " "), env: env, source: "app's advice", advised: true}
}

func stdioCandidates(rep *report.AppReport, shim preload.Shim) []candidate {
	v := advisedValue(rep, "setvbuf")
	if v == 0 {
		v = 1 << 20
	}
	blksize := int64(advice.StdioBUFSIZ)
	for _, b := range rep.Program.Behaviours {
		if b.Runtime == advice.RuntimeStdio {
			blksize = b.Buffer
		}
	}
	var out []candidate
	for _, n := range neighbours(v, blksize, blksize) {
		out = append(out, candidate{name: fmt.Sprintf("stdio buffer %d (LD_PRELOAD shim)", n), env: shimEntries(shim.Env(os.Environ(), n, "")),
			source: sourceOf(n == v), advised: n == v, code: []string{"# in C, after fopen: " + advice.StdioSetvbuf(n) + ";"}, shim: true})
	}
	return out
}

// shimEntries are the entries of the shim's environment that set it:
// LD_PRELOAD with the user's own libraries kept after the shim, and its
// buffer.
func shimEntries(env []string) []string {
	var out []string
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k == "LD_PRELOAD" || k == preload.BufferEnv {
			out = append(out, kv)
		}
	}
	return out
}

// mpiCandidates are the ROMIO hints of app's advice and, for Open MPI,
// the MPI-IO component it does not use by default.
func mpiCandidates(rep *report.AppReport, openMPI bool, scratch string) []candidate {
	var out []candidate
	if rep.Estimate != nil {
		for _, a := range rep.Estimate.Apply {
			hints := filepath.Join(scratch, "romio-hints")
			if a.Setting == "ROMIO_HINTS" && os.WriteFile(hints, []byte(a.Value+"\n"), 0o644) == nil {
				out = append(out, candidate{name: "ROMIO hints: " + strings.ReplaceAll(a.Value, "\n", "; "), env: []string{"ROMIO_HINTS=" + hints}, source: "app's advice", advised: true,
					code: append(append([]string{"cat > romio-hints <<'EOF'"}, strings.Split(a.Value, "\n")...), "EOF", `export ROMIO_HINTS="$PWD/romio-hints"`)})
			}
			if a.Setting == advice.SettingBytesPerAgg && a.Value != strconv.Itoa(advice.OMPIOBytesPerAggDefault) {
				out = append(out, candidate{name: a.Setting + "=" + a.Value, env: []string{a.Setting + "=" + a.Value}, source: "app's advice"})
			}
		}
	}
	if openMPI {
		romio := "OMPI_MCA_io=" + romioComponent(rep.Program)
		out = append(out, candidate{name: romio, env: []string{romio}, source: "the other MPI-IO component"},
			candidate{name: "OMPI_MCA_io=ompio", env: []string{"OMPI_MCA_io=ompio"}, source: "the other MPI-IO component"})
		out = append(out, fcollCandidates(rep.Program)...)
	}
	return out
}

// romioComponent is the name of Open MPI's ROMIO component, by release:
// romio321 in 3.x and 4.x, romio341 in 5.x; "^ompio" (any component but
// OMPIO, which leaves ROMIO) when the release is not known.
func romioComponent(p *report.AppProgram) string {
	for _, l := range p.Libraries {
		if l.Kind != string(binary.OpenMPI) {
			continue
		}
		major, _, _ := strings.Cut(l.Version, ".")
		switch n, err := strconv.Atoi(major); {
		case err != nil:
		case n >= 5:
			return "romio341"
		case n >= 2:
			return "romio321"
		}
	}
	return "^ompio"
}

// fcollDefault is the collective component OMPIO picks on most file
// systems (dynamic_gen2 on Lustre) in Open MPI 4.1 and 5.0.
const fcollDefault = "vulcan"

// fcollCollective are OMPIO's collective write components worth trying:
// individual turns collective writes into independent ones.
var fcollCollective = []string{"vulcan", "dynamic_gen2", "two_phase"}

// fcollCandidates are OMPIO's other collective components, when the
// program's writes went through OMPIO's collective buffer: those its
// installation has, except the one in effect.
func fcollCandidates(p *report.AppProgram) []candidate {
	if !slices.ContainsFunc(p.Behaviours, func(b advice.Behaviour) bool {
		return b.Runtime == advice.RuntimeOMPIO && b.Access == advice.AccessCollective
	}) {
		return nil
	}
	current := cmp.Or(os.Getenv("OMPI_MCA_fcoll"), fcollDefault)
	var out []candidate
	for _, c := range installedFcoll(p) {
		if c != current {
			kv := "OMPI_MCA_fcoll=" + c
			out = append(out, candidate{name: kv, env: []string{kv}, source: "another OMPIO collective component"})
		}
	}
	return out
}

// installedFcoll are the collective components as ompi_info would list
// them: the mca_fcoll_*.so beside the program's libmpi (Open MPI's
// lib/openmpi, Debian's lib/openmpi/lib/openmpi3); all of them when
// none is found (a static build).
func installedFcoll(p *report.AppProgram) []string {
	for _, l := range p.Libraries {
		if l.Kind != string(binary.OpenMPI) || l.Lib == "" {
			continue
		}
		lib, err := filepath.EvalSymlinks(l.Lib)
		if err != nil {
			continue
		}
		dir := filepath.Dir(lib)
		var found []string
		for _, c := range fcollCollective {
			for _, pat := range []string{filepath.Join(dir, "openmpi", "mca_fcoll_"+c+".so"), filepath.Join(dir, "openmpi", "lib", "openmpi*", "mca_fcoll_"+c+".so")} {
				if m, _ := filepath.Glob(pat); len(m) > 0 && !slices.Contains(found, c) {
					found = append(found, c)
				}
			}
		}
		if len(found) > 0 {
			return found
		}
	}
	return fcollCollective
}

// passedThrough names the files whose calls MPI-IO handed to pwrite as
// the program made them: no hint reaches their size.
func passedThrough(p *report.AppProgram) []string {
	var out []string
	for _, b := range p.Behaviours {
		if b.Access == advice.AccessIndependent {
			out = append(out, fmt.Sprintf("MPI-IO, %s: the program's own %d-byte calls pass through (%s); only its code sets their size, or collective writes of interleaved data (MPI_File_write_at_all), whose buffer the hints set", b.Path, b.Call, advice.RuntimeTitle(b.Runtime)))
		}
	}
	return out
}

// ownCalls says what app advises for write(2) calls no runtime made:
// their size is in the program's code, out of any setting's reach.
func ownCalls(rep *report.AppReport) []string {
	if len(rep.Inputs) == 0 || rep.Curve == nil || rep.Curve.Recommended == 0 {
		return nil
	}
	var out []string
	for _, f := range rep.Inputs[0].Files {
		if f.Writes == 0 || f.BytesWritten < 1<<20 {
			continue
		}
		mean := f.MeanSize
		if mean >= rep.Curve.Recommended {
			continue
		}
		out = append(out, fmt.Sprintf("%s: the program's own write(2) calls of about %d bytes: their size is in its code, which no setting reaches; app advises calls of at least %d bytes (%s)",
			f.Path, mean, rep.Curve.Recommended, units.FormatSize(rep.Curve.Recommended)))
	}
	return out
}

// unreachable names the runtimes whose buffers no setting reaches.
func unreachable(kinds map[string]bool) []string {
	var out []string
	if kinds[string(binary.Python)] {
		out = append(out, "Python: a file object's buffer is open()'s buffering argument, set in the program; tune cannot set it from outside")
	}
	if kinds[string(binary.Cxx)] {
		out = append(out, "C++ streams: std::ofstream buffers in libstdc++ (rdbuf()->pubsetbuf in the program), which the stdio shim does not reach")
	}
	return out
}

func dedupe(cs []candidate) []candidate {
	var out []candidate
	for _, c := range cs {
		if !slices.ContainsFunc(out, func(o candidate) bool { return o.name == c.name }) {
			out = append(out, c)
		}
	}
	return out
}

// setFlagValue checks one --set: NAME=VALUE with a variable's name.
func setFlagValue(s string) error {
	name, _, ok := strings.Cut(s, "=")
	if !ok || !envVarName.MatchString(name) {
		return usagef("--set: %q is not NAME=VALUE (an environment variable and its value)", s)
	}
	return nil
}

var envVarName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
