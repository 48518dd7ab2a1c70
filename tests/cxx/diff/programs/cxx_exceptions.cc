// tests/cxx/diff/programs/cxx_exceptions.cc: MPI::ERRORS_THROW_EXCEPTIONS and MPI::Exception,
// built against mpiattr, MPICH and Open MPI (cxxdiffrun.py).
#include <mpi.h>

#include <cstdio>

int main(int argc, char** argv) {
  MPI::Init(argc, argv);
  MPI::Intracomm c = MPI::COMM_WORLD.Dup();
  c.Set_errhandler(MPI::ERRORS_THROW_EXCEPTIONS);
  std::printf("handler is throw: %d\n", c.Get_errhandler() == MPI::ERRORS_THROW_EXCEPTIONS);
  void* v = 0;
  try {
    c.Get_attr(MPI::KEYVAL_INVALID, &v);
    std::printf("invalid keyval get: no exception\n");
  } catch (MPI::Exception& e) {
    std::printf("invalid keyval get: ERR_KEYVAL %d, has a string %d\n",
                e.Get_error_class() == MPI::ERR_KEYVAL, e.Get_error_string()[0] != '\0');
  }
  try {
    c.Delete_attr(MPI::KEYVAL_INVALID);
    std::printf("invalid keyval delete: no exception\n");
  } catch (MPI::Exception& e) {
    std::printf("invalid keyval delete: ERR_KEYVAL %d\n", e.Get_error_class() == MPI::ERR_KEYVAL);
  }
  c.Set_errhandler(MPI::ERRORS_RETURN);
  c.Get_attr(MPI::KEYVAL_INVALID, &v);  // the returned flag is unspecified here
  std::printf("errors return: no exception\n");
  c.Free();
  MPI::Finalize();
  return 0;
}
