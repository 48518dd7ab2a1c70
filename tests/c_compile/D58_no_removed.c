/* D58: a program that defines MPIATTR_NO_REMOVED sees none of the names MPI-3.0 removed; without
 * it, they are all there. Compiled twice by ctest (c_compile_D58_removed_names_present, and
 * c_compile_D58_no_removed_hides_them, which must fail to compile), never run. */
#include <mpi.h>

int use_removed(void);
int use_removed(void) {
  MPI_Aint a = 0;
  MPI_Datatype t = MPI_LB;
  MPI_Handler_function *fn = 0;
  (void)fn;
  (void)t;
  return MPI_Address(&a, &a) + MPI_COMBINER_STRUCT_INTEGER;
}
