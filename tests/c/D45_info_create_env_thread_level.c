/* D45: MPI_Info_create_env's "thread_level" names the level MPI was initialised with, at every
 * level. The levels' values are the ABI's (MPI_THREAD_FUNNELED is 1024): until mpi4py 4's suite
 * found it (D116), every level but MPI_THREAD_SINGLE read past a table of names and failed with
 * MPI_ERR_INTERN. This program initialises at MPI_THREAD_FUNNELED, or at the level argv[1] names.
 */
#include <mpi.h>
#include <string.h>

#include "c_check.h"

static const char *name_of(int level) {
  return level == MPI_THREAD_SINGLE       ? "MPI_THREAD_SINGLE"
         : level == MPI_THREAD_FUNNELED   ? "MPI_THREAD_FUNNELED"
         : level == MPI_THREAD_SERIALIZED ? "MPI_THREAD_SERIALIZED"
                                          : "MPI_THREAD_MULTIPLE";
}

int main(int argc, char **argv) {
  int level = MPI_THREAD_FUNNELED, provided = -1;
  if (argc > 1 && strcmp(argv[1], "serialized") == 0) level = MPI_THREAD_SERIALIZED;
  if (argc > 1 && strcmp(argv[1], "multiple") == 0) level = MPI_THREAD_MULTIPLE;
  OK(MPI_Init_thread(NULL, NULL, level, &provided));  /* (as mpi4py does: no argc, argv) */
  OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  int queried = -1;
  OK(MPI_Query_thread(&queried));
  CHECK(queried == provided, "MPI_Query_thread %d, provided %d", queried, provided);
  MPI_Info info = MPI_INFO_NULL;
  OK(MPI_Info_create_env(0, MPI_ARGV_NULL, &info));
  char value[MPI_MAX_INFO_VAL + 1] = "";
  int len = MPI_MAX_INFO_VAL, flag = 0;
  if (info != MPI_INFO_NULL) {
    OK(MPI_Info_get_string(info, "thread_level", &len, value, &flag));
    CHECK(flag && strcmp(value, name_of(provided)) == 0, "thread_level is '%s' (flag %d), expected %s", value, flag,
          name_of(provided));
    OK(MPI_Info_get_string(info, "command", &len, value, &flag));
    CHECK(!flag, "a command without argv");
    OK(MPI_Info_free(&info));
  }
  OK(MPI_Finalize());
  return failures != 0;
}
