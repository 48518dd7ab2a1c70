// The standalone runtime: one process, nothing underneath: initialisation, objects, error handlers
// (runtime.h, runtime_api.h), and the standalone implementation of lifecycle.h.
#include "mpiattr/runtime.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <unordered_map>
#include <deque>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <mutex>
#include <new>
#include <unistd.h>
#include <string>
#include <vector>

#include "mpiattr/api.h"
#include "mpiattr/runtime_api.h"
#include "mpiattr/attributes.h"
#include "mpiattr/errors.h"

namespace mpiattr {
namespace {

namespace h = gen::handle;

// Publishes a new object in its table (its handle in `out`), or deletes it when the table is full.
template <typename T>
status insert_new(object_table<T>& table, T* obj, handle_t& out, const char* what) {
  if (table.insert(obj) == 0) {
    delete obj;
    return fail(MPI_ERR_INTERN, "too many %s", what);
  }
  out = obj->handle;
  return status::ok();
}

std::atomic<errhandler_invoker> g_eh_invokers[kLanguages];
std::atomic<std::uint64_t> g_next_context{16};
const auto g_clock_start = std::chrono::steady_clock::now();

errhandler_object* builtin_eh(handle_t which) { return rt().errhandlers.lookup(which); }

// Everything the program has written but not yet handed to the system, before the process ends
// without exit() (a fatal error, MPI_Abort: docs/decisions.md D27). exit() would run atexit
// handlers and static destructors, user code that may call MPI again while MPI is unusable; so
// the process ends with _Exit, and what exit() would have flushed is flushed here:
//  - Fortran units: gfortran's runtime keeps its own buffers (unit 6 is fully buffered when
//    stdout is a file or pipe). Its FLUSH with no unit, _gfortran_flush_i4(NULL), flushes every
//    unit. It is looked up, not linked: libmpiattr does not depend on libgfortran, and a C or C++
//    program does not have it;
//  - C++ streams: std::cout and friends buffer on their own after sync_with_stdio(false);
//  - C stdio: every open FILE (fflush(NULL)), last, since the others may write through it.
void flush_output() {
  using gfortran_flush = void (*)(int*);
  if (void* f = dlsym(RTLD_DEFAULT, "_gfortran_flush_i4"))
    reinterpret_cast<gfortran_flush>(f)(nullptr);
  std::cout.flush();
  std::clog.flush();
  std::wcout.flush();
  std::wclog.flush();
  std::fflush(nullptr);
}

// D26: started by a launcher as one of several processes. mpiexec starts any program, this one
// too, as many times as asked; each copy would be a separate job whose MPI_COMM_WORLD holds one
// process, and the run would look right while doing N times the same work. The launchers say
// what they started in the environment: a size above 1, or a rank above 0, means several.
struct launcher_variable {
  const char* name;
  bool is_size;  // a size (several when > 1), else a rank (several when > 0)
  const char* who;
};
constexpr launcher_variable kLauncherVariables[] = {
    {"PMI_SIZE", true, "Hydra, MPICH's mpiexec, or another PMI launcher"},
    {"MPI_LOCALNRANKS", true, "Hydra, MPICH's mpiexec"},
    {"OMPI_COMM_WORLD_SIZE", true, "Open MPI's mpiexec (PRRTE/ORTE)"},
    {"OMPI_COMM_WORLD_LOCAL_SIZE", true, "Open MPI's mpiexec (PRRTE/ORTE)"},
    {"PMI_RANK", false, "Hydra, MPICH's mpiexec, or another PMI launcher"},
    {"MPI_LOCALRANKID", false, "Hydra, MPICH's mpiexec"},
    {"OMPI_COMM_WORLD_RANK", false, "Open MPI's mpiexec (PRRTE/ORTE)"},
    {"PMIX_RANK", false, "a PMIx launcher (PRRTE, Open MPI, Slurm)"},
};

// A failure naming the variable when a launcher started several processes; ok otherwise
// (no launcher, one process, or MPIATTR_IGNORE_LAUNCHER set to anything but 0).
status check_launcher() {
  const char* ignore = std::getenv("MPIATTR_IGNORE_LAUNCHER");
  if (ignore != nullptr && *ignore != '\0' && std::strcmp(ignore, "0") != 0) return status::ok();
  for (const auto& v : kLauncherVariables) {
    const char* text = std::getenv(v.name);
    if (text == nullptr || *text == '\0') continue;
    char* end = nullptr;
    long value = std::strtol(text, &end, 10);
    if (*end != '\0' || value < 0) continue;  // not a count: not ours to judge
    if (v.is_size ? value <= 1 : value <= 0) continue;
    return fail(MPI_ERR_OTHER,
                "a launcher started this program as several processes (%s=%s, set by %s), but it "
                "runs on mpiattr's standalone runtime, which has one process: each copy would be a "
                "separate job, rank 0 of 1. Start one process (mpiattr-run -n 1), or run several in "
                "host mode, over MPICH or Open MPI (docs/host.md). MPIATTR_IGNORE_LAUNCHER=1 runs "
                "each copy as its own one-process job (D26)",
                v.name, text, v.who);
  }
  return status::ok();
}

// ---- the standalone lifecycle: one process, nothing underneath ----
class standalone final : public lifecycle {
 public:
  // A dup keeps the topology (MPI-4.1 §8.4.2); split and create derive one without (D42).
  status comm_dup(const comm_object& old, comm_object& fresh) override {
    if (status st = comm_derive(old, true, fresh); !st.is_ok()) return st;
    topology_copy(old, fresh);
    return status::ok();
  }
  status comm_derive(const comm_object& parent, bool, comm_object& fresh) override {
    fresh.size = parent.size;
    fresh.rank = parent.rank;
    fresh.context = g_next_context.fetch_add(1);
    return status::ok();
  }
  void comm_release(comm_object& comm) override { topology_drop(comm); }
  status type_dup(const type_object& old, type_object& fresh) override {
    fresh.size = old.size;
    fresh.lb = old.lb;
    fresh.extent = old.extent;
    fresh.committed = old.committed;
    fresh.map = old.map;
    fresh.align = old.align;
    return status::ok();
  }
  void type_release(type_object&) override {}
  status win_create(const comm_object&, win_object&) override { return status::ok(); }
  void win_release(win_object& w) override {
    if (w.owns_memory) std::free(w.base);
  }
  world_attributes world() const override {
    // MPI_TAG_UB: the largest tag; MPI_HOST: no host process; MPI_IO: every process can do I/O;
    // clocks are trivially synchronised in one process; universe of 1; appnum 0 (R8.2).
    return {2147483647, MPI_PROC_NULL, MPI_ANY_SOURCE, 1, 1, 0, true, true};
  }
};

// Integer-valued predefined attributes behave as if set by Fortran MPI_ATTR_PUT (R7.5).
void set_int(predefined_values& table, int key, int v) {
  table.set(keyval_registry::index_of(key), attribute_value::from_fortran_int(v));
}

// Objects are created unpublished; a failure leaves no handle behind.
template <typename T>
struct unpublished {
  T* obj = new T;
  ~unpublished() { delete obj; }
  T* release() {
    T* o = obj;
    obj = nullptr;
    return o;
  }
};

// A new communicator inherits its parent's error handler (MPI-4.1 §10.3).
status publish_comm(unpublished<comm_object>& c, const comm_object& parent, handle_t& out) {
  comm_object* o = c.obj;
  o->errhandler.store(parent.errhandler.load(std::memory_order_acquire), std::memory_order_relaxed);
  if (rt().comms.insert(o) == 0) return fail(MPI_ERR_INTERN, "too many communicators");
  c.release();
  out = o->handle;
  return status::ok();
}

// An info argument that hints may be given in: MPI_INFO_NULL or a live info (MPI-4.1 §11).
status check_info(handle_t info) {
  if (info == h::info_null || rt().infos.lookup(info) != nullptr) return status::ok();
  return fail(MPI_ERR_INFO, "info handle 0x%x is not valid", info);
}

status dup_comm(comm_object& comm, handle_t& newcomm) {
  unpublished<comm_object> fresh;
  if (status st = rt().life->comm_dup(comm, *fresh.obj); !st.is_ok()) return st;
  dup_in_progress building(comm, *fresh.obj);
  if (status st = copy_all(comm, *fresh.obj); !st.is_ok()) {
    rt().life->comm_release(*fresh.obj);
    newcomm = h::comm_null;  // no half-built communicator (R4.5)
    return st;
  }
  return publish_comm(fresh, comm, newcomm);
}

handle_t completed_request() {
  auto* r = new request_object;
  if (rt().requests.insert(r) == 0) {
    delete r;
    return h::request_null;
  }
  return r->handle;
}

status new_group(int size, handle_t& out) {
  if (size == 0) {
    out = h::group_empty;
    return status::ok();
  }
  auto* g = new group_object;
  g->size = size;
  return insert_new(rt().groups, g, out, "groups");
}

status make_window(void* base, aint size, int disp_unit, int flavor, bool owns, comm_object& comm,
                   handle_t& win) {
  if (size < 0) return fail(MPI_ERR_SIZE, "window size %ld is negative", static_cast<long>(size));
  if (disp_unit <= 0) return fail(MPI_ERR_DISP, "disp_unit %d is not positive", disp_unit);
  unpublished<win_object> w;
  w.obj->base = base;
  w.obj->size = size;
  w.obj->disp_unit = disp_unit;
  w.obj->flavor = flavor;
  w.obj->model = MPI_WIN_UNIFIED;  // one process: public and private copies are the same memory
  w.obj->owns_memory = owns;
  if (status st = rt().life->win_create(comm, *w.obj); !st.is_ok()) return st;
  // R8.3: cached at creation, constant for the window's life.
  predefined_values& p = w.obj->predefined_attrs;
  p.set(keyval_registry::index_of(MPI_WIN_BASE), attribute_value::from_c(base));
  p.set(keyval_registry::index_of(MPI_WIN_SIZE), attribute_value::from_fortran_aint(size));
  set_int(p, MPI_WIN_DISP_UNIT, disp_unit);
  set_int(p, MPI_WIN_CREATE_FLAVOR, flavor);
  set_int(p, MPI_WIN_MODEL, w.obj->model);
  w.obj->errhandler.store(builtin_eh(h::errors_are_fatal));
  if (rt().wins.insert(w.obj) == 0) return fail(MPI_ERR_INTERN, "too many windows");
  win = w.release()->handle;
  return status::ok();
}

// The lazy keyval counts' census (keyval.h): attributes under keyval index `index` on every
// object of `kind`, published or being built by a dup (a dup publishes its object before it
// leaves the dups in progress, so that each object is found in one place or the other).
template <typename T>
void census_in(object_table<T>& table, std::uint32_t index) {
  auto visit = [&](T* o) { census_one(*o, index); };
  table.for_each(visit);
  table.for_each_predefined(visit);
}
void census(object_kind kind, std::uint32_t index) {
  census_in_construction(kind, index);
  switch (kind) {
    case object_kind::comm: census_in(rt().comms, index); break;
    case object_kind::type: census_in(rt().types, index); break;
    case object_kind::win: census_in(rt().wins, index); break;
    default: break;
  }
}

// An object as a message names it: a predefined one by its name, a created one by its handle
// (and the name the program gave it, if any).
std::string describe(attr_object& o) {
  std::string name;
  {
    std::lock_guard lock(o.attrs.mutex());
    name = o.name;
  }
  char text[MPI_MAX_OBJECT_NAME + 64];
  if (o.predefined && !name.empty())
    std::snprintf(text, sizeof text, "%s %s", kind_name(o.kind), name.c_str());
  else if (!name.empty())
    std::snprintf(text, sizeof text, "%s 0x%x (\"%s\")", kind_name(o.kind), o.handle, name.c_str());
  else
    std::snprintf(text, sizeof text, "%s 0x%x", kind_name(o.kind), o.handle);
  return text;
}

// delete_all for a free or MPI_Finalize, whose message names, when a delete callback fails, the
// object, the attribute's keyval and the code the callback returned (D8). The code the call
// returns is the callback's, as delete_all left it.
status delete_attributes(attr_object& o) {
  status st = delete_all(o);
  const int user_code = detail::last_user_code();
  if (st.is_ok() || user_code == 0) return st;  // not a callback's failure: the message stands
  // The attribute whose callback failed: delete_all deletes newest first and stops there, and no
  // attribute can be set on the object meanwhile (D9), so it is the newest one the object has.
  std::vector<attr_store::entry> left;
  {
    std::lock_guard lock(o.attrs.mutex());
    left = o.attrs.snapshot_newest_first();
  }
  if (left.empty()) return st;
  const keyval_record& r = *keyvals().at(left.front().index);
  char what[MPI_MAX_OBJECT_NAME + 160];
  std::snprintf(what, sizeof what, "the delete callback of keyval 0x%x%s, on %s,",
                static_cast<unsigned>(r.handle),
                r.live_handle.load(std::memory_order_relaxed) == 0 ? " (freed by the program)" : "",
                describe(o).c_str());
  return callback_failed(user_code, what);
}

// Frees an attribute-carrying object: delete callbacks first; on failure it stays (R4.5).
template <typename T, typename Release>
status free_attr_object(object_table<T>& table, handle_t& handle, Release release, int err,
                        const char* what) {
  T* o = table.lookup(handle);
  if (o == nullptr) return fail(err, "%s handle 0x%x is null or not valid", what, handle);
  if (o->predefined) return fail(err, "predefined %s 0x%x cannot be freed", what, handle);
  if (status st = delete_attributes(*o); !st.is_ok()) return st;
  release(*o);
  table.erase(o);
  delete o;
  handle = (err == MPI_ERR_COMM) ? h::comm_null : (err == MPI_ERR_WIN) ? h::win_null : h::datatype_null;
  return status::ok();
}

// ---- type maps (MPI-4.1 §6.1) ----

// A datatype's layout, apart from the object (a receive keeps one: its datatype may be freed).
struct type_layout {
  aint size = 0, lb = 0, extent = 0;
  std::shared_ptr<const std::vector<type_block>> map;
};

// A type map's runs (none for an empty type).
const std::vector<type_block>& blocks(const std::shared_ptr<const std::vector<type_block>>& map) {
  static const std::vector<type_block> none;
  return map ? *map : none;
}

// Whether count elements of t are one run of bytes (a basic type, or built of them without gaps).
template <typename T>
bool contiguous(const T& t) {
  const auto& m = blocks(t.map);
  return t.lb == 0 && t.extent == t.size && (m.empty() || (m.size() == 1 && m[0].disp == 0));
}

// Packs count elements of t at `in` into `out` (t.size * count bytes), in type-map order.
template <typename T>
void pack_elements(const void* in, int count, const T& t, char* out) {
  const char* base = static_cast<const char*>(in);
  if (contiguous(t)) {
    std::memcpy(out, base, static_cast<std::size_t>(count) * static_cast<std::size_t>(t.size));
    return;
  }
  for (int i = 0; i < count; ++i, base += t.extent)
    for (const type_block& b : blocks(t.map)) {
      std::memcpy(out, base + b.disp, static_cast<std::size_t>(b.len));
      out += b.len;
    }
}

// The reverse: count elements of t at `out` from packed bytes; the gaps of `out` are untouched.
template <typename T>
void unpack_elements(const char* in, void* out, int count, const T& t) {
  char* base = static_cast<char*>(out);
  if (contiguous(t)) {
    std::memcpy(base, in, static_cast<std::size_t>(count) * static_cast<std::size_t>(t.size));
    return;
  }
  for (int i = 0; i < count; ++i, base += t.extent)
    for (const type_block& b : blocks(t.map)) {
      std::memcpy(base + b.disp, in, static_cast<std::size_t>(b.len));
      in += b.len;
    }
}

// A one-process transfer of count elements of t from send to recv: the bytes of the type map
// only, so recv's gaps keep their contents (a copy of extent bytes would overwrite them).
void copy_bytes(const void* send, void* recv, int count, const type_object& t) {
  if (send == gen::in_place || count <= 0 || send == recv) return;
  if (contiguous(t)) {
    std::memmove(recv, send, static_cast<std::size_t>(count) * static_cast<std::size_t>(t.size));
    return;
  }
  std::vector<char> tmp(static_cast<std::size_t>(count) * static_cast<std::size_t>(t.size));
  pack_elements(send, count, t, tmp.data());
  unpack_elements(tmp.data(), recv, count, t);
}

// Builds a type map from pieces: `count` elements of `old` starting at byte displacement `disp`.
struct type_builder {
  std::vector<type_block> map;
  aint size = 0, lb = 0, ub = 0, align = 1;
  bool any = false;
  void add(const type_object& old, aint disp, aint count) {
    if (count <= 0) return;
    for (aint j = 0; j < count; ++j)
      for (const type_block& b : blocks(old.map)) {
        aint d = disp + j * old.extent + b.disp;
        if (!map.empty() && map.back().disp + map.back().len == d)
          map.back().len += b.len;
        else
          map.push_back({d, b.len});
      }
    size += count * old.size;
    aint lo = disp + old.lb + std::min<aint>(0, (count - 1) * old.extent);
    aint hi = disp + old.lb + old.extent + std::max<aint>(0, (count - 1) * old.extent);
    lb = any ? std::min(lb, lo) : lo;
    ub = any ? std::max(ub, hi) : hi;
    align = std::max(align, old.align);
    any = true;
  }
  status publish(handle_t& out, bool pad_to_alignment = false) {
    auto* t = new type_object;
    t->size = size;
    t->lb = any ? lb : 0;
    aint extent = any ? ub - lb : 0;
    if (pad_to_alignment && align > 1 && extent % align != 0) extent += align - extent % align;
    t->extent = extent;
    t->map = std::make_shared<const std::vector<type_block>>(std::move(map));
    t->align = align;
    return insert_new(rt().types, t, out, "datatypes");
  }
};

status check_count(int count) {
  return count < 0 ? fail(MPI_ERR_COUNT, "count %d is negative", count) : status::ok();
}

status check_root(int root) {
  return root != 0 ? fail(MPI_ERR_ROOT, "root %d is not a rank of a one-process communicator", root)
                   : status::ok();
}

}  // namespace

constinit never_destroyed<runtime> g_runtime;

lifecycle& standalone_lifecycle() {
  static standalone s;
  return s;
}

void register_errhandler_invoker(language lang, errhandler_invoker invoke) {
  g_eh_invokers[static_cast<int>(lang)].store(invoke);
}

namespace {
// Calls error handler `eh` for `code` raised on object (kind, obj) in `routine`. A fatal handler
// prints `context` after the code's text: what went wrong when the code is a callback's own.
void invoke_handler(errhandler_object* eh, object_kind kind, handle_t obj, int code, const char* routine,
                    const char* context = nullptr) {
  using b = errhandler_object::builtin;
  if (eh == nullptr || eh->what == b::fatal || eh->what == b::abort) {
    char text[1024];
    int len = 0;
    if (!errors::string_of(code, text, sizeof text, &len)) std::snprintf(text, sizeof text, "error code %d", code);
    flush_output();
    if (context != nullptr && *context != '\0')
      std::fprintf(stderr, "mpiattr: fatal error in %s: %s (%s)\n", routine, text, context);
    else
      std::fprintf(stderr, "mpiattr: fatal error in %s: %s\n", routine, text);
    std::fflush(stderr);
    std::_Exit(1);
  }
  if (eh->what == b::none) {
    if (auto inv = g_eh_invokers[static_cast<int>(eh->lang)].load()) inv(*eh, kind, obj, code);
  }
}
}  // namespace

int raise_error(const attr_object* target, status st, const char* routine) {
  int code = detail::last_user_code();
  int cls = 0;
  // A callback's own valid code is returned as it is (D8) and so carries no message of ours; a
  // fatal handler prints what happened beside it.
  std::string context;
  if (code == 0 || !errors::class_of(code, &cls))
    code = errors::make_code(st.error_class(), routine);
  else
    context = detail::last_detail();
  detail::clear_last();
  runtime& r = rt();
  errhandler_object* eh = nullptr;
  object_kind kind = object_kind::comm;
  handle_t obj = h::comm_self;
  if (target != nullptr && target->kind != object_kind::type) {
    eh = target->errhandler.load(std::memory_order_acquire);
    kind = target->kind;
    obj = target->handle;
  } else if (r.usable()) {
    // Errors not tied to a communicator or window go to MPI_COMM_SELF (MPI-4.1 §10.3).
    if (comm_object* self = r.comms.lookup(h::comm_self)) eh = self->errhandler.load();
  }
  // Before init and after finalize: the initial error handler, MPI_ERRORS_ARE_FATAL (R10.4).
  if (eh == nullptr) eh = builtin_eh(h::errors_are_fatal);
  invoke_handler(eh, kind, obj, code, routine, context.c_str());
  return code;
}

static void raise_on(attr_object& o, int code) {
  invoke_handler(o.errhandler.load(std::memory_order_acquire), o.kind, o.handle, code,
                 o.kind == object_kind::comm ? "MPI_Comm_call_errhandler" : "MPI_Win_call_errhandler");
}

namespace api {

// ---- environment ----

status init(int*, char***) {
  int provided = 0;
  return init_thread(nullptr, nullptr, MPI_THREAD_SINGLE, provided);
}

status init_thread(int*, char***, int required, int& provided) {
  runtime& r = rt();
  int expected = static_cast<int>(phase::before_init);
  if (r.state.load() != expected)
    return fail(MPI_ERR_OTHER, "MPI is already initialized or was finalized; it can be initialized once");
  if (status st = check_launcher(); !st.is_ok()) return st;
  if (r.life == nullptr) r.life = &standalone_lifecycle();
  // Error handlers first: raising errors needs them.
  using b = errhandler_object::builtin;
  static errhandler_object fatal, ret, abrt;
  fatal.what = b::fatal;
  ret.what = b::ret;
  abrt.what = b::abort;
  for (auto* e : {&fatal, &ret, &abrt}) e->predefined = true;
  r.errhandlers.install_predefined(h::errors_are_fatal, &fatal);
  r.errhandlers.install_predefined(h::errors_return, &ret);
  r.errhandlers.install_predefined(h::errors_abort, &abrt);

  static group_object world_group, empty_group;
  world_group.size = 1;
  world_group.predefined = true;
  empty_group.size = 0;
  empty_group.predefined = true;
  r.groups.install_predefined(h::group_empty, &empty_group);

  static info_object env_info;  // MPI_INFO_ENV: no key is known of how this process was started
  env_info.predefined = true;
  r.infos.install_predefined(h::info_env, &env_info);

  for (const auto& k : gen::predefined_keys) keyvals().define_predefined(k.value, k.object);

  auto* world = new comm_object;
  auto* self = new comm_object;
  world->predefined = self->predefined = true;
  world->context = 1;
  self->context = 2;
  world->name = "MPI_COMM_WORLD";
  self->name = "MPI_COMM_SELF";
  world->errhandler.store(&fatal);
  self->errhandler.store(&fatal);
  auto w = r.life->world();
  // R8.2, D11: the environment's values, which every communicator answers.
  set_int(g_environment, MPI_TAG_UB, w.tag_ub);
  set_int(g_environment, MPI_HOST, w.host);
  set_int(g_environment, MPI_IO, w.io);
  set_int(g_environment, MPI_WTIME_IS_GLOBAL, w.wtime_is_global);
  if (w.has_universe_size) set_int(g_environment, MPI_UNIVERSE_SIZE, w.universe_size);
  if (w.has_appnum) set_int(g_environment, MPI_APPNUM, w.appnum);
  set_int(g_environment, MPI_LASTUSEDCODE, MPI_ERR_LASTCODE);
  r.comms.install_predefined(h::comm_world, world);
  r.comms.install_predefined(h::comm_self, self);

  for (const auto& d : gen::datatypes) {
    auto* t = new type_object;
    t->predefined = true;
    t->size = d.size;
    t->extent = d.extent;
    t->committed = true;
    t->name = d.name;
    if (d.second_at > 0) {  // MPI_SHORT_INT: the short, a gap, then the int, which ends the extent
      const aint second = d.extent - d.second_at;
      t->map = std::make_shared<const std::vector<type_block>>(
          std::vector<type_block>{type_block{0, d.size - second}, type_block{d.second_at, second}});
    } else if (d.size > 0)
      t->map = std::make_shared<const std::vector<type_block>>(1, type_block{0, d.size});
    // A basic type aligns to its size (at most 16); a pair type (MPI_DOUBLE_INT) to 8 or 4,
    // unless the spec gives it (MPI_LONG_DOUBLE_INT).
    aint a = d.align > 0 ? d.align : d.size == d.extent ? d.size : (d.extent % 8 == 0 ? 8 : 4);
    while (a > 1 && (a & (a - 1)) != 0) a &= a - 1;  // a power of two
    t->align = a > 16 ? 16 : (a < 1 ? 1 : a);
    r.types.install_predefined(d.value, t);
  }
  r.thread_level = required < MPI_THREAD_SINGLE ? MPI_THREAD_SINGLE
                   : required > MPI_THREAD_MULTIPLE ? MPI_THREAD_MULTIPLE : required;
  sync::set_concurrent(r.thread_level == MPI_THREAD_MULTIPLE);  // before any object is shared
  keyvals().set_attribute_census(census);
  provided = r.thread_level;
  report::start(0, 1, "standalone");  // (before set_phase: a report keeps the fast paths off)
  r.set_phase(phase::running);
  return status::ok();
}

status initialized(bool& flag) {
  flag = rt().state.load() != static_cast<int>(phase::before_init);
  return status::ok();
}

status finalize() {
  runtime& r = rt();
  int expected = static_cast<int>(phase::running);
  if (!r.state.compare_exchange_strong(expected, static_cast<int>(phase::finalizing)))
    return fail(MPI_ERR_OTHER, "MPI_Finalize was already called");
  r.set_phase(phase::finalizing);
  // R10.1: first, the equivalent of freeing MPI_COMM_SELF: its attributes are deleted newest
  // first while MPI is still fully usable (MPI_Finalized is false in the callbacks).
  comm_object* self = r.comms.lookup(h::comm_self);
  if (status st = delete_attributes(*self); !st.is_ok()) {
    r.set_phase(phase::running);
    return st;
  }
  // Then MPI_COMM_WORLD's, as MPICH and Open MPI both do (docs/decisions.md D18). Other objects
  // are not freed, and their attributes get no delete callbacks (R10.3).
  comm_object* world = r.comms.lookup(h::comm_world);
  if (status st = delete_attributes(*world); !st.is_ok()) {
    r.set_phase(phase::running);
    return st;
  }
  r.set_phase(phase::finalized);
  // MPIATTR_REPORT: what survives finalize's deletions, with the counts (D33).
  report::finish([&](const std::function<void(const attr_object&)>& f) {
    auto visit = [&](attr_object* o) { f(*o); };
    r.comms.for_each(visit);
    r.comms.for_each_predefined(visit);
    r.types.for_each(visit);
    r.types.for_each_predefined(visit);
    r.wins.for_each(visit);
  });
  return status::ok();
}

status finalized(bool& flag) {
  flag = rt().state.load() == static_cast<int>(phase::finalized);
  return status::ok();
}

status query_thread(int& provided) {
  provided = rt().thread_level;
  return status::ok();
}

status abort(comm_object&, int errorcode) {
  flush_output();
  std::fprintf(stderr, "mpiattr: MPI_Abort called with error code %d\n", errorcode);
  std::fflush(stderr);
  std::_Exit(errorcode == 0 ? 1 : errorcode & 0xFF ? errorcode & 0xFF : 1);
}

double wtime() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - g_clock_start).count();
}

double wtick() {
  using period = std::chrono::steady_clock::period;
  return static_cast<double>(period::num) / static_cast<double>(period::den);
}

status get_version(int& version, int& subversion) {
  version = gen::mpi_version;
  subversion = gen::mpi_subversion;
  return status::ok();
}

// ---- communicators ----

status comm_size(comm_object& comm, int& size) {
  size = comm.size;
  return status::ok();
}

status comm_rank(comm_object& comm, int& rank) {
  rank = comm.rank;
  return status::ok();
}

status comm_compare(comm_object& a, comm_object& b, int& result) {
  result = (&a == &b) ? MPI_IDENT : MPI_CONGRUENT;
  return status::ok();
}

status comm_test_inter(comm_object&, bool& flag) {
  flag = false;
  return status::ok();
}

status comm_group(comm_object& comm, handle_t& group) { return new_group(comm.size, group); }

status comm_dup(comm_object& comm, handle_t& newcomm) { return dup_comm(comm, newcomm); }

status comm_dup_with_info(comm_object& comm, handle_t info, handle_t& newcomm) {
  if (status st = check_info(info); !st.is_ok()) return st;
  return dup_comm(comm, newcomm);  // R6.4
}

status comm_idup(comm_object& comm, handle_t& newcomm, handle_t& request) {
  // R6.3: the copy callbacks run now, on this thread; the request is already complete.
  if (status st = dup_comm(comm, newcomm); !st.is_ok()) return st;
  request = completed_request();
  return status::ok();
}

status comm_idup_with_info(comm_object& comm, handle_t info, handle_t& newcomm, handle_t& request) {
  if (status st = check_info(info); !st.is_ok()) return st;
  return comm_idup(comm, newcomm, request);
}

status comm_split(comm_object& comm, int color, int, handle_t& newcomm) {
  if (color < 0 && color != MPI_UNDEFINED)
    return fail(MPI_ERR_ARG, "color %d is negative and not MPI_UNDEFINED", color);
  if (color == MPI_UNDEFINED) {
    newcomm = h::comm_null;
    return status::ok();
  }
  unpublished<comm_object> fresh;
  if (status st = rt().life->comm_derive(comm, true, *fresh.obj); !st.is_ok()) return st;
  return publish_comm(fresh, comm, newcomm);  // no attributes are copied (R6.1)
}

status comm_create(comm_object& comm, group_object& group, handle_t& newcomm) {
  if (group.size == 0) {
    newcomm = h::comm_null;
    return status::ok();
  }
  unpublished<comm_object> fresh;
  if (status st = rt().life->comm_derive(comm, true, *fresh.obj); !st.is_ok()) return st;
  return publish_comm(fresh, comm, newcomm);  // no attributes are copied (R6.1)
}

status comm_split_type(comm_object& comm, int split_type, int key, handle_t info, handle_t& newcomm) {
  if (status st = check_info(info); !st.is_ok()) return st;
  if (split_type != MPI_UNDEFINED && (split_type < MPI_COMM_TYPE_SHARED || split_type > MPI_COMM_TYPE_RESOURCE_GUIDED))
    return fail(MPI_ERR_ARG, "split_type %d is not MPI_UNDEFINED or an MPI_COMM_TYPE_* constant", split_type);
  return comm_split(comm, split_type == MPI_UNDEFINED ? MPI_UNDEFINED : 0, key, newcomm);
}

status comm_create_group(comm_object& comm, group_object& group, int tag, handle_t& newcomm) {
  if (tag < 0) return fail(MPI_ERR_TAG, "tag %d is negative", tag);
  return comm_create(comm, group, newcomm);
}

status comm_free(handle_t& comm) {
  return free_attr_object(rt().comms, comm, [](comm_object& c) { rt().life->comm_release(c); },
                          MPI_ERR_COMM, "communicator");
}

status comm_disconnect(handle_t& comm) { return comm_free(comm); }

status comm_set_name(comm_object& comm, const char* name) {
  std::lock_guard lock(comm.attrs.mutex());
  comm.name.assign(name, strnlen(name, MPI_MAX_OBJECT_NAME - 1));
  return status::ok();
}

status comm_get_name(comm_object& comm, char* name, int& resultlen) {
  std::lock_guard lock(comm.attrs.mutex());
  std::memcpy(name, comm.name.c_str(), comm.name.size() + 1);
  resultlen = static_cast<int>(comm.name.size());
  return status::ok();
}

// ---- groups ----

status group_size(group_object& g, int& size) {
  size = g.size;
  return status::ok();
}

status group_rank(group_object& g, int& rank) {
  rank = g.size ? 0 : MPI_UNDEFINED;
  return status::ok();
}

status group_compare(group_object& a, group_object& b, int& result) {
  result = (a.size == b.size) ? MPI_IDENT : MPI_UNEQUAL;
  return status::ok();
}

static status check_ranks(group_object& g, int n, const int* ranks) {
  if (n < 0 || n > g.size) return fail(MPI_ERR_ARG, "n = %d is not between 0 and the group size %d", n, g.size);
  if (n > 0 && ranks == nullptr) return fail(MPI_ERR_ARG, "ranks is NULL");
  for (int i = 0; i < n; ++i)
    if (ranks[i] < 0 || ranks[i] >= g.size)
      return fail(MPI_ERR_RANK, "ranks[%d] = %d is not a rank of the group", i, ranks[i]);
  return status::ok();
}

status group_incl(group_object& g, int n, const int* ranks, handle_t& newgroup) {
  if (status st = check_ranks(g, n, ranks); !st.is_ok()) return st;
  return new_group(n, newgroup);
}

status group_excl(group_object& g, int n, const int* ranks, handle_t& newgroup) {
  if (status st = check_ranks(g, n, ranks); !st.is_ok()) return st;
  return new_group(g.size - n, newgroup);
}

status group_range_incl(group_object& g, int n, int (*ranges)[3], handle_t& newgroup) {
  if (n < 0) return fail(MPI_ERR_ARG, "n = %d is negative", n);
  if (n > 0 && ranges == nullptr) return fail(MPI_ERR_ARG, "ranges is NULL");
  int members = 0;
  for (int i = 0; i < n; ++i) {
    int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
    if (stride == 0) return fail(MPI_ERR_ARG, "ranges[%d] has stride 0", i);
    if (first < 0 || first >= g.size || last < 0 || last >= g.size)
      return fail(MPI_ERR_RANK, "ranges[%d] = {%d, %d, %d} leaves the group", i, first, last, stride);
    members = 1;
  }
  return new_group(members, newgroup);
}

status group_free(handle_t& group) {
  runtime& r = rt();
  group_object* g = r.groups.lookup(group);
  if (g == nullptr) return fail(MPI_ERR_GROUP, "group handle 0x%x is null or not valid", group);
  if (!g->predefined) {
    r.groups.erase(g);
    delete g;
  }
  group = h::group_null;
  return status::ok();
}

// ---- datatypes ----

status type_contiguous(int count, type_object& old, handle_t& newtype) {
  if (status st = check_count(count); !st.is_ok()) return st;
  type_builder b;
  b.add(old, 0, count);
  return b.publish(newtype);
}

namespace {
status check_lengths(int count, const int* blocklengths) {
  if (count < 0) return fail(MPI_ERR_COUNT, "count %d is negative", count);
  if (count > 0 && blocklengths == nullptr) return fail(MPI_ERR_ARG, "array_of_blocklengths is a NULL pointer");
  for (int i = 0; i < count; ++i)
    if (blocklengths[i] < 0) return fail(MPI_ERR_ARG, "array_of_blocklengths[%d] = %d is negative", i, blocklengths[i]);
  return status::ok();
}
}  // namespace

status type_create_hvector(int count, int blocklength, aint stride, type_object& old, handle_t& newtype) {
  if (status st = check_count(count); !st.is_ok()) return st;
  if (blocklength < 0) return fail(MPI_ERR_ARG, "blocklength %d is negative", blocklength);
  type_builder b;
  for (int i = 0; i < count; ++i) b.add(old, i * stride, blocklength);
  return b.publish(newtype);
}

status type_vector(int count, int blocklength, int stride, type_object& old, handle_t& newtype) {
  return type_create_hvector(count, blocklength, static_cast<aint>(stride) * old.extent, old, newtype);
}

status type_indexed(int count, const int* blocklengths, const int* displacements, type_object& old,
                    handle_t& newtype) {
  if (status st = check_lengths(count, blocklengths); !st.is_ok()) return st;
  type_builder b;
  for (int i = 0; i < count; ++i) b.add(old, static_cast<aint>(displacements[i]) * old.extent, blocklengths[i]);
  return b.publish(newtype);
}

status type_create_hindexed(int count, const int* blocklengths, const aint* displacements,
                            type_object& old, handle_t& newtype) {
  if (status st = check_lengths(count, blocklengths); !st.is_ok()) return st;
  type_builder b;
  for (int i = 0; i < count; ++i) b.add(old, displacements[i], blocklengths[i]);
  return b.publish(newtype);
}

status type_create_struct(int count, const int* blocklengths, const aint* displacements,
                          type_object* const* types, handle_t& newtype) {
  if (status st = check_lengths(count, blocklengths); !st.is_ok()) return st;
  type_builder b;
  for (int i = 0; i < count; ++i) b.add(*types[i], displacements[i], blocklengths[i]);
  return b.publish(newtype, /*pad_to_alignment=*/true);  // MPI-4.1 §6.1.6: the epsilon
}

status type_create_resized(type_object& old, aint lb, aint extent, handle_t& newtype) {
  type_builder b;
  b.add(old, 0, 1);
  b.lb = lb;
  b.ub = lb + extent;
  b.any = true;
  return b.publish(newtype);
}

status type_get_true_extent(type_object& t, aint& true_lb, aint& true_extent) {
  const auto& m = blocks(t.map);
  if (m.empty()) {
    true_lb = 0;
    true_extent = 0;
    return status::ok();
  }
  aint lo = m[0].disp, hi = m[0].disp + m[0].len;
  for (const type_block& b : m) {
    lo = std::min(lo, b.disp);
    hi = std::max(hi, b.disp + b.len);
  }
  true_lb = lo;
  true_extent = hi - lo;
  return status::ok();
}

// ---- packing (MPI-4.1 §6.2) ----

namespace {
status check_committed(const type_object& t) {
  if (!t.committed) return fail(MPI_ERR_TYPE, "the datatype is not committed (MPI_Type_commit)");
  return status::ok();
}
}  // namespace

status pack(const void* inbuf, int incount, type_object& t, void* outbuf, int outsize, int& position,
            comm_object&) {
  if (status st = check_count(incount); !st.is_ok()) return st;
  if (status st = check_committed(t); !st.is_ok()) return st;
  aint need = static_cast<aint>(incount) * t.size;
  if (position < 0 || position + need > outsize)
    return fail(MPI_ERR_TRUNCATE, "packing %ld bytes at position %d does not fit in outsize %d",
                static_cast<long>(need), position, outsize);
  pack_elements(inbuf, incount, t, static_cast<char*>(outbuf) + position);
  position += static_cast<int>(need);
  return status::ok();
}

status unpack(const void* inbuf, int insize, int& position, void* outbuf, int outcount,
              type_object& t, comm_object&) {
  if (status st = check_count(outcount); !st.is_ok()) return st;
  if (status st = check_committed(t); !st.is_ok()) return st;
  aint need = static_cast<aint>(outcount) * t.size;
  if (position < 0 || position + need > insize)
    return fail(MPI_ERR_TRUNCATE, "unpacking %ld bytes at position %d reads past insize %d",
                static_cast<long>(need), position, insize);
  unpack_elements(static_cast<const char*>(inbuf) + position, outbuf, outcount, t);
  position += static_cast<int>(need);
  return status::ok();
}

status pack_size(int incount, type_object& t, comm_object&, int& size) {
  if (status st = check_count(incount); !st.is_ok()) return st;
  size = static_cast<int>(static_cast<aint>(incount) * t.size);
  return status::ok();
}

status get_processor_name(char* name, int& resultlen) {
  char host[MPI_MAX_PROCESSOR_NAME] = {};
  if (gethostname(host, sizeof host - 1) != 0) std::snprintf(host, sizeof host, "localhost");
  resultlen = std::snprintf(name, MPI_MAX_PROCESSOR_NAME, "%s", host);
  return status::ok();
}

status type_dup(type_object& old, handle_t& newtype) {
  unpublished<type_object> fresh;
  if (status st = rt().life->type_dup(old, *fresh.obj); !st.is_ok()) return st;
  dup_in_progress building(old, *fresh.obj);
  if (status st = copy_all(old, *fresh.obj); !st.is_ok()) {
    rt().life->type_release(*fresh.obj);
    newtype = h::datatype_null;  // no half-built datatype (R4.5)
    return st;
  }
  if (rt().types.insert(fresh.obj) == 0) return fail(MPI_ERR_INTERN, "too many datatypes");
  newtype = fresh.release()->handle;
  return status::ok();
}

status type_commit(handle_t& datatype) {
  type_object* t = rt().types.lookup(datatype);
  if (t == nullptr) return fail(MPI_ERR_TYPE, "datatype handle 0x%x is null or not valid", datatype);
  t->committed = true;
  return status::ok();
}

status type_free(handle_t& datatype) {
  return free_attr_object(rt().types, datatype, [](type_object& t) { rt().life->type_release(t); },
                          MPI_ERR_TYPE, "datatype");
}

status type_size(type_object& t, int& size) {
  size = static_cast<int>(t.size);
  return status::ok();
}

status type_get_extent(type_object& t, aint& lb, aint& extent) {
  lb = t.lb;
  extent = t.extent;
  return status::ok();
}

// ---- windows and memory ----

status win_create(void* base, aint size, int disp_unit, handle_t info, comm_object& comm, handle_t& win) {
  if (status st = check_info(info); !st.is_ok()) return st;
  return make_window(base, size, disp_unit, MPI_WIN_FLAVOR_CREATE, false, comm, win);
}

status win_allocate(aint size, int disp_unit, handle_t info, comm_object& comm, void* baseptr, handle_t& win) {
  if (status st = check_info(info); !st.is_ok()) return st;
  if (size < 0) return fail(MPI_ERR_SIZE, "window size %ld is negative", static_cast<long>(size));
  void* mem = std::malloc(size > 0 ? static_cast<std::size_t>(size) : 1);
  if (mem == nullptr) return fail(MPI_ERR_NO_MEM, "cannot allocate %ld bytes", static_cast<long>(size));
  if (status st = make_window(mem, size, disp_unit, MPI_WIN_FLAVOR_ALLOCATE, true, comm, win); !st.is_ok()) {
    std::free(mem);
    return st;
  }
  std::memcpy(baseptr, &mem, sizeof mem);
  return status::ok();
}

status win_create_dynamic(handle_t info, comm_object& comm, handle_t& win) {
  if (status st = check_info(info); !st.is_ok()) return st;
  // R8.3: MPI_WIN_BASE is MPI_BOTTOM and MPI_WIN_SIZE 0 for dynamic windows.
  return make_window(gen::bottom, 0, 1, MPI_WIN_FLAVOR_DYNAMIC, false, comm, win);
}

status win_free(handle_t& win) {
  return free_attr_object(rt().wins, win, [](win_object& w) { rt().life->win_release(w); },
                          MPI_ERR_WIN, "window");
}

status get_address(const void* location, aint& address) {
  address = static_cast<aint>(reinterpret_cast<std::uintptr_t>(location));
  return status::ok();
}

// ---- info objects ----

namespace {

// The info object an info routine works on; MPI_INFO_NULL and freed handles are MPI_ERR_INFO.
status find_info(handle_t info, info_object*& out) {
  out = rt().infos.lookup(info);
  if (out != nullptr) return status::ok();
  if (info == h::info_null) return fail(MPI_ERR_INFO, "the info argument is MPI_INFO_NULL");
  return fail(MPI_ERR_INFO, "info handle 0x%x is not valid (freed, or not an info)", info);
}

status check_key(const char* key) {
  std::size_t n = std::strlen(key);
  if (n == 0) return fail(MPI_ERR_INFO_KEY, "the key is empty");
  if (n > MPI_MAX_INFO_KEY)
    return fail(MPI_ERR_INFO_KEY, "the key has %zu characters; MPI_MAX_INFO_KEY is %d", n, MPI_MAX_INFO_KEY);
  return status::ok();
}

// The info object and a valid key, for the routines that take both.
status find_info_key(handle_t info, const char* key, info_object*& out) {
  if (status st = find_info(info, out); !st.is_ok()) return st;
  return check_key(key);
}

const std::string* find_value(const info_object& o, const char* key) {
  for (const auto& kv : o.pairs)
    if (kv.first == key) return &kv.second;
  return nullptr;
}

status new_info(std::vector<std::pair<std::string, std::string>> pairs, handle_t& out) {
  auto* o = new info_object;
  o->pairs = std::move(pairs);
  return insert_new(rt().infos, o, out, "info objects");
}

}  // namespace

status info_create(handle_t& info) { return new_info({}, info); }

status info_set(handle_t info, const char* key, const char* value) {
  info_object* o = nullptr;
  if (status st = find_info_key(info, key, o); !st.is_ok()) return st;
  std::size_t n = std::strlen(value);
  if (n > MPI_MAX_INFO_VAL)
    return fail(MPI_ERR_INFO_VALUE, "the value has %zu characters; MPI_MAX_INFO_VAL is %d", n, MPI_MAX_INFO_VAL);
  if (o->predefined) return fail(MPI_ERR_INFO, "MPI_INFO_ENV cannot be changed");
  std::lock_guard lock(o->mu);
  for (auto& kv : o->pairs)
    if (kv.first == key) {
      kv.second = value;
      return status::ok();
    }
  o->pairs.emplace_back(key, value);
  return status::ok();
}

status info_delete(handle_t info, const char* key) {
  info_object* o = nullptr;
  if (status st = find_info_key(info, key, o); !st.is_ok()) return st;
  if (o->predefined) return fail(MPI_ERR_INFO, "MPI_INFO_ENV cannot be changed");
  std::lock_guard lock(o->mu);
  for (auto it = o->pairs.begin(); it != o->pairs.end(); ++it)
    if (it->first == key) {
      o->pairs.erase(it);
      return status::ok();
    }
  return fail(MPI_ERR_INFO_NOKEY, "the info object has no key \"%s\"", key);
}

status info_get(handle_t info, const char* key, int valuelen, char* value, bool& flag) {
  info_object* o = nullptr;
  if (status st = find_info_key(info, key, o); !st.is_ok()) return st;
  if (valuelen < 0) return fail(MPI_ERR_ARG, "valuelen = %d is negative", valuelen);
  std::lock_guard lock(o->mu);
  const std::string* v = find_value(*o, key);
  flag = v != nullptr;
  if (v != nullptr) {
    std::size_t n = std::min(v->size(), static_cast<std::size_t>(valuelen));  // C: valuelen + 1 bytes
    std::memcpy(value, v->data(), n);
    value[n] = '\0';
  }
  return status::ok();
}

status info_get_valuelen(handle_t info, const char* key, int& valuelen, bool& flag) {
  info_object* o = nullptr;
  if (status st = find_info_key(info, key, o); !st.is_ok()) return st;
  std::lock_guard lock(o->mu);
  const std::string* v = find_value(*o, key);
  flag = v != nullptr;
  if (v != nullptr) valuelen = static_cast<int>(v->size());
  return status::ok();
}

status info_get_string(handle_t info, const char* key, int& buflen, char* value, bool& flag) {
  info_object* o = nullptr;
  if (status st = find_info_key(info, key, o); !st.is_ok()) return st;
  if (buflen < 0) return fail(MPI_ERR_ARG, "buflen = %d is negative", buflen);
  std::lock_guard lock(o->mu);
  const std::string* v = find_value(*o, key);
  flag = v != nullptr;
  if (v == nullptr) return status::ok();
  // buflen counts the terminating null; 0 asks for the length only.
  if (buflen > 0) {
    std::size_t n = std::min(v->size(), static_cast<std::size_t>(buflen - 1));
    std::memcpy(value, v->data(), n);
    value[n] = '\0';
  }
  buflen = static_cast<int>(v->size()) + 1;
  return status::ok();
}

status info_get_nkeys(handle_t info, int& nkeys) {
  info_object* o = nullptr;
  if (status st = find_info(info, o); !st.is_ok()) return st;
  std::lock_guard lock(o->mu);
  nkeys = static_cast<int>(o->pairs.size());
  return status::ok();
}

status info_get_nthkey(handle_t info, int n, char* key) {
  info_object* o = nullptr;
  if (status st = find_info(info, o); !st.is_ok()) return st;
  std::lock_guard lock(o->mu);
  if (n < 0 || static_cast<std::size_t>(n) >= o->pairs.size())
    return fail(MPI_ERR_ARG, "n = %d is not between 0 and the number of keys (%zu) - 1", n, o->pairs.size());
  const std::string& k = o->pairs[static_cast<std::size_t>(n)].first;
  std::memcpy(key, k.c_str(), k.size() + 1);
  return status::ok();
}

status info_dup(handle_t info, handle_t& newinfo) {
  info_object* o = nullptr;
  if (status st = find_info(info, o); !st.is_ok()) return st;
  std::vector<std::pair<std::string, std::string>> copy;
  {
    std::lock_guard lock(o->mu);
    copy = o->pairs;
  }
  return new_info(std::move(copy), newinfo);
}

status info_free(handle_t& info) {
  info_object* o = nullptr;
  if (status st = find_info(info, o); !st.is_ok()) return st;
  if (o->predefined) return fail(MPI_ERR_INFO, "MPI_INFO_ENV cannot be freed");
  rt().infos.erase(o);
  delete o;
  info = h::info_null;
  return status::ok();
}

status alloc_mem(aint size, handle_t info, void* baseptr) {
  if (status st = check_info(info); !st.is_ok()) return st;
  if (size < 0) return fail(MPI_ERR_SIZE, "size %ld is negative", static_cast<long>(size));
  void* mem = std::malloc(size > 0 ? static_cast<std::size_t>(size) : 1);
  if (mem == nullptr) return fail(MPI_ERR_NO_MEM, "cannot allocate %ld bytes", static_cast<long>(size));
  std::memcpy(baseptr, &mem, sizeof mem);
  return status::ok();
}

status free_mem(void* base) {
  std::free(base);
  return status::ok();
}

// ---- error handling ----

static status create_errhandler(object_kind kind, language lang, fnptr fn, handle_t& out) {
  if (fn == nullptr) return fail(MPI_ERR_ARG, "the error handler function is NULL");
  auto* e = new errhandler_object;
  e->for_kind = kind;
  e->lang = lang;
  e->fn = fn;
  return insert_new(rt().errhandlers, e, out, "error handlers");
}

status comm_create_errhandler(language lang, fnptr fn, handle_t& eh) {
  return create_errhandler(object_kind::comm, lang, fn, eh);
}

status win_create_errhandler(language lang, fnptr fn, handle_t& eh) {
  return create_errhandler(object_kind::win, lang, fn, eh);
}

static status set_eh(attr_object& o, errhandler_object& e) {
  if (e.what == errhandler_object::builtin::none && e.for_kind != o.kind)
    return fail(MPI_ERR_ARG, "the error handler was created for %ss, not %ss", kind_name(e.for_kind), kind_name(o.kind));
  o.errhandler.store(&e, std::memory_order_release);
  return status::ok();
}

status comm_set_errhandler(comm_object& comm, errhandler_object& e) { return set_eh(comm, e); }
status win_set_errhandler(win_object& win, errhandler_object& e) { return set_eh(win, e); }

// The handle MPI_XXX_get_errhandler gives is a new reference, which the program frees as it frees
// the one from create (MPI-4.1 §10.3.4: "the error handler is freed when it is no longer
// referenced"; MPICH and Open MPI count them the same way).
// A handler whose every reference was freed while objects still use it has left the table; a
// new reference brings it back under a fresh handle.
static handle_t new_reference(errhandler_object* e) {
  if (!e->predefined && e->handle_refs.fetch_add(1, std::memory_order_acq_rel) == 0 &&
      rt().errhandlers.insert(e) == 0)
    return h::errhandler_null;  // the table is full: no handle to give
  return e->handle;
}

status comm_get_errhandler(comm_object& comm, handle_t& eh) {
  eh = new_reference(comm.errhandler.load());
  return status::ok();
}

status win_get_errhandler(win_object& win, handle_t& eh) {
  eh = new_reference(win.errhandler.load());
  return status::ok();
}

status errhandler_free(handle_t& eh) {
  errhandler_object* e = rt().errhandlers.lookup(eh);
  if (e == nullptr) return fail(MPI_ERR_ARG, "error handler 0x%x is null or not valid", eh);
  // The handle stays valid while the program holds another reference to it. After the last one,
  // objects still using the handler keep it (MPI-4.1 §10.3.4): the record is not reclaimed, but
  // kept with the other retired ones (no object counts its users; each costs a few bytes).
  if (!e->predefined && e->handle_refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    rt().errhandlers.erase(e);
    static std::mutex mu;
    static auto* retired = new std::vector<errhandler_object*>;  // reachable: not a leak
    std::lock_guard lock(mu);
    retired->push_back(e);
  }
  eh = h::errhandler_null;
  return status::ok();
}

status comm_call_errhandler(comm_object& comm, int errorcode) {
  raise_on(comm, errorcode);
  return status::ok();
}

status win_call_errhandler(win_object& win, int errorcode) {
  raise_on(win, errorcode);
  return status::ok();
}

status error_class(int errorcode, int& errorclass) {
  if (!errors::class_of(errorcode, &errorclass))
    return fail(MPI_ERR_ARG, "%d is not an MPI error code", errorcode);
  return status::ok();
}

// User-defined classes and codes (MPI-4.1 §10.5): MPI_LASTUSEDCODE follows them (R8.2).
status add_error_class(int& errorclass) {
  if (status st = errors::add_class(errorclass); !st.is_ok()) return st;
  set_int(g_environment, MPI_LASTUSEDCODE, errors::last_used_code());
  return status::ok();
}

status add_error_code(int errorclass, int& errorcode) {
  if (status st = errors::add_code(errorclass, errorcode); !st.is_ok()) return st;
  set_int(g_environment, MPI_LASTUSEDCODE, errors::last_used_code());
  return status::ok();
}

status add_error_string(int errorcode, const char* string) { return errors::add_string(errorcode, string); }

status get_library_version(char* version, int& resultlen) {
  resultlen = std::snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                            "mpiattr %s (standalone runtime: one process; MPI %d.%d)",
                            MPIATTR_VERSION_STRING, gen::mpi_version, gen::mpi_subversion);
  return status::ok();
}

status error_string(int errorcode, char* string, int& resultlen) {
  if (!errors::string_of(errorcode, string, MPI_MAX_ERROR_STRING, &resultlen))
    return fail(MPI_ERR_ARG, "%d is not an MPI error code", errorcode);
  return status::ok();
}

// ---- requests and collectives ----

static status finish_request(handle_t& request) {
  if (request == h::request_null) return status::ok();
  request_object* r = rt().requests.lookup(request);
  if (r == nullptr) return fail(MPI_ERR_REQUEST, "request handle 0x%x is not valid", request);
  rt().requests.erase(r);
  delete r;
  request = h::request_null;
  return status::ok();
}

// ---- point-to-point: messages to self ----
// A send is buffered at once (packed into a message); a receive takes the oldest matching message
// of the same communicator, or, posted by MPI_Irecv, waits in the posted list for the next send.
// One process cannot wait for a send that no one else will make: a blocking receive, a probe or a
// wait that no queued message can satisfy fails with MPI_ERR_OTHER instead of hanging (D31).
namespace {

struct message {
  std::uint64_t context;
  int tag;
  std::vector<char> data;
  handle_t sync_request = 0;  // MPI_Issend's request, complete once a receive takes the message
};

// A receive's destination: the buffer and a copy of the datatype's layout (the datatype may be
// freed before the receive completes).
struct recv_target {
  void* buf = nullptr;
  int count = 0;
  type_layout layout;
};

struct posted_recv {
  handle_t request;
  std::uint64_t context;
  int tag;
  recv_target target;
  bool freed = false;  // MPI_Request_free: the receive still happens, nobody waits for it
};

struct p2p_state {
  std::mutex mu;
  std::deque<message> queue;
  std::vector<posted_recv> posted;
  std::unordered_map<handle_t, msg_status> done;  // completed requests' statuses
};
p2p_state& p2p() {
  static auto* s = new p2p_state;  // never destroyed: requests may outlive static teardown
  return *s;
}

bool tag_matches(int want, int tag) { return want == MPI_ANY_TAG || want == tag; }

status check_tag(int tag, bool receiving) {
  if (receiving && tag == MPI_ANY_TAG) return status::ok();
  if (tag < 0 || tag > 2147483647) return fail(MPI_ERR_TAG, "tag %d is not between 0 and MPI_TAG_UB", tag);
  return status::ok();
}

status check_peer(int rank, bool receiving) {
  if (rank == 0 || rank == MPI_PROC_NULL || (receiving && rank == MPI_ANY_SOURCE)) return status::ok();
  return fail(MPI_ERR_RANK, "rank %d is not a rank of a one-process communicator", rank);
}

status check_transfer(int count, const type_object& t) {
  if (status st = check_count(count); !st.is_ok()) return st;
  if (!t.committed) return fail(MPI_ERR_TYPE, "the datatype is not committed (MPI_Type_commit)");
  return status::ok();
}

void copy_layout(const type_object& t, type_layout& into) {
  into.size = t.size;
  into.lb = t.lb;
  into.extent = t.extent;
  into.map = t.map;
}

// Unpacks a message into a receive; what does not fit is dropped and reported (MPI_ERR_TRUNCATE).
msg_status deliver(const message& m, const recv_target& r) {
  msg_status st;
  st.source = 0;
  st.tag = m.tag;
  aint room = static_cast<aint>(r.count) * r.layout.size;
  aint n = std::min<aint>(room, static_cast<aint>(m.data.size()));
  if (r.layout.size > 0) {
    int whole = static_cast<int>(n / r.layout.size);
    unpack_elements(m.data.data(), r.buf, whole, r.layout);
  }
  st.bytes = n;
  if (static_cast<aint>(m.data.size()) > room) st.error = MPI_ERR_TRUNCATE;
  return st;
}

msg_status proc_null_status() {
  msg_status st;
  st.source = MPI_PROC_NULL;
  st.tag = MPI_ANY_TAG;
  return st;
}

status fail_truncated(const msg_status& st) {
  return fail(MPI_ERR_TRUNCATE, "the message has more than the receive's %lld bytes", st.bytes);
}

}  // namespace

namespace {
enum class send_mode { buffered, synchronous, synchronous_nonblocking };
// Delivers to the oldest matching posted receive, or queues the message. A synchronous send with
// no receive posted cannot complete on one process (blocking: D31's error; nonblocking: its
// request stays incomplete until a receive takes the message).
status post_send(const void* buf, int count, type_object& t, int dest, int tag, comm_object& comm,
                 send_mode mode, handle_t request);
}  // namespace

status send(const void* buf, int count, type_object& t, int dest, int tag, comm_object& comm) {
  return post_send(buf, count, t, dest, tag, comm, send_mode::buffered, 0);
}

namespace {
status post_send(const void* buf, int count, type_object& t, int dest, int tag, comm_object& comm,
                 send_mode mode, handle_t request) {
  if (status st = check_transfer(count, t); !st.is_ok()) return st;
  if (status st = check_peer(dest, false); !st.is_ok()) return st;
  if (status st = check_tag(tag, false); !st.is_ok()) return st;
  if (dest == MPI_PROC_NULL) return status::ok();
  message m{comm.context, tag, std::vector<char>(static_cast<std::size_t>(count) * static_cast<std::size_t>(t.size)), 0};
  pack_elements(buf, count, t, m.data.data());
  auto& p = p2p();
  std::lock_guard lock(p.mu);
  for (auto it = p.posted.begin(); it != p.posted.end(); ++it)
    if (it->context == m.context && tag_matches(it->tag, tag)) {  // the oldest posted receive
      msg_status st = deliver(m, it->target);
      if (!it->freed) {
        p.done[it->request] = st;
        if (request_object* r = rt().requests.lookup(it->request)) r->complete = true;
      }
      p.posted.erase(it);
      return status::ok();
    }
  if (mode == send_mode::synchronous)
    return fail(MPI_ERR_OTHER, "a synchronous send with tag %d: no receive is posted, and on one "
                "process none can come while it waits: it would wait forever (docs/decisions.md D31)", tag);
  if (mode == send_mode::synchronous_nonblocking) {
    m.sync_request = request;
    if (request_object* r = rt().requests.lookup(request)) r->complete = false;
  }
  p.queue.push_back(std::move(m));
  return status::ok();
}
}  // namespace

status ssend(const void* buf, int count, type_object& t, int dest, int tag, comm_object& comm) {
  return post_send(buf, count, t, dest, tag, comm, send_mode::synchronous, 0);
}

// A ready send needs its receive posted first (MPI-4.1 §4.4); one that finds none is erroneous,
// and is then buffered as a standard send, as MPICH and Open MPI do.
status rsend(const void* buf, int count, type_object& t, int dest, int tag, comm_object& comm) {
  return send(buf, count, t, dest, tag, comm);
}

status issend(const void* buf, int count, type_object& t, int dest, int tag, comm_object& comm,
              handle_t& request) {
  request = completed_request();
  if (request == h::request_null) return fail(MPI_ERR_INTERN, "too many requests");
  status st = post_send(buf, count, t, dest, tag, comm, send_mode::synchronous_nonblocking, request);
  if (!st.is_ok()) {  // no request is left behind by a failed call
    handle_t r = request;
    (void)request_free(r);
    request = h::request_null;
  }
  return st;
}

status irsend(const void* buf, int count, type_object& t, int dest, int tag, comm_object& comm,
              handle_t& request) {
  return isend(buf, count, t, dest, tag, comm, request);
}

status sendrecv_replace(void* buf, int count, type_object& t, int dest, int sendtag, int source,
                        int recvtag, comm_object& comm, msg_status& out) {
  if (status st = send(buf, count, t, dest, sendtag, comm); !st.is_ok()) return st;  // packed now
  return recv(buf, count, t, source, recvtag, comm, out);
}

namespace {
// A synchronous send completes when a receive takes its message (MPI-4.1 §4.4).
void release_sender(const message& m) {
  if (m.sync_request == 0) return;
  if (request_object* r = rt().requests.lookup(m.sync_request)) r->complete = true;
}
// The oldest queued message a receive or probe matches, or end().
std::deque<message>::iterator match(p2p_state& p, std::uint64_t context, int tag) {
  for (auto it = p.queue.begin(); it != p.queue.end(); ++it)
    if (it->context == context && tag_matches(tag, it->tag)) return it;
  return p.queue.end();
}
status would_wait_forever(const char* what, int tag) {
  return fail(MPI_ERR_OTHER, "%s with tag %d: no message from this process matches, and on one "
              "process none can come: it would wait forever (docs/decisions.md D31)", what, tag);
}
}  // namespace

status recv(void* buf, int count, type_object& t, int source, int tag, comm_object& comm, msg_status& out) {
  if (status st = check_transfer(count, t); !st.is_ok()) return st;
  if (status st = check_peer(source, true); !st.is_ok()) return st;
  if (status st = check_tag(tag, true); !st.is_ok()) return st;
  if (source == MPI_PROC_NULL) {
    out = proc_null_status();
    return status::ok();
  }
  auto& p = p2p();
  std::lock_guard lock(p.mu);
  auto it = match(p, comm.context, tag);
  if (it == p.queue.end()) return would_wait_forever("a receive", tag);
  recv_target r{buf, count, {}};
  copy_layout(t, r.layout);
  out = deliver(*it, r);
  release_sender(*it);
  p.queue.erase(it);
  if (out.error != 0) return fail_truncated(out);
  return status::ok();
}

status isend(const void* buf, int count, type_object& t, int dest, int tag, comm_object& comm,
             handle_t& request) {
  if (status st = send(buf, count, t, dest, tag, comm); !st.is_ok()) return st;
  request = completed_request();
  return status::ok();
}

status irecv(void* buf, int count, type_object& t, int source, int tag, comm_object& comm,
             handle_t& request) {
  if (status st = check_transfer(count, t); !st.is_ok()) return st;
  if (status st = check_peer(source, true); !st.is_ok()) return st;
  if (status st = check_tag(tag, true); !st.is_ok()) return st;
  request = completed_request();
  if (request == h::request_null) return fail(MPI_ERR_INTERN, "too many requests");
  auto& p = p2p();
  std::lock_guard lock(p.mu);
  if (source == MPI_PROC_NULL) {
    p.done[request] = proc_null_status();
    return status::ok();
  }
  recv_target r{buf, count, {}};
  copy_layout(t, r.layout);
  auto it = match(p, comm.context, tag);
  if (it != p.queue.end()) {
    p.done[request] = deliver(*it, r);
    release_sender(*it);
    p.queue.erase(it);
    return status::ok();
  }
  rt().requests.lookup(request)->complete = false;
  p.posted.push_back({request, comm.context, tag, std::move(r), false});
  return status::ok();
}

status sendrecv(const void* sendbuf, int sendcount, type_object& sendtype, int dest, int sendtag,
                void* recvbuf, int recvcount, type_object& recvtype, int source, int recvtag,
                comm_object& comm, msg_status& out) {
  if (status st = send(sendbuf, sendcount, sendtype, dest, sendtag, comm); !st.is_ok()) return st;
  return recv(recvbuf, recvcount, recvtype, source, recvtag, comm, out);
}

status probe(int source, int tag, comm_object& comm, msg_status& out) {
  bool flag = false;
  if (status st = iprobe(source, tag, comm, flag, out); !st.is_ok()) return st;
  if (!flag) return would_wait_forever("a probe", tag);
  return status::ok();
}

status iprobe(int source, int tag, comm_object& comm, bool& flag, msg_status& out) {
  if (status st = check_peer(source, true); !st.is_ok()) return st;
  if (status st = check_tag(tag, true); !st.is_ok()) return st;
  if (source == MPI_PROC_NULL) {
    flag = true;
    out = proc_null_status();
    return status::ok();
  }
  auto& p = p2p();
  std::lock_guard lock(p.mu);
  auto it = match(p, comm.context, tag);
  flag = it != p.queue.end();
  if (flag) {
    out = msg_status{};
    out.source = 0;
    out.tag = it->tag;
    out.bytes = static_cast<long long>(it->data.size());
  }
  return status::ok();
}

status get_count(const msg_status& st, type_object& t, int& count) {
  if (t.size == 0) {
    count = st.bytes == 0 ? 0 : MPI_UNDEFINED;
    return status::ok();
  }
  count = st.bytes % t.size == 0 ? static_cast<int>(st.bytes / t.size) : MPI_UNDEFINED;
  return status::ok();
}

// ---- completion ----

namespace {
// Completes `request` if it can: false when it is a receive still waiting for its send.
bool complete(handle_t& request, msg_status& out, status& error) {
  error = status::ok();
  out = msg_status{};
  if (request == h::request_null) return true;
  request_object* r = rt().requests.lookup(request);
  if (r == nullptr) {
    error = fail(MPI_ERR_REQUEST, "request handle 0x%x is not valid", request);
    return true;
  }
  auto& p = p2p();
  {
    std::lock_guard lock(p.mu);
    if (!r->complete) return false;
    if (auto it = p.done.find(request); it != p.done.end()) {
      out = it->second;
      p.done.erase(it);
    }
  }
  rt().requests.erase(r);
  delete r;
  request = h::request_null;
  if (out.error == MPI_ERR_TRUNCATE) error = fail_truncated(out);
  return true;
}
}  // namespace

status wait(handle_t& request, msg_status& out) {
  status st;
  if (!complete(request, out, st)) return would_wait_forever("MPI_Wait on a receive", -1);
  return st;
}

status test(handle_t& request, bool& flag, msg_status& out) {
  status st;
  flag = complete(request, out, st);
  return st;
}

status waitall(int count, handle_t* requests, msg_status* statuses) {
  if (status st = check_count(count); !st.is_ok()) return st;
  for (int i = 0; i < count; ++i) {  // every one must be completable, or none is completed
    request_object* r = requests[i] == h::request_null ? nullptr : rt().requests.lookup(requests[i]);
    if (requests[i] != h::request_null && r == nullptr)
      return fail(MPI_ERR_REQUEST, "array_of_requests[%d] = 0x%x is not a valid request", i, requests[i]);
    if (r != nullptr && !r->complete) return would_wait_forever("MPI_Waitall on a receive", -1);
  }
  status first = status::ok();
  for (int i = 0; i < count; ++i) {
    msg_status one;
    status st;
    complete(requests[i], one, st);
    if (statuses != nullptr) statuses[i] = one;
    if (!st.is_ok() && first.is_ok()) first = st;
  }
  return first;
}

status waitany(int count, handle_t* requests, int& index, msg_status& out) {
  if (status st = check_count(count); !st.is_ok()) return st;
  bool any_active = false;
  for (int i = 0; i < count; ++i) {
    if (requests[i] == h::request_null) continue;
    any_active = true;
    status st;
    if (complete(requests[i], out, st)) {
      index = i;
      return st;
    }
  }
  if (!any_active) {
    index = MPI_UNDEFINED;
    out = msg_status{};
    return status::ok();
  }
  return would_wait_forever("MPI_Waitany on receives", -1);
}

status testany(int count, handle_t* requests, int& index, bool& flag, msg_status& out) {
  if (status st = check_count(count); !st.is_ok()) return st;
  bool any_active = false;
  index = MPI_UNDEFINED;
  out = msg_status{};
  for (int i = 0; i < count; ++i) {
    if (requests[i] == h::request_null) continue;
    any_active = true;
    status st;
    if (complete(requests[i], out, st)) {
      index = i;
      flag = true;
      return st;
    }
  }
  flag = !any_active;  // no active request: flag true, index MPI_UNDEFINED (MPI-4.1 §4.7.5)
  return status::ok();
}

status testall(int count, handle_t* requests, bool& flag, msg_status* statuses) {
  if (status st = check_count(count); !st.is_ok()) return st;
  for (int i = 0; i < count; ++i) {
    request_object* r = requests[i] == h::request_null ? nullptr : rt().requests.lookup(requests[i]);
    if (requests[i] != h::request_null && r == nullptr)
      return fail(MPI_ERR_REQUEST, "array_of_requests[%d] = 0x%x is not a valid request", i, requests[i]);
    if (r != nullptr && !r->complete) {
      flag = false;
      return status::ok();
    }
  }
  flag = true;
  return waitall(count, requests, statuses);
}

status request_free(handle_t& request) {
  if (request == h::request_null) return fail(MPI_ERR_REQUEST, "request is MPI_REQUEST_NULL");
  {
    // A freed receive still takes its message when it comes (MPI-4.1 §4.7.3); no one learns its
    // status.
    auto& p = p2p();
    std::lock_guard lock(p.mu);
    p.done.erase(request);
    for (auto& pr : p.posted)
      if (pr.request == request) pr.freed = true;
  }
  return finish_request(request);
}

status barrier(comm_object&) { return status::ok(); }

status bcast(void*, int count, type_object&, int root, comm_object&) {
  if (status st = check_count(count); !st.is_ok()) return st;
  return check_root(root);
}

// An operation for a datatype: a user's (any datatype), or a predefined one, which MPI-4.1 §7.9.2
// defines for predefined datatypes only.
static status check_op(handle_t op, const type_object& t) {
  if (rt().ops.lookup(op) != nullptr) return status::ok();
  for (const auto& o : gen::ops)
    if (o.value == op) {
      if (!t.predefined)
        return fail(MPI_ERR_OP, "a predefined operation applies to predefined datatypes only, not "
                    "to a derived one (MPI-4.1 section 7.9.2)");
      return status::ok();
    }
  return fail(MPI_ERR_OP, "operation handle 0x%x is not valid", op);
}

status op_create(fnptr user_fn, bool commute, handle_t& op) {
  if (user_fn == nullptr) return fail(MPI_ERR_ARG, "user_fn is a NULL function");
  auto* o = new op_object;
  o->fn = user_fn;
  o->commute = commute;
  return insert_new(rt().ops, o, op, "operations");
}

status op_free(handle_t& op) {
  op_object* o = rt().ops.lookup(op);
  if (o == nullptr) {
    for (const auto& p : gen::ops)
      if (p.value == op) return fail(MPI_ERR_OP, "a predefined operation cannot be freed");
    return fail(MPI_ERR_OP, "operation handle 0x%x is null or not valid", op);
  }
  rt().ops.erase(o);
  delete o;
  op = h::op_null;
  return status::ok();
}

// ---- the other collectives on one process (MPI-4.1 §7): the process's own block only ----

namespace {
// count elements of stype at send into rcount elements of rtype at recv: the same type
// signature (MPI-4.1 §7.1); more data than the receive holds is MPI_ERR_TRUNCATE.
status transfer(const void* send, int scount, const type_object& stype, void* recv, int rcount,
                const type_object& rtype) {
  if (status st = check_count(scount); !st.is_ok()) return st;
  if (status st = check_count(rcount); !st.is_ok()) return st;
  if (send == gen::in_place) return status::ok();
  aint bytes = static_cast<aint>(scount) * stype.size;
  if (bytes > static_cast<aint>(rcount) * rtype.size)
    return fail(MPI_ERR_TRUNCATE, "%ld bytes sent, the receive holds %ld", static_cast<long>(bytes),
                static_cast<long>(static_cast<aint>(rcount) * rtype.size));
  if (bytes == 0) return status::ok();
  if (&stype == &rtype && contiguous(stype)) {
    std::memmove(recv, send, static_cast<std::size_t>(bytes));
    return status::ok();
  }
  std::vector<char> tmp(static_cast<std::size_t>(bytes));
  pack_elements(send, scount, stype, tmp.data());
  unpack_elements(tmp.data(), recv, rtype.size > 0 ? static_cast<int>(bytes / rtype.size) : 0, rtype);
  return status::ok();
}
char* at(void* buf, int displ, const type_object& t) { return static_cast<char*>(buf) + displ * t.extent; }
const char* at(const void* buf, int displ, const type_object& t) {
  return static_cast<const char*>(buf) + displ * t.extent;
}
}  // namespace

status gather(const void* sendbuf, int sendcount, type_object& sendtype, void* recvbuf, int recvcount,
              type_object& recvtype, int root, comm_object&) {
  if (status st = check_root(root); !st.is_ok()) return st;
  return transfer(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}

status gatherv(const void* sendbuf, int sendcount, type_object& sendtype, void* recvbuf,
               const int* recvcounts, const int* displs, type_object& recvtype, int root, comm_object&) {
  if (status st = check_root(root); !st.is_ok()) return st;
  return transfer(sendbuf, sendcount, sendtype, at(recvbuf, displs[0], recvtype), recvcounts[0], recvtype);
}

status scatter(const void* sendbuf, int sendcount, type_object& sendtype, void* recvbuf, int recvcount,
               type_object& recvtype, int root, comm_object&) {
  if (status st = check_root(root); !st.is_ok()) return st;
  if (recvbuf == gen::in_place) return check_count(sendcount);  // the root keeps its block
  return transfer(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}

status scatterv(const void* sendbuf, const int* sendcounts, const int* displs, type_object& sendtype,
                void* recvbuf, int recvcount, type_object& recvtype, int root, comm_object&) {
  if (status st = check_root(root); !st.is_ok()) return st;
  if (recvbuf == gen::in_place) return status::ok();
  return transfer(at(sendbuf, displs[0], sendtype), sendcounts[0], sendtype, recvbuf, recvcount, recvtype);
}

status allgather(const void* sendbuf, int sendcount, type_object& sendtype, void* recvbuf, int recvcount,
                 type_object& recvtype, comm_object&) {
  return transfer(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}

status allgatherv(const void* sendbuf, int sendcount, type_object& sendtype, void* recvbuf,
                  const int* recvcounts, const int* displs, type_object& recvtype, comm_object&) {
  return transfer(sendbuf, sendcount, sendtype, at(recvbuf, displs[0], recvtype), recvcounts[0], recvtype);
}

status alltoall(const void* sendbuf, int sendcount, type_object& sendtype, void* recvbuf, int recvcount,
                type_object& recvtype, comm_object&) {
  return transfer(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}

status alltoallv(const void* sendbuf, const int* sendcounts, const int* sdispls, type_object& sendtype,
                 void* recvbuf, const int* recvcounts, const int* rdispls, type_object& recvtype, comm_object&) {
  if (sendbuf == gen::in_place) return status::ok();
  return transfer(at(sendbuf, sdispls[0], sendtype), sendcounts[0], sendtype,
                  at(recvbuf, rdispls[0], recvtype), recvcounts[0], recvtype);
}

status scan(const void* sendbuf, void* recvbuf, int count, type_object& t, handle_t op, comm_object&) {
  if (status st = check_count(count); !st.is_ok()) return st;
  if (status st = check_op(op, t); !st.is_ok()) return st;
  copy_bytes(sendbuf, recvbuf, count, t);
  return status::ok();
}

// Rank 0's recvbuf is undefined after MPI_Exscan (MPI-4.1 §7.11.2): it is left as it is.
status exscan(const void*, void*, int count, type_object& t, handle_t op, comm_object&) {
  if (status st = check_count(count); !st.is_ok()) return st;
  return check_op(op, t);
}

status reduce_scatter(const void* sendbuf, void* recvbuf, const int* recvcounts, type_object& t,
                      handle_t op, comm_object&) {  // the process's share: recvcounts[0] elements
  if (status st = check_count(recvcounts[0]); !st.is_ok()) return st;
  if (status st = check_op(op, t); !st.is_ok()) return st;
  copy_bytes(sendbuf, recvbuf, recvcounts[0], t);
  return status::ok();
}

status reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, type_object& t,
                            handle_t op, comm_object& comm) {
  return reduce_scatter(sendbuf, recvbuf, &recvcount, t, op, comm);
}

status reduce(const void* sendbuf, void* recvbuf, int count, type_object& t, handle_t op, int root, comm_object&) {
  if (status st = check_count(count); !st.is_ok()) return st;
  if (status st = check_op(op, t); !st.is_ok()) return st;
  if (status st = check_root(root); !st.is_ok()) return st;
  copy_bytes(sendbuf, recvbuf, count, t);
  return status::ok();
}

status allreduce(const void* sendbuf, void* recvbuf, int count, type_object& t, handle_t op, comm_object&) {
  if (status st = check_count(count); !st.is_ok()) return st;
  if (status st = check_op(op, t); !st.is_ok()) return st;
  copy_bytes(sendbuf, recvbuf, count, t);
  return status::ok();
}

}  // namespace api
}  // namespace mpiattr
