/* One-sided communication (MPI-4.1 §13) on one process, as programs written for MPICH and Open MPI
 * use it in a one-process run: fence, lock, lock_all and PSCW epochs around MPI_Put, MPI_Get,
 * MPI_Accumulate (several operations, MPI_REPLACE, MINLOC on pairs, a derived target datatype),
 * MPI_Get_accumulate (MPI_NO_OP too), MPI_Fetch_and_op, MPI_Compare_and_swap and the request-based
 * MPI_Rput, MPI_Rget, MPI_Raccumulate, MPI_Rget_accumulate; the displacement unit; MPI_PROC_NULL
 * targets; the epoch errors both peers agree on (MPI_ERR_RMA_SYNC) and argument errors; the
 * window's group, a dynamic window with attached memory, a shared window and its query, and the
 * window's info. Errors print their class; windows return errors (MPI_ERRORS_RETURN).
 */
#include <string.h>

#include "diff_util.h"

static void err(const char *label, int rc) { printf("%s: %s\n", label, errclass_name(rc)); }

static void ints(const char *label, const int *v, int n)
{
    printf("%s:", label);
    for (int i = 0; i < n; ++i)
        printf(" %d", v[i]);
    printf("\n");
}

static void set(int *v, int n, int first)
{
    for (int i = 0; i < n; ++i)
        v[i] = first + i;
}

static void never(void *in, void *inout, int *len, MPI_Datatype *t) { (void)in, (void)inout, (void)len, (void)t; }

int main(int argc, char **argv)
{
    diff_init(&argc, &argv);
    int buf[8], v[4] = {1, 2, 3, 4}, r[8];
    MPI_Win win;
    CHECK(MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));

    /* Outside any epoch. */
    err("put without an epoch", MPI_Put(v, 1, MPI_INT, 0, 0, 1, MPI_INT, win));
    err("get without an epoch", MPI_Get(r, 1, MPI_INT, 0, 0, 1, MPI_INT, win));
    err("put to MPI_PROC_NULL without an epoch", MPI_Put(v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win));
    err("unlock without lock", MPI_Win_unlock(0, win));
    err("unlock_all without lock_all", MPI_Win_unlock_all(win));
    err("complete without start", MPI_Win_complete(win));
    err("wait without post", MPI_Win_wait(win));
    int flag = -1;
    err("test without post", MPI_Win_test(win, &flag));
    fact("test without post flag untouched", flag == -1);
    err("flush without lock", MPI_Win_flush(0, win));
    err("flush_all without lock", MPI_Win_flush_all(win));
    err("flush_local without lock", MPI_Win_flush_local(0, win));
    err("flush_local_all without lock", MPI_Win_flush_local_all(win));

    /* Fence epochs: put and get, the displacement unit, a strided target. */
    set(buf, 8, 0);
    err("fence", MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    err("put 3 at disp 2", MPI_Put(v, 3, MPI_INT, 0, 2, 3, MPI_INT, win));
    err("put to MPI_PROC_NULL", MPI_Put(v, 3, MPI_INT, MPI_PROC_NULL, 2, 3, MPI_INT, win));
    /* MPI_PROC_NULL moves nothing: the datatypes are not held against each other (mpi4py's
     * result buffer there is (NULL, 0, MPI_BYTE); D103). */
    err("get_accumulate to MPI_PROC_NULL, result of MPI_BYTE",
        MPI_Get_accumulate(v, 1, MPI_INT, NULL, 0, MPI_BYTE, MPI_PROC_NULL, 0, 1, MPI_INT, MPI_SUM, win));
    /* Nor does a count of 0: no operation is applied, so MPI_SUM on MPI_BYTE is no error there
     * (mpi4py's probe of MPI_Win_get_accumulate; D116). */
    char b0[1] = {0}, r0[1] = {0};
    err("get_accumulate of 0 MPI_BYTE with MPI_SUM",
        MPI_Get_accumulate(b0, 0, MPI_BYTE, r0, 0, MPI_BYTE, 0, 0, 0, MPI_BYTE, MPI_SUM, win));
    err("accumulate of 0 MPI_BYTE with MPI_SUM", MPI_Accumulate(b0, 0, MPI_BYTE, 0, 0, 0, MPI_BYTE, MPI_SUM, win));
    err("fence after put", MPI_Win_fence(0, win));
    ints("window after put", buf, 8);
    MPI_Datatype every_other;
    CHECK(MPI_Type_vector(3, 1, 2, MPI_INT, &every_other));
    CHECK(MPI_Type_commit(&every_other));
    memset(r, 0, sizeof r);
    err("get every other from disp 1", MPI_Get(r, 3, MPI_INT, 0, 1, 1, every_other, win));
    err("fence after get", MPI_Win_fence(0, win));
    ints("got", r, 4);
    err("put 3 into every other at disp 0", MPI_Put(v, 3, MPI_INT, 0, 0, 1, every_other, win));
    err("fence after strided put", MPI_Win_fence(0, win));
    ints("window after strided put", buf, 8);

    /* Accumulates. */
    set(buf, 8, 10);
    err("accumulate MPI_SUM", MPI_Accumulate(v, 4, MPI_INT, 0, 0, 4, MPI_INT, MPI_SUM, win));
    err("accumulate MPI_MAX", MPI_Accumulate(v, 4, MPI_INT, 0, 4, 4, MPI_INT, MPI_MAX, win));
    err("accumulate MPI_PROD into every other", MPI_Accumulate(v, 3, MPI_INT, 0, 1, 1, every_other, MPI_PROD, win));
    err("fence after accumulates", MPI_Win_fence(0, win));
    ints("window after accumulates", buf, 8);
    err("accumulate MPI_REPLACE", MPI_Accumulate(v, 2, MPI_INT, 0, 6, 2, MPI_INT, MPI_REPLACE, win));
    err("accumulate MPI_BXOR", MPI_Accumulate(v, 2, MPI_INT, 0, 0, 2, MPI_INT, MPI_BXOR, win));
    err("accumulate MPI_MIN", MPI_Accumulate(v, 2, MPI_INT, 0, 2, 2, MPI_INT, MPI_MIN, win));
    err("accumulate MPI_LOR", MPI_Accumulate(v, 1, MPI_INT, 0, 4, 1, MPI_INT, MPI_LOR, win));
    err("fence after more accumulates", MPI_Win_fence(0, win));
    ints("window after more accumulates", buf, 8);
    /* MINLOC and MAXLOC on (value, index) pairs. */
    int pairs[4] = {5, 0, 9, 1}, mine[4] = {3, 7, 9, 0};
    memcpy(buf, pairs, sizeof pairs);
    err("accumulate MPI_MINLOC", MPI_Accumulate(mine, 1, MPI_2INT, 0, 0, 1, MPI_2INT, MPI_MINLOC, win));
    err("accumulate MPI_MAXLOC", MPI_Accumulate(mine + 2, 1, MPI_2INT, 0, 2, 1, MPI_2INT, MPI_MAXLOC, win));
    err("fence after loc accumulates", MPI_Win_fence(0, win));
    ints("window after loc accumulates", buf, 4);

    /* Fetching atomics. */
    set(buf, 8, 100);
    int res[4] = {0, 0, 0, 0}, one = 1, cmp = 101, swap = -7;
    err("get_accumulate MPI_SUM", MPI_Get_accumulate(v, 2, MPI_INT, res, 2, MPI_INT, 0, 0, 2, MPI_INT, MPI_SUM, win));
    err("fetch_and_op MPI_SUM", MPI_Fetch_and_op(&one, res + 2, MPI_INT, 0, 3, MPI_SUM, win));
    err("fence after fetches", MPI_Win_fence(0, win));
    ints("fetched", res, 3);
    ints("window after fetches", buf, 4);
    err("get_accumulate MPI_NO_OP", MPI_Get_accumulate(NULL, 0, MPI_INT, res, 2, MPI_INT, 0, 0, 2, MPI_INT, MPI_NO_OP, win));
    /* With MPI_NO_OP the origin's address, count and datatype are ignored (MPI-4.1 §13.3.4.2). */
    err("get_accumulate MPI_NO_OP, origin MPI_DATATYPE_NULL",
        MPI_Get_accumulate(NULL, 0, MPI_DATATYPE_NULL, res, 2, MPI_INT, 0, 0, 2, MPI_INT, MPI_NO_OP, win));
    err("fetch_and_op MPI_NO_OP", MPI_Fetch_and_op(NULL, res + 2, MPI_INT, 0, 3, MPI_NO_OP, win));
    err("fetch_and_op MPI_REPLACE", MPI_Fetch_and_op(&swap, res + 3, MPI_INT, 0, 4, MPI_REPLACE, win));
    err("fence after no-op fetches", MPI_Win_fence(0, win));
    ints("fetched without change", res, 4);
    ints("window after no-op fetches", buf, 5);
    err("compare_and_swap matching", MPI_Compare_and_swap(&swap, &cmp, res, MPI_INT, 0, 0, win));
    err("compare_and_swap not matching", MPI_Compare_and_swap(&one, &cmp, res + 1, MPI_INT, 0, 2, win));
    err("fence after compare_and_swap", MPI_Win_fence(0, win));
    ints("compare_and_swap fetched", res, 2);
    ints("window after compare_and_swap", buf, 3);

    /* Other predefined datatypes: doubles in a window addressed in bytes (displacement unit 1),
     * with a strided target and a complex product; (double, int) pairs; unsigned, bool, bytes. */
    double dw[4] = {1, 2, 3, 4}, dv[2] = {0.5, 2}, dgot[2] = {0, 0};
    struct di { double v; int i; } dp[2] = {{1.5, 3}, {2.5, 1}}, mp[2] = {{1.5, 2}, {0.5, 0}};
    /* (16 bytes each: MPICH 4.0.2 drops the accumulates to a window of 8 bytes or fewer) */
    unsigned uw[4] = {12, 10, 0, 0}, uv[2] = {10, 5};
    _Bool bw[16] = {1, 1}, bv[2] = {0, 1};
    unsigned char cw[16] = {0xF0, 0x0F}, cv[2] = {0xFF, 0x01};
    MPI_Win wd, wp, wu, wb, wc;
    MPI_Datatype every_other_double;
    CHECK(MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &every_other_double));
    CHECK(MPI_Type_commit(&every_other_double));
    CHECK(MPI_Win_create(dw, sizeof dw, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &wd));
    CHECK(MPI_Win_create(dp, sizeof dp, sizeof dp[0], MPI_INFO_NULL, MPI_COMM_WORLD, &wp));
    CHECK(MPI_Win_create(uw, sizeof uw, sizeof uw[0], MPI_INFO_NULL, MPI_COMM_WORLD, &wu));
    CHECK(MPI_Win_create(bw, sizeof bw, sizeof bw[0], MPI_INFO_NULL, MPI_COMM_WORLD, &wb));
    CHECK(MPI_Win_create(cw, sizeof cw, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &wc));
    MPI_Win all[5] = {wd, wp, wu, wb, wc};
    for (int i = 0; i < 5; ++i)
        CHECK(MPI_Win_lock_all(0, all[i]));
    err("accumulate MPI_SUM of doubles into every other", MPI_Accumulate(dv, 2, MPI_DOUBLE, 0, sizeof(double), 1, every_other_double, MPI_SUM, wd));
    err("accumulate MPI_PROD of a complex", MPI_Accumulate(dv, 1, MPI_C_DOUBLE_COMPLEX, 0, 0, 1, MPI_C_DOUBLE_COMPLEX, MPI_PROD, wd));
    err("get doubles at byte 16", MPI_Get(dgot, 2, MPI_DOUBLE, 0, 2 * sizeof(double), 2, MPI_DOUBLE, wd));
    err("accumulate MPI_MAXLOC of MPI_DOUBLE_INT", MPI_Accumulate(mp, 2, MPI_DOUBLE_INT, 0, 0, 2, MPI_DOUBLE_INT, MPI_MAXLOC, wp));
    err("accumulate MPI_BAND of unsigned", MPI_Accumulate(uv, 1, MPI_UNSIGNED, 0, 0, 1, MPI_UNSIGNED, MPI_BAND, wu));
    err("accumulate MPI_BOR of unsigned", MPI_Accumulate(uv + 1, 1, MPI_UNSIGNED, 0, 1, 1, MPI_UNSIGNED, MPI_BOR, wu));
    err("accumulate MPI_LAND of C bools", MPI_Accumulate(bv, 2, MPI_C_BOOL, 0, 0, 2, MPI_C_BOOL, MPI_LAND, wb));
    err("accumulate MPI_BXOR of bytes", MPI_Accumulate(cv, 2, MPI_BYTE, 0, 0, 2, MPI_BYTE, MPI_BXOR, wc));
    for (int i = 0; i < 5; ++i)
        CHECK(MPI_Win_unlock_all(all[i]));
    printf("doubles: %g %g %g %g\n", dw[0], dw[1], dw[2], dw[3]);
    printf("doubles got: %g %g\n", dgot[0], dgot[1]);
    printf("double-int pairs: %g %d %g %d\n", dp[0].v, dp[0].i, dp[1].v, dp[1].i);
    printf("unsigned: %u %u\n", uw[0], uw[1]);
    printf("bools: %d %d\n", (int)bw[0], (int)bw[1]);
    printf("bytes: %d %d\n", cw[0], cw[1]);
    for (int i = 0; i < 5; ++i)
        CHECK(MPI_Win_free(&all[i]));
    MPI_Type_free(&every_other_double);

    /* Argument errors both peers raise. */
    err("put to rank 1", MPI_Put(v, 1, MPI_INT, 1, 0, 1, MPI_INT, win));
    err("put to a negative displacement", MPI_Put(v, 1, MPI_INT, 0, -1, 1, MPI_INT, win));
    err("put of more than the target holds", MPI_Put(v, 2, MPI_INT, 0, 0, 1, MPI_INT, win));
    err("put of a negative count", MPI_Put(v, -1, MPI_INT, 0, 0, -1, MPI_INT, win));
    err("accumulate MPI_NO_OP", MPI_Accumulate(v, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_NO_OP, win));
    MPI_Op user;
    CHECK(MPI_Op_create(never, 1, &user));
    err("accumulate a user operation", MPI_Accumulate(v, 1, MPI_INT, 0, 0, 1, MPI_INT, user, win));
    CHECK(MPI_Op_free(&user));
    ints("window after the errors", buf, 3);
    err("fence ending the epochs", MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    err("put after fence MPI_MODE_NOSUCCEED", MPI_Put(v, 1, MPI_INT, 0, 0, 1, MPI_INT, win));

    /* Passive target: lock, flushes, unlock. */
    set(buf, 8, 0);
    err("lock exclusive", MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
    err("lock again", MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
    err("fence inside a lock", MPI_Win_fence(0, win));
    err("put in the lock", MPI_Put(v, 4, MPI_INT, 0, 4, 4, MPI_INT, win));
    err("flush", MPI_Win_flush(0, win));
    err("flush_local", MPI_Win_flush_local(0, win));
    err("flush_all", MPI_Win_flush_all(win));
    err("flush_local_all", MPI_Win_flush_local_all(win));
    err("sync", MPI_Win_sync(win));
    memset(r, 0, sizeof r);
    err("get in the lock", MPI_Get(r, 2, MPI_INT, 0, 5, 2, MPI_INT, win));
    err("unlock", MPI_Win_unlock(0, win));
    ints("got in the lock", r, 2);
    err("unlock again", MPI_Win_unlock(0, win));
    err("lock shared", MPI_Win_lock(MPI_LOCK_SHARED, 0, MPI_MODE_NOCHECK, win));
    err("lock of rank 1", MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win));
    err("unlock shared", MPI_Win_unlock(0, win));

    /* A fence without MPI_MODE_NOSUCCEED starts an epoch only if RMA calls follow it before the
     * next fence (MPI-4.1 section 13.5.1): a lock may come instead (mpi4py's test_rma does so),
     * and fences around a lock epoch then close none. On a window of its own: made on `win`,
     * after the calls above, these left MPICH 4.0.2 hanging in the MPI_Win_lock_all below. */
    int fw[4] = {0, 0, 0, 0};
    MPI_Win wf;
    CHECK(MPI_Win_create(fw, sizeof fw, sizeof fw[0], MPI_INFO_NULL, MPI_COMM_WORLD, &wf));
    err("fence before a lock", MPI_Win_fence(0, wf));
    err("lock after a fence no RMA call followed", MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, wf));
    err("fetch_and_op in that lock", MPI_Fetch_and_op(&one, res, MPI_INT, 0, 1, MPI_SUM, wf));
    err("unlock of that lock", MPI_Win_unlock(0, wf));
    err("fence after that lock epoch", MPI_Win_fence(0, wf));
    err("put in the epoch of that fence", MPI_Put(v, 1, MPI_INT, 0, 2, 1, MPI_INT, wf));
    err("fence ending it", MPI_Win_fence(0, wf));
    err("lock_all after a fence no RMA call followed", MPI_Win_lock_all(0, wf));
    err("put in that lock_all", MPI_Put(v + 1, 1, MPI_INT, 0, 3, 1, MPI_INT, wf));
    err("unlock_all of that lock_all", MPI_Win_unlock_all(wf));
    err("fence after that lock_all epoch", MPI_Win_fence(MPI_MODE_NOSUCCEED, wf));
    ints("window after locks between fences", fw, 4);
    CHECK(MPI_Win_free(&wf));

    err("lock with a bad lock type", MPI_Win_lock(12345, 0, 0, win));

    /* lock_all and the request-based operations. */
    MPI_Request rq[4];
    MPI_Status st[4];
    set(r, 8, 50);
    err("lock_all", MPI_Win_lock_all(0, win));
    err("rput", MPI_Rput(v, 2, MPI_INT, 0, 0, 2, MPI_INT, win, &rq[0]));
    err("rget", MPI_Rget(r, 2, MPI_INT, 0, 4, 2, MPI_INT, win, &rq[1]));
    err("raccumulate", MPI_Raccumulate(v, 2, MPI_INT, 0, 2, 2, MPI_INT, MPI_SUM, win, &rq[2]));
    err("rget_accumulate", MPI_Rget_accumulate(v, 1, MPI_INT, r + 2, 1, MPI_INT, 0, 7, 1, MPI_INT, MPI_SUM, win, &rq[3]));
    err("waitall", MPI_Waitall(4, rq, st));
    fact("requests null after waitall", rq[0] == MPI_REQUEST_NULL && rq[3] == MPI_REQUEST_NULL);
    err("flush_all in lock_all", MPI_Win_flush_all(win));
    err("unlock_all", MPI_Win_unlock_all(win));
    ints("window after lock_all", buf, 8);
    ints("got in lock_all", r, 3);

    /* PSCW: the process is both origin and target. */
    MPI_Group g, world;
    err("win_get_group", MPI_Win_get_group(win, &g));
    int gsize = -1, grank = -1, same = -1;
    MPI_Group_size(g, &gsize);
    MPI_Group_rank(g, &grank);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_compare(g, world, &same);
    fact("win group size", gsize);
    fact("win group rank", grank);
    fact("win group identical to world's", same == MPI_IDENT);
    set(buf, 8, 0);
    err("post", MPI_Win_post(g, 0, win));
    flag = -1;
    err("test before complete", MPI_Win_test(win, &flag));
    fact("test before complete flag", flag);
    err("post again", MPI_Win_post(g, 0, win));
    err("start", MPI_Win_start(g, 0, win));
    err("start again", MPI_Win_start(g, 0, win));
    err("lock inside start", MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    err("put in the access epoch", MPI_Put(v, 2, MPI_INT, 0, 3, 2, MPI_INT, win));
    err("complete", MPI_Win_complete(win));
    flag = -1;
    err("test after complete", MPI_Win_test(win, &flag));
    fact("test after complete flag", flag);
    err("wait after a true test", MPI_Win_wait(win));
    ints("window after PSCW", buf, 6);
    err("post for wait", MPI_Win_post(g, MPI_MODE_NOPUT, win));
    err("start for wait", MPI_Win_start(g, 0, win));
    err("get in the access epoch", MPI_Get(r, 1, MPI_INT, 0, 4, 1, MPI_INT, win));
    err("complete for wait", MPI_Win_complete(win));
    err("wait", MPI_Win_wait(win));
    fact("got in PSCW", r[0]);
    err("fence before PSCW", MPI_Win_fence(0, win));
    err("post after a fence no RMA call followed", MPI_Win_post(g, 0, win));
    err("start after that post", MPI_Win_start(g, 0, win));
    err("put in that access epoch", MPI_Put(v, 1, MPI_INT, 0, 7, 1, MPI_INT, win));
    err("complete of that access epoch", MPI_Win_complete(win));
    err("wait of that exposure epoch", MPI_Win_wait(win));
    ints("window after PSCW after a fence", buf, 8);
    err("start with the empty group", MPI_Win_start(MPI_GROUP_EMPTY, 0, win));
    err("put outside the start group", MPI_Put(v, 1, MPI_INT, 0, 0, 1, MPI_INT, win));
    err("complete with the empty group", MPI_Win_complete(win));
    MPI_Group_free(&world);
    MPI_Group_free(&g);
    err("attach to a window that is not dynamic", MPI_Win_attach(win, r, sizeof r));

    /* The window's info. */
    MPI_Info info = MPI_INFO_NULL, hints;
    err("win_get_info", MPI_Win_get_info(win, &info));
    fact("win_get_info gives an info", info != MPI_INFO_NULL);
    if (info != MPI_INFO_NULL)
        MPI_Info_free(&info);
    MPI_Info_create(&hints);
    MPI_Info_set(hints, "no_locks", "false");
    err("win_set_info", MPI_Win_set_info(win, hints));
    MPI_Info_free(&hints);
    err("win_free", MPI_Win_free(&win));
    MPI_Type_free(&every_other);

    /* A dynamic window: the displacement is the address. */
    MPI_Win dyn;
    int mem[4] = {0, 0, 0, 0};
    MPI_Aint at;
    CHECK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dyn));
    CHECK(MPI_Win_set_errhandler(dyn, MPI_ERRORS_RETURN));
    err("attach", MPI_Win_attach(dyn, mem, sizeof mem));
    MPI_Get_address(mem + 1, &at);
    err("lock the dynamic window", MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, dyn));
    err("put at an address", MPI_Put(v, 2, MPI_INT, 0, at, 2, MPI_INT, dyn));
    err("accumulate at an address", MPI_Accumulate(v, 1, MPI_INT, 0, at, 1, MPI_INT, MPI_SUM, dyn));
    err("unlock the dynamic window", MPI_Win_unlock(0, dyn));
    ints("attached memory", mem, 4);
    err("detach", MPI_Win_detach(dyn, mem));
    err("free the dynamic window", MPI_Win_free(&dyn));

    /* A shared window of one process. */
    MPI_Win shared = MPI_WIN_NULL;
    int *base = NULL, *qbase = NULL;
    MPI_Aint qsize = -1;
    int qunit = -1;
    err("win_allocate_shared", MPI_Win_allocate_shared(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &shared));
    /* (Printed whether or not the window exists, so that the lines line up with a peer's.) */
    int rc = shared == MPI_WIN_NULL ? -1 : MPI_Win_set_errhandler(shared, MPI_ERRORS_RETURN);
    if (rc == MPI_SUCCESS)
        rc = MPI_Win_shared_query(shared, 0, &qsize, &qunit, &qbase);
    printf("shared_query 0: %s %ld %d %d\n", errclass_name(rc), (long)qsize, qunit, qbase == base);
    if (rc == MPI_SUCCESS)
        rc = MPI_Win_shared_query(shared, MPI_PROC_NULL, &qsize, &qunit, &qbase);
    printf("shared_query MPI_PROC_NULL: %s %ld %d %d\n", errclass_name(rc), (long)qsize, qunit, qbase == base);
    err("shared_query 1", shared == MPI_WIN_NULL ? -1 : MPI_Win_shared_query(shared, 1, &qsize, &qunit, &qbase));
    if (shared != MPI_WIN_NULL)
        MPI_Win_free(&shared);
    return diff_finish();
}
