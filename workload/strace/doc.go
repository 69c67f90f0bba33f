// Package strace reads strace's text output and tells, per file, how many
// write-family system calls (write, pwrite64, writev, pwritev, pwritev2) a
// program made, of which exact sizes, how many bytes they wrote, how many
// failed and, if the trace was recorded with -T, the time spent in them:
// the workload of a program that was never built with Darshan.
//
// It reads what
//
//	strace -f [-tt] [-T] [-y] -e trace=write,pwrite64,writev,pwritev,openat,close -o FILE PROG
//
// prints, with or without -f, -o, -t/-tt/-ttt/-r, -T, -y/-yy, -n, -i and
// -X raw, and the per-process files of -ff (ParseStreams). Merge joins
// the traces of separate strace runs, such as an MPI job's ranks, whose
// pids may repeat: a process is known by its trace and pid. Lines of other
// system calls are recognised and ignored; lines that are not strace's
// are skipped and counted, and an input with none of strace's is an error.
//
// # What a size is
//
// The size of a call is what it returned: the bytes it wrote, a writev's
// total. A call that returned -1 is an error of its file, not a size;
// one with no result ("= ?") is counted apart. Where strace shows what a
// call asked for (write's and pwrite64's count, a vectored call's iov_len
// when every iovec is printed), a call that wrote less is a short write.
//
// # What a file is
//
// A file is what a descriptor named when a write-family call was made to
// it, whatever the outcome; files only opened are not listed. Its name
// is the -y annotation ("/data/out.dat", "pipe:[1234]", "TCP:[...]"),
// unescaped, without -yy's device part and " (deleted)". Without -y it
// comes from the open, creat, openat or openat2 that returned the
// descriptor (its path as the program gave it, relative or under an
// openat dirfd the trace opened), followed through dup, dup2, dup3 and
// fcntl(F_DUPFD) and ended by close and close_range, per pid:
//
//  1. the writing pid's own open of that number;
//  2. else the most recent open of that number by any pid, unless this pid
//     closed it after that open. Threads share one descriptor table and a
//     forked child inherits a copy of its parent's; without clone lines a
//     trace cannot tell which, so a pid writing to a number it never
//     opened gets the latest file of that number, even if its opener
//     closed it since (a parent closing its copy after a fork is common);
//  3. else "<stdin>", "<stdout>" or "<stderr>" for 0, 1 and 2;
//  4. else "fd N (closed)" if the pid closed it, else "fd N (opened before
//     the trace)".
//
// So two processes that open different files on one number while a third,
// inheriting, writes to it are told apart only by -y: record with -y for
// exact names under -f.
//
// # Limits
//
// Parsing is linear in the input, except that close_range costs the
// number of the pid's open descriptors. A line over MaxLine is never held
// whole: a write-family call in it is still counted from its first and
// last bytes. Memory grows with the distinct files, sizes, pids and
// descriptor numbers of the trace, not with its number of lines.
//
// It owns the grammar of strace's output and the descriptor rule. It is
// pure: it reads from readers, never from the file system, and prints
// nothing. It must not import any other iobench package, urfave/cli or
// os.Stdout: the command opens the trace files and renders the result,
// never the reverse.
package strace
