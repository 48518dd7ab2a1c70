/* D71: mpi.h declares the routines `noplt` (GCC, x86-64: the program calls through the GOT, not a
 * PLT stub), and the profiling interface (MPI-4.1 section 15.2) still works: a tool that defines
 * MPI_X and calls PMPI_X intercepts the program's calls of MPI_X, and the program's own calls of
 * PMPI_X reach the library. The routines here are the ones with fast paths (keyval create and free,
 * set, get), at MPI_THREAD_SINGLE where the fast paths run. (A tool in a shared library, preloaded
 * or linked first, is resolved by the dynamic linker into the same GOT entry a PLT stub would jump
 * through; docs/decisions.md D71.) */
#include <mpi.h>

#include "c_check.h"

static int tool_gets, tool_sets, tool_creates, tool_frees;

/* The tool: each wrapper counts, then calls the library through the profiling name. */
int MPI_Comm_get_attr(MPI_Comm comm, int keyval, void* value, int* flag) {
  ++tool_gets;
  return PMPI_Comm_get_attr(comm, keyval, value, flag);
}
int MPI_Comm_set_attr(MPI_Comm comm, int keyval, void* value) {
  ++tool_sets;
  return PMPI_Comm_set_attr(comm, keyval, value);
}
int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function* copy_fn, MPI_Comm_delete_attr_function* delete_fn,
                           int* keyval, void* extra_state) {
  ++tool_creates;
  return PMPI_Comm_create_keyval(copy_fn, delete_fn, keyval, extra_state);
}
int MPI_Comm_free_keyval(int* keyval) {
  ++tool_frees;
  return PMPI_Comm_free_keyval(keyval);
}

int main(int argc, char** argv) {
  int provided = -1;
  OK(MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided));
  int key = MPI_KEYVAL_INVALID, flag = 0, x = 7;
  void* got = NULL;
  for (int round = 0; round < 3; ++round) {  /* the second and third take the fast paths */
    OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL));
    OK(MPI_Comm_set_attr(MPI_COMM_SELF, key, &x));
    OK(MPI_Comm_set_attr(MPI_COMM_SELF, key, &x));
    OK(MPI_Comm_get_attr(MPI_COMM_SELF, key, &got, &flag));
    CHECK(flag == 1 && got == &x, "the get through the tool gave flag %d, %p (expected 1, %p)", flag, got, (void*)&x);
    OK(PMPI_Comm_get_attr(MPI_COMM_SELF, key, &got, &flag));  /* not through the tool */
    CHECK(flag == 1 && got == &x, "the PMPI_ get gave flag %d, %p (expected 1, %p)", flag, got, (void*)&x);
    OK(MPI_Comm_delete_attr(MPI_COMM_SELF, key));
    OK(MPI_Comm_free_keyval(&key));
    CHECK(key == MPI_KEYVAL_INVALID, "the free through the tool left %d", key);
  }
  CHECK(tool_creates == 3 && tool_frees == 3, "the tool saw %d creates and %d frees, expected 3 and 3", tool_creates,
        tool_frees);
  CHECK(tool_sets == 6, "the tool saw %d sets, expected 6", tool_sets);
  CHECK(tool_gets == 3, "the tool saw %d gets, expected 3 (the PMPI_ gets must not reach it)", tool_gets);
  OK(MPI_Finalize());
  if (failures == 0) printf("No Errors\n");
  return failures != 0;
}
