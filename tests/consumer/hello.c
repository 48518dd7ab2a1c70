/* tests/consumer/hello.c: a C program built against an installed mpiattr (tests/consumer/run.sh).
 * A value cached on a communicator is copied to its duplicate by MPI_COMM_DUP_FN. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int key, flag = 0, *got = NULL;
  static int value = 42;
  MPI_Comm dup;
  MPI_Init(&argc, &argv);
  MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL);
  MPI_Comm_set_attr(MPI_COMM_WORLD, key, &value);
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_get_attr(dup, key, &got, &flag);
  if (!flag || got != &value) {
    fprintf(stderr, "hello.c: the attribute was not copied\n");
    return 1;
  }
  MPI_Comm_free(&dup);
  MPI_Comm_free_keyval(&key);
  MPI_Finalize();
  printf("c: ok\n");
  return 0;
}
