/* D43: the datatype routines' errors and the choices where the standard is silent, on the
 * standalone runtime, where the differential test (tests/diff/c/RT_datatypes_envelope_names_one_process.c)
 * cannot go because a peer crashes (Open MPI on the contents of a named or f90 datatype, on the
 * name of MPI_CXX_BOOL; MPICH on a darray whose process grid is not `size`) or misses the error
 * (MPICH's subarray checks): the class, a message that says what was wrong, nothing written or
 * created. Also: the f90 datatypes' contents and that they cannot be freed, element counts that
 * end inside a basic element, and counts beyond an int. */
#include <mpi.h>
#include <string.h>

#include "c_errors.h"

static int elements(MPI_Datatype t, int bytes) {
  MPI_Status st;
  int n = -7;
  OK(MPI_Status_set_elements(&st, MPI_BYTE, bytes));
  OK(MPI_Get_elements(&st, t, &n));
  return n;
}

int main(int argc, char **argv) {
  OK(MPI_Init(&argc, &argv));
  OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

  /* MPI_CXX_BOOL is named after itself as well (MPI-4.1 §6.8). */
  char name[MPI_MAX_OBJECT_NAME];
  int len = -1;
  OK(MPI_Type_get_name(MPI_CXX_BOOL, name, &len));
  CHECK(strcmp(name, "MPI_CXX_BOOL") == 0 && len == 12, "MPI_CXX_BOOL is named '%s' (%d)", name, len);

  /* Contents: not of a named datatype; not into arrays smaller than the envelope says. */
  int ints[4] = {7, 7, 7, 7};
  MPI_Aint addrs[2] = {7, 7};
  MPI_Datatype types[2] = {MPI_INT, MPI_INT};
  check_error(MPI_Type_get_contents(MPI_DOUBLE, 4, 2, 2, ints, addrs, types), MPI_ERR_TYPE,
              "a predefined datatype has no contents");
  CHECK(ints[0] == 7 && addrs[0] == 7 && types[0] == MPI_INT, "an output was written");
  MPI_Datatype v;
  OK(MPI_Type_vector(2, 1, 3, MPI_INT, &v));
  check_error(MPI_Type_get_contents(v, 2, 0, 1, ints, addrs, types), MPI_ERR_ARG,
              "are less than the 3, 0, 1");
  check_error(MPI_Type_get_contents(v, 3, 0, 0, ints, addrs, types), MPI_ERR_ARG, "less than");
  CHECK(ints[0] == 7 && types[0] == MPI_INT, "an output was written");
  /* Larger arrays are fine: only the envelope's entries are written. */
  OK(MPI_Type_get_contents(v, 4, 2, 2, ints, addrs, types));
  CHECK(ints[0] == 2 && ints[1] == 1 && ints[2] == 3 && ints[3] == 7, "vector contents %d %d %d %d",
        ints[0], ints[1], ints[2], ints[3]);
  CHECK(types[0] == MPI_INT && types[1] == MPI_INT, "datatypes written beyond the envelope");

  /* The f90 datatypes: their contents are p and r (or r), none of them can be freed, and the
   * same arguments give the same datatype, also as a part of a struct. */
  MPI_Datatype f, f2;
  OK(MPI_Type_create_f90_complex(6, MPI_UNDEFINED, &f));
  int ni = -1, na = -1, nd = -1, comb = -1;
  OK(MPI_Type_get_envelope(f, &ni, &na, &nd, &comb));
  CHECK(ni == 2 && na == 0 && nd == 0 && comb == MPI_COMBINER_F90_COMPLEX, "f90 complex envelope");
  OK(MPI_Type_get_contents(f, 2, 0, 0, ints, addrs, types));
  CHECK(ints[0] == 6 && ints[1] == MPI_UNDEFINED, "f90 complex contents %d %d", ints[0], ints[1]);
  int size = -1;
  OK(MPI_Type_size(f, &size));
  CHECK(size == 8, "f90 complex of precision 6 has %d bytes", size);
  f2 = f;
  check_error(MPI_Type_free(&f2), MPI_ERR_TYPE, "cannot be freed");
  CHECK(f2 == f, "the handle was changed");
  OK(MPI_Type_create_f90_integer(4, &f));
  OK(MPI_Type_size(f, &size));
  CHECK(size == 2, "f90 integer of range 4 has %d bytes", size);
  OK(MPI_Type_get_contents(f, 1, 0, 0, ints, addrs, types));
  CHECK(ints[0] == 4, "f90 integer contents %d", ints[0]);
  MPI_Datatype c;
  OK(MPI_Type_contiguous(3, f, &c));
  OK(MPI_Type_get_contents(c, 1, 0, 1, ints, addrs, types));
  CHECK(types[0] == f, "a part that is an f90 datatype is returned as itself");
  OK(MPI_Type_free(&c));
  check_error(MPI_Type_create_f90_real(40, MPI_UNDEFINED, &f), MPI_ERR_ARG, "precision 40");
  check_error(MPI_Type_create_f90_real(MPI_UNDEFINED, MPI_UNDEFINED, &f), MPI_ERR_ARG, "both MPI_UNDEFINED");
  check_error(MPI_Type_create_f90_integer(39, &f), MPI_ERR_ARG, "range 39");
  f = MPI_INT;
  check_error(MPI_Type_match_size(MPI_TYPECLASS_REAL, 5, &f), MPI_ERR_ARG, "has 5 bytes");
  check_error(MPI_Type_match_size(77, 4, &f), MPI_ERR_ARG, "typeclass 77");
  OK(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, &f));
  CHECK(f == MPI_INTEGER4, "match_size integer 4 is not MPI_INTEGER4 (D43)");

  /* Constructors: bad arguments leave MPI_DATATYPE_NULL. */
  MPI_Datatype t = MPI_INT;
  int d[2] = {0, 1};
  check_error(MPI_Type_create_indexed_block(-1, 1, d, MPI_INT, &t), MPI_ERR_COUNT, "count -1");
  CHECK(t == MPI_DATATYPE_NULL, "newtype is not MPI_DATATYPE_NULL");
  check_error(MPI_Type_create_indexed_block(2, -1, d, MPI_INT, &t), MPI_ERR_ARG, "blocklength -1");
  MPI_Aint hd[2] = {0, 8};
  check_error(MPI_Type_create_hindexed_block(2, -2, hd, MPI_INT, &t), MPI_ERR_ARG, "blocklength -2");
  int sz[2] = {4, 6}, sub[2] = {3, 7}, st[2] = {0, 0}, sub2[2] = {3, 4}, st2[2] = {2, 0};
  check_error(MPI_Type_create_subarray(2, sz, sub, st, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
              "array_of_subsizes[1] = 7");
  check_error(MPI_Type_create_subarray(2, sz, sub2, st2, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
              "array_of_starts[0] = 2");
  check_error(MPI_Type_create_subarray(2, sz, sub2, st, 12345, MPI_INT, &t), MPI_ERR_ARG, "order 12345");
  check_error(MPI_Type_create_subarray(0, sz, sub2, st, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG, "ndims 0");
  CHECK(t == MPI_DATATYPE_NULL, "newtype is not MPI_DATATYPE_NULL");
  int g[2] = {4, 5}, db[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK},
      dn[2] = {MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_BLOCK}, bad[2] = {77, MPI_DISTRIBUTE_BLOCK},
      df[2] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, small[2] = {1, 1}, p22[2] = {2, 2},
      p21[2] = {2, 1};
  check_error(MPI_Type_create_darray(3, 0, 2, g, db, df, p22, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
              "the process grid has 4 processes, size is 3");
  check_error(MPI_Type_create_darray(4, 4, 2, g, db, df, p22, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
              "rank 4 is not in [0, 3]");
  check_error(MPI_Type_create_darray(4, 0, 2, g, db, small, p22, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
              "do not cover");
  check_error(MPI_Type_create_darray(2, 0, 2, g, dn, df, p21, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
              "not distributed");
  check_error(MPI_Type_create_darray(1, 0, 2, g, bad, df, d, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
              "array_of_psizes[0] = 0");
  int p11[2] = {1, 1};
  check_error(MPI_Type_create_darray(1, 0, 2, g, bad, df, p11, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
              "array_of_distribs[0] = 77");
  CHECK(t == MPI_DATATYPE_NULL, "newtype is not MPI_DATATYPE_NULL");

  /* Element counts that end inside a basic element are MPI_UNDEFINED (D43): a status can say so
   * only through MPI_Status_set_elements with another datatype. A pair type holds two. */
  MPI_Datatype s;
  int sbl[3] = {1, 2, 1};
  MPI_Aint sd[3] = {0, 4, 16};
  MPI_Datatype sty[3] = {MPI_CHAR, MPI_SHORT, MPI_DOUBLE};
  OK(MPI_Type_create_struct(3, sbl, sd, sty, &s));
  OK(MPI_Type_commit(&s));
  CHECK(elements(MPI_INT, 6) == MPI_UNDEFINED, "6 bytes of MPI_INT");
  CHECK(elements(s, 2) == MPI_UNDEFINED, "2 bytes of the struct end inside a short");
  CHECK(elements(s, 24) == MPI_UNDEFINED, "24 bytes of the struct end inside a double");
  CHECK(elements(s, 18) == 7, "18 bytes of the struct are 7 elements, got %d", elements(s, 18));
  CHECK(elements(MPI_2INT, 12) == 3, "12 bytes of MPI_2INT are 3 ints, got %d", elements(MPI_2INT, 12));
  CHECK(elements(MPI_DOUBLE_INT, 8) == 1, "8 bytes of MPI_DOUBLE_INT are its double");
  CHECK(elements(MPI_SHORT_INT, (int)sizeof(short)) == 1, "the short of MPI_SHORT_INT");
  CHECK(elements(MPI_SHORT_INT, 4) == MPI_UNDEFINED, "4 bytes of MPI_SHORT_INT end inside its int");
  /* MPI_Status_set_elements then MPI_Get_elements gives the count back, through a partial item. */
  MPI_Status status;
  for (int k = 0; k <= 9; k++) {
    int n = -1;
    OK(MPI_Status_set_elements(&status, s, k));
    OK(MPI_Get_elements(&status, s, &n));
    CHECK(n == k, "set_elements %d, get_elements %d", k, n);
  }
  status.MPI_SOURCE = 3;
  check_error(MPI_Status_set_elements(&status, s, -1), MPI_ERR_COUNT, "count -1");
  int n = -1;
  OK(MPI_Get_elements(&status, s, &n));
  CHECK(n == 9 && status.MPI_SOURCE == 3, "a failed MPI_Status_set_elements changed the status");
  /* Beyond an int: MPI_UNDEFINED, and the _x routines count. */
  MPI_Count big = (MPI_Count)3000000000LL, bx = -1;
  OK(MPI_Status_set_elements_x(&status, MPI_BYTE, big));
  OK(MPI_Get_elements(&status, MPI_BYTE, &n));
  OK(MPI_Get_elements_x(&status, MPI_BYTE, &bx));
  CHECK(n == MPI_UNDEFINED && bx == big, "3e9 bytes: %d, _x %lld", n, (long long)bx);
  OK(MPI_Get_elements_x(&status, MPI_SHORT, &bx));
  CHECK(bx == big / 2, "3e9 bytes of shorts: %lld", (long long)bx);

  /* Every datatype that MPI_Type_get_contents returns new can be freed, and outlives the one it
   * was taken from. */
  MPI_Datatype parts[3], outer;
  MPI_Aint od[3] = {0, 64, 128}, oaddrs[3];
  int obl[3] = {1, 1, 1};
  MPI_Datatype oty[3] = {v, s, MPI_INT};
  OK(MPI_Type_create_struct(3, obl, od, oty, &outer));
  OK(MPI_Type_free(&v));
  OK(MPI_Type_get_contents(outer, 4, 3, 3, ints, oaddrs, parts));
  OK(MPI_Type_free(&outer));
  CHECK(parts[2] == MPI_INT, "a predefined part is returned as itself");
  OK(MPI_Type_get_envelope(parts[0], &ni, &na, &nd, &comb));
  CHECK(comb == MPI_COMBINER_VECTOR && ni == 3, "part 0 is the vector");
  OK(MPI_Type_commit(&parts[1]));
  OK(MPI_Type_size(parts[1], &size));
  CHECK(size == 13, "part 1 is the struct (%d bytes)", size);
  OK(MPI_Type_free(&parts[0]));
  OK(MPI_Type_free(&parts[1]));
  OK(MPI_Type_free(&s));
  OK(MPI_Finalize());
  if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
  return failures != 0;
}
