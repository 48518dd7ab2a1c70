/* D57_sessions_caching.c: caching with sessions, alone and beside the World Model (MPI-4.1 §11.3,
 * docs/decisions.md D57). MPICH only: Open MPI 4.1 has no sessions (tests/host/CMakeLists.txt).
 *
 * 1. Sessions alone (MPI_Session_init before MPI_Init; MPI_Initialized is false): on a
 *    communicator from MPI_Comm_create_from_group(mpi://WORLD), a keyval with copy and delete
 *    callbacks: set, get, dup (the copy callback runs), free and delete_attr (the delete callback
 *    runs), set again replacing; a datatype's attributes; an error through the communicator's own
 *    handler (a user handler, called once, with MPI_ERR_KEYVAL). The values are summed over the
 *    session's communicator, so every rank sees every other's.
 * 2. MPI_Init with the session live: attributes on MPI_COMM_SELF, MPI_COMM_WORLD and the session's
 *    communicator side by side; a dup of MPI_COMM_WORLD copies. report() is made here.
 * 3. MPI_Finalize with the session live deletes MPI_COMM_SELF's attributes (R10.1, MPI-4.1
 *    §12.2.4: the first thing MPI_Finalize does) and not the session communicator's; afterwards
 *    the session's communicator still caches (get, dup, free), and a second session, made after
 *    MPI_Finalize, caches too. Its MPI_Session_finalize runs no delete callback: the attribute of
 *    the communicator it leaves behind stays, readable, until MPI_Comm_free deletes it (MPI-4.1
 *    §11.3.1: MPI_SESSION_FINALIZE does not free objects; D57).
 * 4. The last MPI_Session_finalize leaves the first communicator (and its attribute) unfreed: no
 *    delete callback runs (R10.3).
 * The checks of 3 and 4 are made after MPI_Finalize, by local_report().
 */
#include "host_check.h"

#include <stdint.h>

static int ncopy, ndel;    /* the session keyval's callbacks */
static intptr_t last_del;  /* the value the last delete callback saw */
static int self_del;       /* MPI_COMM_SELF's attribute deleted */
static int world_del;      /* MPI_COMM_WORLD's attribute deleted */
static int self_del_finalized = -1;  /* MPI_Finalized inside that callback */
static int nhandler, handler_class;

static int copy_fn(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    (void)c; (void)k; (void)extra;
    ncopy++;
    *(void **)out = (void *)((intptr_t)in + 1000);
    *flag = 1;
    return MPI_SUCCESS;
}
static int del_fn(MPI_Comm c, int k, void *value, void *extra)
{
    (void)c; (void)k; (void)extra;
    ndel++;
    last_del = (intptr_t)value;
    return MPI_SUCCESS;
}
static int tcopy, tdel;
static int type_copy(MPI_Datatype t, int k, void *extra, void *in, void *out, int *flag)
{
    (void)t; (void)k; (void)extra;
    tcopy++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}
static int type_del(MPI_Datatype t, int k, void *value, void *extra)
{
    (void)t; (void)k; (void)value; (void)extra;
    tdel++;
    return MPI_SUCCESS;
}
static int self_del_fn(MPI_Comm c, int k, void *value, void *extra)
{
    (void)c; (void)k; (void)value; (void)extra;
    self_del++;
    MPI_Finalized(&self_del_finalized);
    return MPI_SUCCESS;
}
static int world_del_fn(MPI_Comm c, int k, void *value, void *extra)
{
    (void)c; (void)k; (void)value; (void)extra;
    world_del++;
    return MPI_SUCCESS;
}
static void handler(MPI_Comm *c, int *code, ...)
{
    (void)c;
    nhandler++;
    MPI_Error_class(*code, &handler_class);
}

/* A communicator of every process of mpi://WORLD, from session s. */
static MPI_Comm session_comm(MPI_Session s, const char *tag)
{
    MPI_Group g = MPI_GROUP_NULL;
    MPI_Comm c = MPI_COMM_NULL;
    MPI_Group_from_session_pset(s, "mpi://WORLD", &g);
    MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c);
    MPI_Group_free(&g);
    return c;
}

static intptr_t get(MPI_Comm c, int k, int *flag)
{
    void *v = NULL;
    *flag = -1;
    if (MPI_Comm_get_attr(c, k, &v, flag) != MPI_SUCCESS) *flag = -1;
    return (intptr_t)v;
}

int main(int argc, char **argv)
{
    int flag, rc, init = 1, rank = -1, size = 0;
    intptr_t v;

    /* ---- 1. sessions alone ---- */
    MPI_Session s = MPI_SESSION_NULL;
    rc = MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
    CHECK("D57_session_init", rc == MPI_SUCCESS);
    MPI_Initialized(&init);
    CHECK("D57_no_world_model_yet", init == 0);
    MPI_Comm c = session_comm(s, "org.mpiattr.d57.first");
    CHECK("D57_comm_from_group", c != MPI_COMM_NULL);
    MPI_Comm_rank(c, &rank);
    MPI_Comm_size(c, &size);

    int kv = MPI_KEYVAL_INVALID;
    rc = MPI_Comm_create_keyval(copy_fn, del_fn, &kv, NULL);
    CHECK("D57_sessions_create_keyval", rc == MPI_SUCCESS && kv != MPI_KEYVAL_INVALID);
    v = get(c, kv, &flag);
    CHECK("D57_sessions_get_unset", flag == 0);
    rc = MPI_Comm_set_attr(c, kv, (void *)(intptr_t)(100 + rank));
    v = get(c, kv, &flag);
    CHECK("D57_sessions_set_get", rc == MPI_SUCCESS && flag == 1 && v == 100 + rank);
    long sum = 0, mine = (long)v;
    MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, c);
    CHECK("D57_sessions_values_of_every_rank", sum == 100L * size + (long)size * (size - 1) / 2);

    MPI_Comm d = MPI_COMM_NULL;
    rc = MPI_Comm_dup(c, &d);
    v = get(d, kv, &flag);
    CHECK("D57_sessions_dup_runs_copy_callback", rc == MPI_SUCCESS && ncopy == 1 && flag == 1 && v == 1100 + rank);
    rc = MPI_Comm_free(&d);
    CHECK("D57_sessions_free_runs_delete_callback", rc == MPI_SUCCESS && ndel == 1 && last_del == 1100 + rank);
    rc = MPI_Comm_set_attr(c, kv, (void *)(intptr_t)(200 + rank));
    CHECK("D57_sessions_replace_deletes_old_value", rc == MPI_SUCCESS && ndel == 2 && last_del == 100 + rank);
    rc = MPI_Comm_delete_attr(c, kv);
    v = get(c, kv, &flag);
    CHECK("D57_sessions_delete_attr", rc == MPI_SUCCESS && ndel == 3 && last_del == 200 + rank && flag == 0);
    MPI_Comm_set_attr(c, kv, (void *)(intptr_t)(300 + rank));

    /* An error on the session's communicator goes to its own handler. */
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    MPI_Comm_create_errhandler(handler, &eh);
    MPI_Comm_set_errhandler(c, eh);
    rc = MPI_Comm_set_attr(c, MPI_KEYVAL_INVALID, NULL);
    CHECK_CLASS("D57_sessions_bad_keyval_class", rc, MPI_ERR_KEYVAL);
    CHECK("D57_sessions_error_to_comm_handler", nhandler == 1 && handler_class == MPI_ERR_KEYVAL);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);

    /* A datatype's attributes with sessions alone. */
    int tk = MPI_KEYVAL_INVALID;
    MPI_Datatype t = MPI_DATATYPE_NULL, t2 = MPI_DATATYPE_NULL;
    MPI_Type_create_keyval(type_copy, type_del, &tk, NULL);
    MPI_Type_dup(MPI_INT, &t);
    rc = MPI_Type_set_attr(t, tk, (void *)(intptr_t)7);
    MPI_Type_dup(t, &t2);
    void *tv = NULL;
    flag = 0;
    MPI_Type_get_attr(t2, tk, &tv, &flag);
    CHECK("D57_sessions_type_dup_copies", rc == MPI_SUCCESS && tcopy == 1 && flag == 1 && (intptr_t)tv == 7);
    MPI_Type_free(&t2);
    MPI_Type_free(&t);
    MPI_Type_free_keyval(&tk);
    CHECK("D57_sessions_type_free_deletes", tdel == 2 && tk == MPI_KEYVAL_INVALID);

    /* ---- 2. MPI_Init, the session live ---- */
    MPI_Init(&argc, &argv);
    int kself = MPI_KEYVAL_INVALID, kworld = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_del_fn, &kself, NULL);
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, world_del_fn, &kworld, NULL);
    rc = MPI_Comm_set_attr(MPI_COMM_SELF, kself, (void *)(intptr_t)1);
    CHECK("D57_world_self_set", rc == MPI_SUCCESS);
    rc = MPI_Comm_set_attr(MPI_COMM_WORLD, kworld, (void *)(intptr_t)2);
    MPI_Comm wd = MPI_COMM_NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &wd);
    v = get(wd, kworld, &flag);
    CHECK("D57_world_dup_copies", rc == MPI_SUCCESS && flag == 1 && v == 2);
    MPI_Comm_free(&wd);
    CHECK("D57_world_dup_free_deletes", world_del == 1);
    v = get(c, kv, &flag);
    CHECK("D57_world_session_comm_keeps_attribute", flag == 1 && v == 300 + rank);
    int ndel_before_finalize = ndel;
    report();
    MPI_Finalize();

    /* ---- 3. after MPI_Finalize, the session live ---- */
    CHECK("D57_finalize_deletes_self_attribute_with_session_live", self_del == 1 && self_del_finalized == 0);
    CHECK("D57_finalize_leaves_session_comm_attribute", ndel == ndel_before_finalize);
    v = get(c, kv, &flag);
    CHECK("D57_after_finalize_get", flag == 1 && v == 300 + rank);
    rc = MPI_Comm_dup(c, &d);
    v = get(d, kv, &flag);
    CHECK("D57_after_finalize_dup_copies", rc == MPI_SUCCESS && ncopy == 2 && flag == 1 && v == 1300 + rank);
    rc = MPI_Comm_free(&d);
    CHECK("D57_after_finalize_free_deletes", rc == MPI_SUCCESS && ndel == ndel_before_finalize + 1 && last_del == 1300 + rank);

    MPI_Session s2 = MPI_SESSION_NULL;
    rc = MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s2);
    MPI_Comm c2 = session_comm(s2, "org.mpiattr.d57.second");
    rc = MPI_Comm_set_attr(c2, kv, (void *)(intptr_t)(400 + rank));
    v = get(c2, kv, &flag);
    CHECK("D57_session_after_finalize_caches", rc == MPI_SUCCESS && flag == 1 && v == 400 + rank);
    int ndel_before = ndel;
    rc = MPI_Session_finalize(&s2);
    CHECK("D57_session_finalize_runs_no_delete_callback", rc == MPI_SUCCESS && ndel == ndel_before);
    v = get(c2, kv, &flag);
    CHECK("D57_attribute_outlives_its_session", flag == 1 && v == 400 + rank);
    rc = MPI_Comm_free(&c2);
    CHECK("D57_free_after_session_finalize_deletes", rc == MPI_SUCCESS && ndel == ndel_before + 1 && last_del == 400 + rank);

    /* ---- 4. the last session: c keeps its attribute, unfreed ---- */
    ndel_before = ndel;
    int self_before = self_del;
    rc = MPI_Session_finalize(&s);
    CHECK("D57_last_session_finalize", rc == MPI_SUCCESS && s == MPI_SESSION_NULL);
    CHECK("D57_last_session_finalize_runs_no_delete_callback", ndel == ndel_before);
    INFO("D57_self_attribute_deleted_at_last_session_finalize", self_del - self_before);
    local_report();
    return 0;
}
