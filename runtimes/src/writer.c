/* iobench's C stdio writer (package runtimes embeds and compiles it).
 *
 * It writes ELEMENTS doubles p[i] = i + 1 to a NEW file through a stdio
 * stream with a setvbuf buffer of BUFFER_BYTES, so that glibc's buffering,
 * not iobench, decides the write(2) calls, and it counts those calls.
 *
 *   writer PATH ELEMENTS RECORD_BYTES FSYNC SAME_RECORD BUFFER_BYTES SWAP
 *
 * RECORD_BYTES 0 writes the whole array in one fwrite; otherwise one
 * fwrite per record (a multiple of 8 bytes; the last may be shorter).
 * FSYNC 1: fflush and fsync(2) before fclose, inside the timing.
 * SAME_RECORD 1 (with records) allocates one record and writes every
 * record from it, as a program writing one record variable does: element
 * i of the file holds (i-1) mod the record's elements, plus 1. A
 * run-sized array touched just before the timing takes the memory the
 * page cache would reuse, and a large buffer's calls then slow down.
 * BUFFER_BYTES 0 keeps glibc's default buffer. SWAP 1 reverses the bytes
 * of each element as a runtime converting to the other byte order would:
 * into a staging area of SWAP_CHUNK bytes, one fwrite per chunk (what
 * libgfortran does with its 512-byte conversion buffer).
 *
 * The timed span is open to close; /proc/self/io is read just outside it.
 * Output, one line on stdout:
 *   elapsed_ns=N syscw=N wchar=N bytes=N elements=N convert=NAME
 * syscw and wchar are -1 when /proc/self/io cannot be read.
 * Exit status: 0 done; 64 usage; 65 the file could not be created (O_EXCL:
 * nothing was created); 4 an error after the file was created.
 */
#define _GNU_SOURCE
#include "procio.h"

#define SWAP_CHUNK 512

static const char *data_path = "";

/* fail names the data file, the step and errno's text. */
static void fail(int status, const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", data_path, what, errno ? strerror(errno) : "failed");
	exit(status);
}

/* swap8 reverses each element's bytes, one bswap instruction per
 * element as libgfortran's bswap_array does. */
static void swap8(unsigned char *dst, const double *src, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t v;
		memcpy(&v, src + i, 8);
		v = __builtin_bswap64(v);
		memcpy(dst + 8 * i, &v, 8);
	}
}

/* put writes n elements as one fwrite, or when swapping as one fwrite
 * per converted chunk. */
static int put(FILE *f, const double *p, size_t n, int swap)
{
	static unsigned char stage[SWAP_CHUNK];
	if (!swap)
		return fwrite(p, 8, n, f) == n ? 0 : -1;
	while (n > 0) {
		size_t m = n < SWAP_CHUNK / 8 ? n : SWAP_CHUNK / 8;
		swap8(stage, p, m);
		if (fwrite(stage, 8, m, f) != m)
			return -1;
		p += m;
		n -= m;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 8) {
		fprintf(stderr, "usage: writer PATH ELEMENTS RECORD_BYTES FSYNC SAME_RECORD BUFFER_BYTES SWAP\n");
		return 64;
	}
	size_t n = number(argv[2]), rec = number(argv[3]), bufsize = number(argv[6]);
	int do_fsync = number(argv[4]), same = number(argv[5]), swap = number(argv[7]);
	if (n < 1 || rec % 8 || do_fsync > 1 || same > 1 || swap > 1) {
		fprintf(stderr, "bad arguments: ELEMENTS >= 1, RECORD_BYTES a multiple of 8, FSYNC, SAME_RECORD and SWAP 0 or 1\n");
		return 64;
	}
	data_path = argv[1];
	same = same && rec; /* the whole array in one fwrite has no record to reuse */
	size_t have = same && rec / 8 < n ? rec / 8 : n; /* elements in memory */
	double *p = malloc(have * sizeof *p);
	char *buf = bufsize ? malloc(bufsize) : NULL;
	if (!p || (bufsize && !buf))
		fail(4, "cannot allocate the array and buffer");
	for (size_t i = 0; i < have; i++)
		p[i] = (double)(i + 1);

	long long syscw0, wchar0, syscw1, wchar1;
	proc_io(&syscw0, &wchar0);
	int64_t t0 = now_ns();
	int fd = open(argv[1], O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		fail(65, "open");
	FILE *f = fdopen(fd, "w");
	if (!f)
		fail(4, "fdopen");
	if (buf && setvbuf(f, buf, _IOFBF, bufsize) != 0)
		fail(4, "setvbuf");
	size_t per = rec ? rec / 8 : n;
	for (size_t first = 0; first < n; first += per) {
		size_t m = n - first < per ? n - first : per;
		if (put(f, same ? p : p + first, m, swap) != 0)
			fail(4, "fwrite");
	}
	if (do_fsync && (fflush(f) != 0 || fsync(fileno(f)) != 0))
		fail(4, "fsync");
	if (fclose(f) != 0)
		fail(4, "fclose");
	int64_t t1 = now_ns();
	proc_io(&syscw1, &wchar1);
	long long calls = -1, written = -1; /* -1: /proc/self/io unreadable */
	if (syscw0 >= 0 && syscw1 >= 0) {
		calls = syscw1 - syscw0;
		written = wchar1 - wchar0;
	}
	printf("elapsed_ns=%lld syscw=%lld wchar=%lld bytes=%lld elements=%lld convert=%s\n",
	       (long long)(t1 - t0), calls, written, (long long)(8 * n), (long long)n,
	       swap ? "SWAP" : "NATIVE");
	return fflush(stdout) == 0 ? 0 : 4;
}
