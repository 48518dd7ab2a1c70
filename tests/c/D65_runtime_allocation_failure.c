/* D65: out of memory is an error, never an abort, in the standalone runtime's routines beyond
 * caching (info, groups, communicators, topologies, datatypes, requests, collectives, windows,
 * error handling, operations, sessions, files and data representations: D118). As D61's sweep (tests/c/D61_allocation_failure.c)
 * does for caching: each routine runs with the 1st, 2nd, ... Nth allocation mpiattr makes failing
 * (mpiattr's test switch, docs/decisions.md D61), until it no longer reaches N; once failing that
 * allocation alone, once every later one too. After each attempt:
 *   - the result is MPI_SUCCESS or MPI_ERR_NO_MEM (class), whose message names the routine;
 *   - it was raised once, through the right error handler (the communicator's or window's, else
 *     MPI_COMM_SELF's: D4; a session's for MPI_Session_init; the file's, and MPI_FILE_NULL's for
 *     MPI_File_open, D107) and no other;
 *   - on failure the output handle is the null handle (D65), the inputs are as they were (info
 *     keys and values, hints, a queued message, a receive buffer, window memory, a file's view and
 *     bytes, no file created, ...), no request or message is half-registered, and no object is
 *     left behind: a probe makes four objects of each kind and compares their table indices
 *     (docs/decisions.md D1) with those it got before, so an object published by a failed call
 *     shows;
 *   - on success what it made is freed again.
 * Under ASan (./test.sh's last stage) it also shows that nothing leaks.
 *
 * D85: the runtime's own setup, first (before MPI is initialized). MPI_Init (the 1st, 2nd, ...
 * allocation failing alone) and MPI_Init_thread (with every later one failing too), each attempt in
 * a forked child: the initial error handler, MPI_ERRORS_ARE_FATAL, ends the child with exit
 * status 1 (D4) and a message naming the routine and what could not be allocated, never a signal
 * (no abort, no crash) nor a return. The first MPI_Session_init, with MPI_ERRORS_RETURN, in this
 * process: each failure returns MPI_ERR_NO_MEM naming the routine, gives MPI_SESSION_NULL and
 * leaves MPI not initialized (MPI_Initialized, MPI_Finalized false, the routines that need MPI
 * refused), so that the next attempt sets up from nothing; with every later allocation failing too,
 * the same in one forked child. Then a session begins, ends, and MPI_Init initializes MPI: a
 * retry after failed attempts works. Exit status 0: passed. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c_check.h"
#include "fatal_child.h"

typedef long (*switch_fn)(long fail_at, int persistent);
static switch_fn alloc_switch;
static int persistent;
static long injected, attempts;

/* ---- the error handlers: which one each failure went through ---- */
enum { H_SELF, H_WORK, H_WIN, H_SESSION, H_WORLD, H_FILE, H_COUNT };
static const char *const handler_names[H_COUNT] = {"MPI_COMM_SELF's", "the communicator's", "the window's",
                                                   "the session's", "MPI_COMM_WORLD's", "the file's"};
static int calls[H_COUNT], last_code[H_COUNT];
static void on_self(MPI_Comm *c, int *code, ...) { (void)c; ++calls[H_SELF]; last_code[H_SELF] = *code; }
static void on_work(MPI_Comm *c, int *code, ...) { (void)c; ++calls[H_WORK]; last_code[H_WORK] = *code; }
static void on_world(MPI_Comm *c, int *code, ...) { (void)c; ++calls[H_WORLD]; last_code[H_WORLD] = *code; }
static void on_win(MPI_Win *w, int *code, ...) { (void)w; ++calls[H_WIN]; last_code[H_WIN] = *code; }
static void on_session(MPI_Session *s, int *code, ...) { (void)s; ++calls[H_SESSION]; last_code[H_SESSION] = *code; }
/* MPI_FILE_NULL's and so every file's (a file gets MPI_FILE_NULL's handler when opened, D107). */
static void on_file(MPI_File *f, int *code, ...) { (void)f; ++calls[H_FILE]; last_code[H_FILE] = *code; }

/* ---- the objects the routines work on ---- */
static MPI_Comm work, cart;
static MPI_Group wgroup;
static MPI_Info inf;
static MPI_Datatype base, strct;
static MPI_Win win, dwin;
static MPI_Session sess;
static MPI_Errhandler session_eh;
static int wbuf[16], attach_buf[16];

/* ---- the probe: the table indices new objects of each kind get (D1: the low 20 bits) ---- */
enum { K_COMM, K_GROUP, K_TYPE, K_INFO, K_REQUEST, K_WIN, K_ERRHANDLER, K_OP, K_KINDS };
static const char *const kind_names[K_KINDS] = {"communicator", "group", "datatype", "info",
                                                "request", "window", "error handler", "operation"};
#define PROBES 4
typedef unsigned long probe_t[K_KINDS][PROBES];
static probe_t baseline;
#define INDEX(h) ((unsigned long)(uintptr_t)(h) & 0xFFFFFul)
static void user_op(void *in, void *inout, int *len, MPI_Datatype *t) { (void)in; (void)inout; (void)len; (void)t; }
static void sort4(unsigned long *v) {
  for (int i = 1; i < PROBES; ++i)
    for (int j = i; j > 0 && v[j - 1] > v[j]; --j) {
      unsigned long t = v[j];
      v[j] = v[j - 1];
      v[j - 1] = t;
    }
}
static void probe(probe_t out) {
  MPI_Comm c[PROBES];
  MPI_Group g[PROBES];
  MPI_Datatype t[PROBES];
  MPI_Info i[PROBES];
  MPI_Request r[PROBES];
  MPI_Win w[PROBES];
  MPI_Errhandler e[PROBES];
  MPI_Op o[PROBES];
  for (int k = 0; k < PROBES; ++k) {
    OK(MPI_Comm_dup(MPI_COMM_SELF, &c[k]));
    OK(MPI_Comm_group(MPI_COMM_SELF, &g[k]));
    OK(MPI_Type_contiguous(1, MPI_INT, &t[k]));
    OK(MPI_Info_create(&i[k]));
    OK(MPI_Ibarrier(MPI_COMM_SELF, &r[k]));
    OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_SELF, &w[k]));
    OK(MPI_Comm_create_errhandler(on_self, &e[k]));
    OK(MPI_Op_create(user_op, 1, &o[k]));
    out[K_COMM][k] = INDEX(c[k]);
    out[K_GROUP][k] = INDEX(g[k]);
    out[K_TYPE][k] = INDEX(t[k]);
    out[K_INFO][k] = INDEX(i[k]);
    out[K_REQUEST][k] = INDEX(r[k]);
    out[K_WIN][k] = INDEX(w[k]);
    out[K_ERRHANDLER][k] = INDEX(e[k]);
    out[K_OP][k] = INDEX(o[k]);
  }
  for (int k = PROBES - 1; k >= 0; --k) {  /* (in reverse: the free lists give the same indices again) */
    OK(MPI_Comm_free(&c[k]));
    OK(MPI_Group_free(&g[k]));
    OK(MPI_Type_free(&t[k]));
    OK(MPI_Info_free(&i[k]));
    OK(MPI_Wait(&r[k], MPI_STATUS_IGNORE));
    OK(MPI_Win_free(&w[k]));
    OK(MPI_Errhandler_free(&e[k]));
    OK(MPI_Op_free(&o[k]));
  }
  for (int k = 0; k < K_KINDS; ++k) sort4(out[k]);
}
static void no_object_left(const char *routine, long n) {
  probe_t now;
  probe(now);
  for (int k = 0; k < K_KINDS; ++k)
    CHECK(memcmp(now[k], baseline[k], sizeof now[k]) == 0,
          "%s, allocation %ld failing%s: a %s was left behind (new %ss get other table indices)", routine, n,
          persistent ? " and every later one" : "", kind_names[k], kind_names[k]);
}

/* ---- snapshots of what a failed call must leave as it was ---- */
struct info_snap {
  int nkeys;
  char keys[8][MPI_MAX_INFO_KEY + 1];
  char values[8][64];
};
static void info_take(MPI_Info i, struct info_snap *s) {
  memset(s, 0, sizeof *s);
  OK(MPI_Info_get_nkeys(i, &s->nkeys));
  for (int k = 0; k < s->nkeys && k < 8; ++k) {
    int flag = 0, len = 64;
    OK(MPI_Info_get_nthkey(i, k, s->keys[k]));
    OK(MPI_Info_get_string(i, s->keys[k], &len, s->values[k], &flag));
  }
}
static int info_same(const struct info_snap *a, const struct info_snap *b) { return memcmp(a, b, sizeof *a) == 0; }
static void hints_take(MPI_Comm c, struct info_snap *s) {
  MPI_Info used;
  OK(MPI_Comm_get_info(c, &used));
  info_take(used, s);
  OK(MPI_Info_free(&used));
}
static void win_hints_take(MPI_Win w, struct info_snap *s) {
  MPI_Info used;
  OK(MPI_Win_get_info(w, &used));
  info_take(used, s);
  OK(MPI_Info_free(&used));
}
static struct info_snap inf_before, hints_before, win_hints_before;
static int lastusedcode(void) {
  int *v = NULL, flag = 0;
  OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &v, &flag));
  return flag ? *v : -1;
}
/* Whether a message with `tag` is queued on work (taking it off when `take`). */
static int queued(int tag, int take) {
  int flag = 0, got = 0;
  OK(MPI_Iprobe(0, tag, work, &flag, MPI_STATUS_IGNORE));
  if (flag && take) OK(MPI_Recv(&got, 1, MPI_INT, 0, tag, work, MPI_STATUS_IGNORE));
  return flag;
}
static void type_state(MPI_Datatype t, long s[6]) {
  int ni = 0, na = 0, nd = 0, comb = 0, size = 0;
  MPI_Aint lb = 0, extent = 0;
  OK(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
  OK(MPI_Type_size(t, &size));
  OK(MPI_Type_get_extent(t, &lb, &extent));
  s[0] = ni, s[1] = na, s[2] = nd, s[3] = comb, s[4] = size, s[5] = (long)extent;
}
static long base_state[6], strct_state[6];

/* ---- one attempt ---- */
static const char *routine;
static int expect;  /* the handler a failure must go through */
static long cur_n;

/* The result: MPI_SUCCESS, or MPI_ERR_NO_MEM naming the routine, raised once on `expect`. */
static int outcome(int rc) {
  int failed = rc != MPI_SUCCESS;
  for (int h = 0; h < H_COUNT; ++h) {
    int want = failed && h == expect;
    CHECK(calls[h] == want, "%s, allocation %ld failing: %s handler called %d times, not %d", routine, cur_n,
          handler_names[h], calls[h], want);
    if (want && calls[h] == 1) CHECK(last_code[h] == rc, "%s: the handler got code %d, the call returned %d", routine, last_code[h], rc);
  }
  if (!failed) return 0;
  int cls = -1;
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_NO_MEM, "%s, allocation %ld failing: error class %d, not MPI_ERR_NO_MEM", routine, cur_n, cls);
  if (!persistent) {  /* (with every later allocation failing the message may not be stored: the bare class) */
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    CHECK(strstr(msg, routine) != NULL && strstr(msg, "out of memory") != NULL,
          "%s: the message does not say the routine ran out of memory: %s", routine, msg);
  }
  return 1;
}

/* Runs op with the nth allocation failing, n = 1, 2, ... until op makes fewer than n; setup (if
 * any) prepares each attempt, check(failed) checks it and frees what a success made. */
static void sweep(const char *name, int handler, void (*setup)(void), int (*op)(void), void (*check)(int failed)) {
  routine = name;
  expect = handler;
  probe(baseline);  /* (what earlier sweeps made to keep, as MPI_Type_create_f90_integer's type, stays) */
  for (long n = 1;; ++n) {
    cur_n = n;
    if (setup) setup();
    memset(calls, 0, sizeof calls);
    alloc_switch(n, persistent);
    int rc = op();
    long made = alloc_switch(0, 0);
    int failed = outcome(rc);
    injected += failed;
    ++attempts;
    check(failed);
    if (failed) no_object_left(name, n);
    if (made < n) {
      CHECK(!failed, "%s failed with no allocation failing", name);
      return;
    }
    if (failures > 20 || n > 5000) {
      fprintf(stderr, "FAIL: %s: stopping\n", name);
      exit(1);
    }
  }
}

/* ---- the routines: each op writes one output, each check sees what it must ---- */
static MPI_Info out_info;
static MPI_Group out_group;
static MPI_Comm out_comm;
static MPI_Datatype out_type;
static MPI_Request out_req;
static MPI_Win out_win;
static MPI_Errhandler out_eh;
static MPI_Op out_op;
static MPI_Session out_sess;
static MPI_Message msg;
static int rbuf[4], sbuf[4] = {1, 2, 3, 4};
static void *out_base;

#define NULL_OR_FREE(out, null, freeing, what)                                    \
  do {                                                                            \
    if (failed) CHECK(out == null, "%s: a failed call gave a " what, routine); \
    else if (out != null) OK(freeing(&out));                                      \
  } while (0)

/* info */
static int op_info_create(void) { out_info = (MPI_Info)(uintptr_t)0x1234; return MPI_Info_create(&out_info); }
static void check_info_out(int failed) { NULL_OR_FREE(out_info, MPI_INFO_NULL, MPI_Info_free, "new info"); }
static int op_info_dup(void) { out_info = (MPI_Info)(uintptr_t)0x1234; return MPI_Info_dup(inf, &out_info); }
static void check_info_dup(int failed) {
  struct info_snap now;
  info_take(inf, &now);
  CHECK(info_same(&now, &inf_before), "MPI_Info_dup changed its input");
  if (!failed) {
    struct info_snap copy;
    info_take(out_info, &copy);
    CHECK(info_same(&copy, &inf_before), "MPI_Info_dup's copy differs");
  }
  check_info_out(failed);
}
static int op_info_set_new(void) { return MPI_Info_set(inf, "k3", "v3"); }
static int op_info_set_longer(void) { return MPI_Info_set(inf, "k1", "a value much longer than the one it replaces, on the heap"); }
static void check_info_set(int failed) {
  struct info_snap now;
  info_take(inf, &now);
  if (failed) {
    CHECK(info_same(&now, &inf_before), "a failed MPI_Info_set changed the info");
  } else {
    MPI_Info_delete(inf, "k3");
    OK(MPI_Info_set(inf, "k1", "v1"));  /* back as it was, in its place */
    info_take(inf, &now);
    CHECK(info_same(&now, &inf_before), "MPI_Info_set then undone: the info differs");
  }
}
static int op_info_create_env(void) { out_info = (MPI_Info)(uintptr_t)0x1234; return MPI_Info_create_env(0, NULL, &out_info); }
static int op_hw_info(void) { out_info = (MPI_Info)(uintptr_t)0x1234; return MPI_Get_hw_resource_info(&out_info); }
static int op_comm_set_info(void) { return MPI_Comm_set_info(work, inf); }
static void check_comm_set_info(int failed) {
  struct info_snap now;
  hints_take(work, &now);
  if (failed) CHECK(info_same(&now, &hints_before), "a failed MPI_Comm_set_info changed the hints");
  else hints_before = now;
}
static int op_comm_get_info(void) { out_info = (MPI_Info)(uintptr_t)0x1234; return MPI_Comm_get_info(work, &out_info); }
static int op_win_set_info(void) { return MPI_Win_set_info(win, inf); }
static void check_win_set_info(int failed) {
  struct info_snap now;
  win_hints_take(win, &now);
  if (failed) CHECK(info_same(&now, &win_hints_before), "a failed MPI_Win_set_info changed the hints");
  else win_hints_before = now;
}
static int op_win_get_info(void) { out_info = (MPI_Info)(uintptr_t)0x1234; return MPI_Win_get_info(win, &out_info); }

/* groups */
static void check_group_out(int failed) {
  int size = -1;
  OK(MPI_Group_size(wgroup, &size));
  CHECK(size == 1, "%s changed its group's size to %d", routine, size);
  if (failed) CHECK(out_group == MPI_GROUP_NULL, "%s: a failed call gave a group", routine);
  else if (out_group != MPI_GROUP_NULL && out_group != MPI_GROUP_EMPTY) OK(MPI_Group_free(&out_group));
}
static int op_comm_group(void) { out_group = (MPI_Group)(uintptr_t)0x1234; return MPI_Comm_group(work, &out_group); }
static int op_group_incl(void) {
  static const int ranks[1] = {0};
  out_group = (MPI_Group)(uintptr_t)0x1234;
  return MPI_Group_incl(wgroup, 1, ranks, &out_group);
}
static int op_group_union(void) { out_group = (MPI_Group)(uintptr_t)0x1234; return MPI_Group_union(wgroup, wgroup, &out_group); }
static int op_group_range_incl(void) {
  int ranges[1][3] = {{0, 0, 1}};
  out_group = (MPI_Group)(uintptr_t)0x1234;
  return MPI_Group_range_incl(wgroup, 1, ranges, &out_group);
}

/* communicators and topologies */
static void check_comm_out(int failed) {
  struct info_snap now;
  hints_take(work, &now);
  CHECK(info_same(&now, &hints_before), "%s changed the hints of its communicator", routine);
  NULL_OR_FREE(out_comm, MPI_COMM_NULL, MPI_Comm_free, "communicator");
}
static int op_comm_split(void) { out_comm = (MPI_Comm)(uintptr_t)0x1234; return MPI_Comm_split(work, 0, 0, &out_comm); }
static int op_comm_split_type(void) {
  out_comm = (MPI_Comm)(uintptr_t)0x1234;
  return MPI_Comm_split_type(work, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &out_comm);
}
static int op_comm_create(void) { out_comm = (MPI_Comm)(uintptr_t)0x1234; return MPI_Comm_create(work, wgroup, &out_comm); }
static int op_comm_create_group(void) { out_comm = (MPI_Comm)(uintptr_t)0x1234; return MPI_Comm_create_group(work, wgroup, 7, &out_comm); }
static int op_comm_dup_with_info(void) { out_comm = (MPI_Comm)(uintptr_t)0x1234; return MPI_Comm_dup_with_info(work, inf, &out_comm); }
static int op_comm_idup(void) {
  out_comm = (MPI_Comm)(uintptr_t)0x1234;
  out_req = (MPI_Request)(uintptr_t)0x1234;
  return MPI_Comm_idup(work, &out_comm, &out_req);
}
static void check_comm_idup(int failed) {
  if (failed) CHECK(out_req == MPI_REQUEST_NULL, "a failed MPI_Comm_idup gave a request");
  else OK(MPI_Wait(&out_req, MPI_STATUS_IGNORE));
  check_comm_out(failed);
}
static int op_cart_create(void) {
  static const int dims[2] = {1, 1}, periods[2] = {1, 0};
  out_comm = (MPI_Comm)(uintptr_t)0x1234;
  return MPI_Cart_create(work, 2, dims, periods, 0, &out_comm);
}
static int op_graph_create(void) {
  static const int index[1] = {1}, edges[1] = {0};
  out_comm = (MPI_Comm)(uintptr_t)0x1234;
  return MPI_Graph_create(work, 1, index, edges, 0, &out_comm);
}
static int op_dist_graph_create_adjacent(void) {
  static const int peers[1] = {0}, weights[1] = {5};
  out_comm = (MPI_Comm)(uintptr_t)0x1234;
  return MPI_Dist_graph_create_adjacent(work, 1, peers, weights, 1, peers, weights, MPI_INFO_NULL, 0, &out_comm);
}
static void check_topology_out(int failed) {
  if (!failed) {
    int kind = -1;
    OK(MPI_Topo_test(out_comm, &kind));
    CHECK(kind != MPI_UNDEFINED, "%s made a communicator without its topology", routine);
  }
  check_comm_out(failed);
}
static int op_cart_sub(void) {
  static const int remain[2] = {1, 0};
  out_comm = (MPI_Comm)(uintptr_t)0x1234;
  return MPI_Cart_sub(cart, remain, &out_comm);
}

/* datatypes */
static void check_type_out(int failed) {
  long now[6];
  type_state(base, now);
  CHECK(memcmp(now, base_state, sizeof now) == 0, "%s changed its input datatype", routine);
  type_state(strct, now);
  CHECK(memcmp(now, strct_state, sizeof now) == 0, "%s changed the struct datatype", routine);
  NULL_OR_FREE(out_type, MPI_DATATYPE_NULL, MPI_Type_free, "datatype");
}
static int op_type_contiguous(void) { out_type = (MPI_Datatype)(uintptr_t)0x1234; return MPI_Type_contiguous(3, base, &out_type); }
static int op_type_vector(void) { out_type = (MPI_Datatype)(uintptr_t)0x1234; return MPI_Type_vector(3, 2, 4, base, &out_type); }
static int op_type_indexed(void) {
  static const int bl[3] = {1, 2, 1}, disp[3] = {0, 3, 9};
  out_type = (MPI_Datatype)(uintptr_t)0x1234;
  return MPI_Type_indexed(3, bl, disp, base, &out_type);
}
static int op_type_indexed_c(void) {  /* a large-count form: the binding converts the arrays (D47) */
  static const MPI_Count bl[3] = {1, 2, 1}, disp[3] = {0, 3, 9};
  out_type = (MPI_Datatype)(uintptr_t)0x1234;
  return MPI_Type_indexed_c(3, bl, disp, base, &out_type);
}
static int op_type_struct(void) {
  static const int bl[2] = {1, 2};
  static const MPI_Aint disp[2] = {0, 64};
  MPI_Datatype types[2] = {base, MPI_DOUBLE};
  out_type = (MPI_Datatype)(uintptr_t)0x1234;
  return MPI_Type_create_struct(2, bl, disp, types, &out_type);
}
static int op_type_subarray(void) {
  static const int sizes[2] = {4, 6}, subsizes[2] = {2, 3}, starts[2] = {1, 2};
  out_type = (MPI_Datatype)(uintptr_t)0x1234;
  return MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, base, &out_type);
}
static int op_type_darray(void) {
  static const int gsizes[2] = {4, 6}, distribs[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC},
                   dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, psizes[2] = {1, 1};
  out_type = (MPI_Datatype)(uintptr_t)0x1234;
  return MPI_Type_create_darray(1, 0, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_FORTRAN, MPI_INT, &out_type);
}
static int op_type_resized(void) { out_type = (MPI_Datatype)(uintptr_t)0x1234; return MPI_Type_create_resized(base, -4, 40, &out_type); }
static int op_type_dup(void) { out_type = (MPI_Datatype)(uintptr_t)0x1234; return MPI_Type_dup(strct, &out_type); }
static int op_type_f90_integer(void) { out_type = (MPI_Datatype)(uintptr_t)0x1234; return MPI_Type_create_f90_integer(9, &out_type); }
static void check_type_f90(int failed) {
  if (failed) CHECK(out_type == MPI_DATATYPE_NULL, "a failed MPI_Type_create_f90_integer gave a datatype");
  else CHECK(out_type != MPI_DATATYPE_NULL, "MPI_Type_create_f90_integer gave MPI_DATATYPE_NULL");
}
static int ints[4];
static MPI_Aint addrs[4];
static MPI_Datatype parts[4];
static int op_type_get_contents(void) {
  for (int i = 0; i < 4; ++i) ints[i] = -7, addrs[i] = -7, parts[i] = (MPI_Datatype)(uintptr_t)0x1234;
  return MPI_Type_get_contents(strct, 4, 4, 4, ints, addrs, parts);
}
static void check_type_get_contents(int failed) {
  if (failed) {
    for (int i = 0; i < 4; ++i)
      CHECK(ints[i] == -7 && addrs[i] == -7 && parts[i] == (MPI_Datatype)(uintptr_t)0x1234,
            "a failed MPI_Type_get_contents wrote its outputs");
  } else {
    CHECK(parts[0] != MPI_DATATYPE_NULL && parts[1] == MPI_DOUBLE, "MPI_Type_get_contents: wrong datatypes");
    OK(MPI_Type_free(&parts[0]));  /* the derived one is new (the predefined one is itself) */
  }
  out_type = MPI_DATATYPE_NULL;
  check_type_out(failed);
}

/* requests, point-to-point and collectives, on work */
#define TAG 11
static void check_req_null(int failed) {
  if (failed) CHECK(out_req == MPI_REQUEST_NULL, "%s: a failed call gave a request", routine);
}
static int op_isend(void) { out_req = (MPI_Request)(uintptr_t)0x1234; return MPI_Isend(sbuf, 1, MPI_INT, 0, TAG, work, &out_req); }
static void check_isend(int failed) {
  check_req_null(failed);
  CHECK(queued(TAG, 1) == !failed, "%s: %s", routine, failed ? "a failed send queued its message" : "the message is not queued");
  if (!failed) OK(MPI_Wait(&out_req, MPI_STATUS_IGNORE));
}
static int op_irecv(void) {
  rbuf[0] = -1;
  out_req = (MPI_Request)(uintptr_t)0x1234;
  return MPI_Irecv(rbuf, 1, MPI_INT, 0, TAG, work, &out_req);
}
static void check_irecv_posted(int failed) {  /* no message was queued: the receive waits */
  check_req_null(failed);
  OK(MPI_Send(&sbuf[1], 1, MPI_INT, 0, TAG, work));
  if (failed) {  /* no half-posted receive took it */
    CHECK(queued(TAG, 1), "a failed MPI_Irecv left a posted receive behind (it took the next message)");
  } else {
    OK(MPI_Wait(&out_req, MPI_STATUS_IGNORE));
    CHECK(rbuf[0] == 2, "MPI_Irecv received %d", rbuf[0]);
  }
}
static void send_first(void) { OK(MPI_Send(&sbuf[2], 1, MPI_INT, 0, TAG, work)); }
static void check_irecv_matched(int failed) {  /* a message was queued: the receive takes it at once */
  check_req_null(failed);
  if (failed) {
    CHECK(rbuf[0] == -1, "a failed MPI_Irecv wrote the receive buffer");
    CHECK(queued(TAG, 1), "a failed MPI_Irecv took the message off the queue");
  } else {
    OK(MPI_Wait(&out_req, MPI_STATUS_IGNORE));
    CHECK(rbuf[0] == 3, "MPI_Irecv received %d", rbuf[0]);
    CHECK(!queued(TAG, 0), "MPI_Irecv left its message queued");
  }
}
static int op_isendrecv(void) {
  rbuf[0] = -1;
  out_req = (MPI_Request)(uintptr_t)0x1234;
  return MPI_Isendrecv(&sbuf[3], 1, MPI_INT, 0, TAG, rbuf, 1, MPI_INT, 0, TAG, work, &out_req);
}
static void check_isendrecv(int failed) {
  check_req_null(failed);
  if (failed) {
    CHECK(rbuf[0] == -1, "a failed MPI_Isendrecv wrote the receive buffer");
    CHECK(!queued(TAG, 1), "a failed MPI_Isendrecv sent its message");
  } else {
    OK(MPI_Wait(&out_req, MPI_STATUS_IGNORE));
    CHECK(rbuf[0] == 4 && !queued(TAG, 0), "MPI_Isendrecv received %d", rbuf[0]);
  }
}
static void mprobe_first(void) {
  send_first();
  OK(MPI_Mprobe(0, TAG, work, &msg, MPI_STATUS_IGNORE));
}
static int op_imrecv(void) {
  rbuf[0] = -1;
  out_req = (MPI_Request)(uintptr_t)0x1234;
  return MPI_Imrecv(rbuf, 1, MPI_INT, &msg, &out_req);
}
static void check_imrecv(int failed) {
  check_req_null(failed);
  if (failed) {  /* the matched message is still there to receive */
    CHECK(rbuf[0] == -1 && msg != MPI_MESSAGE_NULL, "a failed MPI_Imrecv received its message");
    if (msg != MPI_MESSAGE_NULL) OK(MPI_Mrecv(rbuf, 1, MPI_INT, &msg, MPI_STATUS_IGNORE));
  } else {
    OK(MPI_Wait(&out_req, MPI_STATUS_IGNORE));
  }
  CHECK(rbuf[0] == 3 && msg == MPI_MESSAGE_NULL, "MPI_Imrecv: the message was not received (%d)", rbuf[0]);
}
static void check_req_out(int failed) {
  check_req_null(failed);
  if (!failed) OK(MPI_Request_free(&out_req));
}
static int op_send_init(void) { out_req = (MPI_Request)(uintptr_t)0x1234; return MPI_Send_init(sbuf, 1, MPI_INT, 0, TAG, work, &out_req); }
static int op_recv_init(void) { out_req = (MPI_Request)(uintptr_t)0x1234; return MPI_Recv_init(rbuf, 1, MPI_INT, 0, TAG, work, &out_req); }
static int op_bcast_init(void) {
  out_req = (MPI_Request)(uintptr_t)0x1234;
  return MPI_Bcast_init(rbuf, 2, MPI_INT, 0, work, MPI_INFO_NULL, &out_req);
}
static int g_query(void *s, MPI_Status *st) { (void)s; MPI_Status_set_elements(st, MPI_BYTE, 0); MPI_Status_set_cancelled(st, 0); return MPI_SUCCESS; }
static int g_free(void *s) { (void)s; return MPI_SUCCESS; }
static int g_cancel(void *s, int c) { (void)s; (void)c; return MPI_SUCCESS; }
static int op_grequest_start(void) { out_req = (MPI_Request)(uintptr_t)0x1234; return MPI_Grequest_start(g_query, g_free, g_cancel, NULL, &out_req); }
static void check_grequest(int failed) {
  check_req_null(failed);
  if (!failed) {
    OK(MPI_Grequest_complete(out_req));
    OK(MPI_Wait(&out_req, MPI_STATUS_IGNORE));
  }
}
static void check_req_wait(int failed) {
  check_req_null(failed);
  if (!failed) OK(MPI_Wait(&out_req, MPI_STATUS_IGNORE));
}
static int op_ibarrier(void) { out_req = (MPI_Request)(uintptr_t)0x1234; return MPI_Ibarrier(work, &out_req); }
static int op_iallreduce(void) {
  for (int i = 0; i < 4; ++i) rbuf[i] = -1;
  out_req = (MPI_Request)(uintptr_t)0x1234;
  return MPI_Iallreduce(sbuf, rbuf, 4, MPI_INT, MPI_SUM, work, &out_req);
}
static void check_iallreduce(int failed) {
  check_req_null(failed);
  if (failed) {
    for (int i = 0; i < 4; ++i) CHECK(rbuf[i] == -1, "a failed MPI_Iallreduce wrote its receive buffer");
  } else {
    OK(MPI_Wait(&out_req, MPI_STATUS_IGNORE));
    CHECK(rbuf[3] == 4, "MPI_Iallreduce gave %d", rbuf[3]);
  }
}

/* windows and one-sided communication */
static void check_win_out(int failed) {
  if (failed) CHECK(out_win == MPI_WIN_NULL, "%s: a failed call gave a window", routine);
  else OK(MPI_Win_free(&out_win));
}
static int op_win_create(void) {
  out_win = (MPI_Win)(uintptr_t)0x1234;
  return MPI_Win_create(wbuf, sizeof wbuf, sizeof wbuf[0], inf, work, &out_win);
}
static int op_win_allocate(void) {
  out_win = (MPI_Win)(uintptr_t)0x1234;
  out_base = NULL;
  return MPI_Win_allocate(64, 4, MPI_INFO_NULL, work, &out_base, &out_win);
}
static void check_win_allocate(int failed) {
  if (failed) CHECK(out_base == NULL, "a failed MPI_Win_allocate gave memory");
  check_win_out(failed);
}
static int op_win_create_dynamic(void) { out_win = (MPI_Win)(uintptr_t)0x1234; return MPI_Win_create_dynamic(inf, work, &out_win); }
static int op_win_attach(void) { return MPI_Win_attach(dwin, attach_buf, sizeof attach_buf); }
static void check_win_attach(int failed) {
  if (failed) OK(MPI_Win_attach(dwin, attach_buf, sizeof attach_buf));  /* not attached: it can be now */
  OK(MPI_Win_detach(dwin, attach_buf));
}
static int op_rput(void) {
  out_req = (MPI_Request)(uintptr_t)0x1234;
  return MPI_Rput(&sbuf[3], 1, MPI_INT, 0, 5, 1, MPI_INT, win, &out_req);
}
static void check_rput(int failed) {
  check_req_null(failed);
  if (failed) {
    CHECK(wbuf[5] == 0, "a failed MPI_Rput wrote the window");
  } else {
    OK(MPI_Wait(&out_req, MPI_STATUS_IGNORE));
    CHECK(wbuf[5] == 4, "MPI_Rput wrote %d", wbuf[5]);
    wbuf[5] = 0;
  }
}

/* error handling and operations */
static int op_comm_create_errhandler(void) {
  out_eh = (MPI_Errhandler)(uintptr_t)0x1234;
  return MPI_Comm_create_errhandler(on_self, &out_eh);
}
static void check_eh_out(int failed) { NULL_OR_FREE(out_eh, MPI_ERRHANDLER_NULL, MPI_Errhandler_free, "error handler"); }
static int last_before, new_class;
static int op_add_error_class(void) { new_class = -1; return MPI_Add_error_class(&new_class); }
static void check_add_error_class(int failed) {
  if (failed) {
    CHECK(lastusedcode() == last_before && new_class == -1, "a failed MPI_Add_error_class added a class");
  } else {
    CHECK(new_class > last_before && lastusedcode() == new_class, "MPI_Add_error_class: class %d", new_class);
    last_before = new_class;
    OK(MPI_Remove_error_class(new_class));
  }
}
static int text_code;
static int op_add_error_string(void) { return MPI_Add_error_string(text_code, "the program's own words for its own error"); }
static void check_add_error_string(int failed) {
  char s[MPI_MAX_ERROR_STRING];
  int len = 0;
  OK(MPI_Error_string(text_code, s, &len));
  if (failed) {
    CHECK(strstr(s, "own words") == NULL, "a failed MPI_Add_error_string set its string");
  } else {
    CHECK(strstr(s, "own words") != NULL, "MPI_Add_error_string did not set its string: %s", s);
    OK(MPI_Remove_error_string(text_code));
  }
}
static int op_op_create(void) { out_op = (MPI_Op)(uintptr_t)0x1234; return MPI_Op_create(user_op, 0, &out_op); }
static void check_op_out(int failed) { NULL_OR_FREE(out_op, MPI_OP_NULL, MPI_Op_free, "operation"); }

/* sessions */
static int op_session_init(void) { out_sess = (MPI_Session)(uintptr_t)0x1234; return MPI_Session_init(inf, session_eh, &out_sess); }
static void check_session_out(int failed) { NULL_OR_FREE(out_sess, MPI_SESSION_NULL, MPI_Session_finalize, "session"); }
static int op_session_get_info(void) { out_info = (MPI_Info)(uintptr_t)0x1234; return MPI_Session_get_info(sess, &out_info); }
static MPI_Group pset_group;
static int op_group_from_pset(void) {
  out_group = (MPI_Group)(uintptr_t)0x1234;
  return MPI_Group_from_session_pset(sess, "mpi://SELF", &out_group);
}
static int op_comm_create_from_group(void) {
  out_comm = (MPI_Comm)(uintptr_t)0x1234;
  return MPI_Comm_create_from_group(pset_group, "D65", inf, MPI_ERRORS_RETURN, &out_comm);
}

/* The Fortran entry points (mpif.h / `use mpi`, and mpi_f08's large-count specific), by link name:
 * the output is the Fortran null handle on failure, IERROR the code. */
typedef void (*f_info_create_fn)(MPI_Fint *info, MPI_Fint *ierror);
typedef void (*f_indexed_c_fn)(const MPI_Count *count, const MPI_Count *bl, const MPI_Count *disp,
                               const MPI_Fint *oldtype, MPI_Fint *newtype, MPI_Fint *ierror);
static f_info_create_fn f_info_create;
static f_indexed_c_fn f_indexed_c;
static MPI_Fint f_out, f_ierr;
static int op_f_info_create(void) {
  f_out = 0x1234;
  f_info_create(&f_out, &f_ierr);
  out_info = f_out == 0x1234 ? (MPI_Info)(uintptr_t)0x1234 : MPI_Info_f2c(f_out);
  return f_ierr;
}
static int op_f_type_indexed_c(void) {
  static const MPI_Count count = 3, bl[3] = {1, 2, 1}, disp[3] = {0, 3, 9};
  MPI_Fint old = MPI_Type_c2f(base);
  f_out = 0x1234;
  f_indexed_c(&count, bl, disp, &old, &f_out, &f_ierr);
  out_type = f_out == 0x1234 ? (MPI_Datatype)(uintptr_t)0x1234 : MPI_Type_f2c(f_out);
  return f_ierr;
}

/* files (D107): a file open throughout (fh), and one each MPI_File_open makes */
static MPI_File fh, out_file;
static char file_path[64], open_path[64];
static const int file_data[4] = {1, 2, 3, 4};
static int file_same(void) {  /* the file holds file_data, nothing else */
  int got[5] = {0, 0, 0, 0, 0};
  MPI_Status st;
  int n = -1;
  OK(MPI_File_read_at(fh, 0, got, 5, MPI_INT, &st));
  OK(MPI_Get_count(&st, MPI_INT, &n));
  return n == 4 && memcmp(got, file_data, sizeof file_data) == 0;
}
static int op_file_open(void) {
  out_file = (MPI_File)(uintptr_t)0x1234;
  return MPI_File_open(work, open_path, MPI_MODE_CREATE | MPI_MODE_RDWR, inf, &out_file);
}
static void check_file_open(int failed) {
  if (failed) {
    CHECK(out_file == MPI_FILE_NULL, "%s: a failed call gave a file", routine);
    FILE *f = fopen(open_path, "r");
    CHECK(f == NULL, "%s: a failed call created the file", routine);
    if (f) fclose(f);
    remove(open_path);
  } else {
    OK(MPI_File_close(&out_file));
    OK(MPI_File_delete(open_path, MPI_INFO_NULL));
  }
}
static int op_file_set_view(void) { return MPI_File_set_view(fh, 4, MPI_INT, base, "native", inf); }
static void check_file_set_view(int failed) {
  MPI_Offset at = -1;
  OK(MPI_File_get_byte_offset(fh, 1, &at));
  if (failed) CHECK(at == 1, "%s: a failed call changed the view (etype 1 at byte %lld)", routine, (long long)at);
  else CHECK(at == 12, "%s: etype 1 of the view at byte %lld, not 12", routine, (long long)at);
  OK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
  CHECK(file_same(), "%s: the file changed", routine);
}
static MPI_Datatype view_etype, view_ftype;
static int op_file_get_view(void) {
  char rep[MPI_MAX_DATAREP_STRING];
  MPI_Offset disp = -1;
  view_etype = view_ftype = (MPI_Datatype)(uintptr_t)0x1234;
  return MPI_File_get_view(fh, &disp, &view_etype, &view_ftype, rep);
}
static void check_file_get_view(int failed) {
  if (failed) return;  /* (no datatype left behind: the probe) */
  CHECK(view_etype == MPI_INT, "%s: the etype is not MPI_INT", routine);
  OK(MPI_Type_free(&view_ftype));
}
static int op_file_get_info(void) { out_info = (MPI_Info)(uintptr_t)0x1234; return MPI_File_get_info(fh, &out_info); }
static int op_file_get_group(void) { out_group = (MPI_Group)(uintptr_t)0x1234; return MPI_File_get_group(fh, &out_group); }
static int op_file_write_strided(void) {  /* through a packing buffer: every other int of a vector */
  static const int mem[3] = {9, -1, 9};
  MPI_Status st;
  return MPI_File_write_at(fh, 0, mem, 1, base, &st);
}
static void check_file_write(int failed) {
  if (failed) {
    CHECK(file_same(), "%s: a failed call changed the file", routine);
  } else {
    MPI_Status st;
    OK(MPI_File_write_at(fh, 0, file_data, 4, MPI_INT, &st));
  }
}
static int op_file_iwrite_at(void) {
  out_req = (MPI_Request)(uintptr_t)0x1234;
  static const int mem[2] = {9, 9};
  return MPI_File_iwrite_at(fh, 0, mem, 2, MPI_INT, &out_req);
}
static void check_file_iwrite_at(int failed) {
  if (failed) {
    CHECK(out_req == MPI_REQUEST_NULL, "%s: a failed call gave a request", routine);
  } else {
    MPI_Status st;
    int n = -1;
    OK(MPI_Wait(&out_req, &st));
    OK(MPI_Get_count(&st, MPI_INT, &n));
    CHECK(n == 2, "%s: the request's status counts %d ints, not 2", routine, n);
  }
  check_file_write(failed);
}
/* D118: a registration (a fresh name each attempt: a failed one registers nothing), and a write
 * through a registered representation whose functions copy the ints as they are. */
static int d118_extent(MPI_Datatype t, MPI_Aint *e, void *state) {
  (void)state;
  int n = 0;
  MPI_Type_size(t, &n);
  *e = n;
  return MPI_SUCCESS;
}
static int d118_read(void *user, MPI_Datatype t, int count, void *file, MPI_Offset pos, void *state) {
  (void)t, (void)state;
  memcpy((int *)user + pos, file, sizeof(int) * (size_t)count);
  return MPI_SUCCESS;
}
static int d118_write(void *user, MPI_Datatype t, int count, void *file, MPI_Offset pos, void *state) {
  (void)t, (void)state;
  memcpy(file, (const int *)user + pos, sizeof(int) * (size_t)count);
  return MPI_SUCCESS;
}
static char rep_name[32];
static int rep_serial;
static void next_rep_name(void) { snprintf(rep_name, sizeof rep_name, "d65-%d", ++rep_serial); }
static int op_register_datarep(void) { return MPI_Register_datarep(rep_name, d118_read, d118_write, d118_extent, NULL); }
static void check_register_datarep(int failed) {
  const int rc = MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, rep_name, MPI_INFO_NULL);
  int cls = -1;
  MPI_Error_class(rc, &cls);
  if (failed) CHECK(cls == MPI_ERR_UNSUPPORTED_DATAREP, "%s: a failed call registered \"%s\" (%d)", routine, rep_name, cls);
  else CHECK(rc == MPI_SUCCESS, "%s: \"%s\" was not registered", routine, rep_name);
  OK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
}
static void view_in_rep(void) { OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "d65-copy", MPI_INFO_NULL)); }
static int op_file_write_rep(void) {
  static const int mem[2] = {9, 9};
  MPI_Status st;
  return MPI_File_write_at(fh, 0, mem, 2, MPI_INT, &st);
}
static void check_file_write_rep(int failed) {
  OK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
  check_file_write(failed);
}

static void run_all(void) {
  info_take(inf, &inf_before);
  hints_take(work, &hints_before);
  win_hints_take(win, &win_hints_before);
  /* info objects and hints */
  sweep("MPI_Info_create", H_SELF, NULL, op_info_create, check_info_out);
  sweep("MPI_Info_dup", H_SELF, NULL, op_info_dup, check_info_dup);
  sweep("MPI_Info_set", H_SELF, NULL, op_info_set_new, check_info_set);
  sweep("MPI_Info_set", H_SELF, NULL, op_info_set_longer, check_info_set);
  sweep("MPI_Info_create_env", H_SELF, NULL, op_info_create_env, check_info_out);
  sweep("MPI_Get_hw_resource_info", H_SELF, NULL, op_hw_info, check_info_out);
  sweep("MPI_Comm_set_info", H_WORK, NULL, op_comm_set_info, check_comm_set_info);
  sweep("MPI_Comm_get_info", H_WORK, NULL, op_comm_get_info, check_info_out);
  sweep("MPI_Win_set_info", H_WIN, NULL, op_win_set_info, check_win_set_info);
  sweep("MPI_Win_get_info", H_WIN, NULL, op_win_get_info, check_info_out);
  /* groups */
  sweep("MPI_Comm_group", H_WORK, NULL, op_comm_group, check_group_out);
  sweep("MPI_Group_incl", H_SELF, NULL, op_group_incl, check_group_out);
  sweep("MPI_Group_union", H_SELF, NULL, op_group_union, check_group_out);
  sweep("MPI_Group_range_incl", H_SELF, NULL, op_group_range_incl, check_group_out);
  /* communicators and topologies */
  sweep("MPI_Comm_split", H_WORK, NULL, op_comm_split, check_comm_out);
  sweep("MPI_Comm_split_type", H_WORK, NULL, op_comm_split_type, check_comm_out);
  sweep("MPI_Comm_create", H_WORK, NULL, op_comm_create, check_comm_out);
  sweep("MPI_Comm_create_group", H_WORK, NULL, op_comm_create_group, check_comm_out);
  sweep("MPI_Comm_dup_with_info", H_WORK, NULL, op_comm_dup_with_info, check_comm_out);
  sweep("MPI_Comm_idup", H_WORK, NULL, op_comm_idup, check_comm_idup);
  sweep("MPI_Cart_create", H_WORK, NULL, op_cart_create, check_topology_out);
  sweep("MPI_Graph_create", H_WORK, NULL, op_graph_create, check_topology_out);
  sweep("MPI_Dist_graph_create_adjacent", H_WORK, NULL, op_dist_graph_create_adjacent, check_topology_out);
  sweep("MPI_Cart_sub", H_WORK, NULL, op_cart_sub, check_topology_out);
  /* datatypes */
  sweep("MPI_Type_contiguous", H_SELF, NULL, op_type_contiguous, check_type_out);
  sweep("MPI_Type_vector", H_SELF, NULL, op_type_vector, check_type_out);
  sweep("MPI_Type_indexed", H_SELF, NULL, op_type_indexed, check_type_out);
  sweep("MPI_Type_indexed_c", H_SELF, NULL, op_type_indexed_c, check_type_out);
  sweep("MPI_Type_create_struct", H_SELF, NULL, op_type_struct, check_type_out);
  sweep("MPI_Type_create_subarray", H_SELF, NULL, op_type_subarray, check_type_out);
  sweep("MPI_Type_create_darray", H_SELF, NULL, op_type_darray, check_type_out);
  sweep("MPI_Type_create_resized", H_SELF, NULL, op_type_resized, check_type_out);
  sweep("MPI_Type_dup", H_SELF, NULL, op_type_dup, check_type_out);
  sweep("MPI_Type_get_contents", H_SELF, NULL, op_type_get_contents, check_type_get_contents);
  sweep("MPI_Type_create_f90_integer", H_SELF, NULL, op_type_f90_integer, check_type_f90);
  if (f_info_create) sweep("MPI_INFO_CREATE", H_SELF, NULL, op_f_info_create, check_info_out);
  if (f_indexed_c) sweep("MPI_TYPE_INDEXED_C", H_SELF, NULL, op_f_type_indexed_c, check_type_out);
  /* requests: point-to-point, generalized, persistent, collectives */
  sweep("MPI_Isend", H_WORK, NULL, op_isend, check_isend);
  sweep("MPI_Irecv", H_WORK, NULL, op_irecv, check_irecv_posted);
  sweep("MPI_Irecv", H_WORK, send_first, op_irecv, check_irecv_matched);
  sweep("MPI_Isendrecv", H_WORK, NULL, op_isendrecv, check_isendrecv);
  sweep("MPI_Imrecv", H_SELF, mprobe_first, op_imrecv, check_imrecv);
  sweep("MPI_Send_init", H_WORK, NULL, op_send_init, check_req_out);
  sweep("MPI_Recv_init", H_WORK, NULL, op_recv_init, check_req_out);
  sweep("MPI_Grequest_start", H_SELF, NULL, op_grequest_start, check_grequest);
  sweep("MPI_Ibarrier", H_WORK, NULL, op_ibarrier, check_req_wait);
  sweep("MPI_Iallreduce", H_WORK, NULL, op_iallreduce, check_iallreduce);
  sweep("MPI_Bcast_init", H_WORK, NULL, op_bcast_init, check_req_out);
  /* windows */
  sweep("MPI_Win_create", H_WORK, NULL, op_win_create, check_win_out);
  sweep("MPI_Win_allocate", H_WORK, NULL, op_win_allocate, check_win_allocate);
  sweep("MPI_Win_create_dynamic", H_WORK, NULL, op_win_create_dynamic, check_win_out);
  sweep("MPI_Win_attach", H_WIN, NULL, op_win_attach, check_win_attach);
  sweep("MPI_Rput", H_WIN, NULL, op_rput, check_rput);
  /* error handling, operations */
  sweep("MPI_Comm_create_errhandler", H_SELF, NULL, op_comm_create_errhandler, check_eh_out);
  last_before = lastusedcode();
  sweep("MPI_Add_error_class", H_SELF, NULL, op_add_error_class, check_add_error_class);
  sweep("MPI_Add_error_string", H_SELF, NULL, op_add_error_string, check_add_error_string);
  sweep("MPI_Op_create", H_SELF, NULL, op_op_create, check_op_out);
  /* sessions */
  sweep("MPI_Session_init", H_SESSION, NULL, op_session_init, check_session_out);
  sweep("MPI_Session_get_info", H_SESSION, NULL, op_session_get_info, check_info_out);
  sweep("MPI_Group_from_session_pset", H_SESSION, NULL, op_group_from_pset, check_group_out);
  sweep("MPI_Comm_create_from_group", H_SELF, NULL, op_comm_create_from_group, check_comm_out);
  /* files (D107) */
  sweep("MPI_File_open", H_FILE, NULL, op_file_open, check_file_open);
  sweep("MPI_File_set_view", H_FILE, NULL, op_file_set_view, check_file_set_view);
  OK(MPI_File_set_view(fh, 0, MPI_INT, base, "native", MPI_INFO_NULL));
  sweep("MPI_File_get_view", H_FILE, NULL, op_file_get_view, check_file_get_view);
  OK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
  sweep("MPI_File_get_info", H_FILE, NULL, op_file_get_info, check_info_out);
  sweep("MPI_File_get_group", H_FILE, NULL, op_file_get_group, check_group_out);
  sweep("MPI_File_write_at", H_FILE, NULL, op_file_write_strided, check_file_write);
  sweep("MPI_File_iwrite_at", H_FILE, NULL, op_file_iwrite_at, check_file_iwrite_at);
  sweep("MPI_Register_datarep", H_FILE, next_rep_name, op_register_datarep, check_register_datarep);
  static int copy_registered;  /* (run_all runs twice; a registration lasts) */
  if (!copy_registered++) OK(MPI_Register_datarep("d65-copy", d118_read, d118_write, d118_extent, NULL));
  sweep("MPI_File_write_at", H_FILE, view_in_rep, op_file_write_rep, check_file_write_rep);
}

/* ---- D85: the runtime's own setup ---- */
static long d85_fail_at;
/* In a forked child: MPI_Init (which 0) or MPI_Init_thread (1) with allocation d85_fail_at failing
 * (and, when persistent, every later one). Exit status 1 from the fatal handler; 42 (from
 * run_child) when it returned success with fewer allocations than d85_fail_at: the sweep's end;
 * 43 when it returned success though that allocation failed; 44 when it returned an error. */
static void d85_init_child(int which) {
  int argc = 0, provided = -1;
  char **argv = NULL;
  alloc_switch(d85_fail_at, persistent);
  int rc = which == 0 ? MPI_Init(&argc, &argv) : MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  long made = alloc_switch(0, 0);
  if (rc != MPI_SUCCESS) _exit(44);
  if (made >= d85_fail_at) _exit(43);
}
static void d85_init_sweep(int which) {
  const char *name = which == 0 ? "MPI_Init" : "MPI_Init_thread";
  for (long n = 1;; ++n) {
    char msg[4096], want[64];
    d85_fail_at = n;
    int status = run_child(d85_init_child, which, msg, sizeof msg);
    ++attempts;
    if (status == 42) {
      CHECK(n > 20, "%s: only %ld allocations: the sweep does not reach the runtime's setup", name, n - 1);
      return;
    }
    ++injected;
    snprintf(want, sizeof want, "fatal error in %s: MPI_ERR_NO_MEM", name);
    CHECK(status == 1, "%s, allocation %ld failing%s: exit status %d, not 1 from the initial error handler (43: "
          "succeeded anyway, 44: returned the error, above 128: a signal)", name, n, persistent ? " and every later one" : "", status);
    CHECK(strstr(msg, want) != NULL && strstr(msg, "out of memory") != NULL && strstr(msg, "could not be allocated") != NULL,
          "%s, allocation %ld failing: the message does not say the routine ran out of memory: %s", name, n, msg);
    if (failures > 20 || n > 2000) {
      fprintf(stderr, "FAIL: %s: stopping\n", name);
      exit(1);
    }
  }
}
/* The first MPI_Session_init, with MPI_ERRORS_RETURN, from the 1st allocation failing on: each
 * failure changes nothing. Ends with a live session in *made. Returns the attempts that failed. */
static long d85_session_sweep(MPI_Session *made) {
  for (long n = 1;; ++n) {
    MPI_Session s = (MPI_Session)(uintptr_t)0x1234;
    alloc_switch(n, persistent);
    int rc = MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
    long count = alloc_switch(0, 0);
    ++attempts;
    if (rc == MPI_SUCCESS) {
      CHECK(count < n, "MPI_Session_init succeeded with allocation %ld failing", n);
      CHECK(n > 20, "MPI_Session_init: only %ld allocations: the sweep does not reach the runtime's setup", n - 1);
      *made = s;
      return n - 1;
    }
    ++injected;
    int cls = -1, flag = -1, len = 0;
    char msg[MPI_MAX_ERROR_STRING];
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_NO_MEM, "MPI_Session_init, allocation %ld failing: class %d, not MPI_ERR_NO_MEM", n, cls);
    if (!persistent) {
      MPI_Error_string(rc, msg, &len);
      CHECK(strstr(msg, "MPI_Session_init") != NULL && strstr(msg, "out of memory") != NULL,
            "MPI_Session_init, allocation %ld failing: the message does not say it ran out of memory: %s", n, msg);
    }
    CHECK(s == MPI_SESSION_NULL, "MPI_Session_init, allocation %ld failing: the session is not MPI_SESSION_NULL", n);
    OK(MPI_Initialized(&flag));
    CHECK(flag == 0, "MPI_Session_init, allocation %ld failing: MPI_Initialized says true", n);
    OK(MPI_Finalized(&flag));
    CHECK(flag == 0, "MPI_Session_init, allocation %ld failing: MPI_Finalized says true", n);
    MPI_Info info = MPI_INFO_NULL;
    OK(MPI_Info_create(&info));  /* (the routines MPI-4.1 allows before initialization still work) */
    OK(MPI_Info_free(&info));
    if (failures > 20 || n > 2000) {
      fprintf(stderr, "FAIL: MPI_Session_init: stopping\n");
      exit(1);
    }
  }
}
static void d85_session_child(int which) {
  (void)which;
  MPI_Session s = MPI_SESSION_NULL;
  d85_session_sweep(&s);
  OK(MPI_Session_finalize(&s));
  _exit(failures == 0 ? 0 : 1);
}
static void d85_setup(void) {
  /* (each allocation fails in both modes, each entry point in one: a fork per attempt costs) */
  persistent = 0;
  d85_init_sweep(0);
  persistent = 1;
  d85_init_sweep(1);
  /* every later allocation failing too: in a child, as this process must set up once only */
  persistent = 1;
  char msg[8192];
  int status = run_child(d85_session_child, 0, msg, sizeof msg);
  CHECK(status == 0, "MPI_Session_init with every allocation from the nth failing: the child ended with %d: %s", status, msg);
  persistent = 0;
  MPI_Session s = MPI_SESSION_NULL;
  long failed = d85_session_sweep(&s);
  CHECK(s != MPI_SESSION_NULL, "MPI_Session_init gave no session");
  OK(MPI_Session_finalize(&s));
  printf("D85: MPI_Init, MPI_Init_thread, MPI_Session_init swept (the first session failed %ld times, then began)\n", failed);
}

int main(int argc, char **argv) {
  alloc_switch = (switch_fn)dlsym(RTLD_DEFAULT, "mpiattr_test_fail_allocation");
  if (alloc_switch == NULL) {
    fprintf(stderr, "FAIL: mpiattr's test switch mpiattr_test_fail_allocation is not there\n");
    return 1;
  }
  d85_setup();
  {
    int flag = -1;
    OK(MPI_Initialized(&flag));
    CHECK(flag == 0, "after the sessions, MPI_Initialized says true");
  }
  OK(MPI_Init(&argc, &argv));  /* (D85: initialization after failed attempts works) */
  persistent = 0;
  f_info_create = (f_info_create_fn)dlsym(RTLD_DEFAULT, "mpi_info_create_");
  f_indexed_c = (f_indexed_c_fn)dlsym(RTLD_DEFAULT, "mpi_type_indexed_c_f08_");
  printf("Fortran entry points: mpi_info_create_ %s, mpi_type_indexed_c_f08_ %s\n", f_info_create ? "swept" : "absent",
         f_indexed_c ? "swept" : "absent");
  MPI_Errhandler eh;
  OK(MPI_Comm_create_errhandler(on_self, &eh));
  OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, eh));
  OK(MPI_Errhandler_free(&eh));
  OK(MPI_Comm_create_errhandler(on_world, &eh));
  OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
  OK(MPI_Errhandler_free(&eh));
  OK(MPI_Comm_dup(MPI_COMM_SELF, &work));
  OK(MPI_Comm_create_errhandler(on_work, &eh));
  OK(MPI_Comm_set_errhandler(work, eh));
  OK(MPI_Errhandler_free(&eh));
  OK(MPI_Comm_group(MPI_COMM_SELF, &wgroup));
  OK(MPI_Info_create(&inf));
  OK(MPI_Info_set(inf, "k1", "v1"));
  OK(MPI_Info_set(inf, "k2", "v2"));
  OK(MPI_Comm_set_info(work, inf));
  static const int dims[2] = {1, 1}, periods[2] = {0, 0};
  OK(MPI_Cart_create(work, 2, dims, periods, 0, &cart));
  OK(MPI_Type_vector(2, 1, 2, MPI_INT, &base));
  OK(MPI_Type_commit(&base));
  {
    int bl[2] = {1, 1};
    MPI_Aint disp[2] = {0, 16};
    MPI_Datatype types[2] = {base, MPI_DOUBLE};
    OK(MPI_Type_create_struct(2, bl, disp, types, &strct));
  }
  type_state(base, base_state);
  type_state(strct, strct_state);
  OK(MPI_Win_create(wbuf, sizeof wbuf, sizeof wbuf[0], inf, work, &win));
  OK(MPI_Win_create_dynamic(MPI_INFO_NULL, work, &dwin));
  OK(MPI_Win_create_errhandler(on_win, &eh));
  OK(MPI_Win_set_errhandler(win, eh));
  OK(MPI_Win_set_errhandler(dwin, eh));
  OK(MPI_Errhandler_free(&eh));
  OK(MPI_Win_lock_all(0, win));
  OK(MPI_Add_error_class(&text_code));
  OK(MPI_Session_create_errhandler(on_session, &session_eh));
  OK(MPI_Session_init(MPI_INFO_NULL, session_eh, &sess));
  OK(MPI_Group_from_session_pset(sess, "mpi://SELF", &pset_group));
  OK(MPI_File_create_errhandler(on_file, &eh));
  OK(MPI_File_set_errhandler(MPI_FILE_NULL, eh));
  OK(MPI_Errhandler_free(&eh));
  snprintf(file_path, sizeof file_path, "/tmp/mpiattr-D65-%ld.dat", (long)getpid());
  snprintf(open_path, sizeof open_path, "/tmp/mpiattr-D65-%ld-open.dat", (long)getpid());
  OK(MPI_File_open(work, file_path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
  {
    MPI_Status st;
    OK(MPI_File_write_at(fh, 0, file_data, 4, MPI_INT, &st));
  }
  for (persistent = 0; persistent < 2; ++persistent) run_all();
  OK(MPI_File_close(&fh));
  OK(MPI_Group_free(&pset_group));
  OK(MPI_Session_finalize(&sess));
  OK(MPI_Errhandler_free(&session_eh));
  OK(MPI_Remove_error_class(text_code));
  OK(MPI_Win_unlock_all(win));
  OK(MPI_Win_free(&win));
  OK(MPI_Win_free(&dwin));
  OK(MPI_Type_free(&strct));
  OK(MPI_Type_free(&base));
  OK(MPI_Comm_free(&cart));
  OK(MPI_Info_free(&inf));
  OK(MPI_Group_free(&wgroup));
  OK(MPI_Comm_free(&work));
  MPI_Finalize();
  CHECK(injected > 200, "only %ld attempts failed: the sweeps do not reach mpiattr's allocations", injected);
  if (failures == 0)
    printf("D65: every sweep ran to the end (%ld attempts, %ld failed with MPI_ERR_NO_MEM)\n", attempts, injected);
  return failures != 0;
}
