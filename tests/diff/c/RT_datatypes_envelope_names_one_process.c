/* The datatype chapter on one process, as programs written for MPICH and Open MPI call it (D43):
 * names of predefined and derived datatypes (MPI-4.1 §6.8), the envelope and contents of every
 * constructor (§6.1.13: returned derived datatypes are new and freed here, predefined ones are
 * themselves), indexed_block, hindexed_block, subarray and darray type maps (sizes, extents,
 * packed bytes), element counts from real messages and from MPI_Status_set_elements (§6.1.12),
 * the _x queries, MPI_Type_match_size and the f90 types (§19.1.9). Errors print their class.
 */
#include <string.h>

#include "diff_util.h"

static const char *combiner_name(int c)
{
#define COMB(x) if (c == x) return #x
    COMB(MPI_COMBINER_NAMED); COMB(MPI_COMBINER_DUP); COMB(MPI_COMBINER_CONTIGUOUS);
    COMB(MPI_COMBINER_VECTOR); COMB(MPI_COMBINER_HVECTOR); COMB(MPI_COMBINER_INDEXED);
    COMB(MPI_COMBINER_HINDEXED); COMB(MPI_COMBINER_INDEXED_BLOCK); COMB(MPI_COMBINER_HINDEXED_BLOCK);
    COMB(MPI_COMBINER_STRUCT); COMB(MPI_COMBINER_SUBARRAY); COMB(MPI_COMBINER_DARRAY);
    COMB(MPI_COMBINER_F90_REAL); COMB(MPI_COMBINER_F90_COMPLEX); COMB(MPI_COMBINER_F90_INTEGER);
    COMB(MPI_COMBINER_RESIZED);
#undef COMB
    return "(other combiner)";
}

/* Constants whose values differ between libraries (and may coincide within one), in the integers
 * of a subarray or darray. */
static const char *order_name(int v)
{
    return v == MPI_ORDER_C ? "MPI_ORDER_C" : v == MPI_ORDER_FORTRAN ? "MPI_ORDER_FORTRAN" : "(other order)";
}

static const char *distrib_name(int v)
{
    return v == MPI_DISTRIBUTE_NONE    ? "MPI_DISTRIBUTE_NONE"
           : v == MPI_DISTRIBUTE_BLOCK  ? "MPI_DISTRIBUTE_BLOCK"
           : v == MPI_DISTRIBUTE_CYCLIC ? "MPI_DISTRIBUTE_CYCLIC"
                                        : "(other distribution)";
}

static void name_of(const char *label, MPI_Datatype t)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    strcpy(name, "(unwritten)");
    int rc = MPI_Type_get_name(t, name, &len);
    printf("name %s: %s [%s] %d\n", label, errclass_name(rc), name, len);
}

/* A datatype's description in one word: a predefined one's name, or its combiner. */
static void describe(MPI_Datatype t, char *out, size_t n)
{
    int ni, na, nd, comb;
    MPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
    if (comb == MPI_COMBINER_NAMED) {
        int len;
        MPI_Type_get_name(t, out, &len);
    } else {
        snprintf(out, n, "%s", combiner_name(comb));
    }
}

/* Envelope, contents (derived datatypes returned are described, then freed), size, extents,
 * and the packed bytes of one item over a buffer whose byte i is i. */
static void show(const char *label, MPI_Datatype t)
{
    int ni = -1, na = -1, nd = -1, comb = -1;
    int rc = MPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
    printf("%s envelope: %s %d %d %d %s\n", label, errclass_name(rc), ni, na, nd, combiner_name(comb));
    /* (Open MPI 4.1.4 crashes on the contents of an f90 datatype: tests/c/RT_datatypes_errors.c.) */
    int f90 = comb == MPI_COMBINER_F90_REAL || comb == MPI_COMBINER_F90_INTEGER || comb == MPI_COMBINER_F90_COMPLEX;
    if (rc == MPI_SUCCESS && comb != MPI_COMBINER_NAMED && !f90 && ni <= 64 && na <= 64 && nd <= 64) {
        int ints[64];
        MPI_Aint addrs[64];
        MPI_Datatype types[64];
        rc = MPI_Type_get_contents(t, ni, na, nd, ints, addrs, types);
        printf("%s contents:", label);
        printf(" %s ints", errclass_name(rc));
        for (int i = 0; rc == MPI_SUCCESS && i < ni; i++) {
            /* subarray: ndims, sizes, subsizes, starts, ORDER; darray: size, rank, ndims, gsizes,
             * DISTRIBS, DARGS (a number, or MPI_DISTRIBUTE_DFLT_DARG), psizes, ORDER */
            int darray = comb == MPI_COMBINER_DARRAY, nd = darray ? ints[2] : 0;
            if ((comb == MPI_COMBINER_SUBARRAY || darray) && i == ni - 1)
                printf(" %s", order_name(ints[i]));
            else if (darray && i >= 3 + nd && i < 3 + 2 * nd)
                printf(" %s", distrib_name(ints[i]));
            else if (darray && i >= 3 + 2 * nd && i < 3 + 3 * nd && ints[i] == MPI_DISTRIBUTE_DFLT_DARG)
                printf(" MPI_DISTRIBUTE_DFLT_DARG");
            else
                printf(" %d", ints[i]);
        }
        printf(" addrs");
        for (int i = 0; rc == MPI_SUCCESS && i < na; i++) printf(" %ld", (long)addrs[i]);
        printf(" types");
        for (int i = 0; rc == MPI_SUCCESS && i < nd; i++) {
            char d[MPI_MAX_OBJECT_NAME];
            int tni, tna, tnd, tc;
            describe(types[i], d, sizeof d);
            printf(" %s", d);
            MPI_Type_get_envelope(types[i], &tni, &tna, &tnd, &tc);
            if (tc != MPI_COMBINER_NAMED && tc != MPI_COMBINER_F90_REAL && tc != MPI_COMBINER_F90_INTEGER &&
                tc != MPI_COMBINER_F90_COMPLEX)
                printf("(freed %s)", errclass_name(MPI_Type_free(&types[i])));
        }
        printf("\n");
    }
    int size = -1;
    MPI_Aint lb = -1, extent = -1, tlb = -1, textent = -1;
    MPI_Count sx = -1, lbx = -1, extx = -1, tlbx = -1, textx = -1;
    MPI_Type_size(t, &size);
    MPI_Type_get_extent(t, &lb, &extent);
    MPI_Type_get_true_extent(t, &tlb, &textent);
    MPI_Type_size_x(t, &sx);
    MPI_Type_get_extent_x(t, &lbx, &extx);
    MPI_Type_get_true_extent_x(t, &tlbx, &textx);
    printf("%s size extent: %d %ld %ld true %ld %ld\n", label, size, (long)lb, (long)extent, (long)tlb,
           (long)textent);
    printf("%s _x agree: %d\n", label,
           sx == size && lbx == lb && extx == extent && tlbx == tlb && textx == textent);
}

static unsigned char src[4096];

/* An element or item count, MPI_UNDEFINED by name. */
static const char *num(int v)
{
    static char buf[8][24];
    static int next;
    char *b = buf[next++ % 8];
    if (v == MPI_UNDEFINED)
        return "MPI_UNDEFINED";
    snprintf(b, sizeof buf[0], "%d", v);
    return b;
}

static void packed(const char *label, MPI_Datatype t, int count)
{
    unsigned char out[1024];
    int pos = 0, size = 0;
    MPI_Pack_size(count, t, MPI_COMM_WORLD, &size);
    int rc = MPI_Pack(src + 256, count, t, out, (int)sizeof out, &pos, MPI_COMM_WORLD);
    printf("%s packed: %s %d", label, errclass_name(rc), pos);
    for (int i = 0; rc == MPI_SUCCESS && i < pos; i++) printf(" %d", out[i]);
    printf("\n");
}

/* Element and item counts of a status that says `bytes` bytes arrived. */
static void elements_of(const char *label, MPI_Datatype t, int bytes)
{
    MPI_Status st;
    int n = -7, c = -7;
    MPI_Count nx = -7;
    MPI_Status_set_elements(&st, MPI_BYTE, bytes);
    MPI_Get_elements(&st, t, &n);
    MPI_Get_elements_x(&st, t, &nx);
    MPI_Get_count(&st, t, &c);
    printf("elements %s of %d bytes: %s %s count %s\n", label, bytes, num(n),
           nx == n ? "x agrees" : "x differs", num(c));
}

int main(int argc, char **argv)
{
    diff_init(&argc, &argv);
    for (int i = 0; i < (int)sizeof src; i++) src[i] = (unsigned char)i;
    int rc;

    /* ---- names ---- */
    name_of("MPI_INT", MPI_INT);
    name_of("MPI_CHAR", MPI_CHAR);
    name_of("MPI_DOUBLE", MPI_DOUBLE);
    name_of("MPI_UNSIGNED_LONG_LONG", MPI_UNSIGNED_LONG_LONG);
    name_of("MPI_C_BOOL", MPI_C_BOOL);
    name_of("MPI_AINT", MPI_AINT);
    name_of("MPI_INT8_T", MPI_INT8_T);
    name_of("MPI_PACKED", MPI_PACKED);
    name_of("MPI_BYTE", MPI_BYTE);
    name_of("MPI_2INT", MPI_2INT);
    name_of("MPI_DOUBLE_INT", MPI_DOUBLE_INT);
    name_of("MPI_INTEGER", MPI_INTEGER);
    name_of("MPI_DOUBLE_PRECISION", MPI_DOUBLE_PRECISION);
    name_of("MPI_REAL8", MPI_REAL8);
    name_of("MPI_2INTEGER", MPI_2INTEGER);
    MPI_Datatype c3, d;
    CHECK(MPI_Type_contiguous(3, MPI_INT, &c3));
    CHECK(MPI_Type_commit(&c3));
    name_of("contiguous", c3);
    rc = MPI_Type_set_name(c3, "three ints");
    fact_err("set_name contiguous", rc);
    name_of("contiguous named", c3);
    CHECK(MPI_Type_dup(c3, &d));
    name_of("dup of named contiguous", d);
    CHECK(MPI_Type_free(&d));
    CHECK(MPI_Type_dup(MPI_INT, &d));
    name_of("dup of MPI_INT", d);
    CHECK(MPI_Type_free(&d));
    rc = MPI_Type_set_name(MPI_INT, "renamed int");
    fact_err("set_name MPI_INT", rc);
    name_of("MPI_INT renamed", MPI_INT);
    CHECK(MPI_Type_set_name(MPI_INT, "MPI_INT"));
    CHECK(MPI_Type_set_name(c3, ""));
    name_of("contiguous renamed empty", c3);
    char longname[300];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    rc = MPI_Type_set_name(c3, longname);
    {
        char name[MPI_MAX_OBJECT_NAME];
        int len = -1;
        MPI_Type_get_name(c3, name, &len);
        printf("long name: %s truncated to MPI_MAX_OBJECT_NAME - 1: %d\n", errclass_name(rc),
               len == MPI_MAX_OBJECT_NAME - 1 && (int)strlen(name) == len);
    }

    /* ---- envelopes, contents, sizes, type maps of every constructor ---- */
    show("MPI_INT", MPI_INT);
    show("MPI_2INT", MPI_2INT);
    show("contiguous", c3);
    packed("contiguous", c3, 2);

    MPI_Datatype vec, hvec, idx, hidx, iblk, hblk, st, res, dup, nested;
    CHECK(MPI_Type_vector(2, 3, 4, MPI_SHORT, &vec));
    CHECK(MPI_Type_commit(&vec));
    show("vector", vec);
    packed("vector", vec, 2);
    CHECK(MPI_Type_create_hvector(3, 1, -8, MPI_INT, &hvec));
    CHECK(MPI_Type_commit(&hvec));
    show("hvector", hvec);
    packed("hvector", hvec, 1);
    int bl[3] = {1, 2, 1}, di[3] = {4, 0, 9};
    CHECK(MPI_Type_indexed(3, bl, di, MPI_SHORT, &idx));
    CHECK(MPI_Type_commit(&idx));
    show("indexed", idx);
    packed("indexed", idx, 1);
    MPI_Aint hd[3] = {12, 0, 30};
    CHECK(MPI_Type_create_hindexed(3, bl, hd, MPI_CHAR, &hidx));
    CHECK(MPI_Type_commit(&hidx));
    show("hindexed", hidx);
    packed("hindexed", hidx, 1);
    int bd[3] = {5, 0, 2};
    CHECK(MPI_Type_create_indexed_block(3, 2, bd, MPI_SHORT, &iblk));
    CHECK(MPI_Type_commit(&iblk));
    show("indexed_block", iblk);
    packed("indexed_block", iblk, 2);
    MPI_Aint hbd[2] = {16, 1};
    CHECK(MPI_Type_create_hindexed_block(2, 3, hbd, MPI_CHAR, &hblk));
    CHECK(MPI_Type_commit(&hblk));
    show("hindexed_block", hblk);
    packed("hindexed_block", hblk, 1);
    int sbl[3] = {1, 2, 1};
    MPI_Aint sd[3] = {0, 4, 16};
    MPI_Datatype sty[3] = {MPI_CHAR, MPI_SHORT, MPI_DOUBLE};
    CHECK(MPI_Type_create_struct(3, sbl, sd, sty, &st));
    CHECK(MPI_Type_commit(&st));
    show("struct", st);
    packed("struct", st, 2);
    CHECK(MPI_Type_create_resized(c3, -4, 20, &res));
    CHECK(MPI_Type_commit(&res));
    show("resized", res);
    packed("resized", res, 2);
    CHECK(MPI_Type_dup(vec, &dup));
    CHECK(MPI_Type_commit(&dup));
    show("dup", dup);
    packed("dup", dup, 1);
    /* A struct of derived datatypes, one of them freed before the contents are asked for. */
    MPI_Datatype tmp;
    CHECK(MPI_Type_contiguous(2, MPI_CHAR, &tmp));
    CHECK(MPI_Type_commit(&tmp));
    int nbl[2] = {1, 2};
    MPI_Aint nd[2] = {0, 8};
    MPI_Datatype nty[2] = {vec, tmp};
    CHECK(MPI_Type_create_struct(2, nbl, nd, nty, &nested));
    CHECK(MPI_Type_commit(&nested));
    CHECK(MPI_Type_free(&tmp));
    show("nested struct", nested);
    packed("nested struct", nested, 1);
    {
        int ints[3];
        MPI_Aint addrs[2];
        MPI_Datatype types[2];
        CHECK(MPI_Type_get_contents(nested, 3, 2, 2, ints, addrs, types));
        show("nested struct part 0", types[0]);
        show("nested struct part 1", types[1]);
        CHECK(MPI_Type_commit(&types[1]));
        packed("nested struct part 1", types[1], 3);
        MPI_Type_free(&types[0]);
        MPI_Type_free(&types[1]);
    }

    /* Dups of dups (D62: a dup shares its original's envelope and builds none): each level's
     * contents is the level below, down to MPI_2INT itself; a struct of a dup keeps the dup; the
     * element counts of a dup are its original's. (A struct of MPI_2INT and a char is left out: its
     * extent is a known divergence of mpiattr's alignment of MPI_2INT, not of dups.) */
    {
        MPI_Datatype d1, d2, d3, sd, types[2];
        int ints[3];
        MPI_Aint addrs[2];
        CHECK(MPI_Type_dup(MPI_2INT, &d1));
        CHECK(MPI_Type_dup(d1, &d2));
        CHECK(MPI_Type_dup(d2, &d3));
        CHECK(MPI_Type_commit(&d3));
        show("dup of dup of dup of MPI_2INT", d3);
        CHECK(MPI_Type_get_contents(d3, 0, 0, 1, ints, addrs, types));
        show("its contents", types[0]);
        CHECK(MPI_Type_get_contents(types[0], 0, 0, 1, ints, addrs, &types[1]));
        show("their contents", types[1]);
        MPI_Type_free(&types[1]);
        MPI_Type_free(&types[0]);
        elements_of("dup of dup of dup of MPI_2INT", d3, 12);
        elements_of("dup of dup of dup of MPI_2INT", d3, 16);
        MPI_Datatype e1, e2;
        CHECK(MPI_Type_dup(MPI_INT, &e1));
        CHECK(MPI_Type_dup(e1, &e2));
        int bl[2] = {1, 1};
        MPI_Aint disp[2] = {0, 4};
        MPI_Datatype ty[2] = {e2, MPI_INT};
        CHECK(MPI_Type_create_struct(2, bl, disp, ty, &sd));
        CHECK(MPI_Type_free(&e2));
        CHECK(MPI_Type_free(&e1));
        CHECK(MPI_Type_commit(&sd));
        show("struct of a dup of a dup", sd);
        elements_of("struct of a dup of a dup", sd, 8);
        CHECK(MPI_Type_get_contents(sd, 3, 2, 2, ints, addrs, types));
        show("struct of a dup of a dup part 0", types[0]);
        MPI_Type_free(&types[0]);
        CHECK(MPI_Type_free(&sd));
        CHECK(MPI_Type_free(&d2));
        CHECK(MPI_Type_free(&d3));
        CHECK(MPI_Type_free(&d1));
    }

    /* Subarrays: a 3x4 block of a 4x6 array of shorts, in both orders, and a 3-d one. */
    MPI_Datatype sc, sf, s3;
    int sz[2] = {4, 6}, sub[2] = {3, 4}, start[2] = {1, 2};
    CHECK(MPI_Type_create_subarray(2, sz, sub, start, MPI_ORDER_C, MPI_SHORT, &sc));
    CHECK(MPI_Type_commit(&sc));
    show("subarray C", sc);
    packed("subarray C", sc, 1);
    CHECK(MPI_Type_create_subarray(2, sz, sub, start, MPI_ORDER_FORTRAN, MPI_SHORT, &sf));
    CHECK(MPI_Type_commit(&sf));
    show("subarray Fortran", sf);
    packed("subarray Fortran", sf, 1);
    int sz3[3] = {3, 3, 4}, sub3[3] = {2, 1, 2}, st3[3] = {1, 2, 0};
    CHECK(MPI_Type_create_subarray(3, sz3, sub3, st3, MPI_ORDER_C, MPI_CHAR, &s3));
    CHECK(MPI_Type_commit(&s3));
    show("subarray 3d", s3);
    packed("subarray 3d", s3, 2);

    /* Darrays: the whole array on one process, for every distribution; and the part of rank 1
     * (or 2) of a 2x2 process grid, which needs no other process to compute. */
    MPI_Datatype da;
    int g[2] = {4, 5}, dist_b[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC},
        dist_n[2] = {MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_BLOCK},
        dflt[2] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, darg[2] = {3, 2}, p1[2] = {1, 1},
        p22[2] = {2, 2};
    CHECK(MPI_Type_create_darray(1, 0, 2, g, dist_b, dflt, p1, MPI_ORDER_C, MPI_CHAR, &da));
    CHECK(MPI_Type_commit(&da));
    show("darray one block cyclic", da);
    packed("darray one block cyclic", da, 1);
    MPI_Type_free(&da);
    CHECK(MPI_Type_create_darray(1, 0, 2, g, dist_n, dflt, p1, MPI_ORDER_FORTRAN, MPI_CHAR, &da));
    CHECK(MPI_Type_commit(&da));
    show("darray one none block Fortran", da);
    MPI_Type_free(&da);
    CHECK(MPI_Type_create_darray(4, 1, 2, g, dist_b, dflt, p22, MPI_ORDER_C, MPI_CHAR, &da));
    CHECK(MPI_Type_commit(&da));
    show("darray rank 1 of 2x2", da);
    packed("darray rank 1 of 2x2", da, 1);
    MPI_Type_free(&da);
    CHECK(MPI_Type_create_darray(4, 2, 2, g, dist_b, darg, p22, MPI_ORDER_FORTRAN, MPI_SHORT, &da));
    CHECK(MPI_Type_commit(&da));
    show("darray rank 2 of 2x2 dargs Fortran", da);
    packed("darray rank 2 of 2x2 dargs Fortran", da, 1);
    MPI_Type_free(&da);
    int cyc[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_CYCLIC};
    CHECK(MPI_Type_create_darray(4, 3, 2, g, cyc, darg, p22, MPI_ORDER_C, MPI_CHAR, &da));
    CHECK(MPI_Type_commit(&da));
    show("darray rank 3 of 2x2 cyclic", da);
    packed("darray rank 3 of 2x2 cyclic", da, 1);

    /* ---- constructed datatypes carry data: a subarray through a message to self ---- */
    short grid_in[24], grid_out[24];
    for (int i = 0; i < 24; i++) grid_in[i] = (short)(100 + i), grid_out[i] = -1;
    MPI_Status status;
    rc = MPI_Sendrecv(grid_in, 1, sc, 0, 5, grid_out, 1, sc, 0, 5, MPI_COMM_WORLD, &status);
    printf("subarray to self: %s", errclass_name(rc));
    for (int i = 0; i < 24; i++) printf(" %d", grid_out[i]);
    printf("\n");
    int n = -7;
    MPI_Get_elements(&status, sc, &n);
    printf("subarray to self elements: %d\n", n);

    /* ---- element counts (byte counts that end inside a basic element: the standard is silent,
     * tests/c/RT_datatypes_errors.c) ---- */
    int five[5] = {1, 2, 3, 4, 5}, got[6];
    rc = MPI_Sendrecv(five, 5, MPI_INT, 0, 6, got, 2, c3, 0, 6, MPI_COMM_WORLD, &status);
    int cnt = -7;
    MPI_Get_count(&status, c3, &cnt);
    MPI_Get_elements(&status, c3, &n);
    printf("5 ints into contiguous 3: %s count %s elements %s\n", errclass_name(rc), num(cnt), num(n));
    elements_of("struct", st, 0);
    elements_of("struct", st, 1);
    elements_of("struct", st, 3);
    elements_of("struct", st, 5);
    elements_of("struct", st, 26);
    elements_of("nested struct", nested, 4);
    elements_of("nested struct", nested, 14);
    elements_of("nested struct", nested, 16);
    elements_of("MPI_INT", MPI_INT, 8);
    elements_of("MPI_DOUBLE_INT", MPI_DOUBLE_INT, 12);
    elements_of("MPI_2INT", MPI_2INT, 16);
    {
        MPI_Status s2;
        int e = -7, c = -7;
        rc = MPI_Status_set_elements(&s2, st, 7);
        MPI_Get_elements(&s2, st, &e);
        MPI_Get_count(&s2, st, &c);
        printf("set_elements struct 7: %s elements %s count %s\n", errclass_name(rc), num(e), num(c));
        rc = MPI_Status_set_elements(&s2, st, 8);
        MPI_Get_elements(&s2, st, &e);
        MPI_Get_count(&s2, st, &c);
        printf("set_elements struct 8: %s elements %s count %s\n", errclass_name(rc), num(e), num(c));
        MPI_Count ex = -7;
        rc = MPI_Status_set_elements_x(&s2, MPI_DOUBLE, (MPI_Count)3);
        MPI_Get_elements_x(&s2, MPI_DOUBLE, &ex);
        MPI_Get_count(&s2, MPI_BYTE, &c);
        printf("set_elements_x 3 doubles: %s elements %ld bytes %d\n", errclass_name(rc), (long)ex, c);
    }

    /* ---- MPI_Type_match_size and the f90 types ---- */
    MPI_Datatype m = MPI_DATATYPE_NULL;
    rc = MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &m);
    printf("match_size real 8: %s\n", errclass_name(rc));
    name_of("match_size real 8", m);
    rc = MPI_Type_match_size(MPI_TYPECLASS_REAL, 4, &m);
    {
        int s = -1;
        MPI_Type_size(m, &s);
        printf("match_size real 4: %s size %d\n", errclass_name(rc), s);  /* MPI_REAL4 or MPI_REAL: D43 */
    }
    rc = MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 16, &m);
    name_of("match_size complex 16", m);
    rc = MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 8, &m);
    {
        int s = -1;
        MPI_Type_size(m, &s);
        printf("match_size integer 8: %s size %d\n", errclass_name(rc), s);
    }
    m = MPI_DATATYPE_NULL;
    rc = MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 3, &m);
    printf("match_size integer 3 fails: %d, leaves the handle: %d\n", rc != MPI_SUCCESS, m == MPI_DATATYPE_NULL);
    MPI_Datatype f1, f2, fi, fc;
    CHECK(MPI_Type_create_f90_real(6, MPI_UNDEFINED, &f1));
    CHECK(MPI_Type_create_f90_real(6, MPI_UNDEFINED, &f2));
    fact("f90 real same handle twice", f1 == f2);
    CHECK(MPI_Type_create_f90_real(15, 300, &f2));
    CHECK(MPI_Type_create_f90_integer(9, &fi));
    CHECK(MPI_Type_create_f90_complex(15, MPI_UNDEFINED, &fc));
    show("f90 real 6", f1);
    show("f90 real 15 300", f2);
    show("f90 integer 9", fi);
    show("f90 complex 15", fc);
    MPI_Datatype of = MPI_DATATYPE_NULL;
    rc = MPI_Type_create_f90_real(60, MPI_UNDEFINED, &of);
    printf("f90 real 60 fails: %d\n", rc != MPI_SUCCESS);
    MPI_Datatype ff[2] = {f1, fi}, fs;
    int fbl[2] = {2, 1};
    MPI_Aint fd[2] = {0, 8};
    CHECK(MPI_Type_create_struct(2, fbl, fd, ff, &fs));
    CHECK(MPI_Type_commit(&fs));
    show("struct of f90", fs);

    MPI_Datatype all[] = {c3, vec, hvec, idx, hidx, iblk, hblk, st, res, dup, nested, sc, sf, s3, da, fs};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) CHECK(MPI_Type_free(&all[i]));
    return diff_finish();
}
