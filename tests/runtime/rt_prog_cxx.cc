// rt_prog_cxx: C++ streams that buffer on their own (sync_with_stdio(false)), then MPI_Abort: the
// lines must reach stdout's file anyway (D27).
#include <mpi.h>

#include <iostream>

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  MPI_Init(&argc, &argv);
  for (int i = 1; i <= 3; ++i) std::cout << "D27: C++ line " << i << " of 3\n";
  MPI_Abort(MPI_COMM_WORLD, 3);
  return 0;
}
