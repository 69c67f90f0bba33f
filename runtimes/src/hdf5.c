/* iobench's HDF5 writer (package runtimes embeds it and compiles it with
 * libhdf5's flags from pkg-config, or with h5cc).
 *
 * It writes a 1-D dataset of ELEMENTS doubles p[i] = i + 1 from memory
 * type H5T_NATIVE_DOUBLE to a NEW file through HDF5's sec2 driver, so that
 * HDF5's own buffers (sieve buffer, type-conversion buffer, chunk cache),
 * not iobench, decide the write(2) calls, and it counts those calls.
 *
 *   hdf5 PATH ELEMENTS RECORD_BYTES CHUNK_BYTES BIG_ENDIAN TCONV ALIGN SIEVE FSYNC
 *
 * RECORD_BYTES 0 writes the whole dataset in one H5Dwrite; otherwise one
 * H5Dwrite per hyperslab of RECORD_BYTES (a multiple of 8; the last may be
 * shorter). CHUNK_BYTES 0 keeps the contiguous layout, else chunks of that
 * size (a multiple of 8). BIG_ENDIAN 1 makes the file type H5T_IEEE_F64BE,
 * so HDF5 converts through its type-conversion buffer. TCONV, ALIGN and
 * SIEVE set H5Pset_buffer, H5Pset_alignment(fapl, ALIGN, ALIGN) and
 * H5Pset_sieve_buf_size; 0 keeps HDF5's default. FSYNC 1 fsyncs the file
 * after H5Fclose, inside the timing.
 *
 * The timed span is H5Fcreate to H5Fclose (and the fsync); /proc/self/io
 * is read just outside it and between its stages, so the raw data's calls
 * (the H5Dwrite calls and H5Dclose, which flushes the sieve buffer and the
 * chunk cache) are told from the metadata's (H5Fcreate, H5Dcreate and
 * H5Fclose). After the span the file is reopened and its first and last
 * elements read back.
 *
 * Output, one line on stdout:
 *   elapsed_ns=N syscw=N wchar=N bytes=N elements=N convert=NAME
 *   overhead_syscw=N overhead_wchar=N
 * overhead_* are the metadata's calls and bytes. syscw and wchar are -1
 * when /proc/self/io cannot be read.
 * Exit status: 0 done; 64 usage; 65 the file could not be created
 * (H5F_ACC_EXCL: nothing was created); 4 an error after it was created.
 */
#define _GNU_SOURCE
#include <hdf5.h>
#include "procio.h"

static void fail(int status, const char *what)
{
	fprintf(stderr, "%s failed\n", what);
	exit(status);
}

#define CHECK(x) do { if ((x) < 0) fail(4, #x); } while (0)

struct job {
	const char *path;
	long long n, per, chunk, tconv, align, sieve;
	int big_endian, fsync;
};

static void parse(struct job *j, int argc, char **argv)
{
	if (argc != 10) {
		fprintf(stderr, "usage: hdf5 PATH ELEMENTS RECORD_BYTES CHUNK_BYTES BIG_ENDIAN TCONV ALIGN SIEVE FSYNC\n");
		exit(64);
	}
	j->path = argv[1];
	j->n = number(argv[2]);
	long long rec = number(argv[3]), chunk = number(argv[4]);
	j->big_endian = number(argv[5]) == 1;
	j->tconv = number(argv[6]);
	j->align = number(argv[7]);
	j->sieve = number(argv[8]);
	j->fsync = number(argv[9]) == 1;
	if (j->n < 1 || rec % 8 || chunk % 8) {
		fprintf(stderr, "bad arguments: ELEMENTS >= 1, RECORD_BYTES and CHUNK_BYTES multiples of 8\n");
		exit(64);
	}
	j->per = rec ? rec / 8 : j->n;
	if (j->per > j->n)
		j->per = j->n;
	j->chunk = chunk / 8;
}

/* lists are the property lists, made before the timed span. */
struct lists {
	hid_t fapl, dcpl, dxpl, fspace, mspace;
};

static void make_lists(const struct job *j, struct lists *l)
{
	CHECK(l->fapl = H5Pcreate(H5P_FILE_ACCESS));
	CHECK(H5Pset_fclose_degree(l->fapl, H5F_CLOSE_STRONG));
	if (j->align > 0)
		CHECK(H5Pset_alignment(l->fapl, (hsize_t)j->align, (hsize_t)j->align));
	if (j->sieve > 0)
		CHECK(H5Pset_sieve_buf_size(l->fapl, (size_t)j->sieve));
	CHECK(l->dcpl = H5Pcreate(H5P_DATASET_CREATE));
	if (j->chunk > 0) {
		hsize_t cdim = (hsize_t)j->chunk;
		CHECK(H5Pset_chunk(l->dcpl, 1, &cdim));
	}
	CHECK(l->dxpl = H5Pcreate(H5P_DATASET_XFER));
	if (j->tconv > 0)
		CHECK(H5Pset_buffer(l->dxpl, (size_t)j->tconv, NULL, NULL));
	hsize_t dim = (hsize_t)j->n, mdim = (hsize_t)j->per;
	CHECK(l->fspace = H5Screate_simple(1, &dim, NULL));
	CHECK(l->mspace = H5Screate_simple(1, &mdim, NULL));
}

/* write_data is one H5Dwrite per hyperslab of j->per elements. */
static void write_data(const struct job *j, const struct lists *l, hid_t d, const double *p)
{
	for (long long first = 0; first < j->n; first += j->per) {
		hsize_t start = (hsize_t)first, count = (hsize_t)(j->n - first < j->per ? j->n - first : j->per);
		hid_t ms = l->mspace;
		if ((long long)count != j->per)
			CHECK(ms = H5Screate_simple(1, &count, NULL));
		CHECK(H5Sselect_hyperslab(l->fspace, H5S_SELECT_SET, &start, NULL, &count, NULL));
		CHECK(H5Dwrite(d, H5T_NATIVE_DOUBLE, ms, l->fspace, l->dxpl, p + first));
		if (ms != l->mspace)
			CHECK(H5Sclose(ms));
	}
}

/* check reads back the first and last elements. */
static void check(const struct job *j)
{
	hid_t f = H5Fopen(j->path, H5F_ACC_RDONLY, H5P_DEFAULT);
	CHECK(f);
	hid_t d = H5Dopen2(f, "x", H5P_DEFAULT);
	CHECK(d);
	hid_t fs = H5Dget_space(d);
	CHECK(fs);
	hsize_t one = 1, mdim = 1;
	hid_t ms = H5Screate_simple(1, &mdim, NULL);
	CHECK(ms);
	long long ends[2] = {0, j->n - 1};
	for (int i = 0; i < 2; i++) {
		hsize_t start = (hsize_t)ends[i];
		double v = 0;
		CHECK(H5Sselect_hyperslab(fs, H5S_SELECT_SET, &start, NULL, &one, NULL));
		CHECK(H5Dread(d, H5T_NATIVE_DOUBLE, ms, fs, H5P_DEFAULT, &v));
		if (v != (double)(ends[i] + 1))
			fail(4, "reading back the data file: it holds other data than was written, which");
	}
	H5Sclose(ms);
	H5Sclose(fs);
	H5Dclose(d);
	H5Fclose(f);
}

int main(int argc, char **argv)
{
	struct job j;
	struct lists l;
	parse(&j, argc, argv);
	double *p = malloc(j.n * sizeof *p);
	if (!p)
		fail(4, "allocating the array");
	for (long long i = 0; i < j.n; i++)
		p[i] = (double)(i + 1);
	H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* no error stack on stderr: the writer says what failed */
	make_lists(&j, &l);

	long long s[5], w[5];
	proc_io(&s[0], &w[0]);
	int64_t t0 = now_ns();
	hid_t f = H5Fcreate(j.path, H5F_ACC_EXCL, H5P_DEFAULT, l.fapl);
	if (f < 0) /* a file that exists now was made by this failed create */
		fail(access(j.path, F_OK) == 0 ? 4 : 65, "H5Fcreate (H5F_ACC_EXCL)");
	hid_t d = H5Dcreate2(f, "x", j.big_endian ? H5T_IEEE_F64BE : H5T_NATIVE_DOUBLE, l.fspace, H5P_DEFAULT, l.dcpl, H5P_DEFAULT);
	CHECK(d);
	proc_io(&s[1], &w[1]);
	write_data(&j, &l, d, p);
	CHECK(H5Dclose(d));
	proc_io(&s[2], &w[2]);
	CHECK(H5Fclose(f));
	if (j.fsync) {
		int fd = open(j.path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fsync(fd) != 0)
			fail(4, "fsync");
		close(fd);
	}
	int64_t t1 = now_ns();
	proc_io(&s[3], &w[3]);
	check(&j);

	long long calls = -1, written = -1, meta = -1, metabytes = -1; /* -1: /proc/self/io unreadable */
	if (s[0] >= 0 && s[3] >= 0) {
		calls = s[3] - s[0], written = w[3] - w[0];
		meta = (s[1] - s[0]) + (s[3] - s[2]);
		metabytes = (w[1] - w[0]) + (w[3] - w[2]);
	}
	printf("elapsed_ns=%lld syscw=%lld wchar=%lld bytes=%lld elements=%lld convert=%s overhead_syscw=%lld overhead_wchar=%lld\n",
	       (long long)(t1 - t0), calls, written, 8 * j.n, j.n, j.big_endian ? "BIG_ENDIAN" : "NATIVE", meta, metabytes);
	return fflush(stdout) == 0 ? 0 : 4;
}
