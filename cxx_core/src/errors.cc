// Error codes with a message per failure (see errors.h).
#include "mpiattr/errors.h"

#include "mpiattr/alloc.h"

#include <array>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <vector>

namespace mpiattr {
namespace {

constexpr int kClassBits = 7;  // classes below 128; MPI_ERR_LASTCODE itself is not a real class
constexpr int kSlots = 4096;
constexpr int kCodeBase = 1 << 20;  // make_code's values: kCodeBase + a slot index times 128 + a class

thread_local char t_detail[512];
thread_local int t_user_code = 0;

// The messages of made codes. Fixed buffers in static storage: making a code and reading its
// message never allocate, so an out-of-memory error (D61) keeps its message naming the routine,
// and MPI_Error_string works however short memory is (D70).
constexpr std::size_t kTextCap = 512;  // MPI_MAX_ERROR_STRING of the standalone mpi.h and the ABI
struct message_ring {
  std::mutex mu;
  char text[kSlots][kTextCap];
  std::array<int, kSlots> code{};  // the code whose text the slot holds
  std::array<int, kSlots> wide_class{};  // the class of a code made with kWideClass bits
  unsigned next = 0;
};
message_ring& ring() {
  // Constructed in place in static storage, never destroyed: codes outlive static teardown, and
  // the 2 MiB stay zero pages until messages are written.
  alignas(message_ring) static unsigned char storage[sizeof(message_ring)];
  static message_ring* r = new (storage) message_ring;
  return *r;
}

// Copies at most cap - 1 bytes of text to buf, terminated; returns the length copied.
int copy_text(const char* text, char* buf, std::size_t cap) {
  std::size_t n = std::strlen(text);
  if (n > cap - 1) n = cap - 1;
  std::memcpy(buf, text, n);
  buf[n] = '\0';
  return static_cast<int>(n);
}

// User-defined classes and codes: value MPI_ERR_LASTCODE + 1 + i is entry i.
struct user_entry {
  int error_class;  // itself for a class
  std::string text;  // MPI_Add_error_string's; empty until then
  bool has_text = false;
  bool removed = false;  // MPI_Remove_error_class or _code: no longer a class or code (D55)
  // Removed with its string; its value is never given out again (D55).
  void remove() {
    removed = true;
    text.clear();
    has_text = false;
  }
};
struct user_registry {
  std::mutex mu;
  std::vector<user_entry> entries;
  std::atomic<int> last{MPI_ERR_LASTCODE};
};
user_registry& users() {
  static user_registry* u = new user_registry;  // never destroyed, as the ring
  return *u;
}
// The entry of a user-defined class or code, or nullptr; call with users().mu held.
user_entry* user_of(int code) {
  auto& u = users();
  if (code <= MPI_ERR_LASTCODE || code - MPI_ERR_LASTCODE - 1 >= static_cast<int>(u.entries.size())) return nullptr;
  user_entry* e = &u.entries[static_cast<std::size_t>(code - MPI_ERR_LASTCODE - 1)];
  return e->removed ? nullptr : e;
}
// A made code's class bits for a class that does not fit them (a user-defined one): the class is
// then kept in the ring beside the message.
constexpr int kWideClass = (1 << kClassBits) - 1;

}  // namespace

status fail(int error_class, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(t_detail, sizeof t_detail, fmt, ap);
  va_end(ap);
  t_user_code = 0;
  return status(error_class);
}

status callback_failed(int user_code, const char* what) {
  int cls = 0;
  if (!errors::class_of(user_code, &cls) || cls == 0) cls = MPI_ERR_OTHER;
  std::snprintf(t_detail, sizeof t_detail, "%s returned error code %d", what, user_code);
  t_user_code = user_code;
  return status(cls);
}

status out_of_memory(std::size_t n, const char* what) noexcept {
  return n != 0 ? fail(MPI_ERR_NO_MEM, "out of memory: %zu bytes for %s could not be allocated; nothing was "
                                       "changed (docs/decisions.md D61)", n, what)
                : fail(MPI_ERR_NO_MEM, "out of memory: %s could not be allocated; nothing was changed "
                                       "(docs/decisions.md D61)", what);
}

status from_exception(const char* what) noexcept {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    return out_of_memory(alloc::last_failed_bytes(), what);
  } catch (...) {
    return fail(MPI_ERR_INTERN, "an unexpected C++ exception while working on %s", what);
  }
}

namespace detail {
const char* last_detail() { return t_detail; }
int last_user_code() { return t_user_code; }
void clear_last() {
  t_detail[0] = '\0';
  t_user_code = 0;
}
}  // namespace detail

namespace errors {
// The predefined class `error_class`: one of MPI's, or of the tool information interface's
// (MPI_T_ERR_*, D123); nullptr for any other value.
static const gen::error_class_info* predefined_class(int error_class) {
  for (const auto& e : gen::error_classes)
    if (e.value == error_class) return &e;
  for (const auto& e : gen::tool_error_classes)
    if (e.value == error_class) return &e;
  return nullptr;
}

const char* class_name(int error_class) {
  const auto* e = predefined_class(error_class);
  return e != nullptr ? e->name : nullptr;
}

const char* class_string(int error_class) {
  const auto* e = predefined_class(error_class);
  return e != nullptr ? e->string : nullptr;
}

int make_code(int error_class, const char* routine) {
  auto& r = ring();
  const bool wide = error_class >= kWideClass;  // a user-defined class
  const char* name = class_name(error_class);
  const char* what = class_string(error_class);
  char wide_name[32];
  if (name == nullptr) {
    if (wide) std::snprintf(wide_name, sizeof wide_name, "error class %d", error_class);
    name = wide ? wide_name : "MPI_ERR_?";
  }
  std::lock_guard lock(r.mu);
  unsigned slot = r.next++ % kSlots;
  int code = kCodeBase + static_cast<int>(slot << kClassBits) + (wide ? kWideClass : error_class);
  std::snprintf(r.text[slot], kTextCap, "%s: %s%s%s: %s", name, what ? what : "", what ? ": " : "",
                routine, detail::last_detail());
  r.code[slot] = code;
  r.wide_class[slot] = wide ? error_class : 0;
  return code;
}

bool class_of(int code, int* error_class) {
  if (code >= 0 && code != MPI_ERR_LASTCODE && class_name(code) != nullptr) {
    *error_class = code;  // (a predefined class is its own code, the MPI_T_ERR_* ones too: D123)
    return true;
  }
  if (code > MPI_ERR_LASTCODE && code < kCodeBase) {
    auto& u = users();
    std::lock_guard lock(u.mu);
    if (const user_entry* e = user_of(code)) {
      *error_class = e->error_class;
      return true;
    }
    return false;
  }
  if (code >= kCodeBase && code < kCodeBase + (kSlots << kClassBits)) {
    int cls = (code - kCodeBase) & ((1 << kClassBits) - 1);
    if (cls == kWideClass) {
      auto& r = ring();
      std::lock_guard lock(r.mu);
      unsigned slot = static_cast<unsigned>(code - kCodeBase) >> kClassBits;
      if (r.code[slot] != code) return false;
      *error_class = r.wide_class[slot];
      return true;
    }
    if (class_name(cls)) {
      *error_class = cls;
      return true;
    }
  }
  return false;
}

namespace {
// The next user-defined value, of class `error_class` (-1: the value is a class, its own).
status add_entry(int error_class, int& value) {
  auto& u = users();
  std::lock_guard lock(u.mu);
  if (MPI_ERR_LASTCODE + 1 + static_cast<long>(u.entries.size()) >= kCodeBase)
    return fail(MPI_ERR_INTERN, "no error class or code is left to add");
  const int made = MPI_ERR_LASTCODE + 1 + static_cast<int>(u.entries.size());
  u.entries.push_back({error_class < 0 ? made : error_class, {}});  // (out of memory: nothing added, D65)
  u.last.store(made, std::memory_order_release);
  value = made;
  return status::ok();
}
}  // namespace

status add_class(int& error_class) { return add_entry(-1, error_class); }

status add_code(int error_class, int& code) {
  int cls = 0;
  if (!class_of(error_class, &cls) || cls != error_class)
    return fail(MPI_ERR_ARG, "%d is not an error class", error_class);
  return add_entry(error_class, code);
}

status add_string(int code, const char* text) {
  if (std::strlen(text) >= MPI_MAX_ERROR_STRING)
    return fail(MPI_ERR_ARG, "the string has %zu characters; at most MPI_MAX_ERROR_STRING - 1 = %d fit",
                std::strlen(text), MPI_MAX_ERROR_STRING - 1);
  auto& u = users();
  std::lock_guard lock(u.mu);
  user_entry* e = user_of(code);
  if (e == nullptr)
    return fail(MPI_ERR_ARG, "%d is not a user-defined error class or code (MPI-4.1 section 10.5: only "
                "those take a string)", code);
  e->text = text;
  e->has_text = true;
  return status::ok();
}

// Removing a class or code whose string is still set is erroneous (MPI-4.1 section 10.5): refused,
// and nothing is removed (D116; MPICH refuses it too).
namespace {
[[gnu::cold]] status still_has_string(const char* what, int value) {
  return fail(MPI_ERR_ARG, "error %s %d still has its string: remove it first (MPI_Remove_error_string; "
              "MPI-4.1 section 10.5)", what, value);
}
}  // namespace

status remove_class(int error_class) {
  auto& u = users();
  std::lock_guard lock(u.mu);
  user_entry* e = user_of(error_class);
  if (e == nullptr || e->error_class != error_class)
    return fail(MPI_ERR_ARG, "%d is not an error class MPI_Add_error_class made (or it was removed): "
                "only those can be removed (MPI-4.1 section 10.5)", error_class);
  for (std::size_t i = 0; i < u.entries.size(); ++i) {
    const user_entry& c = u.entries[i];
    const int value = MPI_ERR_LASTCODE + 1 + static_cast<int>(i);
    if (!c.removed && c.error_class == error_class && value != error_class)
      return fail(MPI_ERR_ARG, "error class %d still has error code %d: remove its codes first "
                  "(MPI_Remove_error_code; MPI-4.1 section 10.5)", error_class, value);
  }
  if (e->has_text) return still_has_string("class", error_class);
  e->remove();
  return status::ok();
}

status remove_code(int code) {
  auto& u = users();
  std::lock_guard lock(u.mu);
  user_entry* e = user_of(code);
  if (e == nullptr || e->error_class == code)
    return fail(MPI_ERR_ARG, "%d is not an error code MPI_Add_error_code made (or it was removed): "
                "only those can be removed (MPI-4.1 section 10.5)", code);
  if (e->has_text) return still_has_string("code", code);
  e->remove();
  return status::ok();
}

status remove_string(int code) {
  auto& u = users();
  std::lock_guard lock(u.mu);
  user_entry* e = user_of(code);
  if (e == nullptr)
    return fail(MPI_ERR_ARG, "%d is not a user-defined error class or code (MPI-4.1 section 10.5: only "
                "their strings can be removed)", code);
  if (!e->has_text)
    return fail(MPI_ERR_ARG, "error %d has no string to remove (MPI_Add_error_string gave it none)", code);
  e->text.clear();
  e->has_text = false;
  return status::ok();
}

int last_used_code() { return users().last.load(std::memory_order_acquire); }

bool made_code(int code) {
  if (code < kCodeBase || code >= kCodeBase + (kSlots << kClassBits)) return false;
  auto& r = ring();
  std::lock_guard lock(r.mu);
  return r.code[static_cast<unsigned>(code - kCodeBase) >> kClassBits] == code;
}

bool string_of(int code, char* buf, std::size_t cap, int* len) {
  int cls = 0;
  if (!class_of(code, &cls)) return false;
  if (code > MPI_ERR_LASTCODE && code < kCodeBase) {  // user-defined: its string, maybe empty
    auto& u = users();
    std::lock_guard lock(u.mu);
    *len = copy_text(user_of(code)->text.c_str(), buf, cap);
    return true;
  }
  if (code >= kCodeBase) {
    auto& r = ring();
    std::lock_guard lock(r.mu);
    unsigned slot = static_cast<unsigned>(code - kCodeBase) >> kClassBits;
    if (r.code[slot] == code && r.text[slot][0] != '\0') {
      *len = copy_text(r.text[slot], buf, cap);
      return true;
    }
  }
  const char* name = class_name(cls);
  int n = name ? std::snprintf(buf, cap, "%s: %s", name, class_string(cls)) : 0;
  if (name == nullptr) buf[0] = '\0';
  *len = n < 0 ? 0 : n >= static_cast<int>(cap) ? static_cast<int>(cap) - 1 : n;
  return true;
}

}  // namespace errors
}  // namespace mpiattr
