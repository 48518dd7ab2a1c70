// tests/reallib/boost_mpi.cc: Boost.MPI (Debian's, built against Open MPI) with or without mpiattr.
//
//   boost_mpi OUTDIR
//
// Boost.MPI calls the C API: it duplicates and frees communicators (MPI_Comm_dup, MPI_Comm_free in
// libboost_mpi.so), reads the predefined attributes (environment::max_tag, host_rank, io_rank:
// MPI_Comm_get_attr with MPI_TAG_UB, MPI_HOST, MPI_IO) and finalizes in ~environment; it creates
// no keyval. So the program caches through the C API itself, on the communicators Boost.MPI makes:
// an attribute on MPI_COMM_WORLD whose copy callback counts the duplications Boost.MPI makes and
// whose delete callback counts its frees, and one on MPI_COMM_SELF whose delete callback writes a
// line when MPI_Finalize runs: in the destructor of the environment, a global object, destroyed at
// exit after main has returned. Between, broadcasts of an int, a std::string and a
// std::vector<int> (serialized) on the world and on the duplicates, a split, a reduction.
//
// Each rank writes its lines to OUTDIR/out.<rank> (tests/reallib/run.sh compares them between the
// host alone and mpiattr); the exit status is 0 only if every check passed.
#include <mpi.h>

#include <boost/mpi.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace mpi = boost::mpi;

// Destroyed at exit, after main returns: its destructor calls MPI_Finalize.
static mpi::environment env;

static FILE *out;
static int failures;
static int copies, deletions;  // of the MPI_COMM_WORLD attribute's values, counted by its callbacks

static void say(const std::string &line) {
  std::fprintf(out, "%s\n", line.c_str());
  std::fflush(out);
}

static void check(bool ok, const std::string &what) {
  say((ok ? "ok " : "FAIL ") + what);
  if (!ok) failures++;
}

extern "C" {
static int count_copy(MPI_Comm, int, void *, void *in, void *outp, int *flag) {
  copies++;
  *static_cast<long *>(outp) = reinterpret_cast<long>(in) + 1;  // the depth of duplication
  *flag = 1;
  return MPI_SUCCESS;
}
static int count_delete(MPI_Comm, int, void *, void *) {
  deletions++;
  return MPI_SUCCESS;
}
static int at_exit_delete(MPI_Comm, int, void *val, void *) {
  char line[160];
  std::snprintf(line, sizeof line,
                "finalize (~environment at exit): MPI_COMM_SELF's %s; world attribute copies %d, "
                "deletions %d",
                static_cast<const char *>(val), copies, deletions);
  say(line);
  int finalized = 1;
  MPI_Finalized(&finalized);
  check(!finalized, "MPI is not finalized while MPI_COMM_SELF's attributes are deleted");
  if (finalized) std::_Exit(3);  // main has returned: its exit status is set already
  return MPI_SUCCESS;
}
}

// The depth attribute of COMM (0 when absent).
static long depth(MPI_Comm comm, int key) {
  void *val = nullptr;
  int flag = 0;
  MPI_Comm_get_attr(comm, key, &val, &flag);
  return flag ? reinterpret_cast<long>(val) : 0;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
    return 2;
  }
  mpi::communicator world;
  int rank = world.rank(), size = world.size();
  out = std::fopen((std::string(argv[1]) + "/out." + std::to_string(rank)).c_str(), "w");
  if (!out) return 2;
  say("rank " + std::to_string(rank) + " of " + std::to_string(size) + ": boost_mpi");
  check(mpi::environment::initialized() && !mpi::environment::finalized(),
        "environment initialized");

  int key = MPI_KEYVAL_INVALID, self_key = MPI_KEYVAL_INVALID;
  MPI_Comm_create_keyval(count_copy, count_delete, &key, nullptr);
  MPI_Comm_set_attr(MPI_COMM_WORLD, key, reinterpret_cast<void *>(1L));
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_exit_delete, &self_key, nullptr);
  MPI_Comm_set_attr(MPI_COMM_SELF, self_key, const_cast<char *>("hook"));
  MPI_Comm_free_keyval(&self_key);

  // The predefined attributes, read by Boost.MPI after a user attribute was set on MPI_COMM_WORLD.
  // Their values are the host's, printed: compared with the host alone's.
  int max_tag = mpi::environment::max_tag();
  check(max_tag >= 32767 - 2, "environment::max_tag() (MPI_TAG_UB) after a set: " +
                                  std::to_string(max_tag));
  boost::optional<int> host = mpi::environment::host_rank(), io = mpi::environment::io_rank();
  say("environment::host_rank() (MPI_HOST): " + (host ? std::to_string(*host) : "none") +
      ", io_rank() (MPI_IO): " + (io ? std::to_string(*io) : "none"));
  check(bool(io), "MPI_IO is set");

  {
    mpi::communicator dup(world, mpi::comm_duplicate);  // MPI_Comm_dup: the copy callback runs
    check(copies == 1 && depth(dup, key) == 2, "communicator(world, comm_duplicate) copied it");
    check(depth(world, key) == 1, "the world keeps its own value");
    mpi::communicator dup2(dup, mpi::comm_duplicate);
    check(copies == 2 && depth(dup2, key) == 3, "a duplicate of the duplicate");

    int value = rank == 0 ? 42 : -1;
    mpi::broadcast(dup, value, 0);
    check(value == 42, "broadcast of an int on the duplicate");
    std::string text = rank == 0 ? "attributes over Boost.MPI" : "";
    mpi::broadcast(dup2, text, 0);
    check(text == "attributes over Boost.MPI", "broadcast of a std::string on its duplicate");
    std::vector<int> numbers;
    if (rank == size - 1) numbers = {3, 1, 4, 1, 5, 9, 2, 6};
    mpi::broadcast(world, numbers, size - 1);
    check(numbers == std::vector<int>({3, 1, 4, 1, 5, 9, 2, 6}),
          "broadcast of a std::vector<int> on the world, from the last rank");

    mpi::communicator half = world.split(rank % 2);  // MPI_Comm_split copies no attribute
    check(depth(half, key) == 0, "split copies no attribute");
    int sum = mpi::all_reduce(half, rank, std::plus<int>());
    int want = 0;
    for (int r = rank % 2; r < size; r += 2) want += r;
    check(sum == want, "all_reduce on the split");

    // A C duplicate handed over to Boost.MPI, which frees it.
    MPI_Comm raw;
    MPI_Comm_dup(MPI_COMM_WORLD, &raw);
    mpi::communicator taken(raw, mpi::comm_take_ownership);
    check(copies == 3 && depth(taken, key) == 2, "MPI_Comm_dup taken over by comm_take_ownership");
    // Attached, not owned: Boost.MPI leaves MPI_COMM_SELF alone.
    mpi::communicator self(MPI_COMM_SELF, mpi::comm_attach);
    check(self.size() == 1, "MPI_COMM_SELF attached");
    check(deletions == 0, "nothing deleted while the duplicates live");
  }  // ~communicator: MPI_Comm_free of dup2, dup, taken (the delete callback runs on each)
  check(deletions == 3, "the three duplicates freed by ~communicator, their values deleted");

  MPI_Comm_delete_attr(MPI_COMM_WORLD, key);
  check(deletions == 4, "MPI_Comm_delete_attr on the world");
  MPI_Comm_free_keyval(&key);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  check(MPI_Comm_set_attr(MPI_COMM_WORLD, key, nullptr) != MPI_SUCCESS,
        "the freed keyval is gone (MPI_KEYVAL_INVALID)");

  int all = mpi::all_reduce(world, failures, std::plus<int>());
  say("failures on all ranks before exit: " + std::to_string(all));
  return all == 0 ? 0 : 1;
  // ~environment at exit: MPI_Finalize, which deletes MPI_COMM_SELF's attribute (at_exit_delete)
}
