// MPIATTR_REPORT (mpiattr/report.h; docs/decisions.md D33): the counts, the routine that created
// each keyval, and the report printed at MPI_Finalize.
#include "mpiattr/report.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <elf.h>
#include <execinfo.h>
#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cctype>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
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
  int place;  // the stack of the call (g_stacks), or -1
};

// What is known of an object the program holds (by kind and handle): the call that made it and
// where each of its attributes was set (keyval index -> stack).
struct object_info {
  int made = -1;                  // the stack of the call that made it, or -1
  const char* routine = nullptr;  // the routine that made it, or null: found from that stack
  std::unordered_map<std::uint32_t, int> set;
};

// Plain memory, constant-initialised, never destroyed: finish() may run from a host callback late
// in the process.
constinit std::mutex g_mu;  // guards everything below
bool g_decided = false, g_finished = false;
int g_rank = 0, g_size = 1;
const char* g_how = "";
char* g_path = nullptr;  // the file MPIATTR_REPORT names (target::file), or null: stderr
std::unordered_map<std::uint32_t, creator>* g_creators = nullptr;
// The program's stacks (return addresses, innermost first), each kept once, by number.
std::vector<std::vector<void*>>* g_stacks = nullptr;
std::map<std::vector<void*>, int>* g_stack_ids = nullptr;
std::map<std::pair<int, std::uintptr_t>, object_info>* g_objects = nullptr;
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

// The return addresses of the current call, kept once (g_mu held by the caller). Only addresses:
// they are resolved when the report is printed (resolve_places).
constexpr int kDepth = 32;
int capture_locked(void* const* pcs, int n) {
  std::vector<void*> stack(pcs, pcs + std::max(n, 0));
  auto [it, fresh] = g_stack_ids->emplace(std::move(stack), static_cast<int>(g_stacks->size()));
  if (fresh) g_stacks->push_back(it->first);
  return it->second;
}
#define MPIATTR_CAPTURE(pcs, n) \
  void* pcs[kDepth];            \
  const int n = backtrace(pcs, kDepth)

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
  bool predefined;
  std::string name;  // the object's (a predefined one's: MPI_INT, ...)
};
struct alive_keyval {
  int handle;
  object_kind kind;
  const char* routine;
  bool freed;
  std::uint64_t attributes;
  int place;
};

// ---- resolving places, when the report is printed (D60) ----

std::string base_name(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Files of mpiattr and of the MPI and Fortran runtimes (and what they call through): a place is the
// first frame outside them. The sanitizers' runtimes too: under ASan or TSan the first frame
// backtrace() gives is its interceptor's (`__interceptor_backtrace`, in libasan).
bool runtime_file(const std::string& path) {
  const std::string b = base_name(path);
  for (const char* p : {"libmpiattr", "libmpi", "libpmpi", "libmpich", "libopen-", "libgfortran", "libstdc++",
                        "libgcc_s", "libasan", "libtsan", "libubsan", "liblsan", "libhwasan"})
    if (b.rfind(p, 0) == 0) return true;
  return false;
}
// Functions of the bindings wherever they are compiled (a C++ program's inline MPI:: methods, the
// Fortran modules' procedures, a statically linked mpiattr).
bool runtime_function(const std::string& f) {
  for (const char* p : {"MPI_", "PMPI_", "MPIX_", "mpi_", "pmpi_", "MPI::", "mpiattr::", "__mpi_MOD_",
                        "__mpi_f08_MOD_", "__mpiattr", "ompi_", "MPIR_", "MPID", "__interceptor_",
                        "__sanitizer"})
    if (f.rfind(p, 0) == 0) return true;
  return false;
}

// A function's name without its parameters ("MPI::Comm::Dup() const" -> "MPI::Comm::Dup").
std::string without_parameters(std::string f) {
  if (f.rfind("operator", 0) != 0) {
    const auto paren = f.find('(');
    if (paren != std::string::npos && paren > 0) f.erase(paren);
  }
  return f;
}

// The MPI routine a binding's function stands for: MPI_Comm_dup for MPI_Comm_dup or
// PMPI_Comm_dup, MPI_COMM_DUP for mpi_comm_dup_ (Fortran), MPI::Comm::Dup; "" for another.
// MPI_Comm_dup_f08 for mpi_comm_dup_f08 (mpi_f08, the name create_keyval's report uses too).
std::string routine_of(const std::string& f) {
  if (f.rfind("PMPI_", 0) == 0) return f.substr(1);
  if (f.rfind("MPI_", 0) == 0) return f;
  if (f.rfind("MPI::", 0) == 0) {  // (without mpiattr's inline namespace: MPI::mpiattr_v1::Comm)
    std::string r = f;
    for (auto at = r.find("::mpiattr_v"); at != std::string::npos; at = r.find("::mpiattr_v")) {
      const auto end = r.find("::", at + 2);
      r.erase(at, end == std::string::npos ? std::string::npos : end - at);
    }
    return r;
  }
  std::string r = f.rfind("pmpi_", 0) == 0 ? f.substr(1) : f.rfind("mpi_", 0) == 0 ? f : std::string();
  while (!r.empty() && r.back() == '_') r.pop_back();
  const bool f08 = r.size() > 4 && r.compare(r.size() - 4, 4, "_f08") == 0;
  for (std::size_t i = 0; i < r.size(); ++i)
    if (!f08 || i < 5) r[i] = static_cast<char>(std::toupper(static_cast<unsigned char>(r[i])));
  return r;
}

std::string demangled(const char* name) {
  if (name == nullptr) return {};
  int st = 0;
  char* d = abi::__cxa_demangle(name, nullptr, nullptr, &st);
  std::string out = st == 0 && d != nullptr ? d : name;
  std::free(d);
  return out;
}

struct inlined_frame {   // one function of a frame, several when calls were inlined into it
  std::string function;  // demangled, without parameters; empty when unknown
  std::string file_line; // "report_prog.c:97"; empty when unknown
};
struct pc_info {
  std::string file;                  // the file the address is in (dladdr), or empty
  std::uintptr_t file_offset = 0;    // from that file's load address
  std::uintptr_t lookup = 0;         // what addr2line is asked for (ET_EXEC: the address itself)
  std::string symbol;                // dladdr's (demangled), or empty
  std::uintptr_t symbol_offset = 0;
  std::vector<inlined_frame> frames;  // addr2line's answer, innermost first; empty: none
};

std::string executable_path() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
}

bool on_path(const char* tool) {
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string dir = end > start ? dirs.substr(start, end - start) : ".";
    if (access((dir + "/" + tool).c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// addr2line -f -C -i for `pcs` of one file, through popen (nothing when it fails or is absent).
void ask_addr2line(const std::string& file, const std::vector<pc_info*>& pcs) {
  constexpr std::size_t kBatch = 256;
  for (std::size_t first = 0; first < pcs.size(); first += kBatch) {
    // (The child must not load a preloaded mpiattr nor report: LD_PRELOAD and MPIATTR_REPORT off.)
    std::string cmd = "LD_PRELOAD= MPIATTR_REPORT= addr2line -a -f -C -i -e " + quoted(file);
    const std::size_t last = std::min(first + kBatch, pcs.size());
    for (std::size_t i = first; i < last; ++i) {
      char a[32];
      std::snprintf(a, sizeof a, " 0x%" PRIxPTR, pcs[i]->lookup);
      cmd += a;
    }
    cmd += " 2>/dev/null";
    std::FILE* p = popen(cmd.c_str(), "r");
    if (p == nullptr) return;
    std::vector<std::string> lines;
    char line[4096];
    while (std::fgets(line, sizeof line, p) != nullptr) {
      std::string l(line);
      while (!l.empty() && (l.back() == '\n' || l.back() == '\r')) l.pop_back();
      lines.push_back(std::move(l));
    }
    if (pclose(p) != 0) return;
    std::size_t at = first;
    pc_info* cur = nullptr;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (lines[i].rfind("0x", 0) == 0) {
        cur = at < last ? pcs[at++] : nullptr;
        continue;
      }
      if (cur == nullptr || i + 1 >= lines.size()) break;
      inlined_frame f;
      if (lines[i] != "??") f.function = without_parameters(lines[i]);
      std::string where = lines[++i];
      if (const auto d = where.find(" (discriminator"); d != std::string::npos) where.erase(d);
      if (where.rfind("??", 0) != 0 && where.size() > 2 && where.substr(where.size() - 2) != ":?" &&
          where.substr(where.size() - 2) != ":0")
        f.file_line = base_name(where);
      cur->frames.push_back(std::move(f));
    }
  }
}

// Every address of `stacks`, resolved: dladdr, then addr2line when it is on the PATH.
std::map<void*, pc_info> resolve(const std::vector<int>& stacks) {
  std::map<void*, pc_info> out;
  const std::string exe = executable_path();
  for (int id : stacks)
    for (void* pc : (*g_stacks)[static_cast<std::size_t>(id)]) {
      auto [it, fresh] = out.emplace(pc, pc_info{});
      if (!fresh) continue;
      pc_info& p = it->second;
      // A return address: the call is the byte before it.
      const auto addr = reinterpret_cast<std::uintptr_t>(pc) - 1;
      Dl_info info{};
      if (dladdr(reinterpret_cast<void*>(addr), &info) == 0 || info.dli_fbase == nullptr) continue;
      p.file = info.dli_fname != nullptr ? info.dli_fname : "";
      if ((p.file.empty() || base_name(p.file) == base_name(exe)) && !exe.empty()) p.file = exe;
      const auto base = reinterpret_cast<std::uintptr_t>(info.dli_fbase);
      p.file_offset = addr - base;
      const auto* ehdr = static_cast<const ElfW(Ehdr)*>(info.dli_fbase);
      p.lookup = ehdr->e_type == ET_EXEC ? addr : addr - base;
      if (info.dli_sname != nullptr) {
        p.symbol = without_parameters(demangled(info.dli_sname));
        p.symbol_offset = addr + 1 - reinterpret_cast<std::uintptr_t>(info.dli_saddr);
      }
    }
  if (on_path("addr2line")) {
    // Only the frames up to the program's call: the runtimes' are named by their dynamic symbols
    // (their entry points are exported), and what lies beyond the place is never printed.
    std::map<std::string, std::vector<pc_info*>> by_file;
    std::map<void*, bool> asked;
    for (int id : stacks)
      for (void* pc : (*g_stacks)[static_cast<std::size_t>(id)]) {
        pc_info& p = out.at(pc);
        if (p.file.empty() || runtime_file(p.file)) continue;
        if (!asked[pc]) {
          asked[pc] = true;
          by_file[p.file].push_back(&p);
        }
        // (No dynamic symbol, as an executable's functions mostly: only addr2line tells whether it
        // is the program's or an MPI:: method compiled into it, so the next frame is asked too.)
        if (!p.symbol.empty() && !runtime_function(p.symbol)) break;
      }
    for (auto& [file, pcs] : by_file) ask_addr2line(file, pcs);
  }
  return out;
}

// A stack as the report says it: the program's call, and the MPI routine it called.
struct place {
  std::string where;    // "report_prog.c:97 (main)", "main+0x4c (report_prog)", "libx.so+0x1234"; "": unknown
  std::string routine;  // "MPI_Comm_dup", or "" when the stack does not say
};
place place_of(const std::vector<void*>& stack, const std::map<void*, pc_info>& pcs) {
  place out;
  for (void* pc : stack) {
    const pc_info& p = pcs.at(pc);
    if (p.file.empty()) continue;  // (no file: not the program's, which is loaded from one)
    const bool runtime = runtime_file(p.file);
    std::vector<inlined_frame> frames = p.frames;
    if (frames.empty()) frames.push_back({p.symbol, ""});
    for (const auto& f : frames) {
      if (runtime || runtime_function(f.function)) {
        if (const std::string r = routine_of(f.function); !r.empty()) out.routine = r;
        continue;
      }
      char off[64];
      if (!f.file_line.empty())
        out.where = f.file_line + (f.function.empty() ? "" : " (" + f.function + ")");
      else if (!p.symbol.empty())
        out.where = p.symbol + (std::snprintf(off, sizeof off, "+0x%" PRIxPTR, p.symbol_offset), off) + " (" +
                    base_name(p.file) + ")";
      else
        out.where = base_name(p.file) + (std::snprintf(off, sizeof off, "+0x%" PRIxPTR, p.file_offset), off);
      return out;
    }
  }
  out.routine.clear();  // (only the program's call says which routine it called)
  return out;
}

const char* noun(object_kind k, bool many) {
  switch (k) {
    case object_kind::comm: return many ? "communicators" : "communicator";
    case object_kind::type: return many ? "datatypes" : "datatype";
    case object_kind::win: return many ? "windows" : "window";
    default: return many ? "objects" : "object";
  }
}

}  // namespace

bool requested() { return target_of(std::getenv("MPIATTR_REPORT")) != target::none; }

bool start(int rank, int size, const char* how) {
  std::lock_guard lock(g_mu);
  if (g_decided) return on();
  const char* value = std::getenv("MPIATTR_REPORT");
  const target t = target_of(value);
  if (t == target::none) {
    g_decided = true;
    return false;
  }
  // Its records, all or none (D85): out of memory here throws with nothing changed and the report
  // not yet decided, so that the runtime's setup fails cleanly and a later one decides again.
  auto creators = std::make_unique<std::unordered_map<std::uint32_t, creator>>();
  auto stacks = std::make_unique<std::vector<std::vector<void*>>>();
  auto stack_ids = std::make_unique<std::map<std::vector<void*>, int>>();
  auto objects = std::make_unique<std::map<std::pair<int, std::uintptr_t>, object_info>>();
  g_decided = true;
  if (t == target::file) g_path = strdup(value);
  g_rank = rank;
  g_size = size;
  g_how = how;
  g_creators = creators.release();
  g_stacks = stacks.release();
  g_stack_ids = stack_ids.release();
  g_objects = objects.release();
  {
    void* warm[1];
    (void)backtrace(warm, 1);  // (its first call loads the unwinder: not later, inside a callback)
  }
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
  MPIATTR_CAPTURE(pcs, n);
  std::lock_guard lock(g_mu);
  (*g_creators)[keyval_registry::index_of(keyval)] = creator{keyval, kind, routine, false, capture_locked(pcs, n)};
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

void attribute_set_slow(const attr_object& obj, std::uint32_t index) {
  if (index < keyval_registry::kFirstUserIndex) return;
  MPIATTR_CAPTURE(pcs, n);
  std::lock_guard lock(g_mu);
  if (g_finished) return;
  (*g_objects)[{static_cast<int>(obj.kind), obj.app_handle()}].set[index] = capture_locked(pcs, n);
}

void object_made_slow(object_kind kind, std::uintptr_t handle, const char* routine) {
  MPIATTR_CAPTURE(pcs, n);
  std::lock_guard lock(g_mu);
  if (g_finished) return;
  try {  // called once the object is published: out of memory only loses its place (D65)
    object_info& o = (*g_objects)[{static_cast<int>(kind), handle}];
    o = object_info{};  // (a reused handle: nothing of the old object applies)
    o.made = capture_locked(pcs, n);
    o.routine = routine;
  } catch (...) {
    g_objects->erase({static_cast<int>(kind), handle});
  }
}

void object_gone_slow(object_kind kind, std::uintptr_t handle) {
  std::lock_guard lock(g_mu);
  if (g_finished) return;
  g_objects->erase({static_cast<int>(kind), handle});
}

void finish(const object_visitor& for_each_object) {
  if (!on()) return;
  // What is still alive: every attribute under a keyval the program created, on every object.
  std::vector<alive_attribute> attrs;
  for_each_object([&](const attr_object& o) {
    std::lock_guard lock(o.attrs.mutex());
    o.attrs.for_each([&](const attr_store::entry& e) {
      if (e.index < keyval_registry::kFirstUserIndex) return;
      attrs.push_back({o.kind, o.app_handle(), keyvals().at(e.index)->handle, e.index, e.value.word(),
                       o.predefined, o.cold().name});
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
    if (!c.freed || count != 0) keys.push_back({c.handle, c.kind, c.routine, c.freed, count, c.place});
    if (n != per_index.end()) per_index.erase(n);
  }
  for (const auto& [index, count] : per_index) {  // (no creator known: not created through a binding)
    const keyval_record* r = keyvals().at(index);
    keys.push_back({r->handle, r->kind, "unknown", r->live_handle.load(std::memory_order_relaxed) == 0, count, -1});
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
  // The places (D60): every stack the lines below name, resolved at once.
  std::vector<int> used;
  for (const auto& k : keys)
    if (k.place >= 0) used.push_back(k.place);
  std::vector<const object_info*> info_of;
  for (const auto& a : attrs) {
    auto it = g_objects->find({static_cast<int>(a.kind), a.object});
    const object_info* info = it == g_objects->end() ? nullptr : &it->second;
    info_of.push_back(info);
    if (info == nullptr) continue;
    if (info->made >= 0) used.push_back(info->made);
    if (auto s = info->set.find(a.index); s != info->set.end()) used.push_back(s->second);
  }
  const std::map<void*, pc_info> pcs = resolve(used);
  auto where = [&](int stack) { return stack < 0 ? place{} : place_of((*g_stacks)[static_cast<std::size_t>(stack)], pcs); };

  for (const auto& k : keys) {
    const place p = where(k.place);
    std::string line;
    appendf(line, "mpiattr report: keyval 0x%x (%s) from %s", static_cast<unsigned>(k.handle), short_kind(k.kind),
            k.routine);
    if (!p.where.empty()) line += " at " + p.where;
    appendf(line, ": %s, %" PRIu64 " %s\n", k.freed ? "freed" : "not freed", k.attributes,
            plural(k.attributes, "attribute", "attributes"));
    out += line;
  }
  // Attributes of one keyval set at one place on objects made at one place are one line, with
  // their count (a library's run leaves many); a single one names its object and value.
  struct group {
    std::size_t first;  // in attrs
    std::uint64_t count;
    std::string set_at, object_one, object_many;
  };
  std::vector<group> groups;
  std::map<std::tuple<int, int, std::string, std::string>, std::size_t> group_of;
  for (std::size_t i = 0; i < attrs.size(); ++i) {
    const alive_attribute& a = attrs[i];
    const object_info* info = info_of[i];
    group g{i, 1, {}, {}, {}};
    if (info != nullptr)
      if (auto s = info->set.find(a.index); s != info->set.end()) g.set_at = where(s->second).where;
    if (a.predefined) {
      g.object_one = a.name.empty() ? std::string("a predefined ") + noun(a.kind, false) : a.name;
      g.object_many = a.name.empty() ? std::string("predefined ") + noun(a.kind, true) : a.name;
    } else if (info != nullptr && info->made >= 0) {
      const place m = where(info->made);
      // (The stack's routine is the one the program called, MPI::Intracomm::Dup or MPI_COMM_DUP
      // rather than the C routine a host's glue called; the runtime's is for a stack that says none.)
      const std::string routine = !m.routine.empty() ? m.routine : info->routine != nullptr ? info->routine : "";
      std::string how = routine.empty() ? " made" : " from " + routine;
      if (!m.where.empty()) how += " at " + m.where;
      if (!routine.empty() || !m.where.empty()) {
        g.object_one = noun(a.kind, false) + how;
        g.object_many = noun(a.kind, true) + how;
      }
    }
    auto [it, fresh] = group_of.emplace(std::make_tuple(static_cast<int>(a.kind), a.keyval, g.set_at, g.object_many),
                                        groups.size());
    if (fresh)
      groups.push_back(std::move(g));
    else
      ++groups[it->second].count;
  }
  for (const auto& g : groups) {
    const alive_attribute& a = attrs[g.first];
    std::string line;
    if (g.count == 1)
      appendf(line, "mpiattr report: attribute %s 0x%" PRIxPTR " keyval 0x%x value 0x%" PRIxPTR, short_kind(a.kind),
              a.object, static_cast<unsigned>(a.keyval), static_cast<std::uintptr_t>(a.value));
    else
      appendf(line, "mpiattr report: %" PRIu64 " attributes of keyval 0x%x (%s)", g.count,
              static_cast<unsigned>(a.keyval), short_kind(a.kind));
    if (!g.set_at.empty()) line += " set at " + g.set_at;
    const std::string& object = g.count == 1 ? g.object_one : g.object_many;
    if (!object.empty()) line += " on " + object;
    out += line + "\n";
  }
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
