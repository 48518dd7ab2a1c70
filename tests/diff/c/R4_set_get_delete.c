/* R4.1-R4.4, R4.2, R5.1/R5.2, R2.1: set / get / delete on a communicator, a
 * datatype and a window, with a recording delete callback.
 *
 * For each object kind:
 *   get of a key with nothing attached gives flag 0 and MPI_SUCCESS (R4.2);
 *   set stores the value, get returns it through a void** (R5.1, R5.2);
 *   set on a key that has a value runs the delete callback on the OLD value
 *   (R4.1) with the right key and extra_state;
 *   delete_attr runs the delete callback (R4.3) and leaves flag 0;
 *   delete_attr with nothing stored succeeds and calls nothing (R4.3 [I], D7);
 *   freeing the object runs the delete callback of what is still set (R4.4);
 *   free_keyval sets the variable to MPI_KEYVAL_INVALID (R2.1).
 */
#include "diff_util.h"

#include <string.h>

/* What the delete callbacks saw; passed as extra_state. */
struct record {
    int calls;
    void *last_val;
    int last_key;
    int extra_ok; /* the callback received the extra_state we registered */
};

static void note(struct record *r, int key, void *val, void *extra)
{
    r->calls++;
    r->last_val = val;
    r->last_key = key;
    r->extra_ok = (extra == (void *)r);
}

static int comm_del(MPI_Comm c, int key, void *val, void *extra)
{
    (void)c;
    note(extra, key, val, extra);
    return MPI_SUCCESS;
}
static int type_del(MPI_Datatype t, int key, void *val, void *extra)
{
    (void)t;
    note(extra, key, val, extra);
    return MPI_SUCCESS;
}
static int win_del(MPI_Win w, int key, void *val, void *extra)
{
    (void)w;
    note(extra, key, val, extra);
    return MPI_SUCCESS;
}

/* One object of any of the three kinds, so the scenario is written once. */
enum kind { COMM, TYPE, WIN };
struct object {
    enum kind kind;
    const char *name;
    MPI_Comm comm;
    MPI_Datatype type;
    MPI_Win win;
};

static int create_keyval(struct object *o, int *key, struct record *r)
{
    switch (o->kind) {
    case COMM: return MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, comm_del, key, r);
    case TYPE: return MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, type_del, key, r);
    default:   return MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_del, key, r);
    }
}
static int free_keyval(struct object *o, int *key)
{
    switch (o->kind) {
    case COMM: return MPI_Comm_free_keyval(key);
    case TYPE: return MPI_Type_free_keyval(key);
    default:   return MPI_Win_free_keyval(key);
    }
}
static int set_attr(struct object *o, int key, void *val)
{
    switch (o->kind) {
    case COMM: return MPI_Comm_set_attr(o->comm, key, val);
    case TYPE: return MPI_Type_set_attr(o->type, key, val);
    default:   return MPI_Win_set_attr(o->win, key, val);
    }
}
static int get_attr(struct object *o, int key, void *val_out, int *flag)
{
    switch (o->kind) {
    case COMM: return MPI_Comm_get_attr(o->comm, key, val_out, flag);
    case TYPE: return MPI_Type_get_attr(o->type, key, val_out, flag);
    default:   return MPI_Win_get_attr(o->win, key, val_out, flag);
    }
}
static int delete_attr(struct object *o, int key)
{
    switch (o->kind) {
    case COMM: return MPI_Comm_delete_attr(o->comm, key);
    case TYPE: return MPI_Type_delete_attr(o->type, key);
    default:   return MPI_Win_delete_attr(o->win, key);
    }
}
static int free_object(struct object *o)
{
    switch (o->kind) {
    case COMM: return MPI_Comm_free(&o->comm);
    case TYPE: return MPI_Type_free(&o->type);
    default:   return MPI_Win_free(&o->win);
    }
}

/* Print "R<rule> <kind> <what>: value". */
static void kfact(const struct object *o, const char *rule, const char *what, long v)
{
    char label[128];
    snprintf(label, sizeof label, "%s %s %s", rule, o->name, what);
    fact(label, v);
}
static void kfact_err(const struct object *o, const char *rule, const char *what, int rc)
{
    char label[128];
    snprintf(label, sizeof label, "%s %s %s", rule, o->name, what);
    fact_err(label, rc);
}

static void scenario(struct object *o)
{
    struct record rec;
    int key = MPI_KEYVAL_INVALID, flag = -1, a = 1, b = 2, c = 3;
    void *got = NULL;

    memset(&rec, 0, sizeof rec);
    kfact_err(o, "R1_1", "create_keyval", create_keyval(o, &key, &rec));
    kfact(o, "R1_2", "new keyval is not MPI_KEYVAL_INVALID", key != MPI_KEYVAL_INVALID);

    kfact_err(o, "R4_2", "get of unset key rc", get_attr(o, key, &got, &flag));
    kfact(o, "R4_2", "get of unset key flag", flag);

    kfact_err(o, "R4_1", "first set rc", set_attr(o, key, &a));
    kfact(o, "R4_1", "first set runs no delete cb", rec.calls == 0);
    got = NULL;
    flag = -1;
    kfact_err(o, "R4_2", "get rc", get_attr(o, key, &got, &flag));
    kfact(o, "R4_2", "get flag", flag);
    kfact(o, "R5_2", "get returns the stored pointer", got == (void *)&a);

    kfact_err(o, "R4_1", "replace rc", set_attr(o, key, &b));
    kfact(o, "R4_1", "replace delete cb calls", rec.calls);
    kfact(o, "R4_1", "replace delete cb got old value", rec.last_val == (void *)&a);
    kfact(o, "R4_1", "replace delete cb got keyval", rec.last_key == key);
    kfact(o, "R4_1", "replace delete cb got extra_state", rec.extra_ok);
    got = NULL;
    get_attr(o, key, &got, &flag);
    kfact(o, "R4_1", "get after replace returns new value", flag && got == (void *)&b);

    kfact_err(o, "R4_3", "delete_attr rc", delete_attr(o, key));
    kfact(o, "R4_3", "delete_attr delete cb calls", rec.calls);
    kfact(o, "R4_3", "delete_attr delete cb got value", rec.last_val == (void *)&b);
    flag = -1;
    kfact_err(o, "R4_2", "get after delete rc", get_attr(o, key, &got, &flag));
    kfact(o, "R4_2", "get after delete flag", flag);

    /* Deleting again, with nothing stored under the key: the standard does not
     * make it erroneous; mpiattr succeeds and calls nothing (R4.3 [I], D7). */
    rec.calls = 0;
    kfact_err(o, "R4_3", "delete_attr with nothing stored rc", delete_attr(o, key));
    kfact(o, "R4_3", "delete_attr with nothing stored delete cb calls", rec.calls);
    flag = -1;
    get_attr(o, key, &got, &flag);
    kfact(o, "R4_3", "get after delete of nothing flag", flag);

    /* Integer smuggled in the pointer (R5.1: set passes the value itself). */
    set_attr(o, key, (void *)(MPI_Aint)17);
    got = NULL;
    get_attr(o, key, &got, &flag);
    kfact(o, "R5_1", "value stored as-is (int in pointer) is 17", flag ? (long)(MPI_Aint)got : -1);
    set_attr(o, key, &c); /* replaces 17: one more delete cb */
    kfact(o, "R4_1", "replace of int value delete cb got 17", (long)(MPI_Aint)rec.last_val);

    /* Keep &c attached and free the object (R4.4). */
    rec.calls = 0;
    kfact_err(o, "R4_4", "free object rc", free_object(o));
    kfact(o, "R4_4", "free object delete cb calls", rec.calls);
    kfact(o, "R4_4", "free object delete cb got value", rec.last_val == (void *)&c);
    kfact(o, "R4_4", "free object delete cb got keyval", rec.last_key == key);

    kfact_err(o, "R2_1", "free_keyval rc", free_keyval(o, &key));
    kfact(o, "R2_1", "free_keyval sets MPI_KEYVAL_INVALID", key == MPI_KEYVAL_INVALID);
}

int main(int argc, char **argv)
{
    static int winbuf[4];
    struct object comm = {COMM, "comm", MPI_COMM_NULL, MPI_DATATYPE_NULL, MPI_WIN_NULL};
    struct object type = {TYPE, "type", MPI_COMM_NULL, MPI_DATATYPE_NULL, MPI_WIN_NULL};
    struct object win = {WIN, "win", MPI_COMM_NULL, MPI_DATATYPE_NULL, MPI_WIN_NULL};

    diff_init(&argc, &argv);

    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &comm.comm));
    CHECK(MPI_Comm_set_errhandler(comm.comm, MPI_ERRORS_RETURN));
    scenario(&comm);

    CHECK(MPI_Type_contiguous(2, MPI_INT, &type.type));
    CHECK(MPI_Type_commit(&type.type));
    scenario(&type);

    CHECK(MPI_Win_create(winbuf, sizeof winbuf, sizeof(int), MPI_INFO_NULL, MPI_COMM_SELF, &win.win));
    CHECK(MPI_Win_set_errhandler(win.win, MPI_ERRORS_RETURN));
    scenario(&win);

    return diff_finish();
}
