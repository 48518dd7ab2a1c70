/* D66_out_of_memory.c: what a caching call does when memory runs out, on any MPI library
 * (docs/decisions.md D61, D66). Plain MPI, built unchanged against mpiattr, MPICH and Open MPI,
 * and run with tests/diff/oom/fail_malloc.c preloaded, whose d66_fail_allocations(1) makes every
 * allocation of this thread fail until d66_fail_allocations(0).
 *
 * Each operation runs in a child process of its own (fork after MPI_Init; one process, no
 * launcher), so that an abort or a crash is observed, not fatal: the child builds its objects
 * with memory available, turns failure on just before the one MPI call and off just after it, then
 * checks what the call did (with memory again) and reports through a shared page. The parent
 * prints, per operation,
 *     D66 <operation>: <outcome>
 *     D66 <operation> detail: <the message, how far it got, what the child printed>
 * where <outcome> is "<error class>, nothing changed" (or ", changed: <what>"), "MPI_SUCCESS,
 * <what the call did, checked>", "killed by <signal>" or "exit status <n>". The outcome line
 * names nothing that varies between runs; the detail lines are for people (tests/diff/oom/
 * oom_run.py compares the first and prints the second). What the standard and D61 ask: an error
 * of class MPI_ERR_NO_MEM that changed nothing, or a success that did everything. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <mpi.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../c/diff_util.h"

static void (*fail_allocations)(int on);
static long (*failed_allocations)(void);

/* ---- what a child reports to the parent (a shared page: the child may die at any point) ---- */
struct report {
  int done;          /* the child got as far as its report */
  int in_call;       /* allocations are failing: the child is in the call under test */
  int progress;      /* the loop step the child is at (the growing set: which set) */
  long failed;       /* allocations that failed during the call */
  char outcome[256];
  char detail[1024];
};
static struct report *rep;

static void put(char *dst, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(dst, size, fmt, ap);
  va_end(ap);
}

/* ---- attribute values: tokens, alive from creation until a delete callback ends them ---- */
#define MAX_TOKENS 1024
static unsigned char alive[MAX_TOKENS];
static int next_token = 1, live_tokens, copies_run, deletes_run, bad_deletes;

static void *new_token(void) {
  if (next_token >= MAX_TOKENS) return NULL;
  alive[next_token] = 1;
  ++live_tokens;
  return (void *)(MPI_Aint)next_token++;
}
static void end_token(void *v) {
  MPI_Aint t = (MPI_Aint)v;
  ++deletes_run;
  if (t <= 0 || t >= MAX_TOKENS || !alive[t]) {
    ++bad_deletes;  /* deleted twice, or never made */
    return;
  }
  alive[t] = 0;
  --live_tokens;
}
/* The callbacks allocate nothing: under failure they still do what they always do. */
static int comm_copy(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag) {
  (void)c; (void)k; (void)extra; (void)in;
  ++copies_run;
  *(void **)out = new_token();
  *flag = 1;
  return MPI_SUCCESS;
}
static int comm_delete(MPI_Comm c, int k, void *v, void *extra) {
  (void)c; (void)k; (void)extra;
  end_token(v);
  return MPI_SUCCESS;
}
static int type_delete(MPI_Datatype t, int k, void *v, void *extra) {
  (void)t; (void)k; (void)extra;
  end_token(v);
  return MPI_SUCCESS;
}
static int win_delete(MPI_Win w, int k, void *v, void *extra) {
  (void)w; (void)k; (void)extra;
  end_token(v);
  return MPI_SUCCESS;
}

/* The error class's name (diff_util.h's list, which cannot name MPI_ERR_NO_MEM where it is no
 * macro: mpiattr's mpi.h has it as an enumerator). */
static const char *class_name(int rc) {
  int cls;
  if (rc != MPI_SUCCESS && MPI_Error_class(rc, &cls) == MPI_SUCCESS && cls == MPI_ERR_NO_MEM)
    return "MPI_ERR_NO_MEM";
  return errclass_name(rc);
}

/* ---- helpers: setup that must succeed, the call under failure, the error's description ---- */
static void must(int rc, const char *what) {
  if (rc != MPI_SUCCESS) {
    put(rep->outcome, sizeof rep->outcome, "setup failed: %s: %s", what, class_name(rc));
    rep->done = 1;
    _exit(0);
  }
}

static void fail_on(void) {
  failed_allocations();
  rep->in_call = 1;
  fail_allocations(1);
}
static void fail_off(void) {
  fail_allocations(0);
  rep->in_call = 0;
  rep->failed = failed_allocations();
}

/* The error class and message of a failed call, in the detail. */
static void describe_error(int rc) {
  char msg[MPI_MAX_ERROR_STRING] = "";
  int len = 0;
  if (MPI_Error_string(rc, msg, &len) != MPI_SUCCESS) strcpy(msg, "(MPI_Error_string failed)");
  for (char *p = msg; *p; ++p)
    if (*p == '\n') *p = ' ';  /* MPICH's error stack is several lines */
  size_t used = strlen(rep->detail);
  put(rep->detail + used, sizeof rep->detail - used, "%s\"%s\"", used ? "; message " : "message ", msg);
}

/* "<class>, nothing changed" or "<class>, changed: <what>", and the message in the detail. */
static void error_outcome(int rc, const char *changed) {
  if (changed == NULL)
    put(rep->outcome, sizeof rep->outcome, "%s, nothing changed", class_name(rc));
  else
    put(rep->outcome, sizeof rep->outcome, "%s, changed: %s", class_name(rc), changed);
  describe_error(rc);
}

static void *get_comm(MPI_Comm c, int key, int *flag) {
  void *v = NULL;
  *flag = 0;
  must(MPI_Comm_get_attr(c, key, &v, flag), "MPI_Comm_get_attr");
  return *flag ? v : NULL;
}

static MPI_Comm work_comm(void) {
  MPI_Comm c;
  must(MPI_Comm_dup(MPI_COMM_SELF, &c), "MPI_Comm_dup");
  must(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  return c;
}

static int new_comm_key(void) {
  int key;
  must(MPI_Comm_create_keyval(comm_copy, comm_delete, &key, NULL), "MPI_Comm_create_keyval");
  return key;
}

/* ---- the operations: each builds its objects, makes the one call under failure, checks ---- */

/* MPI_Comm_create_keyval. Nothing to check on failure but that the next creation works. */
static void op_comm_create_keyval(void) {
  MPI_Comm c = work_comm();
  int key = MPI_KEYVAL_INVALID;
  fail_on();
  int rc = MPI_Comm_create_keyval(comm_copy, comm_delete, &key, NULL);
  fail_off();
  if (rc == MPI_SUCCESS) {
    int flag;
    void *v = new_token();
    int set = MPI_Comm_set_attr(c, key, v);
    if (set == MPI_SUCCESS && get_comm(c, key, &flag) == v && flag)
      put(rep->outcome, sizeof rep->outcome, "MPI_SUCCESS, the keyval works");
    else
      put(rep->outcome, sizeof rep->outcome, "MPI_SUCCESS, but the keyval does not work (set: %s)",
          class_name(set));
    return;
  }
  int other = MPI_KEYVAL_INVALID;
  int again = MPI_Comm_create_keyval(comm_copy, comm_delete, &other, NULL);
  error_outcome(rc, again == MPI_SUCCESS ? NULL : "the next MPI_Comm_create_keyval fails too");
}

/* Sets of new keys on an object that has 4 attributes, under failure until one set fails: the set
 * that needs a bigger store (or, where each attribute is allocated, the first). One object of each
 * kind, through these: */
struct kind_ops {
  const char *routine;
  int (*create_keyval)(int *key);
  int (*set)(void *obj, int key, void *val);
  int (*get)(void *obj, int key, void **val, int *flag);
};
static int comm_keyval(int *key) { return MPI_Comm_create_keyval(comm_copy, comm_delete, key, NULL); }
static int comm_set(void *o, int key, void *val) { return MPI_Comm_set_attr(*(MPI_Comm *)o, key, val); }
static int comm_get(void *o, int key, void **val, int *flag) { return MPI_Comm_get_attr(*(MPI_Comm *)o, key, val, flag); }
static int type_keyval(int *key) { return MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, type_delete, key, NULL); }
static int type_set(void *o, int key, void *val) { return MPI_Type_set_attr(*(MPI_Datatype *)o, key, val); }
static int type_get(void *o, int key, void **val, int *flag) { return MPI_Type_get_attr(*(MPI_Datatype *)o, key, val, flag); }
static int win_keyval(int *key) { return MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_delete, key, NULL); }
static int win_set(void *o, int key, void *val) { return MPI_Win_set_attr(*(MPI_Win *)o, key, val); }
static int win_get(void *o, int key, void **val, int *flag) { return MPI_Win_get_attr(*(MPI_Win *)o, key, val, flag); }
static const struct kind_ops comm_kind = {"MPI_Comm_set_attr", comm_keyval, comm_set, comm_get};
static const struct kind_ops type_kind = {"MPI_Type_set_attr", type_keyval, type_set, type_get};
static const struct kind_ops win_kind = {"MPI_Win_set_attr", win_keyval, win_set, win_get};

#define GROW_KEYS 100
#define GROW_HAVE 4
static void grow(const struct kind_ops *k, void *obj) {
  int keys[GROW_KEYS];
  void *vals[GROW_KEYS];
  for (int i = 0; i < GROW_KEYS; ++i) {
    must(k->create_keyval(&keys[i]), "create_keyval");
    vals[i] = new_token();
  }
  for (int i = 0; i < GROW_HAVE; ++i) must(k->set(obj, keys[i], vals[i]), k->routine);
  int rc = MPI_SUCCESS, i = GROW_HAVE;
  fail_on();
  for (; i < GROW_KEYS; ++i) {
    rep->progress = i + 1;
    rc = k->set(obj, keys[i], vals[i]);
    if (rc != MPI_SUCCESS) break;
  }
  fail_off();
  int wrong = 0;
  for (int j = 0; j < GROW_KEYS; ++j) {
    int flag = 0;
    void *v = NULL;
    must(k->get(obj, keys[j], &v, &flag), "get_attr");
    if (j < i ? !(flag && v == vals[j]) : flag) ++wrong;
  }
  if (rc == MPI_SUCCESS) {
    put(rep->outcome, sizeof rep->outcome, "MPI_SUCCESS, all %d sets%s", GROW_KEYS - GROW_HAVE,
        wrong ? " but the values are wrong" : " done");
    return;
  }
  put(rep->detail, sizeof rep->detail, "set %d failed (%d sets under failure succeeded before it)", i + 1,
      i - GROW_HAVE);
  char what[128];
  put(what, sizeof what, "%d attributes wrong, %d delete callbacks ran", wrong, deletes_run);
  error_outcome(rc, wrong || deletes_run ? what : NULL);
}

static void op_comm_set_attr_grow(void) {
  MPI_Comm c = work_comm();
  grow(&comm_kind, &c);
}

static void op_type_set_attr_grow(void) {
  MPI_Datatype t;
  must(MPI_Type_contiguous(2, MPI_INT, &t), "MPI_Type_contiguous");
  must(MPI_Type_commit(&t), "MPI_Type_commit");
  grow(&type_kind, &t);
}

static void op_win_set_attr_grow(void) {
  static char buf[64];
  MPI_Win w;
  must(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_SELF, &w), "MPI_Win_create");
  must(MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN), "MPI_Win_set_errhandler");
  grow(&win_kind, &w);
}

/* MPI_Comm_set_attr of a key that has a value: the old value's delete callback runs. */
static void op_comm_set_attr_replace(void) {
  MPI_Comm c = work_comm();
  int key = new_comm_key();
  void *old = new_token(), *val = new_token();
  must(MPI_Comm_set_attr(c, key, old), "MPI_Comm_set_attr");
  fail_on();
  int rc = MPI_Comm_set_attr(c, key, val);
  fail_off();
  int flag;
  void *now = get_comm(c, key, &flag);
  if (rc == MPI_SUCCESS) {
    if (flag && now == val && deletes_run == 1 && !alive[(MPI_Aint)old])
      put(rep->outcome, sizeof rep->outcome, "MPI_SUCCESS, replaced, the old value's delete callback ran once");
    else
      put(rep->outcome, sizeof rep->outcome, "MPI_SUCCESS, but the value is %s and %d delete callbacks ran",
          flag && now == val ? "new" : flag && now == old ? "old" : "wrong", deletes_run);
    return;
  }
  char what[128];
  put(what, sizeof what, "the value is %s, %d delete callbacks ran",
      flag && now == old ? "the old one" : flag && now == val ? "the new one" : "gone", deletes_run);
  error_outcome(rc, flag && now == old && deletes_run == 0 ? NULL : what);
}

/* MPI_Comm_dup of a communicator with 3 attributes whose copy callback copies, and one that
 * MPI_COMM_NULL_COPY_FN leaves behind. */
static void op_comm_dup(void) {
  MPI_Comm c = work_comm(), dup = MPI_COMM_NULL;
  int keys[4];
  void *vals[4];
  for (int i = 0; i < 3; ++i) keys[i] = new_comm_key();
  must(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, comm_delete, &keys[3], NULL), "MPI_Comm_create_keyval");
  for (int i = 0; i < 4; ++i) {
    vals[i] = new_token();
    must(MPI_Comm_set_attr(c, keys[i], vals[i]), "MPI_Comm_set_attr");
  }
  int live = live_tokens;
  fail_on();
  int rc = MPI_Comm_dup(c, &dup);
  fail_off();
  int kept = 0;  /* the original's attributes, as they were */
  for (int i = 0; i < 4; ++i) {
    int flag;
    kept += get_comm(c, keys[i], &flag) == vals[i] && flag;
  }
  if (rc == MPI_SUCCESS) {
    int copied = 0, flag;
    for (int i = 0; i < 3; ++i) {
      void *v = get_comm(dup, keys[i], &flag);
      copied += flag && v != vals[i] && (MPI_Aint)v > 0 && (MPI_Aint)v < MAX_TOKENS && alive[(MPI_Aint)v];
    }
    get_comm(dup, keys[3], &flag);
    if (copied == 3 && !flag && kept == 4)
      put(rep->outcome, sizeof rep->outcome, "MPI_SUCCESS, the attributes copied");
    else
      put(rep->outcome, sizeof rep->outcome, "MPI_SUCCESS, but %d of 3 copied, the null copy %s, %d of 4 kept",
          copied, flag ? "copied" : "not copied", kept);
    return;
  }
  put(rep->detail, sizeof rep->detail, "%d copy callbacks ran, %d delete callbacks", copies_run, deletes_run);
  char what[160];
  put(what, sizeof what, "the new handle is %s, %d of 4 attributes kept, %d values made by copy callbacks not deleted",
      dup == MPI_COMM_NULL ? "MPI_COMM_NULL" : "not MPI_COMM_NULL", kept, live_tokens - live);
  error_outcome(rc, dup == MPI_COMM_NULL && kept == 4 && live_tokens == live && !bad_deletes ? NULL : what);
}

/* MPI_Comm_free of a communicator with 3 attributes: each delete callback must run once. */
static void op_comm_free(void) {
  MPI_Comm c = work_comm(), handle;
  void *vals[3];
  for (int i = 0; i < 3; ++i) {
    vals[i] = new_token();
    must(MPI_Comm_set_attr(c, new_comm_key(), vals[i]), "MPI_Comm_set_attr");
  }
  handle = c;
  fail_on();
  int rc = MPI_Comm_free(&handle);
  fail_off();
  int gone = 0;
  for (int i = 0; i < 3; ++i) gone += !alive[(MPI_Aint)vals[i]];
  if (rc == MPI_SUCCESS) {
    if (handle == MPI_COMM_NULL && gone == 3 && deletes_run == 3)
      put(rep->outcome, sizeof rep->outcome, "MPI_SUCCESS, every delete callback ran once");
    else
      put(rep->outcome, sizeof rep->outcome, "MPI_SUCCESS, but %d of 3 values deleted (%d delete callbacks), "
          "the handle %s MPI_COMM_NULL", gone, deletes_run, handle == MPI_COMM_NULL ? "is" : "is not");
    return;
  }
  char what[128];
  put(what, sizeof what, "%d of 3 delete callbacks ran", gone);
  error_outcome(rc, gone || bad_deletes ? what : NULL);
}

static const struct {
  const char *name;
  void (*run)(void);
} ops[] = {
    {"MPI_Comm_create_keyval", op_comm_create_keyval},
    {"MPI_Comm_set_attr grow", op_comm_set_attr_grow},
    {"MPI_Comm_set_attr replace", op_comm_set_attr_replace},
    {"MPI_Comm_dup", op_comm_dup},
    {"MPI_Type_set_attr grow", op_type_set_attr_grow},
    {"MPI_Win_set_attr grow", op_win_set_attr_grow},
    {"MPI_Comm_free", op_comm_free},
};
#define NOPS (int)(sizeof ops / sizeof ops[0])

/* ---- the parent: one child per operation ---- */

/* The first lines a dead child printed (the assertion, the abort message), on one line. */
static void child_output(FILE *f, char *out, size_t size) {
  char line[512];
  size_t used = 0;
  int lines = 0;
  out[0] = '\0';
  rewind(f);
  while (lines < 3 && fgets(line, sizeof line, f) != NULL) {
    line[strcspn(line, "\n")] = '\0';
    if (line[0] == '\0') continue;
    int n = snprintf(out + used, size - used, "%s%s", lines ? " | " : "", line);
    if (n < 0 || (size_t)n >= size - used) break;
    used += (size_t)n;
    ++lines;
  }
}

static void run_child(int op) {
  memset(rep, 0, sizeof *rep);
  FILE *out = tmpfile();
  if (out == NULL) {
    perror("tmpfile");
    exit(1);
  }
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    perror("fork");
    exit(1);
  }
  if (pid == 0) {
    dup2(fileno(out), 1);
    dup2(fileno(out), 2);
    alarm(30);  /* a call that hangs ends as SIGALRM, not as the test's timeout */
    ops[op].run();
    rep->done = 1;
    _exit(0);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      perror("waitpid");
      exit(1);
    }
  }
  char printed[768];
  child_output(out, printed, sizeof printed);
  fclose(out);
  const char *name = ops[op].name;
  if (rep->done) {
    printf("D66 %s: %s\n", name, rep->outcome);
  } else if (WIFSIGNALED(status)) {
    printf("D66 %s: killed by SIG%s\n", name, sigabbrev_np(WTERMSIG(status)) ? sigabbrev_np(WTERMSIG(status)) : "?");
  } else {
    printf("D66 %s: exit status %d\n", name, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  }
  printf("D66 %s detail: ", name);
  if (rep->done)
    printf("%ld allocations failed", rep->failed);
  else if (rep->in_call && rep->progress)
    printf("died in set %d", rep->progress);
  else
    printf("died %s", rep->in_call ? "in the call" : "outside the call (setup or check)");
  if (rep->detail[0]) printf("; %s", rep->detail);
  if (printed[0]) printf("; printed: %s", printed);
  printf("\n");
}

int main(int argc, char **argv) {
  *(void **)&fail_allocations = dlsym(RTLD_DEFAULT, "d66_fail_allocations");
  *(void **)&failed_allocations = dlsym(RTLD_DEFAULT, "d66_failed_allocations");
  if (fail_allocations == NULL || failed_allocations == NULL) {
    fprintf(stderr, "D66_out_of_memory: preload tests/diff/oom/fail_malloc.c's library (LD_PRELOAD)\n");
    return 2;
  }
  rep = mmap(NULL, sizeof *rep, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (rep == MAP_FAILED) {
    perror("mmap");
    return 1;
  }
  diff_init(&argc, &argv);
  for (int i = 0; i < NOPS; ++i) run_child(i);
  return diff_finish();
}
