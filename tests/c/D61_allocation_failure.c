/* D61: out of memory is an error, never an abort. For each caching operation, the 1st, 2nd, ...
 * Nth allocation that mpiattr itself makes is made to fail (mpiattr's test switch, docs/decisions.md
 * D61), until the operation no longer reaches N; after each, the result must be MPI_SUCCESS or
 * MPI_ERR_NO_MEM (raised through the object's handler, here MPI_ERRORS_RETURN), and on
 * MPI_ERR_NO_MEM the state must be exactly what it was: every attribute and value, no new object
 * (MPI_COMM_NULL, MPI_DATATYPE_NULL), and the copy and delete callbacks balanced (each value a
 * copy callback made is deleted once, none twice, none lost). Each sweep runs twice: failing the
 * Nth allocation only, and the Nth and every later one (memory that stays exhausted).
 *
 * Plain C, reaching the switch through dlsym, so that the same program runs standalone
 * (tests/CMakeLists.txt, c_D61_allocation_failure) and preloaded over MPICH and Open MPI
 * (tests/host/alloc/alloc_failure.py), where only mpiattr's own allocations fail. Under ASan
 * (./test.sh's last stage) it also shows that nothing leaks after a failure. Exit status 0: passed. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_check.h"

typedef long (*switch_fn)(long fail_at, int persistent);
static switch_fn alloc_switch;
static int persistent;
static long injected;  /* attempts that failed with MPI_ERR_NO_MEM */

/* ---- values and callbacks: every value a copy callback makes is a token, alive until deleted ---- */
#define MAX_TOKENS 200000
static unsigned char alive[MAX_TOKENS];
static long next_token = 1, live_tokens;

static void *new_token(void) {
  if (next_token >= MAX_TOKENS) {
    fprintf(stderr, "FAIL: out of tokens\n");
    exit(1);
  }
  alive[next_token] = 1;
  ++live_tokens;
  return (void *)(MPI_Aint)next_token++;
}
static void end_token(void *v, const char *who) {
  MPI_Aint t = (MPI_Aint)v;
  CHECK(t > 0 && t < MAX_TOKENS && alive[t], "%s: value %ld deleted but not alive (deleted twice?)", who, (long)t);
  if (t > 0 && t < MAX_TOKENS && alive[t]) {
    alive[t] = 0;
    --live_tokens;
  }
}
static int comm_copy(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag) {
  (void)c; (void)k; (void)extra; (void)in;
  *(void **)out = new_token();
  *flag = 1;
  return MPI_SUCCESS;
}
static int comm_delete(MPI_Comm c, int k, void *v, void *extra) {
  (void)c; (void)k; (void)extra;
  end_token(v, "comm delete");
  return MPI_SUCCESS;
}
static int type_copy(MPI_Datatype t, int k, void *extra, void *in, void *out, int *flag) {
  (void)t; (void)k; (void)extra; (void)in;
  *(void **)out = new_token();
  *flag = 1;
  return MPI_SUCCESS;
}
static int type_delete(MPI_Datatype t, int k, void *v, void *extra) {
  (void)t; (void)k; (void)extra;
  end_token(v, "type delete");
  return MPI_SUCCESS;
}
static int win_delete(MPI_Win w, int k, void *v, void *extra) {
  (void)w; (void)k; (void)extra;
  end_token(v, "win delete");
  return MPI_SUCCESS;
}
static int destroyed;
static void destructor(void *extra) {
  (void)extra;
  ++destroyed;
}

/* ---- the objects, keyvals and snapshot of the state ---- */
#define NKEYS 300
static int ckeys[NKEYS];  /* user copy and delete callbacks (even), MPI_COMM_DUP_FN (odd) */
static int tkeys[8], wkeys[40];
static MPI_Comm work, five, none, plain, one;
static MPI_Datatype wtype;
static MPI_Win win;

struct snap {
  int flag[NKEYS];
  void *val[NKEYS];
  long live;
};
static void take(MPI_Comm c, struct snap *s) {
  for (int i = 0; i < NKEYS; ++i) {
    void *v = NULL;
    s->flag[i] = 0;
    OK(MPI_Comm_get_attr(c, ckeys[i], &v, &s->flag[i]));
    s->val[i] = s->flag[i] ? v : NULL;
  }
  s->live = live_tokens;
}
static int same(const struct snap *a, const struct snap *b, const char *what) {
  int bad = 0;
  for (int i = 0; i < NKEYS; ++i)
    if (a->flag[i] != b->flag[i] || a->val[i] != b->val[i]) ++bad;
  CHECK(bad == 0, "%s: %d attributes changed", what, bad);
  CHECK(a->live == b->live, "%s: %ld values alive, %ld before", what, b->live, a->live);
  return bad == 0 && a->live == b->live;
}

/* The result of one attempt: MPI_SUCCESS or MPI_ERR_NO_MEM, whose message names the routine. */
static int outcome(int rc, const char *routine, long n) {
  if (rc == MPI_SUCCESS) return 0;
  int cls = -1;
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_NO_MEM, "%s, allocation %ld failing: error class %d, not MPI_ERR_NO_MEM", routine, n, cls);
  /* The message is kept without allocating (D70), so it names the routine even when every
   * allocation fails, and MPI_Error_string reads it while allocations still fail. */
  char msg[MPI_MAX_ERROR_STRING];
  int len = 0;
  alloc_switch(1, 1);
  int src = MPI_Error_string(rc, msg, &len);
  alloc_switch(0, 0);
  CHECK(src == MPI_SUCCESS && (size_t)len == strlen(msg), "%s: MPI_Error_string failed while memory is short", routine);
  CHECK(strcasestr(msg, routine) != NULL && strstr(msg, "out of memory") != NULL,
        "%s: the message does not say the routine ran out of memory: %s", routine, msg);
  return 1;
}

/* Runs op with the nth allocation failing, n = 1, 2, ... until op makes fewer than n: op returns its
 * error code, and check(failed) checks (and undoes, on success) what it did. Returns the number of
 * allocations the operation made when none failed. */
static long sweep(const char *routine, int (*op)(void), void (*check)(int failed, long n)) {
  for (long n = 1;; ++n) {
    alloc_switch(n, persistent);
    int rc = op();
    long made = alloc_switch(0, 0);
    int failed = outcome(rc, routine, n);
    injected += failed;
    check(failed, n);
    if (made < n) {
      CHECK(!failed, "%s failed with no allocation failing", routine);
      return made;
    }
    if (failures > 20) exit(1);
  }
}

/* ---- the operations ---- */
static int cur;  /* the keyval index an operation works on */
static struct snap before;
static MPI_Comm newcomm, src;
static MPI_Datatype newtype;
static int newkey;

static int op_create_keyval(void) {
  newkey = MPI_KEYVAL_INVALID;
  return MPI_Comm_create_keyval(comm_copy, comm_delete, &newkey, NULL);
}
static void check_create_keyval(int failed, long n) {
  (void)n;
  CHECK(failed == (newkey == MPI_KEYVAL_INVALID), "create_keyval: failed %d, keyval %d", failed, newkey);
  if (!failed) ckeys[cur] = newkey;
}
typedef int (*create_x_fn)(MPI_Comm_copy_attr_function *, MPI_Comm_delete_attr_function *, void (*)(void *),
                           int *, void *);
static create_x_fn create_x;
static int op_create_keyval_x(void) {
  newkey = MPI_KEYVAL_INVALID;
  return create_x(comm_copy, comm_delete, destructor, &newkey, NULL);
}
static void check_create_keyval_x(int failed, long n) {
  (void)n;
  CHECK(failed == (newkey == MPI_KEYVAL_INVALID), "create_keyval_x: failed %d", failed);
  if (!failed) {
    int d = destroyed;
    OK(MPI_Comm_free_keyval(&newkey));
    CHECK(destroyed == d + 1, "the destructor did not run once");
  }
}

static int op_set(void) { return MPI_Comm_set_attr(work, ckeys[cur], (cur & 1) ? (void *)(MPI_Aint)(cur + 7) : new_token()); }
static void check_set(int failed, long n) {
  (void)n;
  struct snap now;
  if (failed) {
    if (!(cur & 1)) end_token((void *)(MPI_Aint)(next_token - 1), "the value a failed set did not store");
    take(work, &now);
    same(&before, &now, "MPI_Comm_set_attr");
  } else {
    take(work, &before);  /* the next operation's starting point */
  }
}

static int op_delete(void) { return MPI_Comm_delete_attr(work, ckeys[cur]); }
static void check_delete(int failed, long n) {
  (void)n;
  struct snap now;
  take(work, &now);
  if (failed) same(&before, &now, "MPI_Comm_delete_attr");
  else before = now;
}

static int op_dup(void) {
  newcomm = MPI_COMM_NULL;
  return MPI_Comm_dup(src, &newcomm);
}
static void check_dup(int failed, long n) {
  (void)n;
  struct snap now, copy;
  take(src, &now);
  if (!failed) now.live = before.live;  /* (the copies are alive until the duplicate is freed, below) */
  same(&before, &now, "MPI_Comm_dup (the original)");
  if (failed) {
    CHECK(newcomm == MPI_COMM_NULL, "a failed MPI_Comm_dup gave a communicator");
    return;
  }
  take(newcomm, &copy);
  int n_attrs = 0;
  for (int i = 0; i < NKEYS; ++i) n_attrs += now.flag[i];
  int copies = 0;
  for (int i = 0; i < NKEYS; ++i) copies += copy.flag[i];
  CHECK(copies == n_attrs, "the duplicate has %d attributes, the original %d", copies, n_attrs);
  OK(MPI_Comm_free(&newcomm));
  CHECK(live_tokens == before.live, "after freeing the duplicate, %ld values alive, %ld before", live_tokens, before.live);
}
/* Over a host the next duplicate usually gets the handle of the last one freed: a duplicate of `one`
 * (one plain attribute) freed just before leaves that handle's record asleep, so that the next dup
 * takes the fast path (D90) with whatever source it has. */
static void warm_handle(void) {
  MPI_Comm d;
  OK(MPI_Comm_dup(one, &d));
  OK(MPI_Comm_free(&d));
}
static void check_dup_warm(int failed, long n) {
  check_dup(failed, n);
  warm_handle();
}

static int op_free(void) { return MPI_Comm_free(&newcomm); }
static void check_free(int failed, long n) {
  (void)n;
  if (failed) {  /* the communicator stays, with its attributes */
    CHECK(newcomm != MPI_COMM_NULL, "a failed MPI_Comm_free freed");
    OK(MPI_Comm_free(&newcomm));
  }
  CHECK(live_tokens == before.live, "MPI_Comm_free: %ld values alive, %ld before", live_tokens, before.live);
  OK(MPI_Comm_dup(work, &newcomm));  /* the next attempt's communicator */
}

static int op_type_set(void) { return MPI_Type_set_attr(wtype, tkeys[cur], new_token()); }
/* After a set of the newest token on a datatype or window: a failed one stored nothing (the token
 * is the program's again), a successful one stored it. */
static void check_token_set(int failed, int flag, void *v, const char *routine) {
  if (failed) {
    CHECK(!flag, "a failed %s stored its value", routine);
    end_token((void *)(MPI_Aint)(next_token - 1), "the value a failed set did not store");
  } else {
    CHECK(flag && v == (void *)(MPI_Aint)(next_token - 1), "%s did not store", routine);
  }
}
static void check_type_set(int failed, long n) {
  (void)n;
  void *v = NULL;
  int flag = 0;
  OK(MPI_Type_get_attr(wtype, tkeys[cur], &v, &flag));
  check_token_set(failed, flag, v, "MPI_Type_set_attr");
}
static int op_type_dup(void) {
  newtype = MPI_DATATYPE_NULL;
  return MPI_Type_dup(wtype, &newtype);
}
/* MPI_Type_get_contents of a datatype built on wtype: over MPICH the constituent it returns is
 * wtype's own handle, a reference mpiattr counts (D132). Out of memory: MPI_ERR_NO_MEM and no
 * handle; either way wtype keeps its attributes, and freeing what was returned deletes none. */
static MPI_Datatype outer, got;
static int op_contents(void) {
  int ints[2];
  MPI_Aint addrs[2];
  got = MPI_DATATYPE_NULL;
  return MPI_Type_get_contents(outer, 1, 0, 1, ints, addrs, &got);
}
static void check_contents(int failed, long n) {
  (void)n;
  if (failed)
    CHECK(got == MPI_DATATYPE_NULL, "a failed MPI_Type_get_contents gave a datatype");
  else
    OK(MPI_Type_free(&got));
  int flag = 0;
  void *v = NULL;
  OK(MPI_Type_get_attr(wtype, tkeys[0], &v, &flag));
  CHECK(flag, "MPI_Type_get_contents (%s): the constituent lost its attribute", failed ? "failed" : "freed");
  CHECK(live_tokens == before.live, "MPI_Type_get_contents: %ld values alive, %ld before", live_tokens, before.live);
}
static void check_type_dup(int failed, long n) {
  (void)n;
  if (failed) {
    CHECK(newtype == MPI_DATATYPE_NULL, "a failed MPI_Type_dup gave a datatype");
  } else {
    int flag = 0;
    void *v = NULL;
    OK(MPI_Type_get_attr(newtype, tkeys[0], &v, &flag));
    CHECK(flag, "the duplicate datatype lacks its attribute");
    OK(MPI_Type_free(&newtype));
  }
  CHECK(live_tokens == before.live, "MPI_Type_dup: %ld values alive, %ld before", live_tokens, before.live);
}
static int op_win_set(void) { return MPI_Win_set_attr(win, wkeys[cur], new_token()); }
static void check_win_set(int failed, long n) {
  (void)n;
  void *v = NULL;
  int flag = 0;
  OK(MPI_Win_get_attr(win, wkeys[cur], &v, &flag));
  check_token_set(failed, flag, v, "MPI_Win_set_attr");
}

/* The Fortran entry points (mpif.h and `use mpi`), reached by their link name. */
typedef void (*f_set_fn)(MPI_Fint *, MPI_Fint *, MPI_Aint *, MPI_Fint *);
typedef void (*f_dup_fn)(MPI_Fint *, MPI_Fint *, MPI_Fint *);
static f_set_fn f_set;
static f_dup_fn f_dup;
static MPI_Fint f_ierr, f_new;
static int op_f_set(void) {  /* (odd keyvals: MPI_COMM_DUP_FN, no delete callback) */
  MPI_Fint c = MPI_Comm_c2f(work), k = ckeys[cur];
  MPI_Aint v = cur + 7;
  f_set(&c, &k, &v, &f_ierr);
  return f_ierr;
}
static int op_f_dup(void) {
  MPI_Fint c = MPI_Comm_c2f(src);
  f_new = MPI_Comm_c2f(MPI_COMM_NULL);
  f_dup(&c, &f_new, &f_ierr);
  newcomm = MPI_Comm_f2c(f_new);
  return f_ierr;
}

static void run_all(void) {
  long made;
  /* Keyval creation, through 300 keyvals (the registry's growth). */
  for (cur = 0; cur < NKEYS; ++cur) {
    sweep("MPI_Comm_create_keyval", op_create_keyval, check_create_keyval);
    if (cur & 1) {  /* odd keyvals copy by MPI_COMM_DUP_FN */
      OK(MPI_Comm_free_keyval(&ckeys[cur]));
      OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &ckeys[cur], NULL));
    }
  }
  if (create_x) sweep("MPIX_Comm_create_keyval_x", op_create_keyval_x, check_create_keyval_x);
  /* Sets through every growth of a store: 300 attributes on one communicator. */
  OK(MPI_Comm_dup(MPI_COMM_SELF, &work));
  take(work, &before);
  made = 0;
  for (cur = 0; cur < NKEYS; ++cur) made += sweep("MPI_Comm_set_attr", op_set, check_set);
  CHECK(made > 0, "300 sets allocated nothing: the switch does not reach mpiattr's allocations");
  /* Replacing values (their delete callbacks run). */
  for (cur = 0; cur < 40; ++cur) sweep("MPI_Comm_set_attr", op_set, check_set);
  /* Dups of 0, 5 and 300 attributes, then the free of a communicator with 300. */
  OK(MPI_Comm_dup(MPI_COMM_SELF, &none));
  OK(MPI_Comm_dup(MPI_COMM_SELF, &five));
  for (cur = 0; cur < 5; ++cur)  /* (keyvals 37 and 111 copy by MPI_COMM_DUP_FN: plain values) */
    OK(MPI_Comm_set_attr(five, ckeys[cur * 37], (cur & 1) ? (void *)(MPI_Aint)cur : new_token()));
  /* 150 attributes copied by MPI_COMM_DUP_FN alone (the odd keyvals), beyond the store's inline
   * chunk: a dup copies them wholesale, allocating the chunks (over a host the fast dup, D90). */
  OK(MPI_Comm_dup(MPI_COMM_SELF, &plain));
  for (cur = 1; cur < NKEYS; cur += 2) OK(MPI_Comm_set_attr(plain, ckeys[cur], (void *)(MPI_Aint)(cur + 7)));
  OK(MPI_Comm_dup(MPI_COMM_SELF, &one));
  OK(MPI_Comm_set_attr(one, ckeys[1], (void *)(MPI_Aint)8));
  MPI_Comm dups[4] = {none, five, work, plain};
  for (int i = 0; i < 4; ++i) {
    src = dups[i];
    take(src, &before);
    sweep("MPI_Comm_dup", op_dup, check_dup);
    warm_handle();
    take(src, &before);
    sweep("MPI_Comm_dup", op_dup, check_dup_warm);  /* (onto a handle whose record sleeps) */
  }
  take(work, &before);
  OK(MPI_Comm_dup(work, &newcomm));
  sweep("MPI_Comm_free", op_free, check_free);
  OK(MPI_Comm_free(&newcomm));
  /* The Fortran entry points. */
  if (f_set && f_dup) {
    take(work, &before);
    for (cur = 1; cur < NKEYS; cur += 14) sweep("MPI_COMM_SET_ATTR", op_f_set, check_set);
    src = work;
    take(src, &before);
    sweep("MPI_COMM_DUP", op_f_dup, check_dup);
  }
  /* Deletes. */
  take(work, &before);
  for (cur = 0; cur < NKEYS; cur += 3) sweep("MPI_Comm_delete_attr", op_delete, check_delete);
  /* Datatypes and windows. */
  OK(MPI_Type_contiguous(2, MPI_INT, &wtype));
  for (cur = 0; cur < 8; ++cur) OK(MPI_Type_create_keyval(type_copy, type_delete, &tkeys[cur], NULL));
  for (cur = 0; cur < 8; ++cur) sweep("MPI_Type_set_attr", op_type_set, check_type_set);
  before.live = live_tokens;
  sweep("MPI_Type_dup", op_type_dup, check_type_dup);
  OK(MPI_Type_contiguous(3, wtype, &outer));
  sweep("MPI_Type_get_contents", op_contents, check_contents);
  OK(MPI_Type_free(&outer));
  static int wbuf[4];
  OK(MPI_Win_create(wbuf, sizeof wbuf, sizeof wbuf[0], MPI_INFO_NULL, MPI_COMM_SELF, &win));
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  for (cur = 0; cur < 40; ++cur) OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_delete, &wkeys[cur], NULL));
  for (cur = 0; cur < 40; ++cur) sweep("MPI_Win_set_attr", op_win_set, check_win_set);
  /* Everything goes: the delete callbacks run for every attribute that exists. */
  OK(MPI_Win_free(&win));
  OK(MPI_Type_free(&wtype));
  OK(MPI_Comm_free(&work));
  OK(MPI_Comm_free(&five));
  OK(MPI_Comm_free(&none));
  OK(MPI_Comm_free(&plain));
  OK(MPI_Comm_free(&one));
  for (cur = 0; cur < NKEYS; ++cur) OK(MPI_Comm_free_keyval(&ckeys[cur]));
  for (cur = 0; cur < 8; ++cur) OK(MPI_Type_free_keyval(&tkeys[cur]));
  for (cur = 0; cur < 40; ++cur) OK(MPI_Win_free_keyval(&wkeys[cur]));
  CHECK(live_tokens == 0, "%ld values were never deleted", live_tokens);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  alloc_switch = (switch_fn)dlsym(RTLD_DEFAULT, "mpiattr_test_fail_allocation");
  if (alloc_switch == NULL) {
    fprintf(stderr, "FAIL: mpiattr's test switch mpiattr_test_fail_allocation is not there\n");
    return 1;
  }
  create_x = (create_x_fn)dlsym(RTLD_DEFAULT, "MPIX_Comm_create_keyval_x");
  f_set = (f_set_fn)dlsym(RTLD_DEFAULT, "mpi_comm_set_attr_");
  f_dup = (f_dup_fn)dlsym(RTLD_DEFAULT, "mpi_comm_dup_");
  printf("MPIX_Comm_create_keyval_x: %s; Fortran entry points: %s\n", create_x ? "swept" : "absent",
         f_set && f_dup ? "swept" : "absent");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  for (persistent = 0; persistent < 2; ++persistent) run_all();
  /* MPI_Finalize with attributes on MPI_COMM_SELF, its delete callbacks each run once. */
  int fk;
  OK(MPI_Comm_create_keyval(comm_copy, comm_delete, &fk, NULL));
  OK(MPI_Comm_set_attr(MPI_COMM_SELF, fk, new_token()));
  MPI_Finalize();
  CHECK(live_tokens == 0, "MPI_Finalize left %ld values undeleted", live_tokens);
  CHECK(injected > 100, "only %ld attempts failed: the sweeps do not reach mpiattr's allocations", injected);
  if (failures == 0) printf("D61: every sweep ran to the end (%ld attempts failed with MPI_ERR_NO_MEM)\n", injected);
  return failures != 0;
}
