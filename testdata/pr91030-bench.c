/*
 * The benchmark program posted by Thomas Koenig in GCC Bugzilla
 * PR libfortran/91030 ("Poor performance of I/O -fconvert=big-endian"),
 * comment 20. iobench reproduces what it measures; keep it here as the
 * reference to compare against, not as code to copy.
 *
 * Known defects that iobench must not inherit (docs/method.md, "How iobench differs from the reference program"):
 *  - blocksize counts doubles, not bytes: "bs = 1024" writes 8 KiB per call;
 *  - the last write passes blocksize*8 bytes even when fewer are left, so it
 *    reads past the end of the array and writes more than N doubles;
 *  - the printed "MiB/s" is N / seconds / 2^20, i.e. Mi-doubles per second:
 *    the true MiB/s is 8 times larger;
 *  - the return values of write() and sync() are ignored (short writes,
 *    ENOSPC and EIO pass silently);
 *  - the timed region is open..close, without fsync, so with enough RAM it
 *    measures the page cache, not the file system.
 */
#include <sys/time.h>
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

double walltime (void)
{
  struct timeval TV;
  double elapsed;
  gettimeofday(&TV, NULL);
  elapsed = (double) TV.tv_sec + 1.0e-6*((double) TV.tv_usec);
  return elapsed;
}

#define NAME "out.dat"
#ifndef N /* -DN=... for a quick run; the PR's program has N fixed */
#define N 250000000
#endif

int main()
{
  int fd;
  double *p, *w;
  long i, size, blocksize, left, to_write;
  int bits;
  double t1, t2;
  struct statvfs buf;

  printf ("Test using %e doubles\n", N * 1.0);
  statvfs (".", &buf);
  printf ("Block size of file system: %ld\n", buf.f_bsize);

  p = malloc(N * sizeof (*p));
  for (i=0; i<N; i++)
    p[i] = i;

  for (bits = 10; bits < 27; bits++)
    {
      sync();
      blocksize = 1 << bits;
      printf("bs = %10ld, ", blocksize);
      unlink (NAME);
      fd = open(NAME, O_WRONLY|O_CREAT, S_IRUSR | S_IWUSR);
      if (fd < 0)
        {
          perror ("Open of " NAME " failed");
          exit(1);
        }
      left = N;
      w = p;
      t1 = walltime();
      while (left > 0)
        {
          if (left >= blocksize)
            to_write = blocksize;
          else
            to_write = left;

          write (fd, w, blocksize * sizeof (double));
          w += to_write;
          left -= to_write;
        }
      close (fd);
      t2 = walltime ();
      printf ("%.2f MiB/s\n", N / (t2-t1) / 1048576);
    }
  free (p);
  unlink (NAME);

  return 0;
}
