/* D113: datatypes built by the large-count constructors (MPI-4.1 §5.1, §19.2) of values beyond
 * int, as MPICH builds them: each one's size, bounds and true bounds, its large-count description
 * (MPI_Type_get_envelope_c / _get_contents_c, §6.1.13's layout), what the int MPI_Type_get_envelope
 * says of it, and the bytes packed and sent through type maps whose displacements, strides and
 * sizes pass int (over a 2 GiB MAP_NORESERVE mapping, of which a few pages are touched); then the
 * three calls of PnetCDF's large-file tests. Open MPI 4.1 has no large-count forms: MPICH only.
 * (A _c constructor given values its int routine could take is described differently by MPICH,
 * with large counts, and by mpiattr, as the int routine's (D47): not printed here.)
 */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS and MAP_NORESERVE under -std=c11 */
#include <string.h>
#include <sys/mman.h>

#include "diff_util.h"

#define BIG ((MPI_Count)2147483648LL) /* 2^31 */

static const char *combiner_name(int c)
{
#define COMBINER(x) if (c == x) return #x
    COMBINER(MPI_COMBINER_CONTIGUOUS);
    COMBINER(MPI_COMBINER_VECTOR);
    COMBINER(MPI_COMBINER_HVECTOR);
    COMBINER(MPI_COMBINER_INDEXED);
    COMBINER(MPI_COMBINER_HINDEXED);
    COMBINER(MPI_COMBINER_INDEXED_BLOCK);
    COMBINER(MPI_COMBINER_HINDEXED_BLOCK);
    COMBINER(MPI_COMBINER_STRUCT);
    COMBINER(MPI_COMBINER_SUBARRAY);
    COMBINER(MPI_COMBINER_DARRAY);
#undef COMBINER
    return "(another combiner)";
}

/* An integer of a subarray's or darray's contents, the constants among them by name (their values
 * differ between implementations). */
static void print_int(int combiner, int ndims, int i, int ni, int v)
{
    const char *name = NULL;
    if (i == ni - 1 && (combiner == MPI_COMBINER_SUBARRAY || combiner == MPI_COMBINER_DARRAY))
        name = v == MPI_ORDER_C ? "MPI_ORDER_C" : v == MPI_ORDER_FORTRAN ? "MPI_ORDER_FORTRAN" : "(no order)";
    else if (combiner == MPI_COMBINER_DARRAY && i >= 3 && i < 3 + ndims)
        name = v == MPI_DISTRIBUTE_NONE ? "MPI_DISTRIBUTE_NONE" : v == MPI_DISTRIBUTE_BLOCK ? "MPI_DISTRIBUTE_BLOCK"
             : v == MPI_DISTRIBUTE_CYCLIC ? "MPI_DISTRIBUTE_CYCLIC" : "(no distribution)";
    else if (combiner == MPI_COMBINER_DARRAY && i >= 3 + ndims && i < 3 + 2 * ndims && v == MPI_DISTRIBUTE_DFLT_DARG)
        name = "MPI_DISTRIBUTE_DFLT_DARG";
    if (name)
        printf(" %s", name);
    else
        printf(" i%d", v);
}

/* The int envelope's answer for every datatype: one line, the same class for all or "mixed". */
static const char *int_envelope_class = NULL;

static void describe(const char *name, MPI_Datatype t)
{
    char label[96];
    MPI_Count size = -1, lb = -1, extent = -1, tlb = -1, textent = -1;
    CHECK(MPI_Type_size_c(t, &size));
    CHECK(MPI_Type_get_extent_c(t, &lb, &extent));
    CHECK(MPI_Type_get_true_extent_c(t, &tlb, &textent));
    printf("%s shape: size %lld lb %lld extent %lld true lb %lld true extent %lld\n", name, (long long)size,
           (long long)lb, (long long)extent, (long long)tlb, (long long)textent);
    MPI_Count ni = -1, na = -1, nl = -1, nd = -1;
    int combiner = -1;
    CHECK(MPI_Type_get_envelope_c(t, &ni, &na, &nl, &nd, &combiner));
    printf("%s envelope_c: %s ni %lld na %lld nl %lld nd %lld\n", name, combiner_name(combiner), (long long)ni,
           (long long)na, (long long)nl, (long long)nd);
    if (ni <= 16 && na <= 4 && nl <= 16 && nd <= 4) {
        int ints[16];
        MPI_Aint addrs[4];
        MPI_Count large[16];
        MPI_Datatype types[4];
        CHECK(MPI_Type_get_contents_c(t, ni, na, nl, nd, ints, addrs, large, types));
        snprintf(label, sizeof label, "%s contents_c", name);
        printf("%s:", label);
        for (MPI_Count i = 0; i < ni; ++i)
            print_int(combiner, combiner == MPI_COMBINER_DARRAY ? ints[2] : ints[0], (int)i, (int)ni, ints[i]);
        for (MPI_Count i = 0; i < na; ++i)
            printf(" a%lld", (long long)addrs[i]);
        for (MPI_Count i = 0; i < nl; ++i)
            printf(" L%lld", (long long)large[i]);
        for (MPI_Count i = 0; i < nd; ++i)
            printf(" %s", types[i] == MPI_BYTE ? "MPI_BYTE" : types[i] == MPI_INT ? "MPI_INT" : "(another)");
        printf("\n");
    }
    int a, b, c, d;
    const char *cls = errclass_name(MPI_Type_get_envelope(t, &a, &b, &c, &d));
    if (int_envelope_class == NULL)
        int_envelope_class = cls;
    else if (strcmp(int_envelope_class, cls) != 0)
        int_envelope_class = "mixed";
    CHECK(MPI_Type_free(&t));
}

int main(int argc, char **argv)
{
    diff_init(&argc, &argv);
    const MPI_Count B = 3000000000LL;
    MPI_Datatype t, types[2] = {MPI_BYTE, MPI_INT};

    CHECK(MPI_Type_contiguous_c(B, MPI_BYTE, &t));
    describe("contiguous", t);
    CHECK(MPI_Type_vector_c(2, B, B + 7, MPI_BYTE, &t));
    describe("vector", t);
    CHECK(MPI_Type_create_hvector_c(2, B, B + 9, MPI_BYTE, &t));
    describe("hvector", t);
    MPI_Count bl[2] = {3, B}, disp[2] = {0, 11}, hdisp[2] = {0, B + 13};
    CHECK(MPI_Type_indexed_c(2, bl, disp, MPI_BYTE, &t));
    describe("indexed", t);
    CHECK(MPI_Type_create_hindexed_c(2, bl, hdisp, MPI_BYTE, &t));
    describe("hindexed", t);
    CHECK(MPI_Type_create_indexed_block_c(2, B, hdisp, MPI_BYTE, &t));
    describe("indexed_block", t);
    CHECK(MPI_Type_create_hindexed_block_c(2, B, hdisp, MPI_BYTE, &t));
    describe("hindexed_block", t);
    CHECK(MPI_Type_create_struct_c(2, bl, hdisp, types, &t));
    describe("struct", t);
    MPI_Count sizes[3] = {4, 10, 4294967296LL}, subsizes[3] = {1, 1, 10}, starts[3] = {0, 1, 0};
    CHECK(MPI_Type_create_subarray_c(3, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &t));
    describe("subarray", t);
    CHECK(MPI_Type_create_subarray_c(3, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_INT, &t));
    describe("subarray fortran order", t);
    MPI_Count gsizes[2] = {2, B};
    int distribs[2] = {MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_BLOCK};
    int dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, psizes[2] = {1, 1};
    CHECK(MPI_Type_create_darray_c(1, 0, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C, MPI_BYTE, &t));
    describe("darray", t);
    printf("int MPI_Type_get_envelope of these: %s\n", int_envelope_class);

    /* The type maps, packed and sent. */
    const size_t span = (size_t)BIG + 4096;
    char *buf = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (buf == MAP_FAILED) {
        printf("SETUP FAILED: mmap of 2 GiB\n");
    } else {
        memcpy(buf, "abcdefgh", 8);
        memcpy(buf + BIG, "ABCDEFGH", 8);
        MPI_Datatype ix, vec, sa;
        MPI_Count ibl[2] = {3, 2}, idisp[2] = {0, BIG}, ssz[2] = {2, BIG}, ssub[2] = {2, 3}, sst[2] = {0, 5};
        CHECK(MPI_Type_indexed_c(2, ibl, idisp, MPI_BYTE, &ix));
        CHECK(MPI_Type_vector_c(2, 2, BIG, MPI_BYTE, &vec));
        CHECK(MPI_Type_create_subarray_c(2, ssz, ssub, sst, MPI_ORDER_C, MPI_BYTE, &sa));
        CHECK(MPI_Type_commit(&ix));
        CHECK(MPI_Type_commit(&vec));
        CHECK(MPI_Type_commit(&sa));
        char packed[16] = {0};
        MPI_Count pos = 0;
        CHECK(MPI_Pack_c(buf, 1, ix, packed, (MPI_Count)sizeof packed, &pos, MPI_COMM_SELF));
        printf("indexed displacement 2^31 packs: %lld bytes %.5s\n", (long long)pos, packed);
        pos = 0;
        CHECK(MPI_Pack_c(buf, 1, vec, packed, (MPI_Count)sizeof packed, &pos, MPI_COMM_SELF));
        printf("vector stride 2^31 packs: %lld bytes %.4s\n", (long long)pos, packed);
        char got[8] = {0};
        MPI_Status st;
        CHECK(MPI_Sendrecv(buf, 1, sa, 0, 3, got, 8, MPI_BYTE, 0, 3, MPI_COMM_SELF, &st));
        int n = -1;
        CHECK(MPI_Get_count(&st, MPI_BYTE, &n));
        printf("subarray size 2^31 sends: %d bytes %.6s\n", n, got);
        pos = 0;
        CHECK(MPI_Unpack_c("xyzXY", 5, &pos, buf, 1, ix, MPI_COMM_SELF));
        printf("indexed displacement 2^31 unpacks: %.8s %.8s\n", buf, buf + BIG);
        /* PnetCDF's large_reqs: a position and an outsize beyond int */
        double x = 1.5, y = 0;
        pos = BIG;
        CHECK(MPI_Pack_c(&x, 1, MPI_DOUBLE, buf, (MPI_Count)span, &pos, MPI_COMM_SELF));
        printf("pack at position 2^31: position %lld\n", (long long)pos);
        pos = BIG;
        CHECK(MPI_Unpack_c(buf, (MPI_Count)span, &pos, &y, 1, MPI_DOUBLE, MPI_COMM_SELF));
        printf("unpack at position 2^31: position %lld value %g\n", (long long)pos, y);
        CHECK(MPI_Type_free(&ix));
        CHECK(MPI_Type_free(&vec));
        CHECK(MPI_Type_free(&sa));
        munmap(buf, span);
    }

    /* PnetCDF's large_coalesce: an hindexed of 1024 bytes and of 2^31 bytes */
    MPI_Count cbl[2] = {1024, BIG}, cdisp[2] = {0, 4096}, size = -1;
    CHECK(MPI_Type_create_hindexed_c(2, cbl, cdisp, MPI_BYTE, &t));
    CHECK(MPI_Type_size_c(t, &size));
    printf("coalesce hindexed size: %lld\n", (long long)size);
    CHECK(MPI_Type_free(&t));

    MPI_Finalize();
    return 0;
}
