// Error codes with a message per failure (see errors.h).
#include "mpiattr/errors.h"

#include <array>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>

namespace mpiattr {
namespace {

constexpr int kClassBits = 7;  // classes below 128; MPI_ERR_LASTCODE itself is not a real class
constexpr int kSlots = 4096;
constexpr int kCodeBase = 1 << 20;

thread_local char t_detail[512];
thread_local int t_user_code = 0;

struct message_ring {
  std::mutex mu;
  std::array<std::string, kSlots> text;
  std::array<int, kSlots> code{};  // the code whose text the slot holds
  unsigned next = 0;
};
message_ring& ring() {
  static message_ring* r = new message_ring;  // never destroyed: codes outlive static teardown
  return *r;
}

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

namespace detail {
const char* last_detail() { return t_detail; }
int last_user_code() { return t_user_code; }
void clear_last() {
  t_detail[0] = '\0';
  t_user_code = 0;
}
}  // namespace detail

namespace errors {

const char* class_name(int error_class) {
  for (const auto& e : gen::error_classes)
    if (e.value == error_class) return e.name;
  return nullptr;
}

const char* class_string(int error_class) {
  for (const auto& e : gen::error_classes)
    if (e.value == error_class) return e.string;
  return nullptr;
}

int make_code(int error_class, const char* routine) {
  auto& r = ring();
  std::string text = std::string(class_name(error_class) ? class_name(error_class) : "MPI_ERR_?") +
                     ": " + (class_string(error_class) ? class_string(error_class) : "") + ": " +
                     routine + ": " + detail::last_detail();
  std::lock_guard lock(r.mu);
  unsigned slot = r.next++ % kSlots;
  int code = kCodeBase + static_cast<int>(slot << kClassBits) + error_class;
  r.text[slot] = std::move(text);
  r.code[slot] = code;
  return code;
}

bool class_of(int code, int* error_class) {
  if (code >= 0 && code < (1 << kClassBits) && class_name(code)) {
    *error_class = code;
    return true;
  }
  if (code >= kCodeBase && code < kCodeBase + (kSlots << kClassBits)) {
    int cls = (code - kCodeBase) & ((1 << kClassBits) - 1);
    if (class_name(cls)) {
      *error_class = cls;
      return true;
    }
  }
  return false;
}

bool made_code(int code) {
  if (code < kCodeBase || code >= kCodeBase + (kSlots << kClassBits)) return false;
  auto& r = ring();
  std::lock_guard lock(r.mu);
  return r.code[static_cast<unsigned>(code - kCodeBase) >> kClassBits] == code;
}

bool string_of(int code, char* buf, std::size_t cap, int* len) {
  int cls = 0;
  if (!class_of(code, &cls)) return false;
  std::string text;
  if (code >= kCodeBase) {
    auto& r = ring();
    std::lock_guard lock(r.mu);
    unsigned slot = static_cast<unsigned>(code - kCodeBase) >> kClassBits;
    if (r.code[slot] == code) text = r.text[slot];
  }
  if (text.empty()) text = std::string(class_name(cls)) + ": " + class_string(cls);
  std::size_t n = text.size() < cap - 1 ? text.size() : cap - 1;
  std::memcpy(buf, text.data(), n);
  buf[n] = '\0';
  *len = static_cast<int>(n);
  return true;
}

}  // namespace errors
}  // namespace mpiattr
