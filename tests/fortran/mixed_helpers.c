/* C half of test_mixed_lang.f90 and test_mixed_f08_lang.f90 (interfaces: mixed_helpers.f90): a
 * Fortran main program calls these (BIND(C)) to set, read and
 * duplicate from C what Fortran set, read or created, so that one executable sees every cell of the
 * R7.3 table and keyvals crossing the language boundary (R1.3, R1.6, R7.6). Handles cross as
 * MPI_Fint through MPI_Comm_f2c / MPI_Comm_c2f. */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

/* Whether n bytes at p can be read, without crashing when a peer MPI hands C a value where the
 * standard says a pointer (write(2) fails with EFAULT instead). */
static int readable(const void* p, size_t n) {
  int fd[2];
  if (pipe(fd) != 0) return 0;
  int ok = write(fd[1], p, n) == (ssize_t)n;
  close(fd[0]);
  close(fd[1]);
  return ok;
}

static int c_copies, c_deletes;
static MPI_Aint c_seen;
static int c_static_object = 3;

/* ---- C sets, C reads ---- */
void c_set(MPI_Fint comm, MPI_Fint key, MPI_Aint value) {
  MPI_Comm_set_attr(MPI_Comm_f2c(comm), key, (void*)value);
}
/* The void* C gets, as an integer; *flag as C sees it. */
MPI_Aint c_get(MPI_Fint comm, MPI_Fint key, int* flag) {
  void* p = NULL;
  MPI_Comm_get_attr(MPI_Comm_f2c(comm), key, &p, flag);
  return (MPI_Aint)p;
}
/* Reading through the pointer C gets for a Fortran-set value (R7.3): an int* or an MPI_Aint*. */
int c_get_deref_int(MPI_Fint comm, MPI_Fint key) {
  int* p = NULL;
  int flag = 0;
  MPI_Comm_get_attr(MPI_Comm_f2c(comm), key, &p, &flag);
  return flag && readable(p, sizeof *p) ? *p : -999;
}
MPI_Aint c_get_deref_aint(MPI_Fint comm, MPI_Fint key) {
  MPI_Aint* p = NULL;
  int flag = 0;
  MPI_Comm_get_attr(MPI_Comm_f2c(comm), key, &p, &flag);
  return flag && readable(p, sizeof *p) ? *p : -999;
}
MPI_Aint c_static_address(void) { return (MPI_Aint)&c_static_object; }
int c_deref_static(MPI_Aint p) { return *(int*)p; }

/* ---- handle conversions (MPI-4.1 §20.3.4) ---- */
int c_roundtrip(MPI_Fint comm, MPI_Fint type, MPI_Fint win) {
  return MPI_Comm_c2f(MPI_Comm_f2c(comm)) == comm && MPI_Type_c2f(MPI_Type_f2c(type)) == type &&
         MPI_Win_c2f(MPI_Win_f2c(win)) == win && MPI_Comm_f2c(comm) != MPI_COMM_NULL;
}
int c_world_is(MPI_Fint comm) { return MPI_Comm_f2c(comm) == MPI_COMM_WORLD; }

/* ---- a keyval created in C, with C callbacks (R1.6) ---- */
static int c_copy(MPI_Comm old, int key, void* extra, void* in, void* out, int* flag) {
  (void)old; (void)key; (void)extra;
  c_copies++;
  c_seen = readable(in, sizeof(MPI_Aint)) ? *(MPI_Aint*)in : -999; /* a Fortran MPI_XXX_SET_ATTR value arrives as an MPI_Aint* (R7.6) */
  *(void**)out = (void*)(c_seen + 1);
  *flag = 1;
  return MPI_SUCCESS;
}
static int c_delete(MPI_Comm comm, int key, void* val, void* extra) {
  (void)comm; (void)key; (void)extra;
  c_deletes++;
  c_seen = (MPI_Aint)val;
  return MPI_SUCCESS;
}
MPI_Fint c_create_keyval(void) {
  int key = MPI_KEYVAL_INVALID;
  MPI_Comm_create_keyval(c_copy, c_delete, &key, NULL);
  return key;
}
MPI_Fint c_create_dup_fn_keyval(void) {
  int key = MPI_KEYVAL_INVALID;
  MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL);
  return key;
}
int c_copy_calls(void) { return c_copies; }
int c_delete_calls(void) { return c_deletes; }
MPI_Aint c_seen_value(void) { return c_seen; }

/* ---- C duplicates and frees what Fortran keyed (Fortran callbacks run, in Fortran) ---- */
MPI_Fint c_dup(MPI_Fint comm) {
  MPI_Comm dup = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_Comm_f2c(comm), &dup);
  return MPI_Comm_c2f(dup);
}
int c_free(MPI_Fint comm) {
  MPI_Comm c = MPI_Comm_f2c(comm);
  return MPI_Comm_free(&c);
}
int c_delete_attr(MPI_Fint comm, MPI_Fint key) {
  return MPI_Comm_delete_attr(MPI_Comm_f2c(comm), key);
}

/* ---- predefined attributes from C (R7.5): int* for MPI_TAG_UB, MPI_Aint* for MPI_WIN_SIZE ---- */
int c_tag_ub(void) {
  int* p = NULL;
  int flag = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &p, &flag);
  return flag ? *p : -1;
}
MPI_Aint c_win_size(MPI_Fint win) {
  MPI_Aint* p = NULL;
  int flag = 0;
  MPI_Win_get_attr(MPI_Win_f2c(win), MPI_WIN_SIZE, &p, &flag);
  return flag ? *p : -1;
}
MPI_Aint c_win_base(MPI_Fint win) {
  void* p = NULL;
  int flag = 0;
  MPI_Win_get_attr(MPI_Win_f2c(win), MPI_WIN_BASE, &p, &flag);
  return flag ? (MPI_Aint)p : -1;
}

/* ---- Fortran's MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE as C sees them (MPI-4.1 section
 * 19.3.5): which of C's names the status a Fortran program passed is. 1: MPI_F_STATUS_IGNORE,
 * 2: MPI_F_STATUSES_IGNORE, 0: neither; for mpi_f08's, MPI_F08_STATUS_IGNORE and
 * MPI_F08_STATUSES_IGNORE (MPI-4.0: -1 where mpi.h predates them). ---- */
int c_which_f_status_ignore(const MPI_Fint* s) {
  return s == MPI_F_STATUS_IGNORE ? 1 : s == MPI_F_STATUSES_IGNORE ? 2 : 0;
}
int c_which_f08_status_ignore(const void* s) {
#if MPI_VERSION >= 4
  return s == (const void*)MPI_F08_STATUS_IGNORE ? 1 : s == (const void*)MPI_F08_STATUSES_IGNORE ? 2 : 0;
#else
  (void)s;
  return -1;
#endif
}
/* (The same for an array of TYPE(MPI_Status): Fortran gives it its own interface.) */
int c_which_f08_statuses_ignore(const void* s) { return c_which_f08_status_ignore(s); }
