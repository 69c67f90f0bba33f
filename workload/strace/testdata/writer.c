/* The program of TestRealProgram: it writes a known pattern to DIR/a.dat,
   DIR/b.dat and, from a forked child, DIR/c.dat, then prints per file the
   calls it made and the bytes they returned, and its /proc/self/io syscw
   and wchar, in one write(2) after reading them. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

/* The tallies of what each file's calls returned; the child's are in
   shared memory so that the parent prints them all. */
struct tally { long calls, bytes; };
static struct tally *t;

static void count(int i, long ret) {
	if (ret < 0) { perror("write"); exit(1); }
	t[i].calls++;
	t[i].bytes += ret;
}

static long ioField(const char *io, const char *name) {
	const char *p = strstr(io, name);
	return p ? atol(p + strlen(name)) : -1;
}

int main(int argc, char **argv) {
	static char big[1 << 20];
	char small[8] = "01234567", path[3][4096];
	const char *names[3] = {"a.dat", "b.dat", "c.dat"};
	if (argc != 2) return 2;
	t = mmap(NULL, 3 * sizeof *t, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (t == MAP_FAILED) return 1;
	for (int i = 0; i < 3; i++) snprintf(path[i], sizeof path[i], "%s/%s", argv[1], names[i]);

	int fa = open(path[0], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int fb = open(path[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fa < 0 || fb < 0) return 1;
	for (int i = 0; i < 1000; i++) count(0, write(fa, small, sizeof small));
	for (int i = 0; i < 3; i++) count(1, pwrite(fb, big, sizeof big, (off_t)i * sizeof big));
	struct iovec iov[3] = {{small, 8}, {big, 100}, {big, 1000}};
	count(1, writev(fb, iov, 3));
	close(fa); /* the child's open gets its number */

	pid_t pid = fork();
	if (pid < 0) return 1;
	if (pid == 0) {
		int fc = open(path[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fc < 0) _exit(1);
		for (int i = 0; i < 5; i++) count(2, write(fc, big, 4096));
		for (int i = 0; i < 2; i++) count(1, write(fb, small, 4)); /* inherited */
		_exit(0);
	}
	int status;
	if (waitpid(pid, &status, 0) != pid || status != 0) return 1;
	close(fb);

	/* After waitpid the parent's counters include the reaped child's. */
	char io[4096] = {0};
	int fio = open("/proc/self/io", O_RDONLY);
	long syscw = -1, wchar = -1;
	if (fio >= 0 && read(fio, io, sizeof io - 1) > 0) {
		syscw = ioField(io, "syscw: ");
		wchar = ioField(io, "wchar: ");
	}
	char out[512];
	int n = 0;
	for (int i = 0; i < 3; i++)
		n += snprintf(out + n, sizeof out - n, "%s %ld %ld\n", names[i], t[i].calls, t[i].bytes);
	n += snprintf(out + n, sizeof out - n, "syscw %ld\nwchar %ld\n", syscw, wchar);
	return write(1, out, n) == n ? 0 : 1;
}
