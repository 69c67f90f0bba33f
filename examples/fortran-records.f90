! A Fortran program that writes unformatted sequential records of 8
! doubles (64 bytes of data, 72 with the record markers). libgfortran
! flushes its 128 KiB buffer at just over half: 65,592-byte write(2)s.
! Usage: fortran-records [MiB] [file]   (default 576 MiB to out.dat)
program records
  implicit none
  integer(8) :: i, n, mib
  real(8) :: rec(8)
  character(len=256) :: arg, path
  mib = 576
  path = 'out.dat'
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) mib
  end if
  if (command_argument_count() >= 2) call get_command_argument(2, path)
  n = mib * 1048576_8 / 72
  open (10, file=trim(path), form='unformatted', access='sequential', status='replace')
  do i = 1, n
    rec = real(i, 8)
    write (10) rec
  end do
  close (10)
end program records
