/* The program behind real-f.txt, real-fyT.txt and real-ff.PID, recorded
   with gcc -O1 -o fx real.c and, in an empty directory, stdout to /dev/null:
     strace -f -o real-f.txt -e trace=write,pwrite64,writev,pwritev,openat,close ./fx
     strace -f -tt -T -y -o real-fyT.txt -e trace=(the same) ./fx
     strace -ff -o real-ff -e trace=(the same) ./fx */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void) {
	static char buf[4096];
	int fa = open("a.dat", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int fb = open("b.dat", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	for (int i = 0; i < 10; i++) write(fa, "01234567", 8);
	pwrite(fb, buf, sizeof buf, 0);
	pwrite(fb, buf, sizeof buf, sizeof buf);
	struct iovec iov[3] = {{"ab", 2}, {"cde", 3}, {buf, 100}};
	writev(fb, iov, 3);
	close(fa);
	if (fork() == 0) {
		int fc = open("c.dat", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		for (int i = 0; i < 3; i++) write(fc, buf, 512);
		write(fb, "xy", 2);
		_exit(0);
	}
	wait(NULL);
	close(fb);
	write(1, "done\n", 5);
	return 0;
}
