/* D43: the datatype routines' errors and the choices where the standard is silent, on the
 * standalone runtime, where the differential test (tests/diff/c/RT_datatypes_envelope_names_one_process.c)
 * cannot go because a peer crashes (Open MPI on the contents of a named or f90 datatype, on the
 * name of MPI_CXX_BOOL; MPICH on a darray whose process grid is not `size`) or misses the error
 * (MPICH's subarray checks): the class, a message that says what was wrong, nothing written or
 * created. Also: the f90 datatypes' contents and that they cannot be freed, element counts that
 * end inside a basic element, and counts beyond an int. D50: external32 packing's errors and what
 * MPICH aborts on (MPI_WCHAR, pair types, structs of several basic datatypes). */
#include <mpi.h>
#include <stddef.h>
#include <string.h>
#include <wchar.h>

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

  /* external32 (D50): the only datarep is "external32"; what does not fit is MPI_ERR_TRUNCATE;
   * a position outside the buffer, an uncommitted datatype and a negative count fail too; nothing
   * is written and position stays. Also: f90 datatypes, MPI_2INTEGER and the x87 long double
   * (IEEE Double Extended, rounded toward zero back), where the peers differ or crash. */
  int iv[2] = {1, 2}, ov[2] = {5, 5};
  unsigned char xb[40];
  memset(xb, 0xee, sizeof xb);
  MPI_Aint pos = 0, xsize = -1;
  check_error(MPI_Pack_external("native", iv, 2, MPI_INT, xb, sizeof xb, &pos), MPI_ERR_ARG,
              "datarep \"native\" is not \"external32\"");
  check_error(MPI_Pack_external_size("External32", 2, MPI_INT, &xsize), MPI_ERR_ARG, "\"External32\"");
  check_error(MPI_Unpack_external("", xb, 8, &pos, ov, 2, MPI_INT), MPI_ERR_ARG, "datarep \"\"");
  CHECK(pos == 0 && xsize == -1 && xb[0] == 0xee && ov[0] == 5, "a bad datarep wrote an output");
  check_error(MPI_Pack_external("external32", iv, 2, MPI_INT, xb, 7, &pos), MPI_ERR_TRUNCATE,
              "packing 8 bytes at position 0 does not fit in outsize 7");
  pos = 4;
  check_error(MPI_Pack_external("external32", iv, 1, MPI_INT, xb, 7, &pos), MPI_ERR_TRUNCATE,
              "at position 4 does not fit");
  pos = 9;
  check_error(MPI_Pack_external("external32", iv, 0, MPI_INT, xb, 8, &pos), MPI_ERR_TRUNCATE,
              "at position 9 does not fit in outsize 8");
  pos = -1;
  check_error(MPI_Pack_external("external32", iv, 1, MPI_INT, xb, 8, &pos), MPI_ERR_TRUNCATE,
              "position -1");
  CHECK(pos == -1 && xb[0] == 0xee, "a failed pack wrote or moved position");
  pos = 0;
  check_error(MPI_Pack_external("external32", iv, -1, MPI_INT, xb, 8, &pos), MPI_ERR_COUNT, "count -1");
  check_error(MPI_Pack_external_size("external32", -2, MPI_INT, &xsize), MPI_ERR_COUNT, "count -2");
  pos = 2;
  check_error(MPI_Unpack_external("external32", xb, 8, &pos, ov, 2, MPI_INT), MPI_ERR_TRUNCATE,
              "unpacking 8 bytes at position 2 reads past insize 8");
  CHECK(pos == 2 && ov[0] == 5 && ov[1] == 5, "a failed unpack wrote or moved position");
  MPI_Datatype unc;
  OK(MPI_Type_contiguous(2, MPI_INT, &unc));
  pos = 0;
  check_error(MPI_Pack_external("external32", iv, 1, unc, xb, 8, &pos), MPI_ERR_TYPE, "not committed");
  OK(MPI_Pack_external_size("external32", 3, unc, &xsize));  /* as MPI_Pack_size: no commit needed */
  CHECK(xsize == 24, "external32 size of 3 uncommitted pairs of ints: %ld", (long)xsize);
  OK(MPI_Type_free(&unc));
  check_error(MPI_Pack_external("external32", iv, 1, MPI_DATATYPE_NULL, xb, 8, &pos), MPI_ERR_TYPE, "");

  /* An f90 real (IEEE double) and MPI_2INTEGER: big-endian, each element on its own. */
  MPI_Datatype f8;
  OK(MPI_Type_create_f90_real(15, MPI_UNDEFINED, &f8));
  double dv = 1.0, dback = 0;
  pos = 0;
  OK(MPI_Pack_external("external32", &dv, 1, f8, xb, sizeof xb, &pos));
  CHECK(pos == 8 && xb[0] == 0x3f && xb[1] == 0xf0 && xb[7] == 0, "f90 real 1.0 packs as %02x%02x..%02x",
        xb[0], xb[1], xb[7]);
  pos = 0;
  OK(MPI_Unpack_external("external32", xb, 8, &pos, &dback, 1, f8));
  CHECK(dback == 1.0 && pos == 8, "f90 real back: %g", dback);
  MPI_Fint fi[2] = {1, -2};
  pos = 0;
  OK(MPI_Pack_external("external32", fi, 1, MPI_2INTEGER, xb, sizeof xb, &pos));
  CHECK(pos == 8 && xb[3] == 1 && xb[4] == 0xff && xb[7] == 0xfe, "MPI_2INTEGER packs as %02x..%02x %02x..%02x",
        xb[0], xb[3], xb[4], xb[7]);

  /* What the differential test cannot show, as MPICH aborts on it: MPI_WCHAR (2 bytes), pair
   * types (each member on its own, no padding), a struct of several basic datatypes. A long, an
   * unsigned long or a wchar_t that external32 cannot hold is MPI_ERR_CONVERSION, nothing written.
   * MPI_Pack_external_size is exact: the bytes MPI_Pack_external writes. */
  wchar_t wv[2] = {L'Z', 0x263a}, wback[2] = {0, 0};
  pos = 0;
  OK(MPI_Pack_external_size("external32", 2, MPI_WCHAR, &xsize));
  OK(MPI_Pack_external("external32", wv, 2, MPI_WCHAR, xb, sizeof xb, &pos));
  CHECK(xsize == 4 && pos == 4 && xb[0] == 0 && xb[1] == 'Z' && xb[2] == 0x26 && xb[3] == 0x3a,
        "MPI_WCHAR: size %ld, position %ld", (long)xsize, (long)pos);
  pos = 0;
  OK(MPI_Unpack_external("external32", xb, 4, &pos, wback, 2, MPI_WCHAR));
  CHECK(wback[0] == L'Z' && wback[1] == 0x263a, "MPI_WCHAR back");
  struct { double d; int i; } di = {-1.5, 7}, diback = {0, 0};
  pos = 0;
  OK(MPI_Pack_external_size("external32", 1, MPI_DOUBLE_INT, &xsize));
  OK(MPI_Pack_external("external32", &di, 1, MPI_DOUBLE_INT, xb, sizeof xb, &pos));
  CHECK(xsize == 12 && pos == 12 && xb[0] == 0xbf && xb[1] == 0xf8 && xb[11] == 7, "MPI_DOUBLE_INT packs as %02x%02x..%02x",
        xb[0], xb[1], xb[11]);
  pos = 0;
  OK(MPI_Unpack_external("external32", xb, 12, &pos, &diback, 1, MPI_DOUBLE_INT));
  CHECK(diback.d == -1.5 && diback.i == 7, "MPI_DOUBLE_INT back");
  struct { long l; int i; } li = {-2, 3}, liback = {0, 0};
  pos = 0;
  OK(MPI_Pack_external_size("external32", 1, MPI_LONG_INT, &xsize));
  OK(MPI_Pack_external("external32", &li, 1, MPI_LONG_INT, xb, sizeof xb, &pos));
  CHECK(xsize == 8 && pos == 8 && xb[0] == 0xff && xb[3] == 0xfe && xb[7] == 3, "MPI_LONG_INT: 4 + 4 bytes");
  pos = 0;
  OK(MPI_Unpack_external("external32", xb, 8, &pos, &liback, 1, MPI_LONG_INT));
  CHECK(liback.l == -2 && liback.i == 3, "MPI_LONG_INT back: %ld %d", liback.l, liback.i);
  struct rec { int i; double d; char c; long l; } rv[2] = {{1, 0.25, 'x', -1}, {-2, -8.0, 'y', 300}}, rback[2];
  memset(rback, 0, sizeof rback);
  int rbl[4] = {1, 1, 1, 1};
  MPI_Aint rd[4] = {offsetof(struct rec, i), offsetof(struct rec, d), offsetof(struct rec, c),
                    offsetof(struct rec, l)};
  MPI_Datatype rty[4] = {MPI_INT, MPI_DOUBLE, MPI_CHAR, MPI_LONG}, rs, rrs;
  OK(MPI_Type_create_struct(4, rbl, rd, rty, &rs));
  OK(MPI_Type_create_resized(rs, 0, (MPI_Aint)sizeof(struct rec), &rrs));
  OK(MPI_Type_commit(&rrs));
  pos = 0;
  OK(MPI_Pack_external_size("external32", 2, rrs, &xsize));
  OK(MPI_Pack_external("external32", rv, 2, rrs, xb, sizeof xb, &pos));
  CHECK(xsize == 34 && pos == 34 && xb[3] == 1 && xb[4] == 0x3f && xb[12] == 'x' && xb[13] == 0xff && xb[16] == 0xff && xb[17] == 0xff &&
        xb[33] == 0x2c, "struct of int, double, char, long: %ld bytes", (long)pos);
  pos = 0;
  OK(MPI_Unpack_external("external32", xb, 34, &pos, rback, 2, rrs));
  CHECK(rback[0].i == 1 && rback[0].d == 0.25 && rback[0].c == 'x' && rback[0].l == -1 && rback[1].i == -2 &&
        rback[1].d == -8.0 && rback[1].c == 'y' && rback[1].l == 300, "struct back");
  OK(MPI_Type_free(&rrs));
  OK(MPI_Type_free(&rs));
  long lbig[2] = {1, 0x100000000L};
  unsigned long ubig = 0x100000000UL;
  wchar_t wbig = 0x1f600;
  memset(xb, 0xee, sizeof xb);
  pos = 0;
  check_error(MPI_Pack_external("external32", lbig, 2, MPI_LONG, xb, sizeof xb, &pos), MPI_ERR_CONVERSION,
              "the long 4294967296 does not fit in external32's 4-byte MPI_LONG");
  check_error(MPI_Pack_external("external32", &ubig, 1, MPI_UNSIGNED_LONG, xb, sizeof xb, &pos), MPI_ERR_CONVERSION,
              "unsigned long 4294967296 does not fit");
  check_error(MPI_Pack_external("external32", &wbig, 1, MPI_WCHAR, xb, sizeof xb, &pos), MPI_ERR_CONVERSION,
              "the wchar_t 0x1f600 does not fit");
  CHECK(pos == 0 && xb[0] == 0xee && xb[3] == 0xee, "a failed conversion wrote or moved position");

  /* long double: 1 + 2^-63 keeps its lowest x87 bit; the external32 fraction bits x87 lacks are
   * dropped on the way back (the value rounds toward zero). */
  long double lx = 1.0L + 1.0L / 9223372036854775808.0L, lback = 0;
  pos = 0;
  OK(MPI_Pack_external("external32", &lx, 1, MPI_LONG_DOUBLE, xb, sizeof xb, &pos));
  CHECK(pos == 16 && xb[0] == 0x3f && xb[1] == 0xff && xb[9] == 0x02 && xb[15] == 0,
        "1 + 2^-63 packs as %02x%02x .. %02x .. %02x", xb[0], xb[1], xb[9], xb[15]);
  xb[15] = 0x01;  /* a bit below x87's precision */
  pos = 0;
  OK(MPI_Unpack_external("external32", xb, 16, &pos, &lback, 1, MPI_LONG_DOUBLE));
  CHECK(lback == lx, "long double back: %La", lback);
  OK(MPI_Finalize());
  if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
  return failures != 0;
}
