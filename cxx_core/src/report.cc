// MPIATTR_REPORT (mpiattr/report.h; docs/decisions.md D33): the counts, the routine that created
// each keyval, and the report printed at MPI_Finalize.
#include "mpiattr/report.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "mpiattr/keyval.h"
#include "mpiattr/object.h"

namespace mpiattr::report {

constinit std::atomic<bool> g_on{false};

namespace {

constexpr int kKinds = 3;  // comm, type, win: the kinds that carry attributes
constinit std::atomic<std::uint64_t> g_counts[kCounters][kKinds] = {};
constinit std::atomic<std::uint64_t> g_callbacks[kCallbackCounters] = {};

// Where the report goes, decided once (start).
enum class target { none, stderr_stream, file };
target target_of(const char* value) {
  if (value == nullptr || value[0] == '\0' || std::strcmp(value, "0") == 0) return target::none;
  if (std::strcmp(value, "1") == 0 || std::strcmp(value, "stderr") == 0) return target::stderr_stream;
  return target::file;
}

// The routine that created a keyval, by keyval index (an index is reused only once its record
// has died, so a new keyval's entry replaces the old one's).
struct creator {
  int handle;
  object_kind kind;
  const char* routine;
  bool freed;
};

// Plain memory, constant-initialised, never destroyed: finish() may run from a host callback late
// in the process.
constinit std::mutex g_mu;  // guards everything below
bool g_decided = false, g_finished = false;
int g_rank = 0, g_size = 1;
const char* g_how = "";
char* g_path = nullptr;  // the file MPIATTR_REPORT names (target::file), or null: stderr
std::unordered_map<std::uint32_t, creator>* g_creators = nullptr;
thread_local const char* t_routine = nullptr;  // creating(): for the next keyval_created

const char* short_kind(object_kind k) {
  switch (k) {
    case object_kind::comm: return "comm";
    case object_kind::type: return "type";
    case object_kind::win: return "win";
    default: return "other";
  }
}
const char* plural(std::uint64_t n, const char* one, const char* many) { return n == 1 ? one : many; }

// MPIATTR_REPORT's path with %r replaced by the rank and %% by %.
std::string expand(const char* path, int rank) {
  std::string out;
  for (const char* p = path; *p != '\0'; ++p) {
    if (p[0] == '%' && p[1] == 'r') {
      out += std::to_string(rank);
      ++p;
    } else if (p[0] == '%' && p[1] == '%') {
      out += '%';
      ++p;
    } else {
      out += *p;
    }
  }
  return out;
}

void appendf(std::string& out, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void appendf(std::string& out, const char* fmt, ...) {
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  const int n = std::vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (n > 0) out.append(line, std::min(static_cast<std::size_t>(n), sizeof line - 1));
}

void append_counts(std::string& out, const char* what, counter c) {
  appendf(out, "mpiattr report: %s: comm %" PRIu64 ", type %" PRIu64 ", win %" PRIu64 "\n", what,
          g_counts[c][0].load(std::memory_order_relaxed), g_counts[c][1].load(std::memory_order_relaxed),
          g_counts[c][2].load(std::memory_order_relaxed));
}

struct alive_attribute {
  object_kind kind;
  std::uintptr_t object;
  int keyval;
  std::uint32_t index;
  aint value;
};
struct alive_keyval {
  int handle;
  object_kind kind;
  const char* routine;
  bool freed;
  std::uint64_t attributes;
};

}  // namespace

bool requested() { return target_of(std::getenv("MPIATTR_REPORT")) != target::none; }

bool start(int rank, int size, const char* how) {
  std::lock_guard lock(g_mu);
  if (g_decided) return on();
  g_decided = true;
  const char* value = std::getenv("MPIATTR_REPORT");
  const target t = target_of(value);
  if (t == target::none) return false;
  g_rank = rank;
  g_size = size;
  g_how = how;
  if (t == target::file) g_path = strdup(value);
  g_creators = new std::unordered_map<std::uint32_t, creator>;
  g_on.store(true, std::memory_order_relaxed);
  return true;
}

void add_slow(counter c, object_kind kind, std::uint64_t n) {
  const int k = static_cast<int>(kind);
  if (k < kKinds) g_counts[c][k].fetch_add(n, std::memory_order_relaxed);
}
void add_callback_slow(callback_counter c) { g_callbacks[c].fetch_add(1, std::memory_order_relaxed); }

void creating_slow(const char* routine) { t_routine = routine; }

void keyval_created(object_kind kind, int keyval) {
  if (!on()) return;
  const char* routine = t_routine != nullptr ? t_routine : "unknown";
  t_routine = nullptr;
  add_slow(keyvals_created, kind, 1);
  std::lock_guard lock(g_mu);
  (*g_creators)[keyval_registry::index_of(keyval)] = creator{keyval, kind, routine, false};
}

void keyval_freed(object_kind kind, int keyval) {
  if (!on()) return;
  add_slow(keyvals_freed, kind, 1);
  std::lock_guard lock(g_mu);
  auto it = g_creators->find(keyval_registry::index_of(keyval));
  if (it != g_creators->end() && it->second.handle == keyval) it->second.freed = true;
}

void keyval_from_cxx(int keyval) {
  if (!on()) return;
  std::lock_guard lock(g_mu);
  auto it = g_creators->find(keyval_registry::index_of(keyval));
  if (it == g_creators->end() || it->second.handle != keyval) return;
  switch (it->second.kind) {
    case object_kind::comm: it->second.routine = "MPI::Comm::Create_keyval"; break;
    case object_kind::type: it->second.routine = "MPI::Datatype::Create_keyval"; break;
    case object_kind::win: it->second.routine = "MPI::Win::Create_keyval"; break;
    default: break;
  }
}

void finish(const object_visitor& for_each_object) {
  if (!on()) return;
  // What is still alive: every attribute under a keyval the program created, on every object.
  std::vector<alive_attribute> attrs;
  for_each_object([&](const attr_object& o) {
    std::lock_guard lock(o.attrs.mutex());
    o.attrs.for_each([&](const attr_store::entry& e) {
      if (e.index < keyval_registry::kFirstUserIndex) return;
      attrs.push_back({o.kind, o.app_handle(), keyvals().at(e.index)->handle, e.index, e.value.word()});
    });
  });
  std::lock_guard lock(g_mu);
  if (g_finished) return;
  g_finished = true;
  std::unordered_map<std::uint32_t, std::uint64_t> per_index;
  for (const auto& a : attrs) ++per_index[a.index];
  std::vector<alive_keyval> keys;
  for (const auto& [index, c] : *g_creators) {
    const auto n = per_index.find(index);
    const std::uint64_t count = n == per_index.end() ? 0 : n->second;
    if (!c.freed || count != 0) keys.push_back({c.handle, c.kind, c.routine, c.freed, count});
    if (n != per_index.end()) per_index.erase(n);
  }
  for (const auto& [index, count] : per_index) {  // (no creator known: not created through a binding)
    const keyval_record* r = keyvals().at(index);
    keys.push_back({r->handle, r->kind, "unknown", r->live_handle.load(std::memory_order_relaxed) == 0, count});
  }
  std::sort(keys.begin(), keys.end(), [](const alive_keyval& a, const alive_keyval& b) {
    return a.kind != b.kind ? a.kind < b.kind : static_cast<unsigned>(a.handle) < static_cast<unsigned>(b.handle);
  });
  std::sort(attrs.begin(), attrs.end(), [](const alive_attribute& a, const alive_attribute& b) {
    if (a.kind != b.kind) return a.kind < b.kind;
    if (a.object != b.object) return a.object < b.object;
    return static_cast<unsigned>(a.keyval) < static_cast<unsigned>(b.keyval);
  });

  std::string out;
  appendf(out, "mpiattr report: rank %d of %d, mpiattr %s\n", g_rank, g_size, g_how);
  append_counts(out, "keyvals created", keyvals_created);
  append_counts(out, "keyvals freed", keyvals_freed);
  append_counts(out, "attributes set", attrs_set);
  append_counts(out, "attributes read", attrs_read);
  append_counts(out, "attributes deleted", attrs_deleted);
  append_counts(out, "attributes copied", attrs_copied);
  appendf(out, "mpiattr report: copy callbacks: run %" PRIu64 ", failed %" PRIu64 "\n",
          g_callbacks[copy_run].load(std::memory_order_relaxed), g_callbacks[copy_failed].load(std::memory_order_relaxed));
  appendf(out, "mpiattr report: delete callbacks: run %" PRIu64 ", failed %" PRIu64 "\n",
          g_callbacks[delete_run].load(std::memory_order_relaxed),
          g_callbacks[delete_failed].load(std::memory_order_relaxed));
  appendf(out, "mpiattr report: alive at finalize: %zu %s, %zu %s\n", keys.size(),
          plural(keys.size(), "keyval", "keyvals"), attrs.size(), plural(attrs.size(), "attribute", "attributes"));
  for (const auto& k : keys)
    appendf(out, "mpiattr report: keyval 0x%x (%s) from %s: %s, %" PRIu64 " %s\n", static_cast<unsigned>(k.handle),
            short_kind(k.kind), k.routine, k.freed ? "freed" : "not freed", k.attributes,
            plural(k.attributes, "attribute", "attributes"));
  for (const auto& a : attrs)
    appendf(out, "mpiattr report: attribute %s 0x%" PRIxPTR " keyval 0x%x value 0x%" PRIxPTR "\n", short_kind(a.kind),
            a.object, static_cast<unsigned>(a.keyval), static_cast<std::uintptr_t>(a.value));
  out += "mpiattr report: end\n";

  std::FILE* f = stderr;
  if (g_path != nullptr) {
    const std::string path = expand(g_path, g_rank);
    f = std::fopen(path.c_str(), "w");
    if (f == nullptr) {
      std::fprintf(stderr, "mpiattr: MPIATTR_REPORT: cannot open %s (%s); the report goes to stderr\n",
                   path.c_str(), std::strerror(errno));
      f = stderr;
    }
  }
  std::fwrite(out.data(), 1, out.size(), f);
  if (f == stderr)
    std::fflush(f);
  else
    std::fclose(f);
}

}  // namespace mpiattr::report
