/* A C program that writes 8 KiB blocks with write(2) and fsyncs every
 * 4 MiB, as a checkpoint writer might: its writes wait for the device.
 * Usage: fsync-writer [MiB] [file]   (default 256 MiB to out.dat) */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long mib = argc > 1 ? atol(argv[1]) : 256;
	const char *path = argc > 2 ? argv[2] : "out.dat";
	static char block[8192];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	memset(block, 'y', sizeof block);
	for (long i = 0; i < mib * 128; i++) {
		if (write(fd, block, sizeof block) != sizeof block) {
			perror(path);
			return 1;
		}
		if ((i + 1) % 512 == 0 && fsync(fd) != 0) {
			perror(path);
			return 1;
		}
	}
	if (fsync(fd) != 0 || close(fd) != 0) {
		perror(path);
		return 1;
	}
	return 0;
}
