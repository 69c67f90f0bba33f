/*
 * libiobench-stdio: an LD_PRELOAD shim that gives each stdio stream opened
 * for writing a fully buffered buffer of IOBENCH_STDIO_BUFFER bytes, so a
 * program's write(2) size can be tried without recompiling it.
 *
 * glibc ignores the size in setvbuf(f, NULL, _IOFBF, N) and keeps its
 * st_blksize buffer, so the shim passes a buffer of its own to each stream.
 *
 * Build: cc -shared -fPIC -O2 -Wall -o libiobench-stdio.so shim.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

typedef FILE *(*open_fn)(const char *, const char *);
typedef FILE *(*fdopen_fn)(int, const char *);
typedef FILE *(*reopen_fn)(const char *, const char *, FILE *);

/* 0 when unset or invalid: the shim then only reports. */
static size_t buffer_size;

/* Files given a buffer by this process. owner is the pid that counted
 * them: a forked child starts again at 0, so a fork that exits does not
 * report its parent's files a second time. */
static unsigned long files;
static pid_t owner;

/* The report is written with open+write, not stdio: the shim must not
 * open streams of its own (they would go through the hooks) nor touch
 * the program's. O_APPEND keeps lines of concurrent processes whole. */
static void report(const char *line, size_t n)
{
	const char *path = getenv("IOBENCH_PRELOAD_REPORT");
	if (path == NULL || *path == '\0')
		return;
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	ssize_t w = write(fd, line, n);
	(void)w; /* nothing to do if the report cannot be written */
	close(fd);
}

/* put appends the decimal v at p and returns the end. */
static char *put(char *p, unsigned long v)
{
	char tmp[24];
	int n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	while (n > 0)
		*p++ = tmp[--n];
	return p;
}

static char *puts_(char *p, const char *s)
{
	size_t n = strlen(s);
	memcpy(p, s, n);
	return p + n;
}

static void __attribute__((constructor)) iobench_load(void)
{
	const char *s = getenv("IOBENCH_STDIO_BUFFER");
	if (s != NULL && *s != '\0') {
		char *end;
		errno = 0;
		long long v = strtoll(s, &end, 10);
		if (errno == 0 && *end == '\0' && v > 0)
			buffer_size = (size_t)v;
	}
	owner = getpid();

	char line[96], *p = line;
	p = puts_(p, "loaded pid=");
	p = put(p, (unsigned long)owner);
	p = puts_(p, " buffer=");
	p = put(p, (unsigned long)buffer_size);
	*p++ = '\n';
	report(line, (size_t)(p - line));
}

/* Runs at exit() and on return from main, not on _exit or a fatal signal:
 * such a process reports loaded but no files line. */
static void __attribute__((destructor)) iobench_unload(void)
{
	unsigned long n = __atomic_load_n(&files, __ATOMIC_RELAXED);
	if (__atomic_load_n(&owner, __ATOMIC_RELAXED) != getpid())
		n = 0;
	char line[48], *p = line;
	p = puts_(p, "files=");
	p = put(p, n);
	*p++ = '\n';
	report(line, (size_t)(p - line));
}

/* writes says whether a mode opens for writing; what follows a ',' is
 * glibc's ccs= and not mode letters. */
static int writes(const char *mode)
{
	for (; mode != NULL && *mode != '\0' && *mode != ','; mode++)
		if (*mode == 'w' || *mode == 'a' || *mode == '+')
			return 1;
	return 0;
}

static FILE *buffer(FILE *f, const char *mode)
{
	if (f == NULL || buffer_size == 0 || !writes(mode))
		return f;
	/* isatty sets errno on a file; the caller may look at errno after
	 * a successful fopen and must see what the real call left. */
	int saved = errno;
	int fd = fileno(f);
	/* A terminal keeps its line buffering: output would be held back. */
	if (fd >= 0 && !isatty(fd)) {
		/* Never freed: fclose does not free a user buffer and the shim
		 * cannot tell when the stream is done with it (freopen keeps
		 * the FILE, exit flushes streams after destructors may run).
		 * One buffer per open file is a bounded leak. */
		char *b = malloc(buffer_size);
		if (b != NULL) {
			if (setvbuf(f, b, _IOFBF, buffer_size) == 0) {
				pid_t me = getpid();
				if (__atomic_load_n(&owner, __ATOMIC_RELAXED) != me) {
					__atomic_store_n(&files, 0, __ATOMIC_RELAXED);
					__atomic_store_n(&owner, me, __ATOMIC_RELAXED);
				}
				__atomic_fetch_add(&files, 1, __ATOMIC_RELAXED);
			} else {
				free(b);
			}
		}
	}
	errno = saved;
	return f;
}

/* next finds the real function once; a race only stores the same value.
 * Resolved lazily, since another library's constructor may call fopen
 * before this one's has run. */
static void *next(void **slot, const char *name)
{
	void *fn = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
	if (fn == NULL) {
		fn = dlsym(RTLD_NEXT, name);
		__atomic_store_n(slot, fn, __ATOMIC_RELEASE);
	}
	return fn;
}

static void *real_fopen, *real_fopen64, *real_fdopen, *real_freopen, *real_freopen64;

FILE *fopen(const char *path, const char *mode)
{
	open_fn fn = (open_fn)next(&real_fopen, "fopen");
	if (fn == NULL) {
		errno = ENOSYS;
		return NULL;
	}
	return buffer(fn(path, mode), mode);
}

FILE *fopen64(const char *path, const char *mode)
{
	open_fn fn = (open_fn)next(&real_fopen64, "fopen64");
	if (fn == NULL) {
		errno = ENOSYS;
		return NULL;
	}
	return buffer(fn(path, mode), mode);
}

FILE *fdopen(int fd, const char *mode)
{
	fdopen_fn fn = (fdopen_fn)next(&real_fdopen, "fdopen");
	if (fn == NULL) {
		errno = ENOSYS;
		return NULL;
	}
	return buffer(fn(fd, mode), mode);
}

FILE *freopen(const char *path, const char *mode, FILE *f)
{
	reopen_fn fn = (reopen_fn)next(&real_freopen, "freopen");
	if (fn == NULL) {
		errno = ENOSYS;
		return NULL;
	}
	return buffer(fn(path, mode, f), mode);
}

FILE *freopen64(const char *path, const char *mode, FILE *f)
{
	reopen_fn fn = (reopen_fn)next(&real_freopen64, "freopen64");
	if (fn == NULL) {
		errno = ENOSYS;
		return NULL;
	}
	return buffer(fn(path, mode, f), mode);
}
