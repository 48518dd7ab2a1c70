/* D113: the large-count forms of the datatype constructors, packing and decoding (MPI-4.1 sections
 * 5.1, 5.2, 6.1.13, 19.2) take values beyond int. A constructor given them builds the type map they
 * describe, and the datatype is described with large counts: MPI_Type_get_envelope_c and
 * _get_contents_c give the standard's large-count layout, and the int MPI_Type_get_envelope and
 * _get_contents fail with MPI_ERR_TYPE, writing nothing. A _c constructor given values its int
 * routine could take builds what that routine builds (D47). The type maps are checked by packing
 * and sending through them, over a 2 GiB mapping of which only a few pages are touched.
 * tests/diff/c/D113_large_count_datatypes.c compares the sizes, layouts and bytes with MPICH
 * 4.0.2. This program, run over MPICH by hand (without MPI_Status_set_elements_c, which it lacks),
 * also checks the errors; where MPICH departs from the standard there, this test follows the
 * standard: MPICH raises the int envelope's and contents' errors as MPI_ERR_OTHER on
 * MPI_COMM_WORLD, and writes the outputs of the failed call; it describes every _c constructor
 * with large counts, even where the int routine could take the values (D47 keeps those as the int
 * routine's); it reads a count of -3e9 as 1294967296; it takes a subsize larger than its size, and
 * type maps beyond MPI_Aint; and its MPI_Pack_c writes past outsize and moves the position. */
#include <limits.h>
#include <mpi.h>
#include <string.h>
#include <sys/mman.h>

#include "c_errors.h"

#define BIG ((MPI_Count)INT_MAX + 1) /* 2^31 */

static int handler_calls, handler_class;
static void count_errors(MPI_Comm *comm, int *code, ...) {
  (void)comm;
  ++handler_calls;
  MPI_Error_class(*code, &handler_class);
}

/* The type's large-count description is combiner, ints[ni], large[nl] (no addresses), one or `nd`
 * datatypes; the int routines refuse it through MPI_COMM_SELF's handler, writing nothing. */
static void check_large(const char *what, MPI_Datatype t, int combiner, int ni, const int *ints, int nl,
                        const MPI_Count *large, int nd) {
  MPI_Count cni = -1, cna = -1, cnl = -1, cnd = -1;
  int comb = -1;
  OK(MPI_Type_get_envelope_c(t, &cni, &cna, &cnl, &cnd, &comb));
  CHECK(comb == combiner && cni == ni && cna == 0 && cnl == nl && cnd == nd,
        "%s: envelope_c combiner %d ni %lld na %lld nl %lld nd %lld", what, comb, (long long)cni, (long long)cna,
        (long long)cnl, (long long)cnd);
  int got_ints[16] = {0};
  MPI_Aint got_addrs[1] = {0};
  MPI_Count got_large[16] = {0};
  MPI_Datatype got_types[4] = {MPI_DATATYPE_NULL, MPI_DATATYPE_NULL, MPI_DATATYPE_NULL, MPI_DATATYPE_NULL};
  if (cni == ni && cnl == nl && cnd == nd) {
    OK(MPI_Type_get_contents_c(t, 16, 1, 16, 4, got_ints, got_addrs, got_large, got_types));
    if (ni > 0) CHECK(memcmp(got_ints, ints, sizeof(int) * (size_t)ni) == 0, "%s: contents_c integers differ", what);
    for (int i = 0; i < nl; ++i)
      CHECK(got_large[i] == large[i], "%s: large count %d is %lld, expected %lld", what, i,
            (long long)got_large[i], (long long)large[i]);
    CHECK(got_types[nd - 1] != MPI_DATATYPE_NULL, "%s: no datatype returned", what);
  }
  /* A too-small max_large_counts is MPI_ERR_ARG, as a too-small max_integers is. */
  if (nl > 0)
    check_error(MPI_Type_get_contents_c(t, 16, 1, nl - 1, 4, got_ints, got_addrs, got_large, got_types), MPI_ERR_ARG,
                "max_large_counts");
  int a = 7, b = 7, c = 7, d = 7;
  handler_calls = 0;
  check_error(MPI_Type_get_envelope(t, &a, &b, &c, &d), MPI_ERR_TYPE, "use MPI_Type_get_envelope_c");
  CHECK(a == 7 && b == 7 && c == 7 && d == 7, "%s: MPI_Type_get_envelope wrote on failure", what);
  check_error(MPI_Type_get_contents(t, 16, 1, 4, got_ints, got_addrs, got_types), MPI_ERR_TYPE,
              "use MPI_Type_get_contents_c");
  CHECK(handler_calls == 2 && handler_class == MPI_ERR_TYPE, "%s: the handler saw %d calls, class %d", what,
        handler_calls, handler_class);
}

static void check_shape(const char *what, MPI_Datatype t, MPI_Count size, MPI_Count lb, MPI_Count extent) {
  MPI_Count s = -1, l = -1, e = -1;
  OK(MPI_Type_size_c(t, &s));
  OK(MPI_Type_get_extent_c(t, &l, &e));
  CHECK(s == size && l == lb && e == extent, "%s: size %lld lb %lld extent %lld, expected %lld %lld %lld", what,
        (long long)s, (long long)l, (long long)e, (long long)size, (long long)lb, (long long)extent);
  int si = 0;
  OK(MPI_Type_size(t, &si));
  CHECK(si == (size > INT_MAX ? MPI_UNDEFINED : (int)size), "%s: MPI_Type_size %d", what, si);
}

int main(int argc, char **argv) {
  OK(MPI_Init(&argc, &argv));
  MPI_Errhandler eh;
  OK(MPI_Comm_create_errhandler(count_errors, &eh));
  OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, eh)); /* datatype routines raise errors here (section 9.3) */
  OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  const MPI_Count B = 3000000000LL;
  MPI_Datatype t, types[2] = {MPI_BYTE, MPI_INT};

  /* Each constructor, with a value beyond int: its size, bounds and large-count description. */
  OK(MPI_Type_contiguous_c(B, MPI_BYTE, &t));
  check_shape("contiguous", t, B, 0, B);
  check_large("contiguous", t, MPI_COMBINER_CONTIGUOUS, 0, NULL, 1, (MPI_Count[]){B}, 1);
  OK(MPI_Type_free(&t));
  OK(MPI_Type_vector_c(2, B, B + 7, MPI_BYTE, &t));
  check_shape("vector", t, 2 * B, 0, 2 * B + 7);
  check_large("vector", t, MPI_COMBINER_VECTOR, 0, NULL, 3, (MPI_Count[]){2, B, B + 7}, 1);
  OK(MPI_Type_free(&t));
  OK(MPI_Type_create_hvector_c(2, B, B + 9, MPI_BYTE, &t));
  check_large("hvector", t, MPI_COMBINER_HVECTOR, 0, NULL, 3, (MPI_Count[]){2, B, B + 9}, 1);
  OK(MPI_Type_free(&t));
  MPI_Count bl[2] = {3, B}, d[2] = {0, 11}, dh[2] = {0, B + 13};
  OK(MPI_Type_indexed_c(2, bl, d, MPI_BYTE, &t));
  check_shape("indexed", t, B + 3, 0, B + 11);
  check_large("indexed", t, MPI_COMBINER_INDEXED, 0, NULL, 5, (MPI_Count[]){2, 3, B, 0, 11}, 1);
  OK(MPI_Type_free(&t));
  OK(MPI_Type_create_hindexed_c(2, bl, dh, MPI_BYTE, &t));
  check_large("hindexed", t, MPI_COMBINER_HINDEXED, 0, NULL, 5, (MPI_Count[]){2, 3, B, 0, B + 13}, 1);
  OK(MPI_Type_free(&t));
  OK(MPI_Type_create_indexed_block_c(2, B, dh, MPI_BYTE, &t));
  check_large("indexed_block", t, MPI_COMBINER_INDEXED_BLOCK, 0, NULL, 4, (MPI_Count[]){2, B, 0, B + 13}, 1);
  OK(MPI_Type_free(&t));
  OK(MPI_Type_create_hindexed_block_c(2, B, dh, MPI_BYTE, &t));
  check_large("hindexed_block", t, MPI_COMBINER_HINDEXED_BLOCK, 0, NULL, 4, (MPI_Count[]){2, B, 0, B + 13}, 1);
  OK(MPI_Type_free(&t));
  OK(MPI_Type_create_struct_c(2, bl, dh, types, &t));
  /* bytes 0-2, then B ints from B + 13: the upper bound rounds up to the int's alignment (6.1.6) */
  check_shape("struct", t, 3 + 4 * B, 0, (B + 13 + 4 * B + 3) / 4 * 4);
  check_large("struct", t, MPI_COMBINER_STRUCT, 0, NULL, 5, (MPI_Count[]){2, 3, B, 0, B + 13}, 2);
  OK(MPI_Type_free(&t));
  /* PnetCDF's large_var: 10 ints of a 4 x 10 x 2^32 array */
  MPI_Count sz[3] = {4, 10, 4294967296LL}, sub[3] = {1, 1, 10}, st[3] = {0, 1, 0};
  OK(MPI_Type_create_subarray_c(3, sz, sub, st, MPI_ORDER_C, MPI_INT, &t));
  check_shape("subarray", t, 40, 0, 4 * 10 * 4294967296LL * 4);
  check_large("subarray", t, MPI_COMBINER_SUBARRAY, 2, (int[]){3, MPI_ORDER_C}, 9,
              (MPI_Count[]){4, 10, 4294967296LL, 1, 1, 10, 0, 1, 0}, 1);
  OK(MPI_Type_free(&t));
  MPI_Count gs[2] = {2, B};
  int dist[2] = {MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_BLOCK}, dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG,
                                                                         MPI_DISTRIBUTE_DFLT_DARG};
  int ps[2] = {1, 1};
  OK(MPI_Type_create_darray_c(1, 0, 2, gs, dist, dargs, ps, MPI_ORDER_C, MPI_BYTE, &t));
  check_shape("darray", t, 2 * B, 0, 2 * B);
  check_large("darray", t, MPI_COMBINER_DARRAY, 10,
              (int[]){1, 0, 2, MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_DFLT_DARG,
                      MPI_DISTRIBUTE_DFLT_DARG, 1, 1, MPI_ORDER_C},
              2, gs, 1);
  OK(MPI_Type_free(&t));

  /* PnetCDF's large_coalesce: an hindexed of 1024 bytes and 2^31 bytes */
  MPI_Count cbl[2] = {1024, BIG}, cd[2] = {0, 4096};
  OK(MPI_Type_create_hindexed_c(2, cbl, cd, MPI_BYTE, &t));
  check_shape("coalesce", t, 1024 + BIG, 0, 4096 + BIG);
  OK(MPI_Type_free(&t));

  /* A dup of a large-count datatype is described as a dup; its contents are the original. */
  MPI_Datatype c3, dup;
  OK(MPI_Type_contiguous_c(B, MPI_BYTE, &c3));
  OK(MPI_Type_dup(c3, &dup));
  int ni = -1, na = -1, nd = -1, comb = -1;
  OK(MPI_Type_get_envelope(dup, &ni, &na, &nd, &comb));
  CHECK(comb == MPI_COMBINER_DUP && ni == 0 && na == 0 && nd == 1, "the dup's envelope");
  OK(MPI_Type_free(&dup));
  OK(MPI_Type_free(&c3));

  /* Values the int routine could take: what the int routine builds, described with int counts (D47). */
  MPI_Count small[2] = {1, 1}, sd[2] = {0, 4};
  OK(MPI_Type_create_struct_c(2, small, sd, types, &t));
  OK(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
  CHECK(comb == MPI_COMBINER_STRUCT && ni == 3 && na == 2 && nd == 2, "a small struct_c: ni %d na %d nd %d", ni, na,
        nd);
  OK(MPI_Type_free(&t));
  OK(MPI_Type_create_resized_c(MPI_INT, -B, 2 * B, &t)); /* MPI_Aint holds these: the int routine's */
  OK(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
  CHECK(comb == MPI_COMBINER_RESIZED && ni == 0 && na == 2 && nd == 1, "resized_c: ni %d na %d nd %d", ni, na, nd);
  OK(MPI_Type_free(&t));

  /* Bad values still fail as the int routines' do, through MPI_COMM_SELF's handler. */
  check_error(MPI_Type_contiguous_c(-B, MPI_BYTE, &t), MPI_ERR_COUNT, "count -3000000000 is negative");
  MPI_Count negbl[2] = {1, -B};
  check_error(MPI_Type_indexed_c(2, negbl, d, MPI_BYTE, &t), MPI_ERR_ARG, "array_of_blocklengths[1] = -3000000000");
  MPI_Count badsub[3] = {1, 1, 4294967297LL};
  check_error(MPI_Type_create_subarray_c(3, sz, badsub, st, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
              "array_of_subsizes[2] = 4294967297 is not in [1, 4294967296]");
  /* A type map beyond MPI_Aint is refused, not wrapped round. */
  check_error(MPI_Type_vector_c(4, 1, (MPI_Count)1 << 62, MPI_INT, &t), MPI_ERR_ARG, "do not fit in MPI_Aint");
  check_error(MPI_Type_contiguous_c((MPI_Count)1 << 62, MPI_INT, &t), MPI_ERR_ARG, "do not fit in MPI_Aint");

  /* The type maps, over 2 GiB + 1 page of address space of which a few pages are touched. */
  const size_t span = (size_t)BIG + 4096;
  char *buf = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  CHECK(buf != MAP_FAILED, "mmap of 2 GiB failed");
  if (buf != MAP_FAILED) {
    memcpy(buf, "abcdefgh", 8);
    memcpy(buf + BIG, "ABCDEFGH", 8);
    MPI_Datatype ix, vec, sa;
    MPI_Count ibl[2] = {3, 2}, idisp[2] = {0, BIG};
    OK(MPI_Type_indexed_c(2, ibl, idisp, MPI_BYTE, &ix)); /* a displacement beyond int */
    OK(MPI_Type_vector_c(2, 2, BIG, MPI_BYTE, &vec));     /* a stride beyond int */
    MPI_Count ssz[2] = {2, BIG}, ssub[2] = {2, 3}, sst[2] = {0, 5};
    OK(MPI_Type_create_subarray_c(2, ssz, ssub, sst, MPI_ORDER_C, MPI_BYTE, &sa)); /* a size beyond int */
    OK(MPI_Type_commit(&ix));
    OK(MPI_Type_commit(&vec));
    OK(MPI_Type_commit(&sa));
    char packed[16] = {0};
    MPI_Count pos = 0;
    OK(MPI_Pack_c(buf, 1, ix, packed, sizeof packed, &pos, MPI_COMM_SELF));
    CHECK(pos == 5 && memcmp(packed, "abcAB", 5) == 0, "indexed_c packed %lld bytes '%.5s'", (long long)pos, packed);
    pos = 0;
    OK(MPI_Pack_c(buf, 1, vec, packed, sizeof packed, &pos, MPI_COMM_SELF));
    CHECK(pos == 4 && memcmp(packed, "abAB", 4) == 0, "vector_c packed %lld bytes '%.4s'", (long long)pos, packed);
    /* through a message to self: what arrives is the subarray's six bytes */
    char got[8] = {0};
    MPI_Status status;
    OK(MPI_Sendrecv(buf, 1, sa, 0, 3, got, 8, MPI_BYTE, 0, 3, MPI_COMM_WORLD, &status));
    int n = -1;
    OK(MPI_Get_count(&status, MPI_BYTE, &n));
    CHECK(n == 6 && memcmp(got, "fghFGH", 6) == 0, "subarray_c sent %d bytes '%.6s'", n, got);
    /* and back into the mapping through the indexed type */
    pos = 0;
    OK(MPI_Unpack_c("xyzXY", 5, &pos, buf, 1, ix, MPI_COMM_SELF));
    CHECK(pos == 5 && memcmp(buf, "xyzdefgh", 8) == 0 && memcmp(buf + BIG, "XYCDEFGH", 8) == 0,
          "MPI_Unpack_c through indexed_c");

    /* PnetCDF's large_reqs: MPI_Pack_c with outsize and position beyond int */
    double x = 1.5, y = 0;
    pos = BIG;
    OK(MPI_Pack_c(&x, 1, MPI_DOUBLE, buf, (MPI_Count)span, &pos, MPI_COMM_SELF));
    CHECK(pos == BIG + 8, "MPI_Pack_c position %lld", (long long)pos);
    pos = BIG;
    OK(MPI_Unpack_c(buf, (MPI_Count)span, &pos, &y, 1, MPI_DOUBLE, MPI_COMM_SELF));
    CHECK(pos == BIG + 8 && y == 1.5, "MPI_Unpack_c position %lld value %g", (long long)pos, y);
    pos = (MPI_Count)span - 4;
    check_error(MPI_Pack_c(&x, 1, MPI_DOUBLE, buf, (MPI_Count)span, &pos, MPI_COMM_SELF), MPI_ERR_TRUNCATE,
                "does not fit in outsize");
    CHECK(pos == (MPI_Count)span - 4, "a failed MPI_Pack_c moved the position");
    OK(MPI_Type_free(&ix));
    OK(MPI_Type_free(&vec));
    OK(MPI_Type_free(&sa));
    munmap(buf, span);
  }

  /* Element counts beyond int: MPI_Status_set_elements_c and MPI_Get_elements_c carry them. */
  MPI_Status s;
  OK(MPI_Status_set_elements_c(&s, MPI_BYTE, B));
  MPI_Count elements = -1, count = -1;
  OK(MPI_Get_elements_c(&s, MPI_BYTE, &elements));
  OK(MPI_Get_count_c(&s, MPI_BYTE, &count));
  CHECK(elements == B && count == B, "elements %lld count %lld, expected %lld", (long long)elements,
        (long long)count, (long long)B);
  int ie = 0;
  OK(MPI_Get_elements(&s, MPI_BYTE, &ie));
  CHECK(ie == MPI_UNDEFINED, "MPI_Get_elements of %lld gave %d", (long long)B, ie);

  OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  OK(MPI_Errhandler_free(&eh));
  OK(MPI_Finalize());
  return failures != 0;
}
