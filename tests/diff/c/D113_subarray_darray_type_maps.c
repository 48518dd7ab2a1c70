/* D113: the type maps of MPI_Type_create_subarray and MPI_Type_create_darray (MPI-4.1 §5.1.3,
 * §5.1.4), which the standalone runtime builds from runs of indices per dimension: for every
 * combination of distribution (block, cyclic, none), distribution argument (default, 1, 3),
 * process grid (1-3 x 1-2), rank and array order of a 7 x 10 darray, and of subsizes, starts and
 * order of a 5 x 6 x 7 subarray, the size, the bounds and the elements in type-map order (packed
 * from an array whose element i holds i), or the error class. The same on MPICH and Open MPI.
 */
#include "diff_util.h"

static unsigned short src[4096];

static void show(const char *label, int rc, MPI_Datatype t)
{
    printf("%s:", label);
    if (rc != MPI_SUCCESS) {
        printf(" %s\n", errclass_name(rc));
        return;
    }
    CHECK(MPI_Type_commit(&t));
    int size = -1, pos = 0;
    MPI_Aint lb = -1, extent = -1;
    CHECK(MPI_Type_size(t, &size));
    CHECK(MPI_Type_get_extent(t, &lb, &extent));
    unsigned short out[512];
    CHECK(MPI_Pack(src, 1, t, out, (int)sizeof out, &pos, MPI_COMM_SELF));
    printf(" size %d lb %ld extent %ld |", size, (long)lb, (long)extent);
    for (int i = 0; i < pos / 2; ++i)
        printf(" %d", out[i]);
    printf("\n");
    CHECK(MPI_Type_free(&t));
}

int main(int argc, char **argv)
{
    diff_init(&argc, &argv);
    for (int i = 0; i < 4096; ++i)
        src[i] = (unsigned short)i;
    const int dists[3] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_NONE};
    const char *dname[3] = {"block", "cyclic", "none"};
    const int dargv[3] = {MPI_DISTRIBUTE_DFLT_DARG, 1, 3};
    const char *aname[3] = {"dflt", "1", "3"};
    char label[128];
    for (int order = 0; order < 2; ++order)
        for (int d0 = 0; d0 < 3; ++d0)
            for (int d1 = 0; d1 < 3; ++d1)
                for (int a0 = 0; a0 < 3; ++a0)
                    for (int a1 = 0; a1 < 3; ++a1)
                        for (int p0 = 1; p0 <= 3; ++p0)
                            for (int p1 = 1; p1 <= 2; ++p1) {
                                if ((dists[d0] == MPI_DISTRIBUTE_NONE && p0 != 1) ||
                                    (dists[d1] == MPI_DISTRIBUTE_NONE && p1 != 1))
                                    continue; /* (refused: a dimension not distributed has one process) */
                                int g[2] = {7, 10}, dist[2] = {dists[d0], dists[d1]};
                                int dargs[2] = {dargv[a0], dargv[a1]}, ps[2] = {p0, p1};
                                for (int rank = 0; rank < p0 * p1; ++rank) {
                                    MPI_Datatype t = MPI_DATATYPE_NULL;
                                    int rc = MPI_Type_create_darray(p0 * p1, rank, 2, g, dist, dargs, ps,
                                                                    order ? MPI_ORDER_FORTRAN : MPI_ORDER_C,
                                                                    MPI_UNSIGNED_SHORT, &t);
                                    snprintf(label, sizeof label, "darray %s %s-%s %s-%s grid %dx%d rank %d",
                                             order ? "fortran" : "c", dname[d0], dname[d1], aname[a0], aname[a1],
                                             p0, p1, rank);
                                    show(label, rc, t);
                                }
                            }
    int sizes[3] = {5, 6, 7};
    for (int order = 0; order < 2; ++order)
        for (int s0 = 1; s0 <= 5; s0 += 2)
            for (int s2 = 1; s2 <= 7; s2 += 3)
                for (int st = 0; st < 2; ++st) {
                    if (st == 1 && s0 == 5 && s2 == 7)
                        continue; /* (the whole array: no second place) */
                    int sub[3] = {s0, 2, s2}, starts[3] = {st * (5 - s0), 1, st * (7 - s2)};
                    MPI_Datatype t = MPI_DATATYPE_NULL;
                    int rc = MPI_Type_create_subarray(3, sizes, sub, starts, order ? MPI_ORDER_FORTRAN : MPI_ORDER_C,
                                                      MPI_UNSIGNED_SHORT, &t);
                    snprintf(label, sizeof label, "subarray %s %dx2x%d at %d,1,%d", order ? "fortran" : "c", s0, s2,
                             starts[0], starts[2]);
                    show(label, rc, t);
                }
    MPI_Finalize();
    return 0;
}
