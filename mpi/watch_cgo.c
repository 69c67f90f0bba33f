//go:build mpi && cgo

// The MPI-IO library's own write calls, watched. Open MPI 4's OMPIO
// reports a pwrite(2) that failed as a call that wrote 0 bytes, and its
// collective writes (fcoll vulcan) drop the failure of the aggregating
// rank altogether. This binary defines pwrite and pwritev itself; the
// dynamic linker binds the library's calls to them, and they pass each
// call on to the C library's. While this thread is inside an MPI-IO data
// call they keep the errno of the first that fails, and write on where
// the kernel wrote less than asked, until all is written or a call fails.

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

typedef ssize_t (*pwrite_fn)(int, const void *, size_t, off_t);
typedef ssize_t (*pwritev_fn)(int, const struct iovec *, int, off_t);

static pwrite_fn next_pwrite;
static pwritev_fn next_pwritev;

// next finds the C library's function called name once; a thread that
// races another to it stores the same address.
static void *next(void **slot, const char *name) {
	void *f = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
	if (f == NULL) {
		f = dlsym(RTLD_NEXT, name);
		__atomic_store_n(slot, f, __ATOMIC_RELEASE);
	}
	return f;
}

static __thread int watching;
static __thread int failed_errno;

void iob_watch_begin(void) {
	watching = 1;
	failed_errno = 0;
}

// iob_watch_end returns the errno of the first write that failed since
// iob_watch_begin, 0 if none did.
int iob_watch_end(void) {
	watching = 0;
	return failed_errno;
}

static ssize_t noted(ssize_t rc) {
	if (rc < 0 && watching && failed_errno == 0) {
		failed_errno = errno;
	}
	return rc;
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off) {
	pwrite_fn f = (pwrite_fn)next((void **)&next_pwrite, "pwrite");
	if (f == NULL) {
		errno = ENOSYS;
		return -1;
	}
	ssize_t done = noted(f(fd, buf, n, off));
	// A write the kernel cut short is written on, as a write loop does:
	// OMPIO takes the short count as the end of its write, and in a
	// collective write the rest is lost with no error.
	while (watching && done > 0 && (size_t)done < n) {
		ssize_t rc = noted(f(fd, (const char *)buf + done, n - done, off + done));
		if (rc <= 0) {
			break;
		}
		done += rc;
	}
	return done;
}

// skip moves iov past n bytes, in place; it returns the iovecs left.
static int skip(struct iovec *iov, int cnt, size_t n) {
	int i = 0;
	while (i < cnt && n >= iov[i].iov_len) {
		n -= iov[i].iov_len;
		i++;
	}
	if (i < cnt) {
		iov[i].iov_base = (char *)iov[i].iov_base + n;
		iov[i].iov_len -= n;
	}
	memmove(iov, iov + i, (size_t)(cnt - i) * sizeof *iov);
	return cnt - i;
}

ssize_t pwritev(int fd, const struct iovec *iov, int cnt, off_t off) {
	pwritev_fn f = (pwritev_fn)next((void **)&next_pwritev, "pwritev");
	if (f == NULL) {
		errno = ENOSYS;
		return -1;
	}
	ssize_t done = noted(f(fd, iov, cnt, off));
	size_t total = 0;
	for (int i = 0; i < cnt; i++) {
		total += iov[i].iov_len;
	}
	struct iovec *rest; // written on as pwrite's rest is
	if (!watching || done <= 0 || (size_t)done == total || (rest = malloc((size_t)cnt * sizeof *iov)) == NULL) {
		return done;
	}
	memcpy(rest, iov, (size_t)cnt * sizeof *iov);
	int left = skip(rest, cnt, (size_t)done);
	while (left > 0) {
		ssize_t rc = noted(f(fd, rest, left, off + done));
		if (rc <= 0) {
			break;
		}
		done += rc;
		left = skip(rest, left, (size_t)rc);
	}
	free(rest);
	return done;
}
