/*
 * The baseline iobench is compared with: a plain C loop of write(2) calls.
 * Usage: writeloop DIR TOTAL_BYTES WRITE_SIZE
 * Fills an array of doubles 0,1,2,..., writes it once untimed (warm-up, as
 * iobench does), then once timed from open to close, and prints MiB/s.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double pass(const char *path, const char *p, long total, long bs)
{
	double t0 = now();
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		perror(path);
		exit(1);
	}
	for (long off = 0; off < total;) {
		long n = total - off < bs ? total - off : bs;
		ssize_t w = write(fd, p + off, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			perror("write");
			unlink(path);
			exit(1);
		}
		off += w;
	}
	if (close(fd) != 0) {
		perror("close");
		exit(1);
	}
	double t = now() - t0;
	unlink(path);
	return t;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: writeloop DIR TOTAL_BYTES WRITE_SIZE\n");
		return 2;
	}
	long total = atol(argv[2]), bs = atol(argv[3]);
	char path[4096];
	snprintf(path, sizeof path, "%s/.writeloop-%d.dat", argv[1], (int)getpid());
	double *p = malloc(total);
	if (!p)
		return 1;
	for (long i = 0; i < total / 8; i++)
		p[i] = i;
	pass(path, (char *)p, total, bs);
	double t = pass(path, (char *)p, total, bs);
	printf("%.3f\n", total / t / 1048576.0);
	free(p);
	return 0;
}
