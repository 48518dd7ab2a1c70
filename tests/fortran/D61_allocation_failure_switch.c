/* The C half of tests/fortran/D61_allocation_failure.f90: mpiattr's allocation-failure switch
 * (docs/decisions.md D61), found with dlsym so that the same program runs standalone and with
 * libmpiattr_<host>.so preloaded into a program the host's mpifort built, which links nothing of
 * mpiattr's. Called from Fortran through a BIND(C) interface. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

typedef long (*switch_fn)(long fail_at, int persistent);

long d61_fail_allocation(long fail_at, int persistent);
long d61_fail_allocation(long fail_at, int persistent) {
  static switch_fn fn;
  if (fn == NULL) {
    fn = (switch_fn)dlsym(RTLD_DEFAULT, "mpiattr_test_fail_allocation");
    if (fn == NULL) {
      printf("FAIL: mpiattr's test switch mpiattr_test_fail_allocation is not there\n");
      exit(1);
    }
  }
  return fn(fail_at, persistent);
}
