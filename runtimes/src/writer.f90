! iobench's gfortran writer (package runtimes embeds and compiles it).
!
! It writes ELEMENTS real(8) values p(i) = i to a NEW file through
! libgfortran's unformatted stream I/O, so that libgfortran's own buffer,
! not iobench, decides the write(2) calls, and it counts those calls.
!
!   writer PATH ELEMENTS RECORD_BYTES FSYNC SAME_RECORD
!
! RECORD_BYTES 0 writes the whole array in one statement (write(u) p);
! otherwise one statement per record of RECORD_BYTES bytes (a multiple of
! 8; the last record may be shorter). FSYNC 1 flushes the unit and calls
! fsync(2) before close, inside the timing. SAME_RECORD 1 (with records)
! allocates one record and writes every record from it, as a program
! writing one record variable does: element i of the file holds (i-1) mod
! the record's elements, plus 1. A run-sized array touched just before
! the timing takes the memory the page cache would reuse, and a large
! buffer's calls then slow down.
!
! Byte order and buffer come from the environment, as a user's program
! would get them: GFORTRAN_CONVERT_UNIT (native, big_endian, ...) and
! GFORTRAN_UNFORMATTED_BUFFER_SIZE (bytes). The timed span is open to
! close, like an iobench run; /proc/self/io is read just outside it, so
! syscw and wchar count only the data file's write(2) calls.
!
! Output, one line on stdout:
!   elapsed_ns=N syscw=N wchar=N bytes=N elements=N convert=NAME
! syscw and wchar are -1 when /proc/self/io cannot be read.
! Exit status: 0 done; 64 usage; 65 the file could not be created (nothing
! was created: status='new' refuses an existing name); 4 an error after
! the file was created.
program iobench_writer
  use, intrinsic :: iso_c_binding, only: c_int
  use, intrinsic :: iso_fortran_env, only: int64, real64, error_unit
  implicit none

  interface
    function c_fsync(fd) bind(c, name='fsync') result(r)
      import :: c_int
      integer(c_int), value :: fd
      integer(c_int) :: r
    end function c_fsync
  end interface

  character(len=4096) :: path
  character(len=64) :: conv
  character(len=512) :: msg
  integer(int64) :: n, rec_bytes, i, t0, t1, rate, ns
  integer(int64) :: syscw0, wchar0, syscw1, wchar1
  integer :: u, ios, do_fsync, same
  integer(int64) :: have
  real(real64), allocatable :: p(:)

  path = ''
  call arguments(path, n, rec_bytes, do_fsync, same)
  if (rec_bytes == 0) same = 0 ! one statement for the whole array: no record to reuse
  have = n
  if (same == 1) have = min(rec_bytes/8, n)
  allocate (p(have), stat=ios)
  if (ios /= 0) call fail(4, 'cannot allocate the array')
  do i = 1, have
    p(i) = real(i, real64)
  end do

  call proc_io(syscw0, wchar0)
  call system_clock(t0, rate)
  open (newunit=u, file=trim(path), status='new', access='stream', &
        form='unformatted', action='write', iostat=ios, iomsg=msg)
  if (ios /= 0) call fail(65, msg)
  inquire (unit=u, convert=conv)
  call write_data(u, p, n, rec_bytes, same)
  if (do_fsync == 1) call sync_unit(u)
  close (u, iostat=ios, iomsg=msg)
  if (ios /= 0) call fail(4, msg)
  call check_size(path, n*8)
  call system_clock(t1)
  call proc_io(syscw1, wchar1)

  ! A rate of 10**9 would make this t1-t0; going through real64 keeps any
  ! rate right without overflowing (t1-t0)*10**9.
  ns = nint(real(t1 - t0, real64)*1.0e9_real64/real(rate, real64), int64)
  if (syscw0 >= 0 .and. syscw1 >= 0) then
    syscw1 = syscw1 - syscw0
    wchar1 = wchar1 - wchar0
  else
    syscw1 = -1
    wchar1 = -1
  end if
  write (*, '(5(a,i0),2a)') 'elapsed_ns=', ns, ' syscw=', syscw1, &
    ' wchar=', wchar1, ' bytes=', 8*n, ' elements=', n, ' convert=', trim(conv)

contains

  subroutine arguments(path, n, rec_bytes, do_fsync, same)
    character(len=*), intent(out) :: path
    integer(int64), intent(out) :: n, rec_bytes
    integer, intent(out) :: do_fsync, same
    character(len=64) :: arg
    integer :: e1, e2, e3, e4

    if (command_argument_count() /= 5) &
      call fail(64, 'usage: writer PATH ELEMENTS RECORD_BYTES FSYNC SAME_RECORD')
    call get_command_argument(1, path)
    call get_command_argument(2, arg)
    read (arg, *, iostat=e1) n
    call get_command_argument(3, arg)
    read (arg, *, iostat=e2) rec_bytes
    call get_command_argument(4, arg)
    read (arg, *, iostat=e3) do_fsync
    call get_command_argument(5, arg)
    read (arg, *, iostat=e4) same
    if (e1 /= 0 .or. e2 /= 0 .or. e3 /= 0 .or. e4 /= 0 .or. n < 1 .or. rec_bytes < 0 &
        .or. mod(rec_bytes, 8_int64) /= 0 .or. do_fsync < 0 .or. do_fsync > 1 &
        .or. same < 0 .or. same > 1) &
      call fail(64, 'bad arguments: ELEMENTS >= 1, RECORD_BYTES a multiple of 8, FSYNC and SAME_RECORD 0 or 1')
  end subroutine arguments

  ! write_data issues the transfer statements; libgfortran's buffering
  ! turns them into write(2) calls.
  ! n elements: p holds them all, or with same one record of them.
  subroutine write_data(u, p, n, rec_bytes, same)
    integer, intent(in) :: u, same
    real(real64), intent(in) :: p(:)
    integer(int64), intent(in) :: n, rec_bytes
    integer(int64) :: first, last, per
    integer :: ios

    if (rec_bytes == 0) then
      write (u, iostat=ios, iomsg=msg) p
      if (ios /= 0) call fail(4, msg)
      return
    end if
    per = rec_bytes/8
    first = 1
    do while (first <= n)
      last = min(first + per - 1, n)
      if (same == 1) then
        write (u, iostat=ios, iomsg=msg) p(1:last - first + 1)
      else
        write (u, iostat=ios, iomsg=msg) p(first:last)
      end if
      if (ios /= 0) call fail(4, msg)
      first = last + 1
    end do
  end subroutine write_data

  subroutine sync_unit(u)
    integer, intent(in) :: u
    integer :: ios

    flush (u, iostat=ios, iomsg=msg)
    if (ios /= 0) call fail(4, msg)
    if (c_fsync(int(fnum(u), c_int)) /= 0) call fail(4, 'fsync failed')
  end subroutine sync_unit

  ! proc_io reads the process's write(2) count and bytes written so far.
  subroutine proc_io(syscw, wchar)
    integer(int64), intent(out) :: syscw, wchar
    character(len=128) :: line
    integer :: v, ios

    syscw = -1
    wchar = -1
    open (newunit=v, file='/proc/self/io', status='old', action='read', &
          form='formatted', iostat=ios)
    if (ios /= 0) return
    do
      read (v, '(a)', iostat=ios) line
      if (ios /= 0) exit
      if (line(1:6) == 'syscw:') read (line(7:), *, iostat=ios) syscw
      if (line(1:6) == 'wchar:') read (line(7:), *, iostat=ios) wchar
    end do
    close (v)
  end subroutine proc_io

  ! check_size catches a write(2) error libgfortran dropped: with records
  ! through its buffer (GCC 12), a failed flush sets no iostat, not even
  ! at close. errno still holds the cause; gerror gives its text.
  subroutine check_size(path, want)
    character(len=*), intent(in) :: path
    integer(int64), intent(in) :: want
    integer(int64) :: got
    character(len=256) :: cause
    character(len=32) :: sizes

    inquire (file=trim(path), size=got)
    if (got == want) return
    call gerror(cause)
    write (sizes, '(i0,a,i0)') got, ' of ', want
    call fail(4, trim(cause)//' (the file holds '//trim(sizes)// &
              ' bytes: a write(2) failed and libgfortran did not report it)')
  end subroutine check_size

  subroutine fail(status, text)
    integer, intent(in) :: status
    character(len=*), intent(in) :: text

    if (len_trim(path) > 0) then
      write (error_unit, '(a)') trim(path)//': '//trim(text)
    else
      write (error_unit, '(a)') trim(text)
    end if
    call exit(status)
  end subroutine fail
end program iobench_writer
