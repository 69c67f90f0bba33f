package darshan

import (
	"bytes"
	"io"
	"strings"
	"time"
)

const (
	// jobRecordSize is what darshan reads of the job region: the job
	// struct, then the exe line and mount table up to this size.
	jobRecordSize = 4096
	metadataLen   = 1024
)

func (p *parser) readJob() error {
	m, err := p.h.jobRegion(p.size)
	if err != nil {
		return err
	}
	rr := p.openRegion("job", m)
	buf := make([]byte, jobRecordSize)
	n, err := io.ReadFull(rr, buf)
	// A short region is normal; a decompression fault is not.
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return err
	}
	// darshan uses only the first jobRecordSize bytes, but zlib and bzip2
	// check their data at the stream's end: read on to it, or a corrupt
	// region that inflates past that size would pass unchecked.
	if n == len(buf) {
		if _, err := io.Copy(io.Discard, rr); err != nil {
			return err
		}
	}
	buf = buf[:n]
	fixed := p.jobFixedSize()
	if len(buf) < fixed {
		return formatErr("job", int64(m.off), "job record is %d bytes, format %s needs %d", len(buf), p.h.version, fixed)
	}
	p.log.Job = p.decodeJob(buf[:fixed])
	return p.decodeExeAndMounts(cString(buf[fixed:]), int64(m.off))
}

// jobFixedSize is the job struct's size: 3.41 added nanoseconds to the
// start and end times.
func (p *parser) jobFixedSize() int {
	if p.h.minor >= 41 {
		return 7*8 + metadataLen
	}
	return 5*8 + metadataLen
}

func (p *parser) decodeJob(b []byte) Job {
	next := func() int64 {
		v := int64(p.h.order.Uint64(b))
		b = b[8:]
		return v
	}
	var j Job
	var startSec, startNsec, endSec, endNsec int64
	j.UID = next()
	startSec = next()
	if p.h.minor >= 41 {
		startNsec = next()
	}
	endSec = next()
	if p.h.minor >= 41 {
		endNsec = next()
	}
	j.NProcs = next()
	j.JobID = next()
	j.Start = time.Unix(startSec, startNsec).UTC()
	j.End = time.Unix(endSec, endNsec).UTC()
	if p.h.minor >= 41 {
		j.RunTime = (float64(endSec) + float64(endNsec)/1e9) - (float64(startSec) + float64(startNsec)/1e9)
	} else {
		j.RunTime = float64(endSec - startSec + 1)
	}
	j.Metadata = parseMetadata(cString(b[:metadataLen]))
	return j
}

// parseMetadata splits "key=value" lines at their first '='; lines
// without one are skipped, as darshan-parser does.
func parseMetadata(s string) map[string]string {
	md := map[string]string{}
	for line := range strings.SplitSeq(s, "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			md[k] = v
		}
	}
	return md
}

// decodeExeAndMounts splits the text after the job struct: the command
// line, then one "fstype\tpath" line per mount.
func (p *parser) decodeExeAndMounts(s string, off int64) error {
	exe, table, _ := strings.Cut(s, "\n")
	p.log.Job.Exe = exe
	p.log.Mounts = []Mount{}
	for line := range strings.SplitSeq(table, "\n") {
		if line == "" {
			continue
		}
		fsType, path, ok := strings.Cut(line, "\t")
		if !ok {
			return formatErr("job", off, "mount table entry %q has no tab", line)
		}
		p.log.Mounts = append(p.log.Mounts, Mount{Path: path, FSType: fsType})
	}
	return nil
}

// cString is b up to its first NUL.
func cString(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}
