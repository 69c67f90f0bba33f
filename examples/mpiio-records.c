/* An MPI-IO program that writes small records: each rank writes its
 * share of out.dat in 4 KiB independent MPI_File_write_at calls.
 * Usage: mpirun -np N mpiio-records [MiB]   (default 256 MiB in all) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	int rank, size;
	MPI_File fh;
	static char rec[4096];
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	long mib = argc > 1 ? atol(argv[1]) : 256;
	long n = mib * (1 << 20) / (long)sizeof rec / size;
	memset(rec, 'm', sizeof rec);
	if (MPI_File_open(MPI_COMM_WORLD, "out.dat", MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh) != MPI_SUCCESS) {
		fprintf(stderr, "out.dat: MPI_File_open failed\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_File_set_size(fh, 0);
	for (long i = 0; i < n; i++) {
		MPI_Offset off = ((MPI_Offset)rank * n + i) * (MPI_Offset)sizeof rec;
		MPI_File_write_at(fh, off, rec, sizeof rec, MPI_CHAR, MPI_STATUS_IGNORE);
	}
	MPI_File_close(&fh);
	MPI_Finalize();
	return 0;
}
