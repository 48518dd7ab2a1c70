/* R4.4: freeing an object runs the delete callback of EVERY attribute still
 * set on it, exactly once each, with its own key and value; the order is
 * arbitrary (R4.4), so only the set of calls is printed. Attributes on
 * another object that shares the keyvals are untouched. Also: an attribute
 * removed with delete_attr before the free gets no second callback, and a
 * key with MPI_*_NULL_DELETE_FN is simply dropped (R6.5).
 */
#include "diff_util.h"

#define NKEYS 3

/* Bit i of `seen` is set when the delete callback sees the value &vals[i]
 * of object 0; object 1 uses vals2. Any other call counts as stray. */
static int vals[NKEYS], vals2[NKEYS];
static int keys[NKEYS];
static unsigned seen, seen2;
static int calls, stray, wrong_key;

static void note(int key, void *val)
{
    calls++;
    for (int i = 0; i < NKEYS; i++) {
        if (val == &vals[i] || val == &vals2[i]) {
            unsigned *s = (val == &vals[i]) ? &seen : &seen2;
            if (*s & (1u << i))
                stray++; /* called twice for the same attribute */
            *s |= 1u << i;
            if (key != keys[i])
                wrong_key++;
            return;
        }
    }
    stray++;
}
static int comm_del(MPI_Comm o, int key, void *val, void *x) { (void)o; (void)x; note(key, val); return MPI_SUCCESS; }
static int type_del(MPI_Datatype o, int key, void *val, void *x) { (void)o; (void)x; note(key, val); return MPI_SUCCESS; }
static int win_del(MPI_Win o, int key, void *val, void *x) { (void)o; (void)x; note(key, val); return MPI_SUCCESS; }

static void reset(void) { seen = seen2 = 0; calls = stray = wrong_key = 0; }

static void report(const char *kind, const char *when, long expect_calls, unsigned expect_seen, unsigned expect_seen2)
{
    char label[128];
    snprintf(label, sizeof label, "R4_4 %s %s delete cb calls is %ld", kind, when, expect_calls);
    fact(label, calls == expect_calls);
    snprintf(label, sizeof label, "R4_4 %s %s each expected attribute deleted once", kind, when);
    fact(label, seen == expect_seen && seen2 == expect_seen2 && stray == 0);
    snprintf(label, sizeof label, "R4_4 %s %s callbacks got matching keyval", kind, when);
    fact(label, wrong_key == 0);
}

int main(int argc, char **argv)
{
    int i, dummy, nullkey;
    static int wbuf[2][4];
    MPI_Comm c[2];
    MPI_Datatype t[2];
    MPI_Win w[2];

    diff_init(&argc, &argv);

    /* Communicators: 3 user keys + 1 NULL_DELETE_FN key on each of two comms. */
    for (i = 0; i < NKEYS; i++)
        CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, comm_del, &keys[i], NULL));
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &nullkey, NULL));
    for (i = 0; i < 2; i++) {
        CHECK(MPI_Comm_dup(MPI_COMM_SELF, &c[i]));
        for (int k = 0; k < NKEYS; k++)
            CHECK(MPI_Comm_set_attr(c[i], keys[k], i == 0 ? &vals[k] : &vals2[k]));
        CHECK(MPI_Comm_set_attr(c[i], nullkey, &dummy));
    }
    reset();
    CHECK(MPI_Comm_delete_attr(c[0], keys[1]));
    report("comm", "delete_attr", 1, 1u << 1, 0);
    reset();
    fact_err("R4_4 comm free with NULL_DELETE_FN key rc", MPI_Comm_free(&c[0]));
    report("comm", "free", 2, (1u << 0) | (1u << 2), 0);
    reset();
    CHECK(MPI_Comm_free(&c[1]));
    report("comm", "free second", 3, 0, 7u);
    for (i = 0; i < NKEYS; i++)
        CHECK(MPI_Comm_free_keyval(&keys[i]));
    CHECK(MPI_Comm_free_keyval(&nullkey));

    /* Datatypes. */
    for (i = 0; i < NKEYS; i++)
        CHECK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, type_del, &keys[i], NULL));
    CHECK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &nullkey, NULL));
    for (i = 0; i < 2; i++) {
        CHECK(MPI_Type_contiguous(i + 1, MPI_INT, &t[i]));
        for (int k = 0; k < NKEYS; k++)
            CHECK(MPI_Type_set_attr(t[i], keys[k], i == 0 ? &vals[k] : &vals2[k]));
        CHECK(MPI_Type_set_attr(t[i], nullkey, &dummy));
    }
    reset();
    CHECK(MPI_Type_delete_attr(t[0], keys[1]));
    report("type", "delete_attr", 1, 1u << 1, 0);
    reset();
    fact_err("R4_4 type free with NULL_DELETE_FN key rc", MPI_Type_free(&t[0]));
    report("type", "free", 2, (1u << 0) | (1u << 2), 0);
    reset();
    CHECK(MPI_Type_free(&t[1]));
    report("type", "free second", 3, 0, 7u);
    for (i = 0; i < NKEYS; i++)
        CHECK(MPI_Type_free_keyval(&keys[i]));
    CHECK(MPI_Type_free_keyval(&nullkey));

    /* Windows. */
    for (i = 0; i < NKEYS; i++)
        CHECK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_del, &keys[i], NULL));
    CHECK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &nullkey, NULL));
    for (i = 0; i < 2; i++) {
        CHECK(MPI_Win_create(wbuf[i], sizeof wbuf[i], sizeof(int), MPI_INFO_NULL, MPI_COMM_SELF, &w[i]));
        CHECK(MPI_Win_set_errhandler(w[i], MPI_ERRORS_RETURN));
        for (int k = 0; k < NKEYS; k++)
            CHECK(MPI_Win_set_attr(w[i], keys[k], i == 0 ? &vals[k] : &vals2[k]));
        CHECK(MPI_Win_set_attr(w[i], nullkey, &dummy));
    }
    reset();
    CHECK(MPI_Win_delete_attr(w[0], keys[1]));
    report("win", "delete_attr", 1, 1u << 1, 0);
    reset();
    fact_err("R4_4 win free with NULL_DELETE_FN key rc", MPI_Win_free(&w[0]));
    report("win", "free", 2, (1u << 0) | (1u << 2), 0);
    reset();
    CHECK(MPI_Win_free(&w[1]));
    report("win", "free second", 3, 0, 7u);
    for (i = 0; i < NKEYS; i++)
        CHECK(MPI_Win_free_keyval(&keys[i]));
    CHECK(MPI_Win_free_keyval(&nullkey));

    return diff_finish();
}
