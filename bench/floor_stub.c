/* bench/floor_stub.c: the call floor of the n = 1 get (D96). Three gets that only write their
 * two outputs (no handle, keyval or argument check, no lookup), exported under the C names, so
 * that LD_PRELOAD=<build>/lib/libfloor_stub.so in front of any implementation makes a program's
 * get loop time the call itself: the call through the GOT (or PLT), two stores, the return and
 * the caller's loop.  What a real get costs above this is what its own code can still win; on
 * the AMD EPYC VM of docs/performance.md the standalone hit at n = 1 is within one cycle of it.
 * Not an MPI implementation: the setup calls still go to the library behind it. */
#define MPIATTR_FLOOR_GET(name)                                                   \
  __attribute__((visibility("default"), aligned(64))) int name(void* object, int keyval, \
                                                               void* attribute_val, int* flag); \
  int name(void* object, int keyval, void* attribute_val, int* flag) {          \
    (void)object;                                                                  \
    (void)keyval;                                                                  \
    *(void**)attribute_val = (void*)1;                                             \
    *(volatile int*)flag = 1;                                                      \
    return 0;                                                                      \
  }
MPIATTR_FLOOR_GET(MPI_Comm_get_attr)
MPIATTR_FLOOR_GET(MPI_Type_get_attr)
MPIATTR_FLOOR_GET(MPI_Win_get_attr)
