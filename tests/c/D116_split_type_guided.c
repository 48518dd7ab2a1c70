/* D116: MPI_Comm_split_type's hardware split types on one process (MPI-4.1 section 7.4.2).
 * MPI_COMM_TYPE_HW_GUIDED and MPI_COMM_TYPE_RESOURCE_GUIDED give the process for a resource the
 * info names and the runtime knows ("mpi_hw_resource_type" = "mpi_shared_memory"; for
 * _RESOURCE_GUIDED also "mpi_pset_name" = a process set), MPI_COMM_NULL for MPI_INFO_NULL, an
 * info without the key, or a value it does not know; MPI_COMM_TYPE_HW_UNGUIDED must give a strict
 * subset, which one process has not: MPI_COMM_NULL. The info is left as given. mpi4py 4's suite
 * found every one of them giving the process (D116). MPICH 4.0.2 gives the same (by hand; it has
 * no MPI_COMM_TYPE_RESOURCE_GUIDED); Open MPI 4.1 has neither guided type. */
#include <mpi.h>
#include <string.h>

#include "c_check.h"

static void expect(const char *what, int split_type, MPI_Info info, int want_comm) {
  MPI_Comm c = MPI_COMM_NULL;
  OK(MPI_Comm_split_type(MPI_COMM_WORLD, split_type, 0, info, &c));
  CHECK((c != MPI_COMM_NULL) == want_comm, "%s: %s", what, c == MPI_COMM_NULL ? "MPI_COMM_NULL" : "a communicator");
  if (c != MPI_COMM_NULL) {
    int size = 0;
    OK(MPI_Comm_size(c, &size));
    CHECK(size == 1, "%s: size %d", what, size);
    OK(MPI_Comm_free(&c));
  }
}

int main(int argc, char **argv) {
  OK(MPI_Init(&argc, &argv));
  MPI_Info none, other, unknown, shmem, pset;
  OK(MPI_Info_create(&none));
  OK(MPI_Info_create(&other));
  OK(MPI_Info_set(other, "foo", "bar"));
  OK(MPI_Info_create(&unknown));
  OK(MPI_Info_set(unknown, "mpi_hw_resource_type", "@dont-thread-on-me@"));
  OK(MPI_Info_create(&shmem));
  OK(MPI_Info_set(shmem, "mpi_hw_resource_type", "mpi_shared_memory"));
  OK(MPI_Info_create(&pset));
  OK(MPI_Info_set(pset, "mpi_pset_name", "mpi://SELF"));
  const int guided[2] = {MPI_COMM_TYPE_HW_GUIDED, MPI_COMM_TYPE_RESOURCE_GUIDED};
  for (int g = 0; g < 2; ++g) {
    expect("guided, MPI_INFO_NULL", guided[g], MPI_INFO_NULL, 0);
    expect("guided, an empty info", guided[g], none, 0);
    expect("guided, no mpi_hw_resource_type", guided[g], other, 0);
    expect("guided, an unknown resource", guided[g], unknown, 0);
    expect("guided, mpi_shared_memory", guided[g], shmem, 1);
  }
  expect("MPI_COMM_TYPE_RESOURCE_GUIDED, mpi_pset_name mpi://SELF", MPI_COMM_TYPE_RESOURCE_GUIDED, pset, 1);
  expect("MPI_COMM_TYPE_HW_GUIDED, mpi_pset_name (not its key)", MPI_COMM_TYPE_HW_GUIDED, pset, 0);
  expect("MPI_COMM_TYPE_HW_UNGUIDED, an empty info", MPI_COMM_TYPE_HW_UNGUIDED, none, 0);
  expect("MPI_COMM_TYPE_HW_UNGUIDED, MPI_INFO_NULL", MPI_COMM_TYPE_HW_UNGUIDED, MPI_INFO_NULL, 0);
  expect("MPI_COMM_TYPE_SHARED", MPI_COMM_TYPE_SHARED, MPI_INFO_NULL, 1);
  expect("MPI_UNDEFINED", MPI_UNDEFINED, shmem, 0);
  char value[64];
  int len = (int)sizeof value - 1, flag = 0;
  OK(MPI_Info_get_string(shmem, "mpi_hw_resource_type", &len, value, &flag));
  CHECK(flag && strcmp(value, "mpi_shared_memory") == 0, "the info changed: '%s'", value);
  MPI_Info *all[] = {&none, &other, &unknown, &shmem, &pset};
  for (int i = 0; i < 5; ++i) OK(MPI_Info_free(all[i]));
  OK(MPI_Finalize());
  return failures != 0;
}
