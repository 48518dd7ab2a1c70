/* external32 packing (MPI-4.1 §6.2.3 MPI_Pack_external, MPI_Unpack_external,
 * MPI_Pack_external_size; the "external32" representation: big-endian, IEEE, a fixed size per
 * basic datatype) and MPI_Pcontrol (§15.2.4: no effect without a profiling library) on one
 * process. Packed bytes are printed in hex, so every peer must produce the same representation;
 * each is then unpacked and compared with what was packed (docs/decisions.md D50). MPI_WCHAR and
 * the pair types (MPI_DOUBLE_INT, ...) and structs of several basic datatypes are checked by
 * tests/c/RT_datatypes_errors.c instead: MPICH 4.0.2 aborts on them.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "diff_util.h"

static const char *const ext32 = "external32";

/* Prints "label: <hex of n bytes>". */
static void hex(const char *label, const unsigned char *p, MPI_Aint n)
{
    printf("%s: ", label);
    for (MPI_Aint i = 0; i < n; ++i)
        printf("%02x", p[i]);
    printf("\n");
}

/* Packs count items of t from in, prints size, position and bytes, unpacks into out (prefilled
 * with 0x5a) and prints whether the items came back (cmp bytes compared, 0: none). */
static void round_trip_hex(const char *what, const void *in, int count, MPI_Datatype t, void *out,
                           size_t cmp, MPI_Aint hexlen)
{
    unsigned char buf[256];
    char label[128];
    MPI_Aint size = -1, pos = 0, upos = 0;
    int rc = MPI_Pack_external_size(ext32, count, t, &size);
    snprintf(label, sizeof label, "%s, external32 size", what);
    fact_err(label, rc);
    rc = MPI_Pack_external(ext32, in, count, t, buf, (MPI_Aint)sizeof buf, &pos);
    snprintf(label, sizeof label, "%s, pack", what);
    fact_err(label, rc);
    /* An upper bound (Open MPI gives a long's native 8 bytes); c_RT_datatypes_errors checks
     * that mpiattr's is exact. */
    snprintf(label, sizeof label, "%s, external32 size holds what was packed", what);
    fact(label, size >= pos);
    snprintf(label, sizeof label, "%s, position", what);
    fact(label, (long)pos);
    snprintf(label, sizeof label, "%s, bytes", what);
    hex(label, buf, hexlen < 0 || hexlen > pos ? pos : hexlen);
    rc = MPI_Unpack_external(ext32, buf, pos, &upos, out, count, t);
    snprintf(label, sizeof label, "%s, unpack", what);
    fact_err(label, rc);
    snprintf(label, sizeof label, "%s, unpack position", what);
    fact(label, (long)upos);
    if (cmp > 0) {
        snprintf(label, sizeof label, "%s, round trip equal", what);
        fact(label, memcmp(in, out, cmp) == 0);
    }
}

static void round_trip(const char *what, const void *in, int count, MPI_Datatype t, void *out,
                       size_t cmp)
{
    round_trip_hex(what, in, count, t, out, cmp, -1);
}

int main(int argc, char **argv)
{
    diff_init(&argc, &argv);

    /* ---- basic datatypes (not MPI_WCHAR, on which MPICH 4.0.2 aborts: c_RT_datatypes_errors) ---- */
    {
        char c[3] = {'a', 'B', 'z'}, c2[3];
        round_trip("char", c, 3, MPI_CHAR, c2, sizeof c);
        short s[2] = {-2, 0x1234}, s2[2];
        round_trip("short", s, 2, MPI_SHORT, s2, sizeof s);
        int i[3] = {0x01020304, -1, 7}, i2[3];
        round_trip("int", i, 3, MPI_INT, i2, sizeof i);
        unsigned u = 0xdeadbeefu, u2;
        round_trip("unsigned", &u, 1, MPI_UNSIGNED, &u2, sizeof u);
        /* external32's MPI_LONG and MPI_UNSIGNED_LONG have 4 bytes, whatever a long has. */
        long l[2] = {-5L, 0x01020304L}, l2[2];
        round_trip("long", l, 2, MPI_LONG, l2, sizeof l);
        unsigned long ul = 0xfedcba98UL, ul2;
        round_trip("unsigned long", &ul, 1, MPI_UNSIGNED_LONG, &ul2, sizeof ul);
        long long ll = -0x123456789aLL, ll2;
        round_trip("long long", &ll, 1, MPI_LONG_LONG, &ll2, sizeof ll);
        unsigned long long ull = 0xfedcba9876543210ULL, ull2;
        round_trip("unsigned long long", &ull, 1, MPI_UNSIGNED_LONG_LONG, &ull2, sizeof ull);
        float f[3] = {1.5f, -0.0f, 3.0e-39f}, f2[3];
        round_trip("float", f, 3, MPI_FLOAT, f2, sizeof f);
        double d[2] = {-2.25, 1.0e300}, d2[2];
        round_trip("double", d, 2, MPI_DOUBLE, d2, sizeof d);
        int8_t i8 = -3, i8b;
        round_trip("int8_t", &i8, 1, MPI_INT8_T, &i8b, sizeof i8);
        uint16_t u16 = 0xabcd, u16b;
        round_trip("uint16_t", &u16, 1, MPI_UINT16_T, &u16b, sizeof u16);
        int32_t i32 = -100000, i32b;
        round_trip("int32_t", &i32, 1, MPI_INT32_T, &i32b, sizeof i32);
        uint64_t u64 = 0x0011223344556677ULL, u64b;
        round_trip("uint64_t", &u64, 1, MPI_UINT64_T, &u64b, sizeof u64);
        bool b[2] = {true, false}, b2[2];
        round_trip("c_bool", b, 2, MPI_C_BOOL, b2, sizeof b);
        MPI_Aint a = 0x1000, a2;
        round_trip("aint", &a, 1, MPI_AINT, &a2, sizeof a);
        unsigned char by[4] = {1, 0x80, 0xff, 0}, by2[4];
        round_trip("byte", by, 4, MPI_BYTE, by2, sizeof by);
        float fc[2] = {1.0f, -2.0f}, fc2[2];
        round_trip("c_float_complex", fc, 1, MPI_C_FLOAT_COMPLEX, fc2, sizeof fc);
        double dc[2] = {0.5, 4.0}, dc2[2];
        round_trip("c_double_complex", dc, 1, MPI_C_DOUBLE_COMPLEX, dc2, sizeof dc);
    }

    /* ---- long double: IEEE "Double Extended", 16 bytes (x87's 80 bits are converted; the padding
     * is zeroed first so that bytes a peer copies as they are do not vary) ---- */
    {
        long double x[2], x2[2];
        memset(x, 0, sizeof x);
        memset(x2, 0, sizeof x2);
        x[0] = 1.0L;
        x[1] = -3.5L;
        /* The first element's sign and exponent only: what Open MPI 4.1.4 writes after them
         * varies from run to run. */
        round_trip_hex("long double", x, 2, MPI_LONG_DOUBLE, x2, 0, 2);
        fact("long double, round trip equal", x2[0] == x[0] && x2[1] == x[1]);
    }

    /* ---- derived datatypes: the type map's elements in order; gaps neither packed nor written ---- */
    {
        MPI_Datatype vec;
        CHECK(MPI_Type_vector(3, 1, 2, MPI_INT, &vec));
        CHECK(MPI_Type_commit(&vec));
        int in[6] = {1, -1, 2, -1, 0x7fffffff, -1}, out[6] = {9, 9, 9, 9, 9, 9};
        round_trip("vector of int", in, 1, vec, out, 0);
        fact("vector of int, elements back", out[0] == 1 && out[2] == 2 && out[4] == 0x7fffffff);
        fact("vector of int, gaps untouched", out[1] == 9 && out[3] == 9 && out[5] == 9);
        CHECK(MPI_Type_free(&vec));

        /* An indexed type of doubles, and a dup of a contiguous type of it: the elements in
         * type-map order (the blocks' order, not the addresses'). */
        double dv[6] = {1.0, -1.0, 0.5, 2.0, -0.25, 8.0}, dout[6] = {0, 0, 0, 0, 0, 0};
        int bl[2] = {2, 1}, dsp[2] = {3, 0};
        MPI_Datatype idx, cont, dup;
        CHECK(MPI_Type_indexed(2, bl, dsp, MPI_DOUBLE, &idx));
        CHECK(MPI_Type_commit(&idx));
        round_trip("indexed of double", dv, 1, idx, dout, 0);
        fact("indexed of double, elements back", dout[3] == 2.0 && dout[4] == -0.25 && dout[0] == 1.0);
        fact("indexed of double, gaps untouched", dout[1] == 0 && dout[2] == 0 && dout[5] == 0);
        CHECK(MPI_Type_contiguous(1, idx, &cont));
        CHECK(MPI_Type_dup(cont, &dup));
        CHECK(MPI_Type_commit(&dup));
        round_trip("dup of contiguous of indexed", dv, 1, dup, dout, 0);
        CHECK(MPI_Type_free(&dup));
        CHECK(MPI_Type_free(&cont));
        CHECK(MPI_Type_free(&idx));

        /* Packing appends at position: two calls fill one buffer. */
        unsigned char buf[16];
        MPI_Aint pos = 0;
        short s = 0x0102;
        double d = 1.0;
        CHECK(MPI_Pack_external(ext32, &s, 1, MPI_SHORT, buf, sizeof buf, &pos));
        CHECK(MPI_Pack_external(ext32, &d, 1, MPI_DOUBLE, buf, sizeof buf, &pos));
        fact("appended, position", (long)pos);
        hex("appended, bytes", buf, pos);
    }

    /* ---- erroneous calls: nothing packed, position unchanged ---- */
    {
        int v[2] = {1, 2};
        unsigned char buf[8];
        memset(buf, 0xee, sizeof buf);
        MPI_Aint pos = 0;
        int rc = MPI_Pack_external(ext32, v, 2, MPI_INT, buf, 4, &pos);
        fact_err("pack 8 bytes into outsize 4, class", rc);
        fact("pack 8 bytes into outsize 4, position", (long)pos);
        pos = 0;
        rc = MPI_Unpack_external(ext32, buf, 4, &pos, v, 2, MPI_INT);
        fact_err("unpack 8 bytes from insize 4, class", rc);
        fact("unpack 8 bytes from insize 4, position", (long)pos);
        fact("unpack 8 bytes from insize 4, output untouched", v[0] == 1 && v[1] == 2);
        pos = 0;
        rc = MPI_Pack_external("native", v, 1, MPI_INT, buf, sizeof buf, &pos);
        fact_err("pack with datarep native, class", rc);
        fact("pack with datarep native, position", (long)pos);
        pos = 10;
        rc = MPI_Pack_external(ext32, v, 0, MPI_INT, buf, 4, &pos);
        fact_err("pack at position 10 beyond outsize 4, class", rc);
    }

    /* ---- MPI_Pcontrol: no profiling library, so every level succeeds and does nothing ---- */
    fact_err("pcontrol 0", MPI_Pcontrol(0));
    fact_err("pcontrol 1", MPI_Pcontrol(1));
    fact_err("pcontrol 2", MPI_Pcontrol(2));
    fact_err("pcontrol 1 with an extra argument", MPI_Pcontrol(1, 42));

    return diff_finish();
}
