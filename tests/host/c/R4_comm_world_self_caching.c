/* R4_comm_world_self_caching.c: caching on MPI_COMM_WORLD and MPI_COMM_SELF, every rank.
 *
 * MPI-4.1 §8.7.2: set/get/delete; a get of a key with nothing attached gives flag = false and is
 * not an error; a set on a key that holds a value runs the delete callback on the old value
 * first; delete_attr runs the delete callback; the callbacks get the object's handle, the key
 * and extra_state; C values are void* and come back unchanged (set passes the value, get the
 * address of a void*, §8.7.2 advice to users). MPI_COMM_FREE_KEYVAL sets the key to
 * MPI_KEYVAL_INVALID. Attributes live on one object: WORLD's are not SELF's.
 */
#include "host_check.h"

#include <stdint.h>

struct del_log {
    int calls;
    MPI_Comm comm;
    int keyval;
    void *value;
    void *extra;
};

static struct del_log dlog;
static int extra_tag;

static int record_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    dlog.calls++;
    dlog.comm = comm;
    dlog.keyval = keyval;
    dlog.value = value;
    dlog.extra = extra;
    return MPI_SUCCESS;
}

static void one_comm(MPI_Comm comm, const char *tag, int rank)
{
    char name[128];
    struct payload { int rank; double x; } here = {rank, 2.5 * rank};
    int key = MPI_KEYVAL_INVALID, key2 = MPI_KEYVAL_INVALID, flag = -1, rc;
    void *got = NULL;

#define NAME(what) (snprintf(name, sizeof name, "R4_%s_%s", tag, what), name)
    rc = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, record_delete, &key, &extra_tag);
    CHECK(NAME("create_keyval"), rc == MPI_SUCCESS && key != MPI_KEYVAL_INVALID);
    rc = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &key2, NULL);
    CHECK(NAME("create_second_keyval_distinct"), rc == MPI_SUCCESS && key2 != key &&
                                                    key2 != MPI_KEYVAL_INVALID);

    rc = MPI_Comm_get_attr(comm, key, &got, &flag);
    CHECK(NAME("get_unset_flag_false"), rc == MPI_SUCCESS && flag == 0);

    memset(&dlog, 0, sizeof dlog);
    rc = MPI_Comm_set_attr(comm, key, &here);
    CHECK(NAME("set_succeeds_without_delete_callback"), rc == MPI_SUCCESS && dlog.calls == 0);
    got = NULL;
    flag = -1;
    rc = MPI_Comm_get_attr(comm, key, &got, &flag);
    CHECK(NAME("get_returns_the_pointer_set"),
          rc == MPI_SUCCESS && flag == 1 && got == (void *)&here &&
              ((struct payload *)got)->rank == rank);
    CHECK(NAME("get_runs_no_callback"), dlog.calls == 0);

    /* an integer stored in the pointer (the standard's Example "(void*)17") */
    rc = MPI_Comm_set_attr(comm, key2, (void *)(intptr_t)(17 + rank));
    got = NULL;
    flag = -1;
    rc |= MPI_Comm_get_attr(comm, key2, &got, &flag);
    CHECK(NAME("integer_value_round_trip"),
          rc == MPI_SUCCESS && flag == 1 && (intptr_t)got == 17 + rank);
    /* a NULL value is a value: flag true, value NULL */
    rc = MPI_Comm_set_attr(comm, key2, NULL);
    got = &here;
    flag = -1;
    rc |= MPI_Comm_get_attr(comm, key2, &got, &flag);
    CHECK(NAME("null_value_is_stored"), rc == MPI_SUCCESS && flag == 1 && got == NULL);

    /* replace: the delete callback runs on the OLD value, with this comm, key and extra_state */
    memset(&dlog, 0, sizeof dlog);
    void *second = (void *)(intptr_t)(1000 + rank);
    rc = MPI_Comm_set_attr(comm, key, second);
    CHECK(NAME("replace_runs_delete_callback_once"), rc == MPI_SUCCESS && dlog.calls == 1);
    CHECK(NAME("replace_delete_callback_gets_old_value"), dlog.calls == 1 && dlog.value == &here);
    CHECK(NAME("replace_delete_callback_gets_comm"), dlog.calls == 1 && dlog.comm == comm);
    CHECK(NAME("replace_delete_callback_gets_keyval"), dlog.calls == 1 && dlog.keyval == key);
    CHECK(NAME("replace_delete_callback_gets_extra_state"),
          dlog.calls == 1 && dlog.extra == &extra_tag);
    got = NULL;
    flag = -1;
    rc = MPI_Comm_get_attr(comm, key, &got, &flag);
    CHECK(NAME("replace_stores_new_value"), rc == MPI_SUCCESS && flag == 1 && got == second);

    /* delete: the callback runs on the current value; afterwards flag is false */
    memset(&dlog, 0, sizeof dlog);
    rc = MPI_Comm_delete_attr(comm, key);
    CHECK(NAME("delete_runs_delete_callback_on_value"),
          rc == MPI_SUCCESS && dlog.calls == 1 && dlog.value == second && dlog.comm == comm &&
              dlog.keyval == key);
    flag = -1;
    rc = MPI_Comm_get_attr(comm, key, &got, &flag);
    CHECK(NAME("get_after_delete_flag_false"), rc == MPI_SUCCESS && flag == 0);

    /* set again after a delete: a fresh store, no callback */
    memset(&dlog, 0, sizeof dlog);
    rc = MPI_Comm_set_attr(comm, key, (void *)(intptr_t)7);
    got = NULL;
    flag = -1;
    rc |= MPI_Comm_get_attr(comm, key, &got, &flag);
    CHECK(NAME("set_after_delete"), rc == MPI_SUCCESS && dlog.calls == 0 && flag == 1 &&
                                        (intptr_t)got == 7);
    memset(&dlog, 0, sizeof dlog);
    rc = MPI_Comm_delete_attr(comm, key);
    CHECK(NAME("delete_again"), rc == MPI_SUCCESS && dlog.calls == 1);
    rc = MPI_Comm_delete_attr(comm, key2);
    CHECK(NAME("delete_null_valued_attribute"), rc == MPI_SUCCESS);

    /* key (the older key) set after key2 (the newer): each replace and delete finds its own
     * attribute */
    rc = MPI_Comm_set_attr(comm, key2, (void *)(intptr_t)2);
    rc |= MPI_Comm_set_attr(comm, key, (void *)(intptr_t)1);
    int k2del = 0;
    memset(&dlog, 0, sizeof dlog);
    rc |= MPI_Comm_set_attr(comm, key, (void *)(intptr_t)3);
    k2del = dlog.calls;
    rc |= MPI_Comm_set_attr(comm, key2, (void *)(intptr_t)4);
    got = NULL;
    flag = -1;
    rc |= MPI_Comm_get_attr(comm, key2, &got, &flag);
    CHECK(NAME("older_key_set_after_newer_replace_finds_it"),
          rc == MPI_SUCCESS && k2del == 1 && dlog.value == (void *)(intptr_t)1 && flag == 1 &&
              (intptr_t)got == 4);
    memset(&dlog, 0, sizeof dlog);
    rc = MPI_Comm_delete_attr(comm, key);
    rc |= MPI_Comm_delete_attr(comm, key2);
    flag = -1;
    rc |= MPI_Comm_get_attr(comm, key, &got, &flag);
    int flag2 = -1;
    rc |= MPI_Comm_get_attr(comm, key2, &got, &flag2);
    CHECK(NAME("older_key_set_after_newer_deleted"), rc == MPI_SUCCESS && flag == 0 && flag2 == 0 &&
                                        dlog.calls == 1 && dlog.value == (void *)(intptr_t)3);

    rc = MPI_Comm_free_keyval(&key);
    CHECK(NAME("free_keyval_sets_invalid"), rc == MPI_SUCCESS && key == MPI_KEYVAL_INVALID);
    rc = MPI_Comm_free_keyval(&key2);
    CHECK(NAME("free_second_keyval_sets_invalid"),
          rc == MPI_SUCCESS && key2 == MPI_KEYVAL_INVALID);
#undef NAME
}

int main(int argc, char **argv)
{
    int rank, size, rc, flag, key;
    void *got;
    MPI_Init(&argc, &argv);
    hc_errors_return();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    one_comm(MPI_COMM_WORLD, "world", rank);
    one_comm(MPI_COMM_SELF, "self", rank);

    /* one key, two objects: separate values; an attribute on WORLD is not on SELF */
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL);
    rc = MPI_Comm_set_attr(MPI_COMM_WORLD, key, (void *)(intptr_t)(100 + rank));
    flag = -1;
    rc |= MPI_Comm_get_attr(MPI_COMM_SELF, key, &got, &flag);
    CHECK("R4_world_attribute_not_on_self", rc == MPI_SUCCESS && flag == 0);
    rc = MPI_Comm_set_attr(MPI_COMM_SELF, key, (void *)(intptr_t)(200 + rank));
    void *gw = NULL, *gs = NULL;
    int fw = -1, fs = -1;
    rc |= MPI_Comm_get_attr(MPI_COMM_WORLD, key, &gw, &fw);
    rc |= MPI_Comm_get_attr(MPI_COMM_SELF, key, &gs, &fs);
    CHECK("R4_one_key_two_objects_two_values", rc == MPI_SUCCESS && fw == 1 && fs == 1 &&
                                                   (intptr_t)gw == 100 + rank &&
                                                   (intptr_t)gs == 200 + rank);
    rc = MPI_Comm_delete_attr(MPI_COMM_WORLD, key);
    flag = -1;
    rc |= MPI_Comm_get_attr(MPI_COMM_SELF, key, &gs, &flag);
    CHECK("R4_delete_on_world_leaves_self", rc == MPI_SUCCESS && flag == 1 &&
                                                (intptr_t)gs == 200 + rank);
    MPI_Comm_delete_attr(MPI_COMM_SELF, key);
    MPI_Comm_free_keyval(&key);

    /* many keys on one object (beyond any small inline table), each keeps its value */
    enum { NKEYS = 64 };
    int keys[NKEYS], all_ok = 1;
    for (int i = 0; i < NKEYS; i++) {
        all_ok &= MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &keys[i],
                                         NULL) == MPI_SUCCESS;
        all_ok &= MPI_Comm_set_attr(MPI_COMM_WORLD, keys[i],
                                    (void *)(intptr_t)(i * 1000 + rank)) == MPI_SUCCESS;
    }
    for (int i = NKEYS - 1; i >= 0; i--) {
        got = NULL;
        flag = -1;
        all_ok &= MPI_Comm_get_attr(MPI_COMM_WORLD, keys[i], &got, &flag) == MPI_SUCCESS;
        all_ok &= flag == 1 && (intptr_t)got == i * 1000 + rank;
    }
    for (int i = 0; i < NKEYS; i++) {
        if (i % 2 == 0)
            all_ok &= MPI_Comm_delete_attr(MPI_COMM_WORLD, keys[i]) == MPI_SUCCESS;
    }
    for (int i = 0; i < NKEYS; i++) {
        flag = -1;
        all_ok &= MPI_Comm_get_attr(MPI_COMM_WORLD, keys[i], &got, &flag) == MPI_SUCCESS;
        all_ok &= (i % 2 == 0) ? flag == 0 : (flag == 1 && (intptr_t)got == i * 1000 + rank);
    }
    for (int i = 0; i < NKEYS; i++) {
        if (i % 2 == 1)
            all_ok &= MPI_Comm_delete_attr(MPI_COMM_WORLD, keys[i]) == MPI_SUCCESS;
        all_ok &= MPI_Comm_free_keyval(&keys[i]) == MPI_SUCCESS && keys[i] == MPI_KEYVAL_INVALID;
    }
    CHECK("R4_world_64_keys_keep_their_values", all_ok);

    report();
    MPI_Finalize();
    return 0;
}
