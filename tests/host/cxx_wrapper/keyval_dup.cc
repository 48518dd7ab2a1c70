// tests/host/cxx_wrapper/keyval_dup.cc: mpiattr's MPI:: classes over a host MPI, in a program
// whose link line may also hold the host's own C++ library (no_host_cxx.py). A C++ copy callback
// must run when MPI::COMM_WORLD is duplicated, and the delete callback when the duplicate is
// freed; MPI::COMM_WORLD must be the world of the job, and MPI::ERRORS_THROW_EXCEPTIONS must throw.
// Each rank prints "rank R of N: ok".
#include <mpi.h>
#include <cstdio>
#include <cstdlib>

static int copies = 0;
static int deletes = 0;
static int value = 7;

static int copy_fn(const MPI::Comm&, int, void* extra, void* in, void* out, bool& flag) {
  ++copies;
  // extra_state is what Create_keyval was given; the copy gets the value plus one.
  if (extra != &copies) return MPI::ERR_OTHER;
  static int copied;
  copied = *static_cast<int*>(in) + 1;
  *static_cast<void**>(out) = &copied;
  flag = true;
  return MPI::SUCCESS;
}

static int delete_fn(MPI::Comm&, int, void*, void*) {
  ++deletes;
  return MPI::SUCCESS;
}

static int failures = 0;
static void check(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what);
    ++failures;
  }
}

int main(int argc, char** argv) {
  MPI::Init(argc, argv);
  int size = MPI::COMM_WORLD.Get_size();
  int rank = MPI::COMM_WORLD.Get_rank();
  int csize = 0, crank = -1;
  MPI_Comm_size(MPI_COMM_WORLD, &csize);
  MPI_Comm_rank(MPI_COMM_WORLD, &crank);
  check(size == csize && rank == crank, "MPI::COMM_WORLD is not MPI_COMM_WORLD");
  if (argc > 1) check(size == std::atoi(argv[1]), "MPI::COMM_WORLD.Get_size() is not the job's size");

  int key = MPI::Comm::Create_keyval(copy_fn, delete_fn, &copies);
  MPI::COMM_WORLD.Set_attr(key, &value);
  MPI::Intracomm dup = MPI::COMM_WORLD.Dup();
  check(copies == 1, "the C++ copy callback did not run once on MPI::COMM_WORLD.Dup()");
  check(dup.Get_size() == size, "the duplicate's size");
  void* got = 0;
  check(dup.Get_attr(key, &got) && got && *static_cast<int*>(got) == value + 1,
        "the duplicate does not hold the callback's copy");
  dup.Free();
  check(deletes == 1, "the C++ delete callback did not run once on Free()");
  MPI::COMM_WORLD.Delete_attr(key);
  check(deletes == 2, "the C++ delete callback did not run on Delete_attr()");
  MPI::Comm::Free_keyval(key);

  // MPI::ERRORS_THROW_EXCEPTIONS is mpiattr's (the host's C++ library has an object of that name
  // too): an erroneous call on MPI::COMM_WORLD then throws.
  MPI::COMM_WORLD.Set_errhandler(MPI::ERRORS_THROW_EXCEPTIONS);
  bool thrown = false;
  try {
    MPI::COMM_WORLD.Set_attr(key, &value);  // a freed keyval
  } catch (MPI::Exception& e) {
    thrown = e.Get_error_class() == MPI::ERR_KEYVAL;
  }
  check(thrown, "no MPI::Exception of class MPI::ERR_KEYVAL under MPI::ERRORS_THROW_EXCEPTIONS");
  MPI::COMM_WORLD.Set_errhandler(MPI::ERRORS_ARE_FATAL);
  MPI::Finalize();
  if (failures == 0) std::printf("rank %d of %d: ok\n", rank, size);
  return failures == 0 ? 0 : 1;
}
