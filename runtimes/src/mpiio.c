/* iobench's MPI-IO writer (package runtimes embeds it; compiled with the
 * MPI C compiler).
 *
 * Every rank writes RANK_BYTES file bytes through MPI-IO in calls of
 * CALL_BYTES file bytes, so that the MPI library (OMPIO or ROMIO, chosen
 * by OMPI_MCA_io before MPI_Init), not iobench, decides the write(2)
 * calls, and each rank counts its calls in /proc/self/io.
 *
 *   mpiio PATH RANK_BYTES CALL_BYTES FILE MODE MEMORY TYPE STRIDE FSYNC HINTS SOURCE
 *
 * FILE per-rank: rank r writes PATH-r<r>.dat on MPI_COMM_SELF; shared: all
 * write PATH.dat on MPI_COMM_WORLD, call k of rank r at (k*P + r)*CALL_BYTES
 * (IOR's segments: the ranks' pieces of one call are adjacent).
 * MODE independent (MPI_File_write_at) or collective (_write_at_all).
 * MEMORY contiguous: the elements lie one after the other; strided: every
 * STRIDE-th element of an array, passed as an MPI_Type_vector so that the
 * library gathers them; packed: the same strided array gathered by a typed
 * loop into a contiguous buffer (timed apart as pack_ns), then written as
 * bytes, the way iobench's packer does it.
 * TYPE int32, int64, float32 or float64: the element. FSYNC 1:
 * MPI_File_sync before close, inside the timing. HINTS "-" or
 * key=value,key=value: the MPI_Info given to MPI_File_open. SOURCE array:
 * the rank's whole data lies in memory, call after call from a new place;
 * window: one call's data, written again by every call (IOR's one
 * buffer), so file element j holds the value of element j mod the call.
 *
 * Each rank times open to close, after a barrier; the
 * process's write(2)-family calls (syscw, wchar: every thread, so OMPIO's
 * aio helpers count too) are read just outside it and just after the open,
 * which is where a library's own bookkeeping writes happen. Afterwards
 * every rank reads back its first and last element and removes its file
 * (rank 0 the shared one).
 *
 * Output from rank 0, one line:
 *   elapsed_ns=N syscw=N wchar=N bytes=N elements=N convert=native ranks=P
 *   overhead_syscw=N overhead_wchar=N pack_ns=N slowest_ns=N rank_syscw=a,b,...
 * elapsed_ns is the span from the earliest rank's open to the latest
 * rank's close (the wall clock, which ranks on other nodes share through
 * NTP), as IOR and iobench's MPI sweep time an aggregate; slowest_ns is
 * the longest of the ranks' own spans (the monotonic clock), at most
 * elapsed_ns. Calls and bytes are summed over ranks; overhead_* are those
 * made inside MPI_File_open; pack_ns is the slowest rank's packing time.
 * A failure prints "error: rank R: ..." lines instead.
 *
 * Spawned (MPI_Comm_spawn) as `mpiio serve PRELOAD`, the writer is a job
 * that runs case after case: rank 0 takes each case's arguments from the
 * parent's rank 0 (tag 1, NUL-separated; an empty message ends the job)
 * and answers with the text (tag 0). One job per environment serves a
 * whole check, since Open MPI 4 fails a spawn now and then when jobs are
 * spawned one after another.
 * Exit status (run by mpirun): 0 done; 64 usage; 65 no data file could
 * be created; 4 an error after a file was created.
 */
#define _GNU_SOURCE
#include <mpi.h>
#include "procio.h"

#define MSG 512

static int rank, nprocs;
static int status;      /* 0, 65 (not created) or 4 */
static char errmsg[MSG]; /* this rank's first error */

static void fail_rank(int st, const char *fmt, const char *what, int rc)
{
	char text[MPI_MAX_ERROR_STRING] = "";
	int len = 0;
	if (status)
		return;
	if (rc != MPI_SUCCESS)
		MPI_Error_string(rc, text, &len);
	status = st;
	snprintf(errmsg, sizeof errmsg, fmt, what, text);
}

static void usage(const char *why)
{
	if (rank == 0)
		fprintf(stderr, "%s\nusage: mpiio PATH RANK_BYTES CALL_BYTES per-rank|shared independent|collective "
			"contiguous|strided|packed int32|int64|float32|float64 STRIDE FSYNC HINTS array|window\n", why);
	MPI_Finalize();
	exit(64);
}

static long long mpi_number(const char *s)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < 0)
		usage("bad number");
	return v;
}

/* elem is one element type: its MPI name and how to make and compare a
 * value, so that the check after the run sees the gathered elements. */
struct elem {
	const char *name;
	MPI_Datatype type;
	int size;
};

static struct elem elem_of(const char *name)
{
	struct elem e = {name, MPI_DATATYPE_NULL, 0};
	if (!strcmp(name, "int32"))
		e.type = MPI_INT32_T, e.size = 4;
	else if (!strcmp(name, "int64"))
		e.type = MPI_INT64_T, e.size = 8;
	else if (!strcmp(name, "float32"))
		e.type = MPI_FLOAT, e.size = 4;
	else if (!strcmp(name, "float64"))
		e.type = MPI_DOUBLE, e.size = 8;
	else
		usage("bad TYPE");
	return e;
}

/* value is file element j of this rank, in the element's own bytes. */
static void value(const struct elem *e, long long j, void *dst)
{
	long long v = j + 1 + (long long)rank * 1000003;
	int32_t i4 = (int32_t)v;
	int64_t i8 = v;
	float f4 = (float)(v % 16777216);
	double f8 = (double)v;
	const void *src = e->size == 4 ? (e->type == MPI_FLOAT ? (void *)&f4 : (void *)&i4)
				       : (e->type == MPI_DOUBLE ? (void *)&f8 : (void *)&i8);
	memcpy(dst, src, e->size);
}

/* gather copies n elements of size esize, every stride-th of src, into dst:
 * one typed loop per element size, no call per element. */
static void gather(void *dst, const void *src, size_t n, int esize, long long stride)
{
	if (esize == 4) {
		const uint32_t *s = src;
		uint32_t *d = dst;
		for (size_t i = 0; i < n; i++)
			d[i] = s[(size_t)stride * i];
		return;
	}
	const uint64_t *s = src;
	uint64_t *d = dst;
	for (size_t i = 0; i < n; i++)
		d[i] = s[(size_t)stride * i];
}

struct job {
	char path[4096];
	long long rank_bytes, call, stride;
	long long period; /* elements after which the source repeats; 0: never */
	int shared, collective, fsync;
	const char *memory;
	struct elem e;
	MPI_Info info;
};

static void parse_hints(struct job *j, char *hints)
{
	j->info = MPI_INFO_NULL;
	if (!strcmp(hints, "-"))
		return;
	MPI_Info_create(&j->info);
	for (char *kv = strtok(hints, ","); kv; kv = strtok(NULL, ",")) {
		char *eq = strchr(kv, '=');
		if (!eq || eq == kv)
			usage("bad HINTS: want key=value,key=value or -");
		*eq = 0;
		MPI_Info_set(j->info, kv, eq + 1);
	}
}

static void parse(struct job *j, int argc, char **argv)
{
	if (argc != 12)
		usage("wrong number of arguments");
	j->rank_bytes = mpi_number(argv[2]);
	j->call = mpi_number(argv[3]);
	j->shared = !strcmp(argv[4], "shared");
	if (!j->shared && strcmp(argv[4], "per-rank"))
		usage("bad FILE");
	j->collective = !strcmp(argv[5], "collective");
	if (!j->collective && strcmp(argv[5], "independent"))
		usage("bad MODE");
	j->memory = argv[6];
	if (strcmp(j->memory, "contiguous") && strcmp(j->memory, "strided") && strcmp(j->memory, "packed"))
		usage("bad MEMORY");
	j->e = elem_of(argv[7]);
	j->stride = mpi_number(argv[8]);
	j->fsync = mpi_number(argv[9]) == 1;
	if (j->rank_bytes < 1 || j->call < 1 || j->stride < 1 || j->rank_bytes % j->e.size || j->call % j->e.size ||
	    j->call > (1LL << 30))
		usage("RANK_BYTES and CALL_BYTES: positive multiples of the element size, CALL_BYTES at most 1 GiB; STRIDE at least 1");
	if (!strcmp(j->memory, "contiguous"))
		j->stride = 1;
	j->period = !strcmp(argv[11], "window") ? j->call / j->e.size : 0;
	if (j->period > j->rank_bytes / j->e.size)
		j->period = j->rank_bytes / j->e.size;
	if (!j->period && strcmp(argv[11], "array"))
		usage("bad SOURCE");
	if (j->shared)
		snprintf(j->path, sizeof j->path, "%s.dat", argv[1]);
	else
		snprintf(j->path, sizeof j->path, "%s-r%d.dat", argv[1], rank);
	parse_hints(j, argv[10]);
}

/* at is the source element that file element k of a rank comes from. */
static long long at(const struct job *j, long long k)
{
	return j->period ? k % j->period : k;
}

/* source is the rank's array: file element j at index at(j)*stride, the
 * elements between them (never written) set apart. */
static unsigned char *source(const struct job *j)
{
	long long n = j->period ? j->period : j->rank_bytes / j->e.size;
	size_t bytes = (size_t)((n - 1) * j->stride + 1) * j->e.size;
	unsigned char *src = malloc(bytes);
	if (!src)
		return NULL;
	memset(src, 0xee, bytes);
	for (long long k = 0; k < n; k++)
		value(&j->e, k, src + (size_t)(k * j->stride) * j->e.size);
	return src;
}

/* vector is the memory type of a call of n elements: a contiguous count
 * of bytes, or every stride-th element. */
static MPI_Datatype vector(const struct job *j, long long n, int *count)
{
	MPI_Datatype t;
	if (strcmp(j->memory, "strided")) {
		*count = (int)(n * j->e.size);
		return MPI_BYTE;
	}
	MPI_Type_vector((int)n, 1, (int)j->stride, j->e.type, &t);
	MPI_Type_commit(&t);
	*count = 1;
	return t;
}

struct counts {
	long long syscw, wchar, open_syscw, open_wchar, elapsed, pack;
	long long start, end; /* wall clock, ns */
};

static long long wall_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	return (long long)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* write_all is the timed span: open, every call, sync, close. */
static void write_all(struct job *j, const unsigned char *src, unsigned char *stage, struct counts *c)
{
	long long s0, w0, s1, w1, s2, w2;
	long long n = j->rank_bytes / j->e.size, per = j->call / j->e.size;
	MPI_File fh;
	MPI_Barrier(MPI_COMM_WORLD);
	proc_io(&s0, &w0);
	c->start = wall_ns();
	int64_t t0 = now_ns();
	int rc = MPI_File_open(j->shared ? MPI_COMM_WORLD : MPI_COMM_SELF, j->path,
			       MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY, j->info, &fh);
	proc_io(&s1, &w1);
	if (rc != MPI_SUCCESS)
		fail_rank(65, "MPI_File_open %s: %s", j->path, rc);
	for (long long first = 0, k = 0; first < n; first += per, k++) {
		long long m = n - first < per ? n - first : per;
		MPI_Offset off = j->shared ? ((MPI_Offset)k * nprocs + rank) * j->call : (MPI_Offset)k * j->call;
		const void *p = src + (size_t)(at(j, first) * j->stride) * j->e.size;
		int count;
		MPI_Datatype t = vector(j, m, &count);
		if (!strcmp(j->memory, "packed")) {
			int64_t p0 = now_ns();
			gather(stage, p, (size_t)m, j->e.size, j->stride);
			c->pack += now_ns() - p0;
			p = stage;
		}
		MPI_Status st;
		int got = 0;
		if (rc == MPI_SUCCESS) {
			int wrc = j->collective ? MPI_File_write_at_all(fh, off, p, count, t, &st)
						: MPI_File_write_at(fh, off, p, count, t, &st);
			if (wrc != MPI_SUCCESS)
				fail_rank(4, "%s: %s", "MPI_File_write_at", wrc);
			else if (MPI_Get_count(&st, MPI_BYTE, &got), got != m * j->e.size)
				fail_rank(4, "%s: a short write%s", "MPI_File_write_at", MPI_SUCCESS);
		}
		if (t != MPI_BYTE)
			MPI_Type_free(&t);
	}
	if (rc == MPI_SUCCESS && j->fsync && (rc = MPI_File_sync(fh)) != MPI_SUCCESS)
		fail_rank(4, "%s: %s", "MPI_File_sync", rc);
	if (status != 65 && (rc = MPI_File_close(&fh)) != MPI_SUCCESS)
		fail_rank(4, "%s: %s", "MPI_File_close", rc);
	int64_t t1 = now_ns();
	c->end = wall_ns();
	proc_io(&s2, &w2);
	c->elapsed = t1 - t0;
	c->syscw = s0 >= 0 && s2 >= 0 ? s2 - s0 : -1;
	c->wchar = s0 >= 0 && s2 >= 0 ? w2 - w0 : -1;
	c->open_syscw = s0 >= 0 && s1 >= 0 ? s1 - s0 : -1;
	c->open_wchar = s0 >= 0 && s1 >= 0 ? w1 - w0 : -1;
}

/* check reads back this rank's first and last element, then removes the
 * rank's file (rank 0 the shared one, once every rank has read). */
static void check(const struct job *j)
{
	long long n = j->rank_bytes / j->e.size, per = j->call / j->e.size;
	if (status != 65) {
		int fd = open(j->path, O_RDONLY | O_CLOEXEC);
		long long ends[2] = {0, n - 1};
		for (int i = 0; i < 2 && fd >= 0; i++) {
			long long k = ends[i] / per, in = ends[i] % per;
			long long off = j->shared ? (k * nprocs + rank) * j->call : k * j->call;
			unsigned char got[8], want[8];
			value(&j->e, at(j, ends[i]), want);
			if (pread(fd, got, j->e.size, off + in * j->e.size) != j->e.size || memcmp(got, want, j->e.size))
				fail_rank(4, "%s holds other data than was written%s", j->path, MPI_SUCCESS);
		}
		if (fd < 0)
			fail_rank(4, "%s cannot be read back%s", j->path, MPI_SUCCESS);
		else
			close(fd);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (status != 65 && (!j->shared || rank == 0))
		unlink(j->path);
}

/* report gathers every rank's counts and status at rank 0 and builds
 * the text the writer hands back. */
static char *report(const struct job *j, const struct counts *c)
{
	enum { N = 9 };
	long long mine[N] = {c->syscw, c->wchar, c->open_syscw, c->open_wchar, c->elapsed, c->pack, status, c->start, c->end};
	long long *all = rank == 0 ? malloc(sizeof mine * nprocs) : NULL;
	char *msgs = rank == 0 ? malloc((size_t)MSG * nprocs) : NULL;
	MPI_Gather(mine, N, MPI_LONG_LONG, all, N, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
	MPI_Gather(errmsg, MSG, MPI_CHAR, msgs, MSG, MPI_CHAR, 0, MPI_COMM_WORLD);
	if (rank != 0)
		return NULL;
	size_t cap = 512 + (size_t)nprocs * (MSG + 24);
	char *text = malloc(cap);
	size_t pos = 0;
	long long sum[4] = {0}, slowest = 0, pack = 0, failed = 0, first = all[7], last = all[8];
	for (int r = 0; r < nprocs; r++) {
		long long *v = all + N * r;
		if (v[6]) {
			pos += snprintf(text + pos, cap - pos, "error: rank %d: %s\n", r, msgs + (size_t)MSG * r);
			failed = failed > v[6] ? failed : v[6];
		}
		for (int i = 0; i < 4; i++)
			sum[i] = sum[i] < 0 || v[i] < 0 ? -1 : sum[i] + v[i];
		slowest = v[4] > slowest ? v[4] : slowest;
		pack = v[5] > pack ? v[5] : pack;
		first = v[7] < first ? v[7] : first;
		last = v[8] > last ? v[8] : last;
	}
	/* The wall clock can step inside a run: back, and the slowest rank's
	 * monotonic span is the floor; forward, and the span reads long. */
	long long span = last - first > slowest ? last - first : slowest;
	if (!failed) {
		pos += snprintf(text + pos, cap - pos, "elapsed_ns=%lld syscw=%lld wchar=%lld bytes=%lld elements=%lld convert=native ranks=%d "
			       "overhead_syscw=%lld overhead_wchar=%lld pack_ns=%lld slowest_ns=%lld rank_syscw=", span, sum[0], sum[1],
			       j->rank_bytes * nprocs, j->rank_bytes / j->e.size * nprocs, nprocs, sum[2], sum[3], pack, slowest);
		for (int r = 0; r < nprocs; r++)
			pos += snprintf(text + pos, cap - pos, "%s%lld", r ? "," : "", all[N * r]);
		snprintf(text + pos, cap - pos, "\n");
	}
	free(all);
	free(msgs);
	return text;
}

/* run_case runs one case (argv as the command line takes it) and returns
 * rank 0's text: the report line, or "error:" lines. */
static char *run_case(int argc, char **argv, int *worst)
{
	struct job j;
	struct counts c = {0};
	status = 0;
	errmsg[0] = 0;
	parse(&j, argc, argv);
	unsigned char *src = source(&j), *stage = malloc(j.call);
	int ok = src && stage, all_ok = 0;
	/* every rank must take the same path: the shared file's open is collective */
	MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	if (!all_ok)
		fail_rank(65, "%s%s", "a rank cannot allocate its array", MPI_SUCCESS);
	else
		write_all(&j, src, stage, &c);
	check(&j);
	char *text = report(&j, &c);
	MPI_Allreduce(&status, worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	free(src);
	free(stage);
	if (j.info != MPI_INFO_NULL)
		MPI_Info_free(&j.info);
	return text;
}

/* idle waits for req without spinning: the ranks of a job that waits
 * for its next request leave the CPUs to whoever needs them. */
static void idle(MPI_Request *req)
{
	struct timespec nap = {0, 1000000};
	for (int done = 0; MPI_Test(req, &done, MPI_STATUS_IGNORE), !done;)
		nanosleep(&nap, NULL);
}

/* request is the parent's next request at every rank: rank 0 receives
 * it (tag 1) and broadcasts it; an empty one ends the job. The arguments
 * are separated by NUL bytes. */
static char *request(MPI_Comm parent, int *len)
{
	char *buf = NULL;
	MPI_Request req;
	if (rank == 0) {
		MPI_Status st;
		struct timespec nap = {0, 1000000};
		for (int ready = 0; MPI_Iprobe(0, 1, parent, &ready, &st), !ready;)
			nanosleep(&nap, NULL);
		MPI_Get_count(&st, MPI_CHAR, len);
		buf = malloc(*len + 1);
		MPI_Recv(buf, *len, MPI_CHAR, 0, 1, parent, MPI_STATUS_IGNORE);
	}
	MPI_Ibcast(len, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
	idle(&req);
	if (rank != 0)
		buf = malloc(*len + 1);
	MPI_Ibcast(buf, *len, MPI_CHAR, 0, MPI_COMM_WORLD, &req);
	idle(&req);
	buf[*len] = 0;
	return buf;
}

/* preload opens a name that does not exist, read-only, alone and on
 * every rank: the opens fail and create nothing (OMPIO makes and removes
 * its own NAME.locktest.0), but they load the component's modules, which
 * the first timed open would otherwise load inside its timing. */
static void preload(const char *name)
{
	char path[4200];
	MPI_File fh;
	snprintf(path, sizeof path, "%s-r%d", name, rank);
	if (MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh) == MPI_SUCCESS)
		MPI_File_close(&fh);
	if (MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh) == MPI_SUCCESS)
		MPI_File_close(&fh);
}

/* serve runs the parent's requests, one case each, until an empty one,
 * and answers each with rank 0's text (tag 0). */
static void serve(MPI_Comm parent, const char *preload_name)
{
	preload(preload_name);
	for (;;) {
		int len = 0, worst = 0;
		char *buf = request(parent, &len);
		if (len == 0) {
			free(buf);
			return;
		}
		char *argv[16] = {"mpiio"};
		int argc = 1;
		for (char *p = buf; p < buf + len && argc < 16; p += strlen(p) + 1)
			argv[argc++] = p;
		char *text = run_case(argc, argv, &worst);
		if (rank == 0)
			MPI_Send(text, (int)strlen(text) + 1, MPI_CHAR, 0, 0, parent);
		free(text);
		free(buf);
	}
}

int main(int argc, char **argv)
{
	MPI_Comm parent;
	int worst = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
	MPI_Comm_get_parent(&parent);
	if (parent != MPI_COMM_NULL && argc == 3 && !strcmp(argv[1], "serve")) {
		serve(parent, argv[2]);
		MPI_Comm_disconnect(&parent);
		MPI_Finalize();
		return 0;
	}
	char *text = run_case(argc, argv, &worst);
	if (rank == 0) {
		fputs(text, worst ? stderr : stdout);
		fflush(stdout);
	}
	free(text);
	MPI_Finalize();
	return worst;
}
