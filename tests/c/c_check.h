/* tests/c/c_check.h: the checks of the plain C test programs (no test framework: they also run over
 * MPICH and Open MPI, built by the host's compilers). CHECK counts a failed condition and prints
 * where; OK checks that an MPI call succeeded. A program returns failures != 0. */
#ifndef MPIATTR_TESTS_C_CHECK_H
#define MPIATTR_TESTS_C_CHECK_H
#include <stdio.h>

static int failures;
#define CHECK(cond, ...)                                        \
  do {                                                          \
    if (!(cond)) {                                              \
      fprintf(stderr, "FAIL (line %d): %s: ", __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                             \
      fputc('\n', stderr);                                      \
      ++failures;                                               \
    }                                                           \
  } while (0)
#define OK(expr) CHECK((expr) == MPI_SUCCESS, "%s did not succeed", #expr)

#endif
