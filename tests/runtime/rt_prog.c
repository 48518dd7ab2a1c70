/* rt_prog: the program runtime_check.py runs (D26, D27). argv[1] is what it does:
 *   hello         MPI_Init, print "rank R of S" (and MPIATTR_TEST_VAR when set), MPI_Finalize
 *   exit N        MPI_Init, MPI_Finalize, exit status N
 *   abort [N]     print three lines to stdout, MPI_Abort(MPI_COMM_WORLD, N), N 3 unless given
 *   fatal         print three lines, then an error under MPI_ERRORS_ARE_FATAL (a keyval that is not one)
 *   errors_abort  the same under MPI_ERRORS_ABORT
 * fatal and errors_abort first write to stderr the exit status expected: the error's class,
 * MPI_ERR_KEYVAL (D150), which runtime_check.py reads from that line.
 * Nothing is flushed by the program: stdout to a file is fully buffered, so what reaches the file
 * is what MPI flushed before ending the process. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void three_lines(void) {
  for (int i = 1; i <= 3; ++i) printf("D27: C line %d of 3\n", i);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "hello";
  MPI_Init(&argc, &argv);
  if (strcmp(mode, "hello") == 0) {
    int rank = -1, size = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    printf("rank %d of %d\n", rank, size);
    const char *v = getenv("MPIATTR_TEST_VAR");
    if (v) printf("MPIATTR_TEST_VAR=%s\n", v);
  } else if (strcmp(mode, "exit") == 0) {
    MPI_Finalize();
    return argc > 2 ? atoi(argv[2]) : 0;
  } else if (strcmp(mode, "abort") == 0) {
    three_lines();
    MPI_Abort(MPI_COMM_WORLD, argc > 2 ? atoi(argv[2]) : 3);
  } else if (strcmp(mode, "fatal") == 0 || strcmp(mode, "errors_abort") == 0) {
    if (strcmp(mode, "errors_abort") == 0) MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ABORT);
    three_lines();
    fprintf(stderr, "rt_prog: expecting exit status %d (MPI_ERR_KEYVAL)\n", MPI_ERR_KEYVAL);
    int value = 0;
    MPI_Comm_set_attr(MPI_COMM_WORLD, 12345, &value); /* not a keyval: MPI_ERR_KEYVAL, fatal */
  } else {
    fprintf(stderr, "rt_prog: unknown mode %s\n", mode);
    return 2;
  }
  MPI_Finalize();
  return 0;
}
