/* R4_comm_callback_errors.c: copy and delete callbacks that fail.
 *
 * MPI-4.1 §8.7.2: a copy callback returning an error makes MPI_COMM_DUP (and the other dups,
 * §8.4.2) fail with that error; the new communicator must not be half built (newcomm is
 * MPI_COMM_NULL) and the copies already made are deleted again, running their delete callbacks
 * (so what the copy callbacks allocated is released). A delete callback returning an error makes
 * MPI_COMM_FREE, MPI_COMM_DELETE_ATTR and a replacing MPI_COMM_SET_ATTR fail; the communicator
 * then stays valid and usable and keeps the attribute whose deletion failed.
 *
 * The failing callbacks return a user-defined error code (MPI_Add_error_class/_code, §10.5), so
 * "that error" is recognisable by its class.
 */
#include "host_check.h"

#include <stdint.h>

static int ucls, ucode;
static MPI_Comm base = MPI_COMM_NULL;
static int copies_made, deletes_of_copies, fail_delete = 1, kept_deleted;
static int kA, kB, kC, kF, kG, kR;

static int copy_ok(MPI_Comm comm, int key, void *extra, void *in, void *out, int *flag)
{
    copies_made++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int copy_fails(MPI_Comm comm, int key, void *extra, void *in, void *out, int *flag)
{
    *flag = 0;
    return ucode;
}

/* counts deletions on anything but base (the half-built copies) */
static int delete_count(MPI_Comm comm, int key, void *value, void *extra)
{
    if (comm != base)
        deletes_of_copies++;
    return MPI_SUCCESS;
}

static int delete_fails(MPI_Comm comm, int key, void *value, void *extra)
{
    if (fail_delete)
        return ucode;
    kept_deleted++;
    return MPI_SUCCESS;
}

static int attrs_intact(MPI_Comm c, int rank)
{
    int ok = 1, f;
    void *v;
    int keys[3] = {kA, kB, kC};
    for (int i = 0; i < 3; i++) {
        f = -1;
        ok &= MPI_Comm_get_attr(c, keys[i], &v, &f) == MPI_SUCCESS && f == 1 &&
              (intptr_t)v == 10 * (i + 1) + rank;
    }
    return ok;
}

static void failing_dup(const char *how, int rank)
{
    char name[128];
    MPI_Comm nc = MPI_COMM_SELF; /* must become MPI_COMM_NULL */
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Info info = MPI_INFO_NULL;
    int rc;
    copies_made = 0;
    deletes_of_copies = 0;
    if (strcmp(how, "dup") == 0) {
        rc = MPI_Comm_dup(base, &nc);
    } else if (strcmp(how, "dup_with_info") == 0) {
        MPI_Info_create(&info);
        MPI_Info_set(info, "mpi_assert_no_any_source", "false");
        rc = MPI_Comm_dup_with_info(base, info, &nc);
        MPI_Info_free(&info);
    } else {
        rc = MPI_Comm_idup(base, &nc, &req);
        if (rc == MPI_SUCCESS) /* the error may come at completion */
            rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
#define NAME(what) (snprintf(name, sizeof name, "R4_%s_%s", how, what), name)
    CHECK(NAME("copy_error_fails_the_call"), rc != MPI_SUCCESS);
    CHECK_CLASS(NAME("copy_error_returns_the_callbacks_error"), rc, ucls);
    INFO_CLASS(NAME("copy_error_class_seen"), rc);
    CHECK(NAME("copy_error_newcomm_is_null"), nc == MPI_COMM_NULL);
    INFO(NAME("copy_error_copies_made_before_failure"), copies_made);
    CHECK(NAME("copy_error_deletes_copies_already_made"), deletes_of_copies == copies_made);
    CHECK(NAME("copy_error_old_comm_keeps_attributes"), attrs_intact(base, rank));
    CHECK(NAME("copy_error_old_comm_usable"), MPI_Barrier(base) == MPI_SUCCESS);
    if (nc != MPI_COMM_NULL && nc != MPI_COMM_SELF)
        MPI_Comm_free(&nc); /* a host that returned a communicator anyway: release it */
#undef NAME
}

int main(int argc, char **argv)
{
    int rank, size, rc, f;
    void *v;
    MPI_Init(&argc, &argv);
    hc_errors_return();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    MPI_Add_error_class(&ucls);
    MPI_Add_error_code(ucls, &ucode);
    MPI_Add_error_string(ucode, "host test: a callback failed on purpose");

    /* ---- failing copy callbacks: kA (copied), kB (fails), kC (copied), set in this order ---- */
    MPI_Comm_create_keyval(copy_ok, delete_count, &kA, NULL);
    MPI_Comm_create_keyval(copy_fails, delete_count, &kB, NULL);
    MPI_Comm_create_keyval(copy_ok, delete_count, &kC, NULL);
    MPI_Comm_dup(MPI_COMM_WORLD, &base);
    MPI_Comm_set_errhandler(base, MPI_ERRORS_RETURN);
    MPI_Comm_set_attr(base, kA, (void *)(intptr_t)(10 + rank));
    MPI_Comm_set_attr(base, kB, (void *)(intptr_t)(20 + rank));
    MPI_Comm_set_attr(base, kC, (void *)(intptr_t)(30 + rank));
    failing_dup("dup", rank);
    failing_dup("dup_with_info", rank);
    failing_dup("idup", rank);

    /* with the failing attribute gone, the dup works */
    MPI_Comm_delete_attr(base, kB);
    MPI_Comm nc = MPI_COMM_NULL;
    copies_made = 0;
    rc = MPI_Comm_dup(base, &nc);
    CHECK("R4_dup_works_once_failing_attribute_deleted",
          rc == MPI_SUCCESS && nc != MPI_COMM_NULL && copies_made == 2);
    if (nc != MPI_COMM_NULL)
        MPI_Comm_free(&nc);

    /* ---- a failing delete callback on MPI_Comm_free ---- */
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_fails, &kF, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kG, NULL);
    MPI_Comm c = MPI_COMM_NULL, saved;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    MPI_Comm_set_attr(c, kG, (void *)(intptr_t)(40 + rank));
    MPI_Comm_set_attr(c, kF, (void *)(intptr_t)(50 + rank));
    saved = c;
    fail_delete = 1;
    rc = MPI_Comm_free(&c);
    CHECK("R4_free_delete_error_fails_the_call", rc != MPI_SUCCESS);
    INFO_CLASS("R4_free_delete_error_class_seen", rc);
    CHECK("R4_free_delete_error_keeps_the_handle", c == saved);
    /* A host that freed the communicator anyway (success, or a null handle) must not see it used
     * again: those checks then fail without touching it. */
    int freed = rc == MPI_SUCCESS || c == MPI_COMM_NULL;
    int csize = -1, kept = 0;
    rc = MPI_ERR_COMM;
    if (!freed)
        rc = MPI_Comm_size(c, &csize);
    CHECK("R4_free_delete_error_comm_still_valid", rc == MPI_SUCCESS && csize == size);
    CHECK("R4_free_delete_error_comm_still_communicates", !freed && MPI_Barrier(c) == MPI_SUCCESS);
    f = -1;
    v = NULL;
    if (!freed) {
        rc = MPI_Comm_get_attr(c, kF, &v, &f);
        kept = rc == MPI_SUCCESS && f == 1 && (intptr_t)v == 50 + rank;
    }
    CHECK("R4_free_delete_error_failed_attribute_kept", kept);
    fail_delete = 0;
    kept_deleted = 0;
    rc = MPI_SUCCESS;
    if (!freed)
        rc = MPI_Comm_free(&c);
    CHECK("R4_free_retry_succeeds", freed || (rc == MPI_SUCCESS && c == MPI_COMM_NULL));
    CHECK("R4_free_retry_deletes_the_kept_attribute", !kept || kept_deleted == 1);

    /* ---- the same with the failing attribute alone on the communicator ---- */
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    MPI_Comm_set_attr(c, kF, (void *)(intptr_t)(55 + rank));
    saved = c;
    fail_delete = 1;
    rc = MPI_Comm_free(&c);
    freed = rc == MPI_SUCCESS || c == MPI_COMM_NULL;
    CHECK("R4_free_single_delete_error_fails_and_keeps_comm", !freed && c == saved);
    fail_delete = 0;
    kept_deleted = 0;
    rc = MPI_SUCCESS;
    if (!freed)
        rc = MPI_Comm_free(&c);
    CHECK("R4_free_single_retry_succeeds", freed || (rc == MPI_SUCCESS && c == MPI_COMM_NULL));
    /* the attribute whose deletion failed was kept, so the retry deletes it */
    CHECK("R4_free_single_retry_runs_the_kept_delete_callback", !freed && kept_deleted == 1);

    /* ---- a failing delete callback on replace and on delete_attr ---- */
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_fails, &kR, NULL);
    MPI_Comm_set_attr(base, kR, (void *)(intptr_t)(60 + rank));
    fail_delete = 1;
    rc = MPI_Comm_set_attr(base, kR, (void *)(intptr_t)(70 + rank));
    CHECK("R4_replace_delete_error_fails_the_call", rc != MPI_SUCCESS);
    INFO_CLASS("R4_replace_delete_error_class_seen", rc);
    f = -1;
    rc = MPI_Comm_get_attr(base, kR, &v, &f);
    CHECK("R4_replace_delete_error_keeps_old_value",
          rc == MPI_SUCCESS && f == 1 && (intptr_t)v == 60 + rank);
    rc = MPI_Comm_delete_attr(base, kR);
    CHECK("R4_delete_attr_delete_error_fails_the_call", rc != MPI_SUCCESS);
    INFO_CLASS("R4_delete_attr_delete_error_class_seen", rc);
    f = -1;
    rc = MPI_Comm_get_attr(base, kR, &v, &f);
    CHECK("R4_delete_attr_delete_error_keeps_attribute",
          rc == MPI_SUCCESS && f == 1 && (intptr_t)v == 60 + rank);
    fail_delete = 0;
    kept_deleted = 0;
    rc = MPI_Comm_delete_attr(base, kR);
    f = -1;
    rc |= MPI_Comm_get_attr(base, kR, &v, &f);
    CHECK("R4_delete_attr_retry_succeeds", rc == MPI_SUCCESS && f == 0 && kept_deleted == 1);

    MPI_Comm_free(&base);
    MPI_Comm_free_keyval(&kA);
    MPI_Comm_free_keyval(&kB);
    MPI_Comm_free_keyval(&kC);
    MPI_Comm_free_keyval(&kF);
    MPI_Comm_free_keyval(&kG);
    MPI_Comm_free_keyval(&kR);
    report();
    MPI_Finalize();
    return 0;
}
