// The bad-input table (R2.3, R3, R1.5, R8.1, D4, D5, D6): every caching routine x every bad input
// that applies to it. Each row names the error class it must fail with and the error handler that
// must see the error (D4: the communicator's or window's own handler; MPI_COMM_SELF's for
// datatypes, keyvals and null/freed handles). After the call nothing may have changed: sentinel
// attributes keep their values (no delete callback ran), predefined attributes keep theirs, the
// output arguments are untouched and the keyvals are still usable.
#include <cstring>
#include <string>

#include "attr_test_common.h"

namespace {

std::atomic<int> g_sentinel_deletes{0};
int sentinel_comm_delete(MPI_Comm, int, void*, void*) { ++g_sentinel_deletes; return MPI_SUCCESS; }
int sentinel_win_delete(MPI_Win, int, void*, void*) { ++g_sentinel_deletes; return MPI_SUCCESS; }
int sentinel_type_delete(MPI_Datatype, int, void*, void*) { ++g_sentinel_deletes; return MPI_SUCCESS; }

constexpr int kNeverCreated = 12345;
int g_marker;  // the address outputs are preset to
void* const kMarker = &g_marker;

// The objects every row runs against, created once (so that rows cannot interfere through the
// creation and destruction of objects).
struct Env {
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Win win = MPI_WIN_NULL;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  int kc = 0, kw = 0, kt = 0;                    // live keyvals with a sentinel attribute
  int freed_kc = 0, freed_kw = 0, freed_kt = 0;  // created, then freed (no attributes)
  MPI_Comm freed_comm = MPI_COMM_NULL;
  MPI_Win freed_win = MPI_WIN_NULL;
  MPI_Datatype freed_type = MPI_DATATYPE_NULL;
  char winbuf[64];
  int s_comm = 1, s_win = 2, s_type = 3, scratch = 4;
  // Outputs, preset before every row.
  int kv_out = 0;
  void* val_out = nullptr;
  int flag_out = 0;
  int var = 0, var_before = 0;  // the keyval variable a free_keyval row passes
};

Env& env() {
  static Env* e = [] {
    auto* e = new Env;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, sentinel_comm_delete, &e->kc, nullptr);
    MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, sentinel_win_delete, &e->kw, nullptr);
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, sentinel_type_delete, &e->kt, nullptr);
    MPI_Comm_create_keyval(nullptr, nullptr, &e->freed_kc, nullptr);
    MPI_Win_create_keyval(nullptr, nullptr, &e->freed_kw, nullptr);
    MPI_Type_create_keyval(nullptr, nullptr, &e->freed_kt, nullptr);
    int k = e->freed_kc;
    MPI_Comm_free_keyval(&k);
    k = e->freed_kw;
    MPI_Win_free_keyval(&k);
    k = e->freed_kt;
    MPI_Type_free_keyval(&k);

    MPI_Comm_dup(MPI_COMM_WORLD, &e->comm);
    MPI_Comm_set_errhandler(e->comm, counting_comm_errhandler());
    MPI_Win_create(e->winbuf, sizeof e->winbuf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &e->win);
    MPI_Win_set_errhandler(e->win, counting_win_errhandler());
    MPI_Type_contiguous(3, MPI_INT, &e->type);
    MPI_Comm_set_attr(e->comm, e->kc, &e->s_comm);
    MPI_Win_set_attr(e->win, e->kw, &e->s_win);
    MPI_Type_set_attr(e->type, e->kt, &e->s_type);

    MPI_Comm_dup(MPI_COMM_WORLD, &e->freed_comm);
    MPI_Comm c = e->freed_comm;
    MPI_Comm_free(&c);
    MPI_Type_contiguous(2, MPI_INT, &e->freed_type);
    MPI_Datatype t = e->freed_type;
    MPI_Type_free(&t);
    char other[8];
    MPI_Win_create(other, sizeof other, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &e->freed_win);
    MPI_Win w = e->freed_win;
    MPI_Win_free(&w);
    return e;
  }();
  return *e;
}

enum class Handler { comm, win, self };

struct Row {
  const char* name;
  const char* routine;
  int (*call)(Env&);
  int cls;
  Handler handler;
};

int free_kv(Env& e, int (*fn)(int*), int value) {
  e.var = e.var_before = value;
  return fn(&e.var);
}

// MPI_Keyval_free and friends are deprecated; call them through pointers with the right type.
int (*const keyval_free)(int*) = MPI_Keyval_free;

const Row kRows[] = {
    // ---- create_keyval: NULL keyval output ----
    {"Comm_create_keyval_null_out", "MPI_Comm_create_keyval", [](Env&) { return MPI_Comm_create_keyval(nullptr, nullptr, nullptr, nullptr); }, MPI_ERR_ARG, Handler::self},
    {"Win_create_keyval_null_out", "MPI_Win_create_keyval", [](Env&) { return MPI_Win_create_keyval(nullptr, nullptr, nullptr, nullptr); }, MPI_ERR_ARG, Handler::self},
    {"Type_create_keyval_null_out", "MPI_Type_create_keyval", [](Env&) { return MPI_Type_create_keyval(nullptr, nullptr, nullptr, nullptr); }, MPI_ERR_ARG, Handler::self},
    {"Keyval_create_null_out", "MPI_Keyval_create", [](Env&) { return MPI_Keyval_create(nullptr, nullptr, nullptr, nullptr); }, MPI_ERR_ARG, Handler::self},

    // ---- free_keyval ----
    {"Comm_free_keyval_null_ptr", "MPI_Comm_free_keyval", [](Env&) { return MPI_Comm_free_keyval(nullptr); }, MPI_ERR_ARG, Handler::self},
    {"Comm_free_keyval_never_created", "MPI_Comm_free_keyval", [](Env& e) { return free_kv(e, MPI_Comm_free_keyval, kNeverCreated); }, MPI_ERR_KEYVAL, Handler::self},
    {"Comm_free_keyval_freed", "MPI_Comm_free_keyval", [](Env& e) { return free_kv(e, MPI_Comm_free_keyval, e.freed_kc); }, MPI_ERR_KEYVAL, Handler::self},
    {"Comm_free_keyval_wrong_kind", "MPI_Comm_free_keyval", [](Env& e) { return free_kv(e, MPI_Comm_free_keyval, e.kt); }, MPI_ERR_KEYVAL, Handler::self},
    {"Comm_free_keyval_invalid", "MPI_Comm_free_keyval", [](Env& e) { return free_kv(e, MPI_Comm_free_keyval, MPI_KEYVAL_INVALID); }, MPI_ERR_KEYVAL, Handler::self},
    {"Comm_free_keyval_predefined", "MPI_Comm_free_keyval", [](Env& e) { return free_kv(e, MPI_Comm_free_keyval, MPI_TAG_UB); }, MPI_ERR_KEYVAL, Handler::self},
    {"Win_free_keyval_null_ptr", "MPI_Win_free_keyval", [](Env&) { return MPI_Win_free_keyval(nullptr); }, MPI_ERR_ARG, Handler::self},
    {"Win_free_keyval_never_created", "MPI_Win_free_keyval", [](Env& e) { return free_kv(e, MPI_Win_free_keyval, kNeverCreated); }, MPI_ERR_KEYVAL, Handler::self},
    {"Win_free_keyval_freed", "MPI_Win_free_keyval", [](Env& e) { return free_kv(e, MPI_Win_free_keyval, e.freed_kw); }, MPI_ERR_KEYVAL, Handler::self},
    {"Win_free_keyval_wrong_kind", "MPI_Win_free_keyval", [](Env& e) { return free_kv(e, MPI_Win_free_keyval, e.kc); }, MPI_ERR_KEYVAL, Handler::self},
    {"Win_free_keyval_invalid", "MPI_Win_free_keyval", [](Env& e) { return free_kv(e, MPI_Win_free_keyval, MPI_KEYVAL_INVALID); }, MPI_ERR_KEYVAL, Handler::self},
    {"Win_free_keyval_predefined", "MPI_Win_free_keyval", [](Env& e) { return free_kv(e, MPI_Win_free_keyval, MPI_WIN_BASE); }, MPI_ERR_KEYVAL, Handler::self},
    {"Type_free_keyval_null_ptr", "MPI_Type_free_keyval", [](Env&) { return MPI_Type_free_keyval(nullptr); }, MPI_ERR_ARG, Handler::self},
    {"Type_free_keyval_never_created", "MPI_Type_free_keyval", [](Env& e) { return free_kv(e, MPI_Type_free_keyval, kNeverCreated); }, MPI_ERR_KEYVAL, Handler::self},
    {"Type_free_keyval_freed", "MPI_Type_free_keyval", [](Env& e) { return free_kv(e, MPI_Type_free_keyval, e.freed_kt); }, MPI_ERR_KEYVAL, Handler::self},
    {"Type_free_keyval_wrong_kind", "MPI_Type_free_keyval", [](Env& e) { return free_kv(e, MPI_Type_free_keyval, e.kw); }, MPI_ERR_KEYVAL, Handler::self},
    {"Type_free_keyval_invalid", "MPI_Type_free_keyval", [](Env& e) { return free_kv(e, MPI_Type_free_keyval, MPI_KEYVAL_INVALID); }, MPI_ERR_KEYVAL, Handler::self},
    {"Type_free_keyval_predefined", "MPI_Type_free_keyval", [](Env& e) { return free_kv(e, MPI_Type_free_keyval, MPI_TAG_UB); }, MPI_ERR_KEYVAL, Handler::self},
    {"Keyval_free_null_ptr", "MPI_Keyval_free", [](Env&) { return keyval_free(nullptr); }, MPI_ERR_ARG, Handler::self},
    {"Keyval_free_never_created", "MPI_Keyval_free", [](Env& e) { return free_kv(e, keyval_free, kNeverCreated); }, MPI_ERR_KEYVAL, Handler::self},
    {"Keyval_free_freed", "MPI_Keyval_free", [](Env& e) { return free_kv(e, keyval_free, e.freed_kc); }, MPI_ERR_KEYVAL, Handler::self},
    {"Keyval_free_wrong_kind", "MPI_Keyval_free", [](Env& e) { return free_kv(e, keyval_free, e.kw); }, MPI_ERR_KEYVAL, Handler::self},
    {"Keyval_free_invalid", "MPI_Keyval_free", [](Env& e) { return free_kv(e, keyval_free, MPI_KEYVAL_INVALID); }, MPI_ERR_KEYVAL, Handler::self},
    {"Keyval_free_predefined", "MPI_Keyval_free", [](Env& e) { return free_kv(e, keyval_free, MPI_TAG_UB); }, MPI_ERR_KEYVAL, Handler::self},

    // ---- set_attr ----
    {"Comm_set_attr_never_created", "MPI_Comm_set_attr", [](Env& e) { return MPI_Comm_set_attr(e.comm, kNeverCreated, &e.scratch); }, MPI_ERR_KEYVAL, Handler::comm},
    {"Comm_set_attr_freed_keyval", "MPI_Comm_set_attr", [](Env& e) { return MPI_Comm_set_attr(e.comm, e.freed_kc, &e.scratch); }, MPI_ERR_KEYVAL, Handler::comm},
    {"Comm_set_attr_wrong_kind", "MPI_Comm_set_attr", [](Env& e) { return MPI_Comm_set_attr(e.comm, e.kt, &e.scratch); }, MPI_ERR_KEYVAL, Handler::comm},
    {"Comm_set_attr_invalid", "MPI_Comm_set_attr", [](Env& e) { return MPI_Comm_set_attr(e.comm, MPI_KEYVAL_INVALID, &e.scratch); }, MPI_ERR_KEYVAL, Handler::comm},
    {"Comm_set_attr_null_handle", "MPI_Comm_set_attr", [](Env& e) { return MPI_Comm_set_attr(MPI_COMM_NULL, e.kc, &e.scratch); }, MPI_ERR_COMM, Handler::self},
    {"Comm_set_attr_freed_handle", "MPI_Comm_set_attr", [](Env& e) { return MPI_Comm_set_attr(e.freed_comm, e.kc, &e.scratch); }, MPI_ERR_COMM, Handler::self},
    {"Comm_set_attr_predefined", "MPI_Comm_set_attr", [](Env& e) { return MPI_Comm_set_attr(e.comm, MPI_TAG_UB, &e.scratch); }, MPI_ERR_KEYVAL, Handler::comm},
    {"Win_set_attr_never_created", "MPI_Win_set_attr", [](Env& e) { return MPI_Win_set_attr(e.win, kNeverCreated, &e.scratch); }, MPI_ERR_KEYVAL, Handler::win},
    {"Win_set_attr_freed_keyval", "MPI_Win_set_attr", [](Env& e) { return MPI_Win_set_attr(e.win, e.freed_kw, &e.scratch); }, MPI_ERR_KEYVAL, Handler::win},
    {"Win_set_attr_wrong_kind", "MPI_Win_set_attr", [](Env& e) { return MPI_Win_set_attr(e.win, e.kc, &e.scratch); }, MPI_ERR_KEYVAL, Handler::win},
    {"Win_set_attr_invalid", "MPI_Win_set_attr", [](Env& e) { return MPI_Win_set_attr(e.win, MPI_KEYVAL_INVALID, &e.scratch); }, MPI_ERR_KEYVAL, Handler::win},
    {"Win_set_attr_null_handle", "MPI_Win_set_attr", [](Env& e) { return MPI_Win_set_attr(MPI_WIN_NULL, e.kw, &e.scratch); }, MPI_ERR_WIN, Handler::self},
    {"Win_set_attr_freed_handle", "MPI_Win_set_attr", [](Env& e) { return MPI_Win_set_attr(e.freed_win, e.kw, &e.scratch); }, MPI_ERR_WIN, Handler::self},
    {"Win_set_attr_predefined_base", "MPI_Win_set_attr", [](Env& e) { return MPI_Win_set_attr(e.win, MPI_WIN_BASE, &e.scratch); }, MPI_ERR_KEYVAL, Handler::win},
    {"Win_set_attr_predefined_size", "MPI_Win_set_attr", [](Env& e) { return MPI_Win_set_attr(e.win, MPI_WIN_SIZE, &e.scratch); }, MPI_ERR_KEYVAL, Handler::win},
    {"Type_set_attr_never_created", "MPI_Type_set_attr", [](Env& e) { return MPI_Type_set_attr(e.type, kNeverCreated, &e.scratch); }, MPI_ERR_KEYVAL, Handler::self},
    {"Type_set_attr_freed_keyval", "MPI_Type_set_attr", [](Env& e) { return MPI_Type_set_attr(e.type, e.freed_kt, &e.scratch); }, MPI_ERR_KEYVAL, Handler::self},
    {"Type_set_attr_wrong_kind", "MPI_Type_set_attr", [](Env& e) { return MPI_Type_set_attr(e.type, e.kc, &e.scratch); }, MPI_ERR_KEYVAL, Handler::self},
    {"Type_set_attr_invalid", "MPI_Type_set_attr", [](Env& e) { return MPI_Type_set_attr(e.type, MPI_KEYVAL_INVALID, &e.scratch); }, MPI_ERR_KEYVAL, Handler::self},
    {"Type_set_attr_null_handle", "MPI_Type_set_attr", [](Env& e) { return MPI_Type_set_attr(MPI_DATATYPE_NULL, e.kt, &e.scratch); }, MPI_ERR_TYPE, Handler::self},
    {"Type_set_attr_freed_handle", "MPI_Type_set_attr", [](Env& e) { return MPI_Type_set_attr(e.freed_type, e.kt, &e.scratch); }, MPI_ERR_TYPE, Handler::self},
    {"Type_set_attr_predefined_comm_key", "MPI_Type_set_attr", [](Env& e) { return MPI_Type_set_attr(e.type, MPI_TAG_UB, &e.scratch); }, MPI_ERR_KEYVAL, Handler::self},
    {"Attr_put_never_created", "MPI_Attr_put", [](Env& e) { return MPI_Attr_put(e.comm, kNeverCreated, &e.scratch); }, MPI_ERR_KEYVAL, Handler::comm},
    {"Attr_put_freed_keyval", "MPI_Attr_put", [](Env& e) { return MPI_Attr_put(e.comm, e.freed_kc, &e.scratch); }, MPI_ERR_KEYVAL, Handler::comm},
    {"Attr_put_wrong_kind", "MPI_Attr_put", [](Env& e) { return MPI_Attr_put(e.comm, e.kw, &e.scratch); }, MPI_ERR_KEYVAL, Handler::comm},
    {"Attr_put_invalid", "MPI_Attr_put", [](Env& e) { return MPI_Attr_put(e.comm, MPI_KEYVAL_INVALID, &e.scratch); }, MPI_ERR_KEYVAL, Handler::comm},
    {"Attr_put_null_handle", "MPI_Attr_put", [](Env& e) { return MPI_Attr_put(MPI_COMM_NULL, e.kc, &e.scratch); }, MPI_ERR_COMM, Handler::self},
    {"Attr_put_freed_handle", "MPI_Attr_put", [](Env& e) { return MPI_Attr_put(e.freed_comm, e.kc, &e.scratch); }, MPI_ERR_COMM, Handler::self},
    {"Attr_put_predefined", "MPI_Attr_put", [](Env& e) { return MPI_Attr_put(e.comm, MPI_WTIME_IS_GLOBAL, &e.scratch); }, MPI_ERR_KEYVAL, Handler::comm},

    // ---- get_attr ----
    {"Comm_get_attr_never_created", "MPI_Comm_get_attr", [](Env& e) { return MPI_Comm_get_attr(e.comm, kNeverCreated, &e.val_out, &e.flag_out); }, MPI_ERR_KEYVAL, Handler::comm},
    {"Comm_get_attr_freed_keyval", "MPI_Comm_get_attr", [](Env& e) { return MPI_Comm_get_attr(e.comm, e.freed_kc, &e.val_out, &e.flag_out); }, MPI_ERR_KEYVAL, Handler::comm},
    {"Comm_get_attr_wrong_kind", "MPI_Comm_get_attr", [](Env& e) { return MPI_Comm_get_attr(e.comm, e.kt, &e.val_out, &e.flag_out); }, MPI_ERR_KEYVAL, Handler::comm},
    {"Comm_get_attr_invalid", "MPI_Comm_get_attr", [](Env& e) { return MPI_Comm_get_attr(e.comm, MPI_KEYVAL_INVALID, &e.val_out, &e.flag_out); }, MPI_ERR_KEYVAL, Handler::comm},
    {"Comm_get_attr_null_handle", "MPI_Comm_get_attr", [](Env& e) { return MPI_Comm_get_attr(MPI_COMM_NULL, e.kc, &e.val_out, &e.flag_out); }, MPI_ERR_COMM, Handler::self},
    {"Comm_get_attr_freed_handle", "MPI_Comm_get_attr", [](Env& e) { return MPI_Comm_get_attr(e.freed_comm, e.kc, &e.val_out, &e.flag_out); }, MPI_ERR_COMM, Handler::self},
    {"Comm_get_attr_null_value_out", "MPI_Comm_get_attr", [](Env& e) { return MPI_Comm_get_attr(e.comm, e.kc, nullptr, &e.flag_out); }, MPI_ERR_ARG, Handler::comm},
    {"Comm_get_attr_null_flag_out", "MPI_Comm_get_attr", [](Env& e) { return MPI_Comm_get_attr(e.comm, e.kc, &e.val_out, nullptr); }, MPI_ERR_ARG, Handler::comm},
    {"Win_get_attr_never_created", "MPI_Win_get_attr", [](Env& e) { return MPI_Win_get_attr(e.win, kNeverCreated, &e.val_out, &e.flag_out); }, MPI_ERR_KEYVAL, Handler::win},
    {"Win_get_attr_freed_keyval", "MPI_Win_get_attr", [](Env& e) { return MPI_Win_get_attr(e.win, e.freed_kw, &e.val_out, &e.flag_out); }, MPI_ERR_KEYVAL, Handler::win},
    {"Win_get_attr_wrong_kind", "MPI_Win_get_attr", [](Env& e) { return MPI_Win_get_attr(e.win, e.kt, &e.val_out, &e.flag_out); }, MPI_ERR_KEYVAL, Handler::win},
    {"Win_get_attr_invalid", "MPI_Win_get_attr", [](Env& e) { return MPI_Win_get_attr(e.win, MPI_KEYVAL_INVALID, &e.val_out, &e.flag_out); }, MPI_ERR_KEYVAL, Handler::win},
    {"Win_get_attr_null_handle", "MPI_Win_get_attr", [](Env& e) { return MPI_Win_get_attr(MPI_WIN_NULL, e.kw, &e.val_out, &e.flag_out); }, MPI_ERR_WIN, Handler::self},
    {"Win_get_attr_freed_handle", "MPI_Win_get_attr", [](Env& e) { return MPI_Win_get_attr(e.freed_win, e.kw, &e.val_out, &e.flag_out); }, MPI_ERR_WIN, Handler::self},
    {"Win_get_attr_null_value_out", "MPI_Win_get_attr", [](Env& e) { return MPI_Win_get_attr(e.win, e.kw, nullptr, &e.flag_out); }, MPI_ERR_ARG, Handler::win},
    {"Win_get_attr_null_flag_out", "MPI_Win_get_attr", [](Env& e) { return MPI_Win_get_attr(e.win, e.kw, &e.val_out, nullptr); }, MPI_ERR_ARG, Handler::win},
    {"Type_get_attr_never_created", "MPI_Type_get_attr", [](Env& e) { return MPI_Type_get_attr(e.type, kNeverCreated, &e.val_out, &e.flag_out); }, MPI_ERR_KEYVAL, Handler::self},
    {"Type_get_attr_freed_keyval", "MPI_Type_get_attr", [](Env& e) { return MPI_Type_get_attr(e.type, e.freed_kt, &e.val_out, &e.flag_out); }, MPI_ERR_KEYVAL, Handler::self},
    {"Type_get_attr_wrong_kind", "MPI_Type_get_attr", [](Env& e) { return MPI_Type_get_attr(e.type, e.kw, &e.val_out, &e.flag_out); }, MPI_ERR_KEYVAL, Handler::self},
    {"Type_get_attr_invalid", "MPI_Type_get_attr", [](Env& e) { return MPI_Type_get_attr(e.type, MPI_KEYVAL_INVALID, &e.val_out, &e.flag_out); }, MPI_ERR_KEYVAL, Handler::self},
    {"Type_get_attr_null_handle", "MPI_Type_get_attr", [](Env& e) { return MPI_Type_get_attr(MPI_DATATYPE_NULL, e.kt, &e.val_out, &e.flag_out); }, MPI_ERR_TYPE, Handler::self},
    {"Type_get_attr_freed_handle", "MPI_Type_get_attr", [](Env& e) { return MPI_Type_get_attr(e.freed_type, e.kt, &e.val_out, &e.flag_out); }, MPI_ERR_TYPE, Handler::self},
    {"Type_get_attr_null_value_out", "MPI_Type_get_attr", [](Env& e) { return MPI_Type_get_attr(e.type, e.kt, nullptr, &e.flag_out); }, MPI_ERR_ARG, Handler::self},
    {"Type_get_attr_null_flag_out", "MPI_Type_get_attr", [](Env& e) { return MPI_Type_get_attr(e.type, e.kt, &e.val_out, nullptr); }, MPI_ERR_ARG, Handler::self},
    {"Attr_get_never_created", "MPI_Attr_get", [](Env& e) { return MPI_Attr_get(e.comm, kNeverCreated, &e.val_out, &e.flag_out); }, MPI_ERR_KEYVAL, Handler::comm},
    {"Attr_get_freed_keyval", "MPI_Attr_get", [](Env& e) { return MPI_Attr_get(e.comm, e.freed_kc, &e.val_out, &e.flag_out); }, MPI_ERR_KEYVAL, Handler::comm},
    {"Attr_get_wrong_kind", "MPI_Attr_get", [](Env& e) { return MPI_Attr_get(e.comm, e.kw, &e.val_out, &e.flag_out); }, MPI_ERR_KEYVAL, Handler::comm},
    {"Attr_get_invalid", "MPI_Attr_get", [](Env& e) { return MPI_Attr_get(e.comm, MPI_KEYVAL_INVALID, &e.val_out, &e.flag_out); }, MPI_ERR_KEYVAL, Handler::comm},
    {"Attr_get_null_handle", "MPI_Attr_get", [](Env& e) { return MPI_Attr_get(MPI_COMM_NULL, e.kc, &e.val_out, &e.flag_out); }, MPI_ERR_COMM, Handler::self},
    {"Attr_get_freed_handle", "MPI_Attr_get", [](Env& e) { return MPI_Attr_get(e.freed_comm, e.kc, &e.val_out, &e.flag_out); }, MPI_ERR_COMM, Handler::self},
    {"Attr_get_null_value_out", "MPI_Attr_get", [](Env& e) { return MPI_Attr_get(e.comm, e.kc, nullptr, &e.flag_out); }, MPI_ERR_ARG, Handler::comm},
    {"Attr_get_null_flag_out", "MPI_Attr_get", [](Env& e) { return MPI_Attr_get(e.comm, e.kc, &e.val_out, nullptr); }, MPI_ERR_ARG, Handler::comm},

    // ---- delete_attr (a freed keyval with no attribute left is not a key any more, D6) ----
    {"Comm_delete_attr_never_created", "MPI_Comm_delete_attr", [](Env& e) { return MPI_Comm_delete_attr(e.comm, kNeverCreated); }, MPI_ERR_KEYVAL, Handler::comm},
    {"Comm_delete_attr_freed_keyval", "MPI_Comm_delete_attr", [](Env& e) { return MPI_Comm_delete_attr(e.comm, e.freed_kc); }, MPI_ERR_KEYVAL, Handler::comm},
    {"Comm_delete_attr_wrong_kind", "MPI_Comm_delete_attr", [](Env& e) { return MPI_Comm_delete_attr(e.comm, e.kt); }, MPI_ERR_KEYVAL, Handler::comm},
    {"Comm_delete_attr_invalid", "MPI_Comm_delete_attr", [](Env& e) { return MPI_Comm_delete_attr(e.comm, MPI_KEYVAL_INVALID); }, MPI_ERR_KEYVAL, Handler::comm},
    {"Comm_delete_attr_null_handle", "MPI_Comm_delete_attr", [](Env& e) { return MPI_Comm_delete_attr(MPI_COMM_NULL, e.kc); }, MPI_ERR_COMM, Handler::self},
    {"Comm_delete_attr_freed_handle", "MPI_Comm_delete_attr", [](Env& e) { return MPI_Comm_delete_attr(e.freed_comm, e.kc); }, MPI_ERR_COMM, Handler::self},
    {"Comm_delete_attr_predefined", "MPI_Comm_delete_attr", [](Env& e) { return MPI_Comm_delete_attr(e.comm, MPI_TAG_UB); }, MPI_ERR_KEYVAL, Handler::comm},
    {"Win_delete_attr_never_created", "MPI_Win_delete_attr", [](Env& e) { return MPI_Win_delete_attr(e.win, kNeverCreated); }, MPI_ERR_KEYVAL, Handler::win},
    {"Win_delete_attr_freed_keyval", "MPI_Win_delete_attr", [](Env& e) { return MPI_Win_delete_attr(e.win, e.freed_kw); }, MPI_ERR_KEYVAL, Handler::win},
    {"Win_delete_attr_wrong_kind", "MPI_Win_delete_attr", [](Env& e) { return MPI_Win_delete_attr(e.win, e.kc); }, MPI_ERR_KEYVAL, Handler::win},
    {"Win_delete_attr_invalid", "MPI_Win_delete_attr", [](Env& e) { return MPI_Win_delete_attr(e.win, MPI_KEYVAL_INVALID); }, MPI_ERR_KEYVAL, Handler::win},
    {"Win_delete_attr_null_handle", "MPI_Win_delete_attr", [](Env& e) { return MPI_Win_delete_attr(MPI_WIN_NULL, e.kw); }, MPI_ERR_WIN, Handler::self},
    {"Win_delete_attr_freed_handle", "MPI_Win_delete_attr", [](Env& e) { return MPI_Win_delete_attr(e.freed_win, e.kw); }, MPI_ERR_WIN, Handler::self},
    {"Win_delete_attr_predefined", "MPI_Win_delete_attr", [](Env& e) { return MPI_Win_delete_attr(e.win, MPI_WIN_SIZE); }, MPI_ERR_KEYVAL, Handler::win},
    {"Type_delete_attr_never_created", "MPI_Type_delete_attr", [](Env& e) { return MPI_Type_delete_attr(e.type, kNeverCreated); }, MPI_ERR_KEYVAL, Handler::self},
    {"Type_delete_attr_freed_keyval", "MPI_Type_delete_attr", [](Env& e) { return MPI_Type_delete_attr(e.type, e.freed_kt); }, MPI_ERR_KEYVAL, Handler::self},
    {"Type_delete_attr_wrong_kind", "MPI_Type_delete_attr", [](Env& e) { return MPI_Type_delete_attr(e.type, e.kc); }, MPI_ERR_KEYVAL, Handler::self},
    {"Type_delete_attr_invalid", "MPI_Type_delete_attr", [](Env& e) { return MPI_Type_delete_attr(e.type, MPI_KEYVAL_INVALID); }, MPI_ERR_KEYVAL, Handler::self},
    {"Type_delete_attr_null_handle", "MPI_Type_delete_attr", [](Env& e) { return MPI_Type_delete_attr(MPI_DATATYPE_NULL, e.kt); }, MPI_ERR_TYPE, Handler::self},
    {"Type_delete_attr_freed_handle", "MPI_Type_delete_attr", [](Env& e) { return MPI_Type_delete_attr(e.freed_type, e.kt); }, MPI_ERR_TYPE, Handler::self},
    {"Type_delete_attr_predefined_comm_key", "MPI_Type_delete_attr", [](Env& e) { return MPI_Type_delete_attr(e.type, MPI_TAG_UB); }, MPI_ERR_KEYVAL, Handler::self},
    {"Attr_delete_never_created", "MPI_Attr_delete", [](Env& e) { return MPI_Attr_delete(e.comm, kNeverCreated); }, MPI_ERR_KEYVAL, Handler::comm},
    {"Attr_delete_freed_keyval", "MPI_Attr_delete", [](Env& e) { return MPI_Attr_delete(e.comm, e.freed_kc); }, MPI_ERR_KEYVAL, Handler::comm},
    {"Attr_delete_wrong_kind", "MPI_Attr_delete", [](Env& e) { return MPI_Attr_delete(e.comm, e.kw); }, MPI_ERR_KEYVAL, Handler::comm},
    {"Attr_delete_invalid", "MPI_Attr_delete", [](Env& e) { return MPI_Attr_delete(e.comm, MPI_KEYVAL_INVALID); }, MPI_ERR_KEYVAL, Handler::comm},
    {"Attr_delete_null_handle", "MPI_Attr_delete", [](Env& e) { return MPI_Attr_delete(MPI_COMM_NULL, e.kc); }, MPI_ERR_COMM, Handler::self},
    {"Attr_delete_freed_handle", "MPI_Attr_delete", [](Env& e) { return MPI_Attr_delete(e.freed_comm, e.kc); }, MPI_ERR_COMM, Handler::self},
    {"Attr_delete_predefined", "MPI_Attr_delete", [](Env& e) { return MPI_Attr_delete(e.comm, MPI_HOST); }, MPI_ERR_KEYVAL, Handler::comm},
};

// Readable parameter names in test listings (instead of a byte dump).
void PrintTo(const Row& row, std::ostream* os) { *os << row.name; }

class BadInput : public ::testing::TestWithParam<Row> {
 protected:
  void SetUp() override {
    Env& e = env();
    ASSERT_NE(e.comm, MPI_COMM_NULL);
    ASSERT_NE(e.win, MPI_WIN_NULL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, counting_comm_errhandler());
    handler_calls().clear();
    g_sentinel_deletes = 0;
    e.kv_out = 0x5A5A;
    e.val_out = kMarker;
    e.flag_out = 77;
    e.var = e.var_before = 0;
  }
  void TearDown() override { MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN); }
};

TEST_P(BadInput, R3_fails_with_class_through_handler_and_changes_nothing) {
  const Row& row = GetParam();
  Env& e = env();
  int rc = row.call(e);
  // Restore SELF first so that the checks below cannot add handler calls of their own.
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  std::vector<handler_call> calls = handler_calls();

  ASSERT_NE(rc, MPI_SUCCESS) << row.routine << " accepted the bad input";
  EXPECT_EQ(error_class(rc), row.cls) << error_string(rc);
  std::string text = error_string(rc);
  EXPECT_FALSE(text.empty());
  EXPECT_NE(text.find(row.routine), std::string::npos) << "message does not name " << row.routine << ": " << text;

  // D4: exactly one call of the expected handler, with the returned code.
  ASSERT_EQ(calls.size(), 1u) << "error handler calls";
  EXPECT_EQ(calls[0].code, rc);
  switch (row.handler) {
    case Handler::comm:
      EXPECT_FALSE(calls[0].is_win);
      EXPECT_EQ(calls[0].object, static_cast<void*>(e.comm));
      break;
    case Handler::win:
      EXPECT_TRUE(calls[0].is_win);
      EXPECT_EQ(calls[0].object, static_cast<void*>(e.win));
      break;
    case Handler::self:
      EXPECT_FALSE(calls[0].is_win);
      EXPECT_EQ(calls[0].object, static_cast<void*>(MPI_COMM_SELF));
      break;
  }

  // Nothing changed: outputs untouched...
  EXPECT_EQ(e.kv_out, 0x5A5A);
  EXPECT_EQ(e.val_out, kMarker);
  EXPECT_EQ(e.flag_out, 77);
  EXPECT_EQ(e.var, e.var_before) << "the keyval variable was modified";
  // ...no delete callback ran, the sentinels are in place under still-usable keyvals...
  EXPECT_EQ(g_sentinel_deletes.load(), 0);
  void* v = nullptr;
  EXPECT_EQ(comm_get(e.comm, e.kc, &v), 1);
  EXPECT_EQ(v, &e.s_comm);
  EXPECT_EQ(win_get(e.win, e.kw, &v), 1);
  EXPECT_EQ(v, &e.s_win);
  EXPECT_EQ(type_get(e.type, e.kt, &v), 1);
  EXPECT_EQ(v, &e.s_type);
  // ...and the predefined attributes keep their values.
  EXPECT_EQ(comm_get(e.comm, MPI_TAG_UB, &v), 1);
  if (v) { EXPECT_EQ(*static_cast<int*>(v), 2147483647); }
  EXPECT_EQ(comm_get(e.comm, MPI_WTIME_IS_GLOBAL, &v), 1);
  if (v) { EXPECT_EQ(*static_cast<int*>(v), 1); }
  EXPECT_EQ(comm_get(e.comm, MPI_HOST, &v), 1);
  if (v) { EXPECT_EQ(*static_cast<int*>(v), MPI_PROC_NULL); }
  EXPECT_EQ(win_get(e.win, MPI_WIN_BASE, &v), 1);
  EXPECT_EQ(v, static_cast<void*>(e.winbuf));
  EXPECT_EQ(win_get(e.win, MPI_WIN_SIZE, &v), 1);
  if (v) { EXPECT_EQ(*static_cast<MPI_Aint*>(v), static_cast<MPI_Aint>(sizeof e.winbuf)); }
  // The freed keyvals and handles are still rejected (the row did not revive them).
  EXPECT_EQ(comm_get(e.comm, e.freed_kc, nullptr), -1);
  EXPECT_EQ(comm_get(e.freed_comm, e.kc, nullptr), -1);
}

INSTANTIATE_TEST_SUITE_P(R3_Table, BadInput, ::testing::ValuesIn(kRows),
                         [](const ::testing::TestParamInfo<Row>& info) { return std::string(info.param.name); });

}  // namespace
