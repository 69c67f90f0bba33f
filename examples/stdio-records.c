/* A C program that writes small records through stdio, as many codes do:
 * fwrite of 64-byte records to out.dat. glibc's stream buffer is
 * st_blksize (4096 on ext4), so the file gets 4096-byte write(2) calls.
 * Usage: stdio-records [MiB] [file]   (default 512 MiB to out.dat) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	long mib = argc > 1 ? atol(argv[1]) : 512;
	const char *path = argc > 2 ? argv[2] : "out.dat";
	char rec[64];
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		return 1;
	}
	memset(rec, 'x', sizeof rec);
	for (long i = 0; i < mib * (1 << 20) / (long)sizeof rec; i++) {
		rec[0] = (char)i;
		if (fwrite(rec, sizeof rec, 1, f) != 1) {
			perror(path);
			return 1;
		}
	}
	if (fclose(f) != 0) {
		perror(path);
		return 1;
	}
	return 0;
}
