/* R8_predefined_beside_user_attributes.c: the predefined attributes read the same whatever user
 * attributes an object carries, every rank.
 *
 * MPI-4.1 §10.1.2, §12.10.1, §12.10.3, §10.5.1: MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL,
 * MPI_UNIVERSE_SIZE, MPI_APPNUM and MPI_LASTUSEDCODE are MPI_COMM_WORLD's from init to finalize,
 * unchanged; §13.2.6: MPI_WIN_BASE, MPI_WIN_SIZE, MPI_WIN_DISP_UNIT, MPI_WIN_CREATE_FLAVOR and
 * MPI_WIN_MODEL are a window's for its life. §8.7.2-§8.7.3: setting, replacing or deleting a user
 * attribute, or freeing its key, touches that attribute alone. So after each such step on
 * MPI_COMM_WORLD, MPI_COMM_SELF, a duplicate of MPI_COMM_WORLD and a window, every predefined key
 * must read exactly as it did before the object carried any user attribute (found flag and
 * value), through MPI_Comm_get_attr, MPI_Attr_get and MPI_Win_get_attr. §10.5.1: MPI_LASTUSEDCODE
 * follows MPI_Add_error_class (at least the new class) while MPI_COMM_WORLD carries a user
 * attribute.
 *
 * In host mode the user keys are mpiattr's and the predefined ones the host's: a get of a
 * predefined key on an object that has an mpiattr record must still reach the host (Open MPI's
 * MPI_TAG_UB is keyval 0, which mpiattr's fast get once took for one of its own, issue 27).
 * The _multiple variant runs the same steps at MPI_THREAD_MULTIPLE, where gets take mpiattr's
 * thread-safe fast path first; Open MPI's osc/pt2pt refuses windows at that level, so the variant
 * has no window.
 */
#include "host_check.h"

#include <stdint.h>

struct key { int key; const char *name; };
static const struct key comm_keys[] = {
    {MPI_TAG_UB, "TAG_UB"},       {MPI_HOST, "HOST"},       {MPI_IO, "IO"},
    {MPI_WTIME_IS_GLOBAL, "WTIME_IS_GLOBAL"}, {MPI_UNIVERSE_SIZE, "UNIVERSE_SIZE"},
    {MPI_APPNUM, "APPNUM"},       {MPI_LASTUSEDCODE, "LASTUSEDCODE"},
};
enum { NC = sizeof comm_keys / sizeof comm_keys[0] };

struct reading { int rc, found; long value; };

static int deletes;
static int count_delete(MPI_Comm c, int k, void *v, void *e) { deletes++; return MPI_SUCCESS; }
static int win_count_delete(MPI_Win w, int k, void *v, void *e) { deletes++; return MPI_SUCCESS; }

static void read_comm(MPI_Comm c, struct reading r[NC], int mpi1)
{
    for (int i = 0; i < NC; i++) {
        int *p = NULL, f = -1;
        r[i].rc = mpi1 ? MPI_Attr_get(c, comm_keys[i].key, &p, &f)
                       : MPI_Comm_get_attr(c, comm_keys[i].key, &p, &f);
        r[i].found = r[i].rc == MPI_SUCCESS && f == 1 && p != NULL;
        r[i].value = r[i].found ? *p : (r[i].rc == MPI_SUCCESS && f == 0 ? -1 : -2);
    }
}

/* CHECK that every key of `c` reads now as in `before`, through both get routines. */
static void same_comm(const char *obj, const char *step, MPI_Comm c, const struct reading before[NC])
{
    char name[HC_NAME_LEN];
    for (int mpi1 = 0; mpi1 <= 1; mpi1++) {
        struct reading now[NC];
        read_comm(c, now, mpi1);
        for (int i = 0; i < NC; i++) {
            snprintf(name, sizeof name, "R8_%s_%s_%s_%s", obj, comm_keys[i].name, step,
                     mpi1 ? "Attr_get" : "get_attr");
            CHECK(name, now[i].rc == MPI_SUCCESS && now[i].found == before[i].found &&
                            now[i].value == before[i].value);
        }
    }
}

/* The steps of one communicator: set, replace, delete, set again, free the key (the attribute
 * stays, §8.7.2), delete under the freed key. */
static void comm_steps(const char *obj, MPI_Comm c)
{
    struct reading before[NC];
    char name[HC_NAME_LEN];
    int key = MPI_KEYVAL_INVALID, rc, f;
    void *v;
    read_comm(c, before, 0);
    for (int i = 0; i < NC; i++) {
        snprintf(name, sizeof name, "%s_%s_found", obj, comm_keys[i].name);
        FACT(name, before[i].found);
    }
    snprintf(name, sizeof name, "R8_%s_TAG_UB_found_at_start", obj);
    CHECK(name, c == MPI_COMM_SELF || before[0].found);

    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &key, NULL);
    deletes = 0;
    MPI_Comm_set_attr(c, key, (void *)11);
    same_comm(obj, "after_set", c, before);
    MPI_Comm_set_attr(c, key, (void *)12);
    same_comm(obj, "after_replace", c, before);
    MPI_Comm_delete_attr(c, key);
    same_comm(obj, "after_delete", c, before);
    MPI_Comm_set_attr(c, key, (void *)13);
    int kept = key;
    MPI_Comm_free_keyval(&key);
    same_comm(obj, "after_free_keyval", c, before);
    v = NULL;
    f = -1;
    rc = MPI_Comm_get_attr(c, kept, &v, &f);
    snprintf(name, sizeof name, "R8_%s_user_attribute_kept_after_free_keyval", obj);
    CHECK(name, rc == MPI_SUCCESS && f == 1 && v == (void *)13);
    MPI_Comm_delete_attr(c, kept);
    same_comm(obj, "after_last_delete", c, before);
    snprintf(name, sizeof name, "R8_%s_user_deletes_ran", obj);
    CHECK(name, deletes == 3);
}

#ifndef HOST_THREAD_MULTIPLE
static const struct key win_keys[] = {
    {MPI_WIN_BASE, "BASE"}, {MPI_WIN_SIZE, "SIZE"}, {MPI_WIN_DISP_UNIT, "DISP_UNIT"},
    {MPI_WIN_CREATE_FLAVOR, "CREATE_FLAVOR"}, {MPI_WIN_MODEL, "MODEL"},
};
enum { NW = sizeof win_keys / sizeof win_keys[0] };

static void read_win(MPI_Win w, struct reading r[NW])
{
    for (int i = 0; i < NW; i++) {
        void *p = NULL;
        int f = -1;
        r[i].rc = MPI_Win_get_attr(w, win_keys[i].key, &p, &f);
        r[i].found = r[i].rc == MPI_SUCCESS && f == 1;
        if (!r[i].found)
            r[i].value = -1;
        else if (win_keys[i].key == MPI_WIN_BASE)
            r[i].value = (long)(intptr_t)p; /* the address itself */
        else if (win_keys[i].key == MPI_WIN_SIZE)
            r[i].value = p ? (long)*(MPI_Aint *)p : -2;
        else
            r[i].value = p ? *(int *)p : -2;
    }
}

static void same_win(const char *step, MPI_Win w, const struct reading before[NW])
{
    char name[HC_NAME_LEN];
    struct reading now[NW];
    read_win(w, now);
    for (int i = 0; i < NW; i++) {
        snprintf(name, sizeof name, "R8_win_%s_%s", win_keys[i].name, step);
        CHECK(name, now[i].rc == MPI_SUCCESS && now[i].found == before[i].found &&
                        now[i].value == before[i].value);
    }
}

static void win_steps(int rank)
{
    static long buf[8];
    MPI_Win w;
    struct reading before[NW];
    int key = MPI_KEYVAL_INVALID;
    MPI_Win_create(buf, (MPI_Aint)((rank + 1) * sizeof(long)), (int)sizeof(long), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &w);
    read_win(w, before);
    CHECK("R8_win_predefined_found_at_start",
          before[0].found && before[1].found && before[2].found && before[3].found &&
              before[4].found && before[0].value == (long)(intptr_t)buf &&
              before[1].value == (long)((rank + 1) * sizeof(long)) && before[2].value == 8);
    MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_count_delete, &key, NULL);
    deletes = 0;
    MPI_Win_set_attr(w, key, (void *)21);
    same_win("after_set", w, before);
    MPI_Win_set_attr(w, key, (void *)22);
    same_win("after_replace", w, before);
    MPI_Win_delete_attr(w, key);
    same_win("after_delete", w, before);
    MPI_Win_set_attr(w, key, (void *)23);
    MPI_Win_free_keyval(&key);
    same_win("after_free_keyval", w, before);
    MPI_Win_free(&w);
    CHECK("R8_win_user_deletes_ran", deletes == 3);
}
#endif

int main(int argc, char **argv)
{
    int rank, rc;
    hc_init(&argc, &argv);
    hc_errors_return();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    comm_steps("world", MPI_COMM_WORLD);
    comm_steps("self", MPI_COMM_SELF);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    comm_steps("dup", dup);

    /* A user attribute copied to a duplicate: the duplicate's predefined keys as before. */
    {
        struct reading before[NC];
        int key;
        MPI_Comm dup2;
        read_comm(dup, before, 0);
        MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL);
        MPI_Comm_set_attr(dup, key, (void *)31);
        MPI_Comm_dup(dup, &dup2);
        same_comm("dup_of_dup", "after_copy", dup2, before);
        MPI_Comm_free(&dup2);
        MPI_Comm_free_keyval(&key);
    }
    MPI_Comm_free(&dup);

#ifndef HOST_THREAD_MULTIPLE
    win_steps(rank);
#endif

    /* MPI_LASTUSEDCODE follows MPI_Add_error_class while MPI_COMM_WORLD carries a user
     * attribute (§10.5.1); the attribute is left on MPI_COMM_WORLD for MPI_Finalize. */
    {
        int key, cls = -1, *p = NULL, f = -1, *q = NULL, g = -1;
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &key, NULL);
        MPI_Comm_set_attr(MPI_COMM_WORLD, key, (void *)41);
        rc = MPI_Add_error_class(&cls);
        CHECK("R8_add_error_class_succeeds", rc == MPI_SUCCESS && cls > MPI_ERR_LASTCODE);
        rc = MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &p, &f);
        CHECK("R8_LASTUSEDCODE_after_add_error_class_at_least_the_class",
              rc == MPI_SUCCESS && f == 1 && p && *p >= cls);
        rc = MPI_Attr_get(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &q, &g);
        CHECK("R8_LASTUSEDCODE_after_add_error_class_Attr_get_same",
              rc == MPI_SUCCESS && g == 1 && q && p && *q == *p);
        FACT("LASTUSEDCODE_minus_new_class", (p && f == 1) ? *p - cls : -1);
        int *t = NULL;
        f = -1;
        rc = MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &t, &f);
        CHECK("R8_TAG_UB_with_user_attribute_left_on_world", rc == MPI_SUCCESS && f == 1 && t && *t >= 32767);
    }

    report();
    MPI_Finalize();
    return 0;
}
