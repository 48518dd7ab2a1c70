/* counter.c: the C half of the mixed example, a C library that a Fortran program calls.
 *
 * It keeps a call counter on each communicator it is given (a Fortran handle, converted with
 * MPI_Comm_f2c), under a keyval whose copy callback gives a duplicate its own counter and whose
 * delete callback frees it. It also reads an attribute the Fortran program set: in C such a value
 * reads as a pointer to the stored MPI_Aint (MPI-4.1 section 20.3.7). One library, one runtime:
 * keyvals and communicators are the same in both languages. */
#include <mpi.h>
#include <stdlib.h>

static int counter_key = MPI_KEYVAL_INVALID;

static int copy_counter(MPI_Comm oldcomm, int key, void *extra, void *in, void *out, int *flag) {
  (void)oldcomm; (void)key; (void)extra;
  int *copy = malloc(sizeof *copy);  /* a deep copy: each communicator frees its own */
  if (copy == NULL) return MPI_ERR_NO_MEM;
  *copy = *(int *)in;
  *(void **)out = copy;
  *flag = 1;
  return MPI_SUCCESS;
}

static int delete_counter(MPI_Comm comm, int key, void *value, void *extra) {
  (void)comm; (void)key; (void)extra;
  free(value);
  return MPI_SUCCESS;
}

/* Counts a call on the communicator; returns the count so far, or -1 on an error. */
int counter_call(MPI_Fint fcomm) {
  MPI_Comm comm = MPI_Comm_f2c(fcomm);
  int *count, found;
  if (counter_key == MPI_KEYVAL_INVALID &&
      MPI_Comm_create_keyval(copy_counter, delete_counter, &counter_key, NULL) != MPI_SUCCESS)
    return -1;
  if (MPI_Comm_get_attr(comm, counter_key, &count, &found) != MPI_SUCCESS) return -1;
  if (!found) {
    count = calloc(1, sizeof *count);
    if (count == NULL || MPI_Comm_set_attr(comm, counter_key, count) != MPI_SUCCESS) return -1;
  }
  return ++*count;
}

/* Releases the library's state on the communicator, and its keyval. */
void counter_done(MPI_Fint fcomm) {
  MPI_Comm_delete_attr(MPI_Comm_f2c(fcomm), counter_key);
  MPI_Comm_free_keyval(&counter_key);
}

/* The value a Fortran program stored under `key` (a Fortran keyval is the C one), or -1. */
MPI_Aint read_fortran_attr(MPI_Fint fcomm, MPI_Fint key) {
  MPI_Aint *value;
  int found;
  if (MPI_Comm_get_attr(MPI_Comm_f2c(fcomm), (int)key, &value, &found) != MPI_SUCCESS || !found)
    return -1;
  return *value;
}
