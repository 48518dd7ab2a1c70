// D64 (and D61): out of memory through the MPI:: bindings. For each caching member
// (Comm::Create_keyval in its C++, C and mixed forms, Comm::Set_attr through a store's growths and
// as a replacement, Delete_attr, Intracomm::Dup and Clone of 0, 5 and every attribute, Comm::Free,
// Datatype::Create_keyval in the annex's and MPICH's forms, Datatype::Set_attr and Dup, Win::
// Create_keyval and Set_attr, and the three Free_keyval), the 1st, 2nd, ... Nth allocation that
// mpiattr itself makes is made to fail (mpiattr's test switch, docs/decisions.md D61), until the
// member no longer reaches N. After each attempt the state says whether the member failed (the new
// handle is null, the keyval MPI::KEYVAL_INVALID, the value not stored, the attribute still there)
// and must be exactly what it was if so: every attribute and value, no keyval state left behind
// (mpiattr_cxx_live_keyval_states), each value a C++ copy callback made deleted once, none twice,
// none lost. How the failure surfaces is D64's, under each handler in turn:
//   - MPI::ERRORS_THROW_EXCEPTIONS: an MPI::Exception of class MPI::ERR_NO_MEM whose string names
//     the C routine and says it ran out of memory, exactly when the member failed;
//   - MPI::ERRORS_RETURN: the member returns normally (MPI-2.2 C++ members return no code): the
//     null handle, MPI::KEYVAL_INVALID, nothing stored;
//   - a C++ error handler function (Comm::Create_errhandler, Win::Create_errhandler): called once,
//     with an MPI::ERR_NO_MEM code, on the object's handler.
// An error with no communicator or window (keyval creation, datatypes) must reach the handler of
// such errors, MPI::COMM_SELF's standalone and MPI::COMM_WORLD's over a host (D4, D56): the other
// of the two carries a handler that fails the test when called. Each handler's sweeps run twice:
// failing the Nth allocation only, and the Nth and every later one (memory that stays exhausted).
//
// Standalone (cxx_D64_allocation_failure, under ASan in ./test.sh's last stage too) and built with
// mpiattr-<host>-cxx, one process over each host (cxx_D64_allocation_failure_over_<host>), where
// only mpiattr's own allocations fail. The switch is reached through dlsym. Prints FAIL lines and
// exits 1 on failure.
#include <dlfcn.h>
#include <mpi.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <new>
#include <strings.h>

// The program's own allocations: Clone's object is one (MPI-2.2 §16.1.7). mpiattr's own allocator
// takes its memory from the process's operator new, so this fails the first allocation of either.
static bool fail_next_new = false;  // (outside the anonymous namespace: operator new is global)
void* operator new(std::size_t n) {
  if (fail_next_new) {
    fail_next_new = false;
    throw std::bad_alloc();
  }
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace {

int failures = 0;
void check(bool ok, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void check(bool ok, const char* fmt, ...) {
  if (ok) return;
  std::va_list ap;
  va_start(ap, fmt);
  std::fputs("FAIL: ", stdout);
  std::vprintf(fmt, ap);
  std::fputc('\n', stdout);
  va_end(ap);
  if (++failures > 20) std::exit(1);
}

using switch_fn = long (*)(long fail_at, int persistent);
using states_fn = std::size_t (*)();
switch_fn alloc_switch;
states_fn live_states;  // mpiattr_cxx_live_keyval_states: the MPI:: glue's keyval states alive
int persistent;
long injected;  // attempts that failed

// ---- the handlers, and where errors go ----
enum regime { throws, returns, function };
const char* const regime_names[] = {"MPI::ERRORS_THROW_EXCEPTIONS", "MPI::ERRORS_RETURN",
                                    "a C++ error handler function"};
regime mode;

// Errors with no communicator or window (D4; over a host, the host's rule: D56).
MPI::Intracomm& no_object_comm() {
#ifdef MPIATTR_OVER_HOST
  return MPI::COMM_WORLD;
#else
  return MPI::COMM_SELF;
#endif
}
MPI::Intracomm& other_comm() {
#ifdef MPIATTR_OVER_HOST
  return MPI::COMM_SELF;
#else
  return MPI::COMM_WORLD;
#endif
}

int handled;  // calls of the recording handler functions in this attempt
int handled_code;
MPI_Comm handled_comm;
MPI_Win handled_win;
void record_comm(MPI::Comm& comm, int* code, ...) {
  ++handled;
  handled_code = *code;
  handled_comm = comm;
}
void record_win(MPI::Win& win, int* code, ...) {
  ++handled;
  handled_code = *code;
  handled_win = win;
}
void wrong_handler(MPI::Comm&, int* code, ...) {
  check(false, "an error (code %d) went to the handler of %s, which takes none of these errors", *code,
#ifdef MPIATTR_OVER_HOST
        "MPI::COMM_SELF"
#else
        "MPI::COMM_WORLD"
#endif
  );
}
MPI::Errhandler comm_recorder, win_recorder, trap;

MPI::Errhandler comm_handler() {
  return mode == throws ? MPI::ERRORS_THROW_EXCEPTIONS : mode == returns ? MPI::ERRORS_RETURN : comm_recorder;
}
MPI::Errhandler win_handler() {
  return mode == throws ? MPI::ERRORS_THROW_EXCEPTIONS : mode == returns ? MPI::ERRORS_RETURN : win_recorder;
}

// ---- values: each value a copy callback makes, and each set stores, is a token, alive until deleted ----
constexpr long kMaxTokens = 200000;
unsigned char alive[kMaxTokens];
long next_token = 1, live_tokens;
void* new_token() {
  if (next_token >= kMaxTokens) {
    std::puts("FAIL: out of tokens");
    std::exit(1);
  }
  alive[next_token] = 1;
  ++live_tokens;
  return reinterpret_cast<void*>(next_token++);
}
void end_token(void* v, const char* who) {
  const long t = reinterpret_cast<long>(v);
  const bool ok = t > 0 && t < kMaxTokens && alive[t];
  check(ok, "%s: value %ld deleted but not alive (deleted twice?)", who, t);
  if (ok) {
    alive[t] = 0;
    --live_tokens;
  }
}
long plain_next = 1L << 40;  // values of the keyvals with MPI_COMM_DUP_FN: never tokens
void* plain_value() { return reinterpret_cast<void*>(plain_next++); }

int comm_copy(const MPI::Comm&, int, void*, void*, void* out, bool& flag) {
  *static_cast<void**>(out) = new_token();
  flag = true;
  return MPI::SUCCESS;
}
int comm_delete(MPI::Comm&, int, void* v, void*) {
  end_token(v, "C++ comm delete");
  return MPI::SUCCESS;
}
int c_comm_delete(MPI_Comm, int, void* v, void*) {
  end_token(v, "C comm delete");
  return MPI_SUCCESS;
}
int type_copy(const MPI::Datatype&, int, void*, const void*, void* out, bool& flag) {
  *static_cast<void**>(out) = new_token();
  flag = true;
  return MPI::SUCCESS;
}
int type_copy_mpich(const MPI::Datatype&, int, void*, void*, void* out, bool& flag) {  // D59's form
  *static_cast<void**>(out) = new_token();
  flag = true;
  return MPI::SUCCESS;
}
int type_delete(MPI::Datatype&, int, void* v, void*) {
  end_token(v, "C++ type delete");
  return MPI::SUCCESS;
}
int win_copy(const MPI::Win&, int, void*, void*, void*, bool& flag) {  // (no routine copies a window)
  flag = false;
  return MPI::SUCCESS;
}
int win_delete(MPI::Win&, int, void* v, void*) {
  end_token(v, "C++ win delete");
  return MPI::SUCCESS;
}

// ---- the keyvals, objects and snapshots ----
// Communicator keyvals, by index i % 3: 0 C++ copy and delete (the glue keeps a state), 1
// MPI_COMM_DUP_FN and MPI_COMM_NULL_DELETE_FN (plain values; no state), 2 C++ copy and C delete.
constexpr int kKeys = 40;
int ckeys[kKeys], tkeys[6], wkeys[6];
bool has_delete(int i) { return i % 3 != 1; }
MPI::Intracomm work, five, none;
MPI::Datatype wtype;
MPI::Win win;

struct snap {
  bool flag[kKeys];
  void* val[kKeys];
  long live;
};
snap take(const MPI::Comm& c) {
  snap s;
  for (int i = 0; i < kKeys; ++i) {
    void* v = nullptr;
    s.flag[i] = c.Get_attr(ckeys[i], &v);
    s.val[i] = s.flag[i] ? v : nullptr;
  }
  s.live = live_tokens;
  return s;
}
bool same(const snap& a, const snap& b, const char* what, long n) {
  int bad = 0;
  for (int i = 0; i < kKeys; ++i)
    if (a.flag[i] != b.flag[i] || a.val[i] != b.val[i]) ++bad;
  check(bad == 0, "%s (%s, allocation %ld failing): %d attributes differ", what, regime_names[mode], n, bad);
  check(a.live == b.live, "%s (%s, allocation %ld failing): %ld values alive, %ld expected", what,
        regime_names[mode], n, b.live, a.live);
  return bad == 0 && a.live == b.live;
}

// ---- one attempt, and the sweep ----
// Where the error of an attempt must be raised: a communicator's or a window's handler. A sweep
// holds the object and reads its handle before each attempt (the object may be a new one each time).
struct target {
  MPI_Comm comm;
  MPI_Win win;
};
struct where {
  const MPI::Comm* comm;
  const MPI::Win* win;
  target now() const { return {comm ? MPI_Comm(*comm) : MPI_COMM_NULL, win ? MPI_Win(*win) : MPI_WIN_NULL}; }
};
where on(const MPI::Comm& c) { return {&c, nullptr}; }
where on(const MPI::Win& w) { return {nullptr, &w}; }
where no_object() { return on(no_object_comm()); }

// Runs `op` (MPI:: calls): the code it raised, as the handler shows it (an MPI::Exception, or the
// handler function's call), 0 if none did (always under MPI::ERRORS_RETURN).
template <typename Op>
int attempt(Op&& op) {
  handled = 0;
  handled_code = 0;
  handled_comm = MPI_COMM_NULL;
  handled_win = MPI_WIN_NULL;
  try {
    op();
  } catch (const MPI::Exception& e) {
    check(mode == throws, "an MPI::Exception (code %d) under %s", e.Get_error_code(), regime_names[mode]);
    return e.Get_error_code() != MPI::SUCCESS ? e.Get_error_code() : -1;
  } catch (...) {
    check(false, "an exception that is not an MPI::Exception left an MPI:: member");
    return -1;
  }
  return mode == function && handled != 0 ? handled_code : 0;
}

// What the handler showed agrees with what the state says: an error exactly when the member
// failed, of class MPI::ERR_NO_MEM, on the right handler, with a message naming the routine.
void verdict(const char* routine, long n, int raised, bool failed, target t) {
  const char* const how = regime_names[mode];
  if (mode == returns) return;
  check((raised != 0) == failed, "%s (%s, allocation %ld failing): %s", routine, how, n,
        failed ? "failed, and nothing was raised" : "raised an error, and did its work");
  if (mode == function) {
    check(handled == (failed ? 1 : 0), "%s (%s, allocation %ld failing): the handler ran %d times", routine,
          how, n, handled);
    if (handled != 0)
      check(handled_comm == t.comm && handled_win == t.win,
            "%s (%s, allocation %ld failing): raised on the handler of another object", routine, how, n);
  }
  if (raised == 0) return;
  int cls = -1;
  if (raised > 0) cls = MPI::Get_error_class(raised);
  check(cls == MPI::ERR_NO_MEM, "%s (%s, allocation %ld failing): error class %d, not MPI::ERR_NO_MEM", routine,
        how, n, cls);
  if (!persistent && raised > 0) {
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI::Get_error_string(raised, msg, len);
    check(strcasestr(msg, routine) != nullptr && std::strstr(msg, "out of memory") != nullptr,
          "%s (%s): the message does not say that the routine ran out of memory: %s", routine, how, msg);
  }
}

// Runs op with the nth allocation failing, n = 1, 2, ... until op makes fewer than n; after each,
// state(n) checks the state (undoing what a success did where the next attempt needs it) and says
// whether op failed. Returns how many allocations op made when none failed.
template <typename Op, typename State>
long sweep(const char* routine, where w, Op&& op, State&& state) {
  for (long n = 1;; ++n) {
    const target t = w.now();
    alloc_switch(n, persistent);
    const int raised = attempt(op);
    const long made = alloc_switch(0, 0);
    const bool failed = state(n);
    verdict(routine, n, raised, failed, t);
    injected += failed ? 1 : 0;
    if (made < n) {
      check(!failed, "%s (%s) failed with no allocation failing", routine, regime_names[mode]);
      return made;
    }
  }
}

// ---- the sweeps ----
snap before;

// A keyval creation (`create` returns the key) into `slot`: a key exactly when it succeeds, with a
// state of the glue's when the form keeps one (`keeps_state`), and none left by a failure.
template <typename Create>
void sweep_create_keyval(const char* routine, int& slot, bool keeps_state, Create create) {
  int key = MPI::KEYVAL_INVALID;
  std::size_t states = 0;
  sweep(routine, no_object(),
        [&] {
          key = MPI::KEYVAL_INVALID;
          states = live_states();
          key = create();
        },
        [&](long n) {
          const bool failed = key == MPI::KEYVAL_INVALID;
          const std::size_t now = live_states();
          check(now == states + (failed || !keeps_state ? 0 : 1), "%s (%s, allocation %ld failing): %zu keyval states, %zu before",
                routine, regime_names[mode], n, now, states);
          if (!failed) slot = key;
          return failed;
        });
}

// Comm::Create_keyval in one of its forms into ckeys[i].
void sweep_comm_create_keyval(int i) {
  sweep_create_keyval("MPI_Comm_create_keyval", ckeys[i], i % 3 != 1, [i] {
    if (i % 3 == 0) return MPI::Comm::Create_keyval(comm_copy, comm_delete, nullptr);
    if (i % 3 == 1) return MPI::Comm::Create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, nullptr);
    return MPI::Comm::Create_keyval(comm_copy, c_comm_delete, nullptr);
  });
}

// Comm::Set_attr of a new value under ckeys[i] on work.
void sweep_set(int i) {
  void* value = nullptr;
  sweep("MPI_Comm_set_attr", on(work),
        [&] {
          value = has_delete(i) ? new_token() : plain_value();
          work.Set_attr(ckeys[i], value);
        },
        [&](long n) {
          snap now = take(work);
          const bool failed = !(now.flag[i] && now.val[i] == value);
          if (failed) {
            if (has_delete(i)) end_token(value, "the value a failed set did not store");
            now.live = live_tokens;
            same(before, now, "MPI::Comm::Set_attr", n);
          } else {
            snap expected = before;
            expected.flag[i] = true;
            expected.val[i] = value;
            if (has_delete(i)) expected.live += before.flag[i] ? 0 : 1;  // (a replaced value was deleted)
            same(expected, now, "MPI::Comm::Set_attr", n);
            before = now;
          }
          return failed;
        });
}

void sweep_delete(int i) {
  sweep("MPI_Comm_delete_attr", on(work), [&] { work.Delete_attr(ckeys[i]); },
        [&](long n) {
          snap now = take(work);
          const bool failed = now.flag[i];
          if (failed) {
            same(before, now, "MPI::Comm::Delete_attr", n);
          } else {
            snap expected = before;
            expected.flag[i] = false;
            expected.val[i] = nullptr;
            if (has_delete(i) && before.flag[i]) --expected.live;
            same(expected, now, "MPI::Comm::Delete_attr", n);
            before = now;
          }
          return failed;
        });
}

// The duplicate's checks: the original untouched; a duplicate with a copy of every attribute, which
// goes with it; none after a failure.
bool dup_state(const MPI::Intracomm& src, MPI::Intracomm& dup, const char* what, long n) {
  snap now = take(src);
  const bool failed = dup == MPI::COMM_NULL;
  const long copies_alive = live_tokens - before.live;
  now.live = before.live;
  same(before, now, what, n);
  if (failed) {
    check(copies_alive == 0, "a failed %s left %ld copied values alive (allocation %ld failing, %s)", what,
          copies_alive, n, regime_names[mode]);
    return true;
  }
  const snap copy = take(dup);
  int attrs = 0, copies = 0, token_copies = 0;
  for (int i = 0; i < kKeys; ++i) {
    attrs += now.flag[i] ? 1 : 0;
    copies += copy.flag[i] ? 1 : 0;
    token_copies += copy.flag[i] && has_delete(i) ? 1 : 0;
  }
  check(copies == attrs && copies_alive == token_copies, "%s: the duplicate has %d attributes (%ld made by copy callbacks), the original %d",
        what, copies, copies_alive, attrs);
  dup.Free();
  check(live_tokens == before.live, "after freeing the duplicate of %s, %ld values alive, %ld before", what, live_tokens,
        before.live);
  return false;
}

// Clone allocates its object before it duplicates (D64): when the program's `new` fails, the
// std::bad_alloc leaves Clone having duplicated nothing (no copy callback ran, nothing leaked).
void clone_with_program_new_failing(MPI::Intracomm& src) {
  before = take(src);
  bool threw = false;
  fail_next_new = true;
  try {
    MPI::Intracomm& c = src.Clone();
    c.Free();
    delete &c;
  } catch (const std::bad_alloc&) {
    threw = true;
  }
  fail_next_new = false;
  snap now = take(src);
  check(threw, "MPI::Intracomm::Clone with the program's new failing: no std::bad_alloc");
  check(live_tokens == before.live, "MPI::Intracomm::Clone whose new failed duplicated anyway: %ld values made by copy callbacks",
        live_tokens - before.live);
  same(before, now, "MPI::Intracomm::Clone", 0);
}

void sweep_dup(MPI::Intracomm& src) {
  before = take(src);
  MPI::Intracomm dup;
  sweep("MPI_Comm_dup", on(src),
        [&] {
          dup = MPI::COMM_NULL;
          dup = src.Dup();
        },
        [&](long n) { return dup_state(src, dup, "MPI::Intracomm::Dup", n); });
  MPI::Intracomm* clone = nullptr;
  sweep("MPI_Comm_dup", on(src),
        [&] {
          clone = nullptr;
          clone = &src.Clone();
        },
        [&](long n) {
          MPI::Intracomm dup2 = clone != nullptr ? *clone : MPI::Intracomm(MPI_COMM_NULL);
          delete clone;  // (Clone's object is the caller's, a null handle when it failed)
          clone = nullptr;
          return dup_state(src, dup2, "MPI::Intracomm::Clone", n);
        });
}

void sweep_free() {
  before = take(work);
  MPI::Intracomm victim = work.Dup();
  sweep("MPI_Comm_free", on(victim), [&] { victim.Free(); },
        [&](long n) {
          const bool failed = victim != MPI::COMM_NULL;
          if (failed) victim.Free();  // (the communicator stays, with its attributes: free it now)
          check(live_tokens == before.live, "MPI::Comm::Free (%s, allocation %ld failing): %ld values alive, %ld before",
                regime_names[mode], n, live_tokens, before.live);
          victim = work.Dup();  // the next attempt's
          return failed;
        });
  victim.Free();
}

// A set of a new token on a datatype or window (`set(token)`; `get(&v)` reads it back): stored
// exactly when it succeeded; after a failure the token is the program's again.
template <typename Set, typename Get>
void sweep_token_set(const char* routine, where w, Set set, Get get) {
  void* token = nullptr;
  sweep(routine, w,
        [&] {
          token = new_token();
          set(token);
        },
        [&](long n) {
          void* v = nullptr;
          const bool flag = get(&v);
          const bool failed = !(flag && v == token);
          if (failed) {
            check(!flag, "a failed %s left a value (allocation %ld failing, %s)", routine, n, regime_names[mode]);
            end_token(token, "the value a failed set did not store");
          }
          return failed;
        });
}

void sweep_types() {
  wtype = MPI::INT.Create_contiguous(2);
  for (int i = 0; i < 6; ++i)
    sweep_create_keyval("MPI_Type_create_keyval", tkeys[i], true, [i] {
      return i % 2 == 0 ? MPI::Datatype::Create_keyval(type_copy, type_delete, nullptr)
                        : MPI::Datatype::Create_keyval(type_copy_mpich, type_delete, nullptr);
    });
  for (int i = 0; i < 6; ++i)
    sweep_token_set("MPI_Type_set_attr", no_object(), [i](void* v) { wtype.Set_attr(tkeys[i], v); },
                    [i](void** v) { return wtype.Get_attr(tkeys[i], v); });
  const long live = live_tokens;
  MPI::Datatype dup;
  sweep("MPI_Type_dup", no_object(),
        [&] {
          dup = MPI::DATATYPE_NULL;
          dup = wtype.Dup();
        },
        [&](long n) {
          const bool failed = dup == MPI::DATATYPE_NULL;
          if (!failed) {
            int copies = 0;
            for (int i = 0; i < 6; ++i) {
              void* v = nullptr;
              copies += dup.Get_attr(tkeys[i], &v) ? 1 : 0;
            }
            check(copies == 6 && live_tokens == live + 6, "MPI::Datatype::Dup: %d copies, %ld values made", copies,
                  live_tokens - live);
            dup.Free();
          }
          check(live_tokens == live, "MPI::Datatype::Dup (%s, allocation %ld failing): %ld values alive, %ld before",
                regime_names[mode], n, live_tokens, live);
          return failed;
        });
}

void sweep_windows() {
  static int buf[4];
  win = MPI::Win::Create(buf, sizeof buf, sizeof buf[0], MPI::INFO_NULL, MPI::COMM_SELF);
  win.Set_errhandler(win_handler());
  for (int i = 0; i < 6; ++i)
    sweep_create_keyval("MPI_Win_create_keyval", wkeys[i], true,
                        [] { return MPI::Win::Create_keyval(win_copy, win_delete, nullptr); });
  for (int i = 0; i < 6; ++i)
    sweep_token_set("MPI_Win_set_attr", on(win), [i](void* v) { win.Set_attr(wkeys[i], v); },
                    [i](void** v) { return win.Get_attr(wkeys[i], v); });
}

// Free_keyval: MPI::KEYVAL_INVALID once freed (the attributes keep the key, R2.2).
template <typename Free>
void sweep_free_keyval(const char* routine, int& key, Free free_keyval) {
  sweep(routine, no_object(), [&] { free_keyval(key); },
        [&](long) { return key != MPI::KEYVAL_INVALID; });
}

void run_all() {
  // The handlers of this pass: the regime's on every object that takes errors; the trap on the
  // one communicator that must take none.
  no_object_comm().Set_errhandler(comm_handler());
  other_comm().Set_errhandler(trap);
  const std::size_t states_at_start = live_states();
  for (int i = 0; i < kKeys; ++i) sweep_comm_create_keyval(i);
  work = MPI::COMM_SELF.Dup();
  work.Set_errhandler(comm_handler());
  before = take(work);
  for (int i = 0; i < kKeys; ++i) sweep_set(i);  // through the store's growths
  for (int i = 0; i < 9; ++i) sweep_set(i);      // replacements (their delete callbacks run)
  // Dups and clones of 0, 5 and every attribute, and the free of a communicator with them all.
  none = MPI::COMM_SELF.Dup();
  none.Set_errhandler(comm_handler());
  five = work.Dup();
  for (int i = 5; i < kKeys; ++i) five.Delete_attr(ckeys[i]);
  MPI::Intracomm* srcs[] = {&none, &five, &work};
  for (MPI::Intracomm* src : srcs) sweep_dup(*src);
  clone_with_program_new_failing(work);
  before = take(work);
  sweep_free();
  for (int i = 0; i < kKeys; i += 4) sweep_delete(i);
  sweep_types();
  sweep_windows();
  // Everything goes: the delete callbacks run for every attribute there is.
  for (int i = 0; i < kKeys; ++i)
    sweep_free_keyval("MPI_Comm_free_keyval", ckeys[i], [](int& k) { MPI::Comm::Free_keyval(k); });
  for (int i = 0; i < 6; ++i)
    sweep_free_keyval("MPI_Type_free_keyval", tkeys[i], [](int& k) { MPI::Datatype::Free_keyval(k); });
  for (int i = 0; i < 6; ++i) sweep_free_keyval("MPI_Win_free_keyval", wkeys[i], [](int& k) { MPI::Win::Free_keyval(k); });
  win.Free();
  wtype.Free();
  work.Free();
  five.Free();
  none.Free();
  check(live_tokens == 0, "%s: %ld values were never deleted", regime_names[mode], live_tokens);
  check(live_states() == states_at_start, "%s: %zu keyval states alive at the end, %zu at the start",
        regime_names[mode], live_states(), states_at_start);
}

}  // namespace

int main(int argc, char** argv) {
  MPI::Init(argc, argv);
  alloc_switch = reinterpret_cast<switch_fn>(dlsym(RTLD_DEFAULT, "mpiattr_test_fail_allocation"));
  live_states = reinterpret_cast<states_fn>(dlsym(RTLD_DEFAULT, "mpiattr_cxx_live_keyval_states"));
  if (alloc_switch == nullptr || live_states == nullptr) {
    std::puts("FAIL: mpiattr's test switch or mpiattr_cxx_live_keyval_states is not there");
    return 1;
  }
  comm_recorder = MPI::Comm::Create_errhandler(record_comm);
  win_recorder = MPI::Win::Create_errhandler(record_win);
  trap = MPI::Comm::Create_errhandler(wrong_handler);
  // (The throwing handlers' C handlers are made on first use: not inside a sweep.)
  MPI::COMM_WORLD.Set_errhandler(MPI::ERRORS_THROW_EXCEPTIONS);
  long before_all = injected;
  for (regime r : {throws, returns, function}) {
    mode = r;
    for (persistent = 0; persistent < 2; ++persistent) run_all();
    check(injected > before_all + 50, "%s: only %ld attempts failed: the sweeps do not reach mpiattr's allocations",
          regime_names[r], injected - before_all);
    before_all = injected;
  }
  // MPI::Finalize with an attribute of a C++ keyval on MPI::COMM_SELF: its delete callback runs once.
  MPI::COMM_WORLD.Set_errhandler(MPI::ERRORS_RETURN);
  MPI::COMM_SELF.Set_errhandler(MPI::ERRORS_RETURN);
  comm_recorder.Free();
  win_recorder.Free();
  trap.Free();
  int fk = MPI::Comm::Create_keyval(comm_copy, comm_delete, nullptr);
  MPI::COMM_SELF.Set_attr(fk, new_token());
  MPI::Comm::Free_keyval(fk);
  MPI::Finalize();
  check(live_tokens == 0, "MPI::Finalize left %ld values undeleted", live_tokens);
  if (failures == 0)
    std::printf("D64: every MPI:: sweep ran to the end under the three handlers (%ld attempts failed)\n", injected);
  return failures != 0;
}
