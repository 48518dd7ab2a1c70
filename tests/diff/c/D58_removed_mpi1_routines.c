/* D58: the MPI-1 routines and constants MPI-3.0 removed, which MPICH still ships and old codes
 * still call, with their MPI-2.2 meaning (MPI-2.2 §4.1, §8.3.1): MPI_Address, MPI_Type_extent,
 * _lb, _ub, MPI_Type_hvector, _hindexed, _struct (MPI_LB and MPI_UB markers set the bounds and
 * stay set in the types built from them), MPI_Errhandler_create, _set, _get
 * (MPI_Handler_function), and the _INTEGER combiners. The datatypes they build carry attributes
 * as MPI_Type_create_* ones do (R6.1, R4.4); an error handler MPI_Errhandler_set attaches routes
 * errors, on a communicator with attributes, as MPI_Comm_set_errhandler's does. Open MPI 4.1 hides
 * them (built without MPI-1 compatibility): the program prints what MPI-2.2 says there
 * (divergences.toml records the peer's "removed").
 */
#include "diff_util.h"

#include <string.h>

#if defined(OPEN_MPI) && !OMPI_ENABLE_MPI1_COMPAT
int main(int argc, char **argv)
{
    diff_init(&argc, &argv);
    fact("D58 removed routines built", 0);
    return diff_finish();
}
#else
static int handled, handled_code, deletes;

static void handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    ++handled;
    handled_code = *code;
}

static int count_delete(MPI_Datatype t, int key, void *val, void *extra)
{
    (void)t; (void)key; (void)val; (void)extra;
    ++deletes;
    return MPI_SUCCESS;
}

static long type_bounds(MPI_Datatype t)
{
    MPI_Aint lb = -1, ub = -1, extent = -1, glb = -2, gextent = -2;
    CHECK(MPI_Type_lb(t, &lb));
    CHECK(MPI_Type_ub(t, &ub));
    CHECK(MPI_Type_extent(t, &extent));
    CHECK(MPI_Type_get_extent(t, &glb, &gextent));
    /* lb*1e6 + ub*1e3 + extent (small values), -1 where the removed and modern routines differ */
    if (glb != lb || gextent != extent || ub != lb + extent) return -1;
    return (long)lb * 1000000 + (long)ub * 1000 + (long)extent;
}

int main(int argc, char **argv)
{
    diff_init(&argc, &argv);
    fact("D58 removed routines built", 1);

    /* MPI_Address is MPI_Get_address. */
    double buf[4];
    MPI_Aint a0 = 0, a2 = 0, g2 = 0;
    CHECK(MPI_Address(&buf[0], &a0));
    CHECK(MPI_Address(&buf[2], &a2));
    CHECK(MPI_Get_address(&buf[2], &g2));
    fact("D58 MPI_Address difference", (long)(a2 - a0));
    fact("D58 MPI_Address equals MPI_Get_address", a2 == g2);

    /* MPI_Type_struct with MPI_LB and MPI_UB markers: the markers set the bounds, no padding. */
    int bl[4] = {1, 1, 1, 1};
    MPI_Aint d[4] = {-4, 0, 8, 20};
    MPI_Datatype ts[4] = {MPI_LB, MPI_INT, MPI_DOUBLE, MPI_UB}, marked;
    CHECK(MPI_Type_struct(4, bl, d, ts, &marked));
    CHECK(MPI_Type_commit(&marked));
    int size = -1;
    CHECK(MPI_Type_size(marked, &size));
    fact("D58 struct LB UB size", size);
    fact("D58 struct LB UB lb ub extent", type_bounds(marked));
    /* The markers are sticky: two of them in a row, and a struct holding it with a wider type. */
    MPI_Datatype two, outer;
    CHECK(MPI_Type_contiguous(2, marked, &two));
    fact("D58 contiguous of marked lb ub extent", type_bounds(two));
    int bl2[2] = {1, 1};
    MPI_Aint d2[2] = {0, 100};
    MPI_Datatype ts2[2] = {marked, MPI_CHAR};
    CHECK(MPI_Type_struct(2, bl2, d2, ts2, &outer));
    fact("D58 struct of marked and char lb ub extent", type_bounds(outer));
    /* MPI_LB alone sets only the lower bound; the upper one is the data's (padded to alignment). */
    MPI_Aint d3[2] = {-8, 0};
    MPI_Datatype ts3[2] = {MPI_LB, MPI_INT}, lbonly;
    CHECK(MPI_Type_struct(2, bl2, d3, ts3, &lbonly));
    fact("D58 struct LB and int lb ub extent", type_bounds(lbonly));
    /* A predefined type's and the markers' own bounds. */
    fact("D58 MPI_DOUBLE lb ub extent", type_bounds(MPI_DOUBLE));
    MPI_Aint lbx = -1;
    CHECK(MPI_Type_extent(MPI_LB, &lbx));
    fact("D58 MPI_LB extent", (long)lbx);
    CHECK(MPI_Type_size(MPI_UB, &size));
    fact("D58 MPI_UB size", size);

    /* MPI_Type_hvector and MPI_Type_hindexed are the create_ ones. */
    MPI_Datatype hv, hvc, hi, hic;
    int hbl[2] = {2, 1};
    MPI_Aint hd[2] = {16, 0};
    CHECK(MPI_Type_hvector(3, 2, 24, MPI_INT, &hv));
    CHECK(MPI_Type_create_hvector(3, 2, 24, MPI_INT, &hvc));
    CHECK(MPI_Type_hindexed(2, hbl, hd, MPI_INT, &hi));
    CHECK(MPI_Type_create_hindexed(2, hbl, hd, MPI_INT, &hic));
    fact("D58 hvector lb ub extent", type_bounds(hv));
    fact("D58 hvector as create_hvector", type_bounds(hv) == type_bounds(hvc));
    fact("D58 hindexed lb ub extent", type_bounds(hi));
    fact("D58 hindexed as create_hindexed", type_bounds(hi) == type_bounds(hic));

    /* Their datatypes carry attributes: copied by MPI_Type_dup, deleted on MPI_Type_free. */
    int key;
    CHECK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, count_delete, &key, NULL));
    CHECK(MPI_Type_set_attr(marked, key, (void *)(MPI_Aint)7));
    CHECK(MPI_Type_set_attr(hv, key, (void *)(MPI_Aint)8));
    MPI_Datatype dup;
    CHECK(MPI_Type_dup(marked, &dup));
    void *v = NULL;
    int flag = 0;
    CHECK(MPI_Type_get_attr(dup, key, &v, &flag));
    fact("D58 struct attribute copied by Type_dup", flag ? (long)(MPI_Aint)v : -1);
    fact("D58 dup keeps the markers", type_bounds(dup) == type_bounds(marked));
    CHECK(MPI_Type_free(&dup));
    CHECK(MPI_Type_free(&hv));
    fact("D58 deletes after freeing dup and hvector", deletes);
    CHECK(MPI_Type_free(&marked));
    fact("D58 deletes after freeing the struct", deletes);
    CHECK(MPI_Type_free_keyval(&key));

    /* The combiners of MPI-1's constructors from C (MPI-2.2 §4.1.13: MPI_COMBINER_HVECTOR and
     * friends) and the _INTEGER ones, which differ from them. */
    int ni, na, nd, comb;
    CHECK(MPI_Type_get_envelope(hi, &ni, &na, &nd, &comb));
    fact("D58 hindexed combiner is MPI_COMBINER_HINDEXED", comb == MPI_COMBINER_HINDEXED);
    CHECK(MPI_Type_get_envelope(outer, &ni, &na, &nd, &comb));
    fact("D58 struct combiner is MPI_COMBINER_STRUCT", comb == MPI_COMBINER_STRUCT);
    fact("D58 _INTEGER combiners are distinct",
         MPI_COMBINER_HVECTOR_INTEGER != MPI_COMBINER_HVECTOR &&
             MPI_COMBINER_HINDEXED_INTEGER != MPI_COMBINER_HINDEXED &&
             MPI_COMBINER_STRUCT_INTEGER != MPI_COMBINER_STRUCT &&
             MPI_COMBINER_HVECTOR_INTEGER != MPI_COMBINER_HINDEXED_INTEGER);
    char name[MPI_MAX_OBJECT_NAME];
    int len = 0;
    CHECK(MPI_Type_get_name(MPI_UB, name, &len));
    fact("D58 MPI_UB is named MPI_UB", strcmp(name, "MPI_UB") == 0);
    CHECK(MPI_Type_free(&two));
    CHECK(MPI_Type_free(&outer));
    CHECK(MPI_Type_free(&lbonly));
    CHECK(MPI_Type_free(&hvc));
    CHECK(MPI_Type_free(&hi));
    CHECK(MPI_Type_free(&hic));

    /* MPI_Errhandler_create / _set / _get on a communicator with attributes. */
    MPI_Comm comm;
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    int ckey;
    CHECK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &ckey, NULL));
    CHECK(MPI_Comm_set_attr(comm, ckey, (void *)(MPI_Aint)5));
    MPI_Handler_function *fn = handler;
    MPI_Errhandler eh, got;
    CHECK(MPI_Errhandler_create(fn, &eh));
    CHECK(MPI_Errhandler_set(comm, eh));
    CHECK(MPI_Errhandler_get(comm, &got));
    MPI_Errhandler modern;
    CHECK(MPI_Comm_get_errhandler(comm, &modern));
    fact("D58 Errhandler_get is Comm_get_errhandler's", got == modern);
    CHECK(MPI_Errhandler_free(&got));
    CHECK(MPI_Errhandler_free(&modern));
    int rc = MPI_Comm_get_attr(comm, MPI_KEYVAL_INVALID, &v, &flag);
    fact("D58 handler set by Errhandler_set ran", handled);
    fact_err("D58 handler saw the error class", handled_code);
    fact_err("D58 failing call returned", rc);
    CHECK(MPI_Comm_get_attr(comm, ckey, &v, &flag));
    fact("D58 attribute kept", flag ? (long)(MPI_Aint)v : -1);
    MPI_Comm dupc;
    CHECK(MPI_Comm_dup(comm, &dupc));  /* the duplicate inherits the handler and the attribute */
    rc = MPI_Comm_get_attr(dupc, MPI_KEYVAL_INVALID, &v, &flag);
    fact("D58 duplicate's handler ran", handled);
    CHECK(MPI_Comm_free(&dupc));
    CHECK(MPI_Comm_free(&comm));
    CHECK(MPI_Errhandler_free(&eh));
    CHECK(MPI_Comm_free_keyval(&ckey));
    return diff_finish();
}
#endif
