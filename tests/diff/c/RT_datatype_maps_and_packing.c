/* The standalone runtime's datatypes (MPI-4.1 §6.1, §6.2), as a program written for MPICH and
 * Open MPI uses them around caching: the constructors' sizes, bounds and extents (a struct's
 * extent padded to its alignment, §6.1.6; the predefined types' alignments, D143), a one-process reduction with a strided type that must
 * not touch the gaps, MPI_Pack / MPI_Unpack round trips and their errors, and info objects
 * (§11) passed where hints are taken.
 */
#include <stddef.h>
#include <string.h>

#include "diff_util.h"

struct pair {
    int i;
    double d;
};

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int size;
    MPI_Aint lb, extent, tlb, textent;

    /* vector: 3 blocks of 2 ints, stride 4 ints */
    MPI_Datatype vec;
    MPI_Type_vector(3, 2, 4, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Type_size(vec, &size);
    MPI_Type_get_extent(vec, &lb, &extent);
    MPI_Type_get_true_extent(vec, &tlb, &textent);
    fact("vector size", size);
    fact("vector lb", (long)lb);
    fact("vector extent in ints", (long)(extent / (MPI_Aint)sizeof(int)));
    fact("vector true extent in ints", (long)(textent / (MPI_Aint)sizeof(int)));

    /* Unpacking into a strided type writes the type map's bytes only: the gaps keep their values. */
    int in[10], out[10];
    for (int i = 0; i < 10; ++i) {
        in[i] = i + 1;
        out[i] = -1;
    }
    char vbuf[64];
    int vpos = 0, vupos = 0;
    int rc = MPI_Pack(in, 1, vec, vbuf, sizeof vbuf, &vpos, MPI_COMM_WORLD);
    fact("pack vector, rc is success", rc == MPI_SUCCESS);
    fact("pack vector, bytes", vpos);
    rc = MPI_Unpack(vbuf, vpos, &vupos, out, 1, vec, MPI_COMM_WORLD);
    long gaps_kept = 1, blocks_copied = 1;
    for (int i = 0; i < 10; ++i) {
        int in_block = (i % 4) < 2;
        if (in_block && out[i] != in[i]) blocks_copied = 0;
        if (!in_block && out[i] != -1) gaps_kept = 0;
    }
    fact("unpack vector, blocks copied", blocks_copied);
    fact("unpack vector, gaps untouched", gaps_kept);
    /* Predefined operations apply to predefined datatypes only (MPI-4.1 section 7.9.2). */
    rc = MPI_Allreduce(in, out, 1, vec, MPI_MAX, MPI_COMM_WORLD);
    printf("allreduce MPI_MAX on a vector type, class: %s\n", errclass_name(rc));

    /* hvector, indexed, hindexed */
    MPI_Datatype hv, idx, hidx;
    MPI_Type_create_hvector(2, 1, 3 * (MPI_Aint)sizeof(double), MPI_DOUBLE, &hv);
    MPI_Type_size(hv, &size);
    MPI_Type_get_extent(hv, &lb, &extent);
    fact("hvector size", size);
    fact("hvector extent in doubles", (long)(extent / (MPI_Aint)sizeof(double)));
    int bl[2] = {2, 1}, dl[2] = {1, 5};
    MPI_Type_indexed(2, bl, dl, MPI_INT, &idx);
    MPI_Type_size(idx, &size);
    MPI_Type_get_extent(idx, &lb, &extent);
    fact("indexed size", size);
    fact("indexed lb in ints", (long)(lb / (MPI_Aint)sizeof(int)));
    fact("indexed extent in ints", (long)(extent / (MPI_Aint)sizeof(int)));
    MPI_Aint hdl[2] = {0, 5 * (MPI_Aint)sizeof(int)};
    MPI_Type_create_hindexed(2, bl, hdl, MPI_INT, &hidx);
    MPI_Type_get_extent(hidx, &lb, &extent);
    fact("hindexed extent in ints", (long)(extent / (MPI_Aint)sizeof(int)));

    /* struct { int; double }: size 12, extent padded to sizeof(struct pair) */
    MPI_Datatype st, st_resized;
    int sbl[2] = {1, 1};
    MPI_Aint sdl[2] = {offsetof(struct pair, i), offsetof(struct pair, d)};
    MPI_Datatype sty[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Type_create_struct(2, sbl, sdl, sty, &st);
    MPI_Type_commit(&st);
    MPI_Type_size(st, &size);
    MPI_Type_get_extent(st, &lb, &extent);
    fact("struct size", size);
    fact("struct extent is sizeof(struct pair)", extent == (MPI_Aint)sizeof(struct pair));
    MPI_Type_create_resized(st, 0, 2 * (MPI_Aint)sizeof(struct pair), &st_resized);
    MPI_Type_get_extent(st_resized, &lb, &extent);
    fact("resized extent is twice the struct", extent == 2 * (MPI_Aint)sizeof(struct pair));

    /* Pack an array of structs, unpack it elsewhere. */
    struct pair a[3] = {{1, 1.5}, {2, 2.5}, {3, 3.5}}, b[3];
    memset(b, 0, sizeof b);
    char packed[64];
    int psize = 0, pos = 0;
    MPI_Pack_size(3, st, MPI_COMM_WORLD, &psize);
    fact("pack_size of 3 structs is at least 36", psize >= 36);
    rc = MPI_Pack(a, 3, st, packed, sizeof packed, &pos, MPI_COMM_WORLD);
    fact("pack, rc is success", rc == MPI_SUCCESS);
    fact("pack position", pos);
    int upos = 0;
    rc = MPI_Unpack(packed, pos, &upos, b, 3, st, MPI_COMM_WORLD);
    fact("unpack, rc is success", rc == MPI_SUCCESS);
    fact("unpack position", upos);
    fact("unpack round trip", b[0].i == 1 && b[1].d == 2.5 && b[2].i == 3 && b[2].d == 3.5);
    pos = 0;
    rc = MPI_Pack(a, 3, st, packed, 20, &pos, MPI_COMM_WORLD);
    printf("pack into too small a buffer, class: %s\n", errclass_name(rc));

    /* Info objects where hints are taken. */
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "no_locks", "true");
    MPI_Info_set(info, "an_unknown_hint", "anything");
    MPI_Comm dup;
    rc = MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &dup);
    fact("dup_with_info with a real info, rc is success", rc == MPI_SUCCESS);
    int nkeys = 0;
    MPI_Info_get_nkeys(info, &nkeys);
    fact("info nkeys", nkeys);
    char value[MPI_MAX_INFO_VAL + 1];
    int flag = 0, vlen = 0;
    MPI_Info_get_valuelen(info, "no_locks", &vlen, &flag);
    fact("info get_valuelen flag", flag);
    fact("info get_valuelen", vlen);
    MPI_Info_get(info, "no_locks", MPI_MAX_INFO_VAL, value, &flag);
    fact("info get is the value", flag && strcmp(value, "true") == 0);
    rc = MPI_Info_delete(info, "missing");
    printf("info delete of a missing key, class: %s\n", errclass_name(rc));
    MPI_Info_free(&info);
    fact("info freed is MPI_INFO_NULL", info == MPI_INFO_NULL);
    MPI_Comm_free(&dup);

    char name[MPI_MAX_PROCESSOR_NAME];
    int nlen = 0;
    MPI_Get_processor_name(name, &nlen);
    fact("processor name is not empty", nlen > 0 && (int)strlen(name) == nlen);

    /* D143: a struct { char; T } with T at byte 1 is padded to T's alignment as C and Fortran lay
     * it out, where T's size is not its alignment: the complex types align as one part, the pairs
     * of equal halves as one half (struct { char; float complex } is 12 bytes, not 16). */
    {
        static const struct {
            const char *name;
            MPI_Datatype type;
        } parts[] = {
            {"MPI_C_FLOAT_COMPLEX", MPI_C_FLOAT_COMPLEX}, {"MPI_C_DOUBLE_COMPLEX", MPI_C_DOUBLE_COMPLEX},
            {"MPI_C_LONG_DOUBLE_COMPLEX", MPI_C_LONG_DOUBLE_COMPLEX},
            {"MPI_CXX_FLOAT_COMPLEX", MPI_CXX_FLOAT_COMPLEX}, {"MPI_CXX_DOUBLE_COMPLEX", MPI_CXX_DOUBLE_COMPLEX},
            {"MPI_COMPLEX", MPI_COMPLEX}, {"MPI_DOUBLE_COMPLEX", MPI_DOUBLE_COMPLEX},
            {"MPI_COMPLEX8", MPI_COMPLEX8}, {"MPI_COMPLEX16", MPI_COMPLEX16},
            {"MPI_FLOAT_INT", MPI_FLOAT_INT}, {"MPI_2INT", MPI_2INT}, {"MPI_2REAL", MPI_2REAL},
            {"MPI_2DOUBLE_PRECISION", MPI_2DOUBLE_PRECISION}, {"MPI_2INTEGER", MPI_2INTEGER},
        };
        for (size_t k = 0; k < sizeof parts / sizeof parts[0]; ++k) {
            int blens[2] = {1, 1};
            MPI_Aint at[2] = {0, 1}, lb, extent;
            MPI_Datatype members[2] = {MPI_CHAR, parts[k].type}, padded;
            MPI_Type_create_struct(2, blens, at, members, &padded);
            MPI_Type_get_extent(padded, &lb, &extent);
            char label[96];
            snprintf(label, sizeof label, "D143 struct { char at 0, %s at 1 } extent", parts[k].name);
            fact(label, (long)extent);
            MPI_Type_free(&padded);
        }
    }

    MPI_Type_free(&vec);
    MPI_Type_free(&hv);
    MPI_Type_free(&idx);
    MPI_Type_free(&hidx);
    MPI_Type_free(&st);
    MPI_Type_free(&st_resized);
    MPI_Finalize();
    return 0;
}
