/* A standalone HDF5 writer, written apart from iobench's embedded one
 * (runtimes/src/hdf5.c), to check `iobench runtime hdf5`: it writes a
 * 1-D dataset of doubles the way a user's program would, one H5Dwrite of
 * the whole array into a contiguous dataset with HDF5's defaults, and
 * times H5Fcreate to H5Fclose (and an fsync of the file). It takes the
 * file type as an argument: native, or big-endian (H5T_IEEE_F64BE), which
 * HDF5 converts through its 1 MiB type-conversion buffer.
 *
 *   hdf5-writer-check PATH ELEMENTS BIG_ENDIAN FSYNC
 *
 * Prints one line: MiB/s. scripts/hdf5-check.sh compiles and runs it:
 *   cc -O2 -o check hdf5-writer-check.c $(pkg-config --cflags --libs hdf5)
 */
#include <hdf5.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: hdf5-writer-check PATH ELEMENTS BIG_ENDIAN FSYNC\n");
		return 2;
	}
	const char *path = argv[1];
	hsize_t n = strtoull(argv[2], NULL, 10);
	int big = atoi(argv[3]), sync_it = atoi(argv[4]);
	double *a = malloc(n * sizeof *a);
	if (!a)
		return 1;
	for (hsize_t i = 0; i < n; i++)
		a[i] = (double)(i + 1);
	hid_t space = H5Screate_simple(1, &n, NULL);

	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	hid_t file = H5Fcreate(path, H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT);
	hid_t set = H5Dcreate2(file, "x", big ? H5T_IEEE_F64BE : H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	if (file < 0 || set < 0 || H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, a) < 0)
		return 1;
	H5Dclose(set);
	H5Fclose(file);
	if (sync_it) {
		int fd = open(path, O_RDONLY);
		if (fd < 0 || fsync(fd) != 0)
			return 1;
		close(fd);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("%.1f\n", n * 8.0 / 1048576 / s);
	H5Sclose(space);
	free(a);
	return 0;
}
