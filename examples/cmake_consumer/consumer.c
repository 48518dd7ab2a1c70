/* consumer.c: the program of the CMake-consumer example; it caches a value on MPI_COMM_WORLD and
 * reads it back, and exits with 1 if that does not work. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  static int answer = 42;
  int key, found, *value = NULL;
  MPI_Init(&argc, &argv);
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL);
  MPI_Comm_set_attr(MPI_COMM_WORLD, key, &answer);
  MPI_Comm_get_attr(MPI_COMM_WORLD, key, &value, &found);
  printf("consumer: found=%d value=%d\n", found, found ? *value : -1);
  MPI_Comm_delete_attr(MPI_COMM_WORLD, key);
  MPI_Comm_free_keyval(&key);
  MPI_Finalize();
  return found && value == &answer ? 0 : 1;
}
