/* RT_sessions_model_one_process.c: the Sessions Model without the World Model, and beside it
 * (MPI-4.1 §11.2, §11.3; docs/decisions.md D49). No MPI_Init first: a session, a group from its
 * process set, a communicator from the group caching attributes (set, replace, get, a dup copies,
 * delete and free run the delete callback, a keyval of another kind is refused through the
 * communicator's handler), MPI_Initialized / MPI_Finalized false; a second session, at
 * MPI_THREAD_MULTIPLE, that outlives the first; MPI_Init and MPI_Finalize while it lives, after which
 * its communicator still caches. (MPI initialized again after every session ended, MPI_Init after
 * sessions came and went, a session after MPI_Finalize with none live: MPICH 4.0.2 crashes in
 * MPI_Session_init or MPI_Init, so tests/c/RT_sessions_model.c checks them.) Sessions are MPI-4:
 * where MPI_VERSION is below 4 each line about them says "no MPI 4" (divergences.toml: Open MPI 4.1).
 */
#include <string.h>

#include "diff_util.h"

static void fact_models(const char *when)
{
    int init = -1, fin = -1;
    CHECK(MPI_Initialized(&init));
    CHECK(MPI_Finalized(&fin));
    printf("%s, initialized and finalized: %d %d\n", when, init, fin);
}

#if MPI_VERSION >= 4
static int deleted = 0;
static int delete_fn(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    deleted += *(int *)value;
    return MPI_SUCCESS;
}

/* A session (at thread level `level` if not NULL) and a communicator from its process set `pset`. */
static MPI_Session session_begin(const char *tag, const char *pset, const char *level, MPI_Comm *c)
{
    char label[128];
    MPI_Info info = MPI_INFO_NULL;
    if (level != NULL) {
        CHECK(MPI_Info_create(&info));
        CHECK(MPI_Info_set(info, "thread_level", level));
    }
    MPI_Session s = MPI_SESSION_NULL;
    snprintf(label, sizeof label, "%s, session_init rc", tag);
    fact_err(label, MPI_Session_init(info, MPI_ERRORS_RETURN, &s));
    if (info != MPI_INFO_NULL)
        CHECK(MPI_Info_free(&info));
    if (level != NULL) {
        MPI_Info used = MPI_INFO_NULL;
        char value[MPI_MAX_INFO_VAL + 1] = "";
        int buflen = (int)sizeof value, flag = 0;
        CHECK(MPI_Session_get_info(s, &used));
        CHECK(MPI_Info_get_string(used, "thread_level", &buflen, value, &flag));
        snprintf(label, sizeof label, "%s, the session's thread_level", tag);
        printf("%s: %s\n", label, flag ? value : "(none)");
        CHECK(MPI_Info_free(&used));
    }
    MPI_Group g = MPI_GROUP_NULL;
    int gsize = -1;
    CHECK(MPI_Group_from_session_pset(s, pset, &g));
    CHECK(MPI_Group_size(g, &gsize));
    *c = MPI_COMM_NULL;
    snprintf(label, sizeof label, "%s, comm_create_from_group rc", tag);
    fact_err(label, MPI_Comm_create_from_group(g, "org.mpiattr.diff", MPI_INFO_NULL, MPI_ERRORS_RETURN, c));
    int size = -1, rank = -1;
    CHECK(MPI_Comm_size(*c, &size));
    CHECK(MPI_Comm_rank(*c, &rank));
    snprintf(label, sizeof label, "%s, group size, comm size and rank", tag);
    printf("%s: %d %d %d\n", label, gsize, size, rank);
    CHECK(MPI_Group_free(&g));
    return s;
}

/* Caching on `c`: a keyval whose copy function copies and whose delete function sums. */
static void caching(const char *tag, MPI_Comm c)
{
    char label[128];
    int key = MPI_KEYVAL_INVALID;
    CHECK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, delete_fn, &key, NULL));
    static int one = 1, ten = 10;
    deleted = 0;
    CHECK(MPI_Comm_set_attr(c, key, &one));
    CHECK(MPI_Comm_set_attr(c, key, &ten)); /* replaces: deletes 1 */
    void *v = NULL;
    int flag = 0;
    CHECK(MPI_Comm_get_attr(c, key, &v, &flag));
    snprintf(label, sizeof label, "%s, attribute set, replaced, read", tag);
    printf("%s: flag %d value %d deleted %d\n", label, flag, flag ? *(int *)v : -1, deleted);
    MPI_Comm d = MPI_COMM_NULL;
    CHECK(MPI_Comm_dup(c, &d));
    v = NULL;
    flag = 0;
    CHECK(MPI_Comm_get_attr(d, key, &v, &flag));
    snprintf(label, sizeof label, "%s, the dup has it", tag);
    printf("%s: flag %d value %d\n", label, flag, flag ? *(int *)v : -1);
    CHECK(MPI_Comm_delete_attr(c, key));
    CHECK(MPI_Comm_get_attr(c, key, &v, &flag));
    snprintf(label, sizeof label, "%s, deleted from the original", tag);
    printf("%s: flag %d deleted %d\n", label, flag, deleted);
    CHECK(MPI_Comm_free(&d));
    snprintf(label, sizeof label, "%s, freeing the dup deleted", tag);
    fact(label, deleted);
    CHECK(MPI_Comm_free_keyval(&key));
    v = NULL;
    flag = 0;
    CHECK(MPI_Comm_get_attr(c, MPI_TAG_UB, &v, &flag));
    snprintf(label, sizeof label, "%s, MPI_TAG_UB at least 32767", tag);
    fact(label, flag && *(int *)v >= 32767);
    /* A window keyval: the communicator's handler (MPI_ERRORS_RETURN) returns the error. */
    int wkey = MPI_KEYVAL_INVALID;
    CHECK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &wkey, NULL));
    snprintf(label, sizeof label, "%s, get_attr with a window keyval", tag);
    fact_err(label, MPI_Comm_get_attr(c, wkey, &v, &flag));
    CHECK(MPI_Win_free_keyval(&wkey));
    int tsize = -1;
    CHECK(MPI_Type_size(MPI_INT, &tsize));
    snprintf(label, sizeof label, "%s, MPI_INT size", tag);
    fact(label, tsize);
}

static void session_end(const char *tag, MPI_Session *s, MPI_Comm *c)
{
    char label[128];
    CHECK(MPI_Comm_free(c));
    snprintf(label, sizeof label, "%s, session_finalize rc", tag);
    fact_err(label, MPI_Session_finalize(s));
}
#else
static const char *const session_lines[] = {"session_init rc", "the session's thread_level", "comm_create_from_group rc",
                                            "group size, comm size and rank"};
static const char *const caching_lines[] = {"attribute set, replaced, read", "the dup has it", "deleted from the original",
                                            "freeing the dup deleted", "MPI_TAG_UB at least 32767",
                                            "get_attr with a window keyval", "MPI_INT size"};
static void no_mpi4(const char *tag, const char *const *lines, unsigned n, int with_level)
{
    for (unsigned i = 0; i < n; ++i)
        if (lines == caching_lines || i != 1 || with_level)
            printf("%s, %s: no MPI 4\n", tag, lines[i]);
}
#endif

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    fact_models("before anything");
#if MPI_VERSION >= 4
    MPI_Comm c1, c2;
    MPI_Session s1 = session_begin("first session", "mpi://WORLD", NULL, &c1);
    fact_models("sessions only");
    caching("first session", c1);
    MPI_Session s2 = session_begin("second session", "mpi://SELF", "MPI_THREAD_MULTIPLE", &c2);
    session_end("first session", &s1, &c1);
    fact_models("after the first session");
    caching("second session", c2);
#else
    no_mpi4("first session", session_lines, 4, 0);
    fact_models("sessions only");
    no_mpi4("first session", caching_lines, 7, 0);
    no_mpi4("second session", session_lines, 4, 1);
    printf("first session, session_finalize rc: no MPI 4\n");
    fact_models("after the first session");
    no_mpi4("second session", caching_lines, 7, 0);
#endif

    fact_err("MPI_Init beside a session, rc", MPI_Init(&argc, &argv));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    fact_models("in the World Model");
    int size = -1;
    CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    fact("MPI_COMM_WORLD size", size);
    fact_err("MPI_Finalize, rc", MPI_Finalize());
    fact_models("after MPI_Finalize");

#if MPI_VERSION >= 4
    caching("second session after MPI_Finalize", c2);
    session_end("second session", &s2, &c2);
#else
    no_mpi4("second session after MPI_Finalize", caching_lines, 7, 0);
    printf("second session, session_finalize rc: no MPI 4\n");
#endif
    fact_models("at the end");
    return 0;
}
