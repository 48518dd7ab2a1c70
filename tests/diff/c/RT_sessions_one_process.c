/* RT_sessions_one_process.c: sessions on one process (MPI-4.1 §11.3, docs/decisions.md D49):
 * MPI_Session_init / _finalize, the process sets "mpi://WORLD" and "mpi://SELF" (their names,
 * lengths, info), the session's info, its error handler (create, set, get, call, and the errors
 * of session routines), a group from a process set and a communicator from that group
 * (MPI_Comm_create_from_group) carrying attributes like any other. Sessions are MPI-4: where
 * MPI_VERSION is below 4 each line says "no MPI 4" (divergences.toml: Open MPI 4.1).
 */
#include <string.h>

#include "diff_util.h"

#if MPI_VERSION >= 4
static int session_calls = 0;
static int session_code_class = -1;
static int session_was_ours = 0;
static MPI_Session the_session;

static void on_session_error(MPI_Session *session, int *code, ...)
{
    ++session_calls;
    MPI_Error_class(*code, &session_code_class);
    session_was_ours = *session == the_session;
}

static int deleted = 0;
static int delete_fn(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    deleted += *(int *)value;
    return MPI_SUCCESS;
}

/* MPI_ERR_SESSION is not among diff_util.h's classes (it is MPI-4). */
static void fact_session_err(const char *label, int rc)
{
    int cls = -1;
    if (rc != MPI_SUCCESS && MPI_Error_class(rc, &cls) == MPI_SUCCESS && cls == MPI_ERR_SESSION)
        printf("%s: MPI_ERR_SESSION\n", label);
    else
        fact_err(label, rc);
}

/* (Labels name the process sets without "mpi://": the runner splits a line at its first colon.)
 * The value of `key` in `info` (freed here), or "(none)". */
static void fact_info(const char *label, MPI_Info info, const char *key)
{
    char value[MPI_MAX_INFO_VAL + 1] = "";
    int buflen = (int)sizeof value, flag = 0;
    CHECK(MPI_Info_get_string(info, key, &buflen, value, &flag));
    printf("%s: %s\n", label, flag ? value : "(none)");
    CHECK(MPI_Info_free(&info));
}
#endif

int main(int argc, char **argv)
{
    diff_init(&argc, &argv);
#if MPI_VERSION >= 4
    MPI_Session s = MPI_SESSION_NULL;
    int rc = MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
    fact_err("session_init, rc", rc);
    fact("session_init, not MPI_SESSION_NULL", s != MPI_SESSION_NULL);
    the_session = s;

    /* ---- process sets ---- */
    int npsets = -1;
    fact_err("get_num_psets, rc", MPI_Session_get_num_psets(s, MPI_INFO_NULL, &npsets));
    int world_at = -1, self_at = -1;
    for (int i = 0; i < npsets; ++i) {
        char name[MPI_MAX_PSET_NAME_LEN] = "";
        int len = 0;
        CHECK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name));
        int asked = len;
        len = (int)sizeof name;
        CHECK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name));
        if (strcmp(name, "mpi://WORLD") == 0) world_at = i;
        if (strcmp(name, "mpi://SELF") == 0) self_at = i;
        if (strcmp(name, "mpi://WORLD") == 0 || strcmp(name, "mpi://SELF") == 0)
            printf("pset %s: length asked with 0 %d, strlen %d\n", name + 6, asked, (int)strlen(name));
    }
    {
        /* 0 asks for the length only, and the name is not changed (MPI-4.1 §11.3.2): MPICH and
         * mpiattr (D121) take a NULL name then. */
        int len = 0;
        rc = MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, &len, NULL);
        printf("pset 0's length asked with 0 and a NULL name: rc %s, pset_len %d\n", errclass_name(rc), len);
    }
    fact("WORLD listed", world_at >= 0);
    fact("SELF listed", self_at >= 0);
    if (world_at >= 0) {
        char name[8] = "xxxxxxx";
        int len = 4;
        rc = MPI_Session_get_nth_pset(s, MPI_INFO_NULL, world_at, &len, name);
        printf("pset name into 4 chars: rc %s, name \"%s\", pset_len %d\n", errclass_name(rc), name, len);
    }

    MPI_Info info = MPI_INFO_NULL;
    CHECK(MPI_Session_get_pset_info(s, "mpi://WORLD", &info));
    fact_info("pset info WORLD, mpi_size", info, "mpi_size");
    CHECK(MPI_Session_get_pset_info(s, "mpi://SELF", &info));
    fact_info("pset info SELF, mpi_size", info, "mpi_size");
    info = MPI_INFO_NULL;
    rc = MPI_Session_get_pset_info(s, "mpi://NO_SUCH_SET", &info);
    printf("pset info of an unknown set: rc %s, info still null %d\n", errclass_name(rc), info == MPI_INFO_NULL);

    /* ---- the session's info: thread_level is the level the session provides ---- */
    CHECK(MPI_Session_get_info(s, &info));
    {
        char value[MPI_MAX_INFO_VAL + 1] = "";
        int buflen = (int)sizeof value, flag = 0;
        CHECK(MPI_Info_get_string(info, "thread_level", &buflen, value, &flag));
        fact("session info has thread_level", flag);
        CHECK(MPI_Info_free(&info));
    }

    /* ---- a group from a process set, a communicator from the group ---- */
    MPI_Group g = MPI_GROUP_NULL, wg;
    fact_err("group_from_session_pset WORLD, rc", MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    int gsize = -1, grank = -1, cmp = -1;
    MPI_Group_size(g, &gsize);
    MPI_Group_rank(g, &grank);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_compare(g, wg, &cmp);
    printf("world pset group: size %d, rank %d, same as MPI_COMM_WORLD's %d\n", gsize, grank, cmp == MPI_IDENT);
    MPI_Group sg = MPI_GROUP_NULL;
    CHECK(MPI_Group_from_session_pset(s, "mpi://SELF", &sg));
    MPI_Group_size(sg, &gsize);
    fact("self pset group size", gsize);
    CHECK(MPI_Group_free(&sg));
    MPI_Group ng = MPI_GROUP_NULL;
    rc = MPI_Group_from_session_pset(s, "mpi://NO_SUCH_SET", &ng);
    printf("group of an unknown set: rc %s, still null %d\n", errclass_name(rc), ng == MPI_GROUP_NULL);

    MPI_Comm c = MPI_COMM_NULL;
    fact_err("comm_create_from_group, rc",
             MPI_Comm_create_from_group(g, "org.mpiattr.tests.sessions", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    int csize = -1, crank = -1;
    MPI_Comm_size(c, &csize);
    MPI_Comm_rank(c, &crank);
    MPI_Comm_compare(c, MPI_COMM_WORLD, &cmp);
    printf("communicator from group: size %d, rank %d, congruent with MPI_COMM_WORLD %d\n", csize, crank,
           cmp == MPI_CONGRUENT);
    MPI_Errhandler ceh = MPI_ERRHANDLER_NULL;
    CHECK(MPI_Comm_get_errhandler(c, &ceh));
    fact("its error handler is the one given (MPI_ERRORS_RETURN)", ceh == MPI_ERRORS_RETURN);
    CHECK(MPI_Errhandler_free(&ceh));
    int key = MPI_KEYVAL_INVALID, seven = 7, *got = NULL, flag = 0;
    {
        /* In the Sessions Model MPI_TAG_UB is the only predefined attribute (MPI-4.1 §10.1.2; R8.2,
         * D124), on the communicator and on its dup. */
        int has[4] = {0, 0, 0, 0}, dhas[4] = {0, 0, 0, 0};
        const int keys[4] = {MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL};
        MPI_Comm cd = MPI_COMM_NULL;
        CHECK(MPI_Comm_dup(c, &cd));
        for (int i = 0; i < 4; ++i) {
            CHECK(MPI_Comm_get_attr(c, keys[i], &got, &has[i]));
            CHECK(MPI_Comm_get_attr(cd, keys[i], &got, &dhas[i]));
        }
        CHECK(MPI_Comm_free(&cd));
        printf("predefined attributes on it (TAG_UB HOST IO WTIME_IS_GLOBAL): %d %d %d %d, on its dup %d %d %d %d\n",
               has[0], has[1], has[2], has[3], dhas[0], dhas[1], dhas[2], dhas[3]);
    }
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_fn, &key, NULL));
    CHECK(MPI_Comm_set_attr(c, key, &seven));
    CHECK(MPI_Comm_get_attr(c, key, &got, &flag));
    printf("attribute on it: flag %d, value %d\n", flag, flag ? *got : -1);
    MPI_Comm d = MPI_COMM_NULL;
    CHECK(MPI_Comm_dup(c, &d));
    CHECK(MPI_Comm_get_attr(d, key, &got, &flag));
    fact("its dup has the attribute (null copy fn)", flag);
    CHECK(MPI_Comm_free(&d));
    CHECK(MPI_Comm_free(&c));
    fact("freeing it ran the delete callback with", deleted);
    CHECK(MPI_Comm_free_keyval(&key));

    MPI_Comm c2 = MPI_COMM_NULL;
    MPI_Info hints;
    MPI_Info_create(&hints);
    MPI_Info_set(hints, "mpi_assert_no_any_tag", "true");
    CHECK(MPI_Comm_create_from_group(g, "org.mpiattr.tests.sessions.2", hints, MPI_ERRORS_RETURN, &c2));
    MPI_Info_free(&hints);
    MPI_Comm_compare(c2, MPI_COMM_WORLD, &cmp);
    fact("a second communicator from the group, congruent with MPI_COMM_WORLD", cmp == MPI_CONGRUENT);
    CHECK(MPI_Comm_free(&c2));
    CHECK(MPI_Group_free(&g));
    CHECK(MPI_Group_free(&wg));

    /* ---- the session's error handler ---- */
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL, cur = MPI_ERRHANDLER_NULL;
    CHECK(MPI_Session_get_errhandler(s, &cur));
    fact("session handler at init is MPI_ERRORS_RETURN", cur == MPI_ERRORS_RETURN);
    CHECK(MPI_Errhandler_free(&cur));
    fact_err("session_create_errhandler, rc", MPI_Session_create_errhandler(on_session_error, &eh));
    fact_err("session_set_errhandler, rc", MPI_Session_set_errhandler(s, eh));
    CHECK(MPI_Session_get_errhandler(s, &cur));
    fact("session_get_errhandler gives the one set", cur == eh);
    CHECK(MPI_Errhandler_free(&cur));
    fact_err("session_call_errhandler, rc", MPI_Session_call_errhandler(s, MPI_ERR_OTHER));
    printf("handler after call_errhandler: calls %d, class %s, on this session %d\n", session_calls,
           session_code_class == MPI_ERR_OTHER ? "MPI_ERR_OTHER" : "other", session_was_ours);
    ng = MPI_GROUP_NULL;
    rc = MPI_Group_from_session_pset(s, "mpi://NO_SUCH_SET", &ng);
    printf("group of an unknown set under the handler: rc %s, calls %d, class %s, on this session %d\n",
           errclass_name(rc), session_calls, session_code_class == MPI_ERR_ARG ? "MPI_ERR_ARG" : "other",
           session_was_ours);
    CHECK(MPI_Session_set_errhandler(s, MPI_ERRORS_RETURN));
    CHECK(MPI_Errhandler_free(&eh));

    /* ---- finalize; the handle is then MPI_SESSION_NULL ---- */
    fact_err("session_finalize, rc", MPI_Session_finalize(&s));
    fact("after finalize, MPI_SESSION_NULL", s == MPI_SESSION_NULL);
    rc = MPI_Session_get_num_psets(MPI_SESSION_NULL, MPI_INFO_NULL, &npsets);
    fact_session_err("get_num_psets on MPI_SESSION_NULL, rc", rc);

    /* A second session, alongside the World Model. */
    MPI_Session s2 = MPI_SESSION_NULL;
    CHECK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s2));
    npsets = -1;
    CHECK(MPI_Session_get_num_psets(s2, MPI_INFO_NULL, &npsets));
    fact("a second session, psets at least 2", npsets >= 2);
    CHECK(MPI_Session_finalize(&s2));
#else
    const char *mpi4[] = {"session_init, rc", "session_init, not MPI_SESSION_NULL", "get_num_psets, rc",
                          "pset WORLD", "pset SELF", "pset 0's length asked with 0 and a NULL name",
                          "WORLD listed", "SELF listed",
                          "pset name into 4 chars",
                          "pset info WORLD, mpi_size", "pset info SELF, mpi_size",
                          "pset info of an unknown set", "session info has thread_level",
                          "group_from_session_pset WORLD, rc", "world pset group", "self pset group size",
                          "group of an unknown set", "comm_create_from_group, rc", "communicator from group",
                          "its error handler is the one given (MPI_ERRORS_RETURN)",
                          "predefined attributes on it (TAG_UB HOST IO WTIME_IS_GLOBAL)", "attribute on it",
                          "its dup has the attribute (null copy fn)", "freeing it ran the delete callback with",
                          "a second communicator from the group, congruent with MPI_COMM_WORLD",
                          "session handler at init is MPI_ERRORS_RETURN", "session_create_errhandler, rc",
                          "session_set_errhandler, rc", "session_get_errhandler gives the one set",
                          "session_call_errhandler, rc", "handler after call_errhandler",
                          "group of an unknown set under the handler", "session_finalize, rc", "after finalize, MPI_SESSION_NULL",
                          "get_num_psets on MPI_SESSION_NULL, rc", "a second session, psets at least 2"};
    for (unsigned i = 0; i < sizeof mpi4 / sizeof mpi4[0]; ++i)
        printf("%s: no MPI 4\n", mpi4[i]);
#endif
    return diff_finish();
}
