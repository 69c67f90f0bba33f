/* What iobench's C writers share (package runtimes embeds it beside each
 * writer's source): reading a number argument, counting the process's
 * write(2) calls, and the clock. Each writer includes it once. */
#ifndef IOBENCH_PROCIO_H
#define IOBENCH_PROCIO_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* number parses a non-negative decimal argument; anything else is a
 * usage error, exit 64. */
static inline long long number(const char *s)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < 0) {
		fprintf(stderr, "bad number %s\n", s);
		exit(64);
	}
	return v;
}

/* proc_io reads the process's write(2) count and bytes written so far;
 * read(2) only, so it adds no write to what it measures. Every thread of
 * the process counts. */
static inline void proc_io(long long *syscw, long long *wchar)
{
	char text[1024];
	*syscw = *wchar = -1;
	int fd = open("/proc/self/io", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	ssize_t n = read(fd, text, sizeof text - 1);
	close(fd);
	if (n <= 0)
		return;
	text[n] = 0;
	char *s = strstr(text, "syscw:"), *w = strstr(text, "wchar:");
	if (s && w) {
		*syscw = atoll(s + 6);
		*wchar = atoll(w + 6);
	}
}

static inline int64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

#endif
