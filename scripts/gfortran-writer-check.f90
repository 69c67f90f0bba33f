! A standalone Fortran writer, written apart from iobench's embedded one
! (runtimes/src/writer.f90), to check `iobench runtime gfortran`: it does
! the same writes the way a user's program would, with the byte order
! fixed at compile time (-fconvert=big-endian, the case of GCC PR91030)
! instead of GFORTRAN_CONVERT_UNIT, and times them with system_clock
! from open to close. scripts/runtime-check.sh compiles and runs it.
!
!   check PATH ELEMENTS RECORD_BYTES FSYNC
!
! RECORD_BYTES 0: one write of the whole array; else one write per record.
! The buffer comes from GFORTRAN_UNFORMATTED_BUFFER_SIZE, as for any
! program. Prints one line: MiB/s.
program writer_check
  use, intrinsic :: iso_fortran_env, only: int64, real64
  use, intrinsic :: iso_c_binding, only: c_int
  implicit none
  interface
    integer(c_int) function fsync(fd) bind(c, name='fsync')
      import :: c_int
      integer(c_int), value :: fd
    end function fsync
  end interface
  character(len=4096) :: path
  character(len=32) :: arg
  integer(int64) :: n, rec, per, first, last, k, t0, t1, rate
  integer :: u, do_fsync
  real(real64), allocatable :: a(:)

  call get_command_argument(1, path)
  call get_command_argument(2, arg); read (arg, *) n
  call get_command_argument(3, arg); read (arg, *) rec
  call get_command_argument(4, arg); read (arg, *) do_fsync
  allocate (a(n))
  a = [(real(k, real64), k = 1, n)]

  call system_clock(t0, rate)
  open (newunit=u, file=trim(path), status='new', access='stream', form='unformatted', action='write')
  if (rec == 0) then
    write (u) a
  else
    per = rec/8
    do first = 1, n, per
      last = min(first + per - 1, n)
      write (u) a(first:last)
    end do
  end if
  if (do_fsync == 1) then
    flush (u)
    if (fsync(int(fnum(u), c_int)) /= 0) stop 'fsync failed'
  end if
  close (u)
  call system_clock(t1)
  print '(f0.1)', real(8*n, real64)/(real(t1 - t0, real64)/real(rate, real64))/1048576.0_real64
end program writer_check
