// The environment: init, finalize, launcher check, flush, clocks, versions, processor name, abort.
#include <dlfcn.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <thread>

#include "runtime_internal.h"

namespace mpiattr {
namespace {

const auto g_clock_start = std::chrono::steady_clock::now();

}  // namespace

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

namespace {

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

}  // namespace

namespace api {

// ---- environment ----

status init(int*, char***) {
  int provided = 0;
  return init_thread(nullptr, nullptr, MPI_THREAD_SINGLE, provided);
}

// The thread that initialized MPI (MPI_Is_thread_main).
std::thread::id g_main_thread;

status init_thread(int*, char***, int required, int& provided) {
  runtime& r = rt();
  int expected = static_cast<int>(phase::before_init);
  if (r.state.load() != expected)
    return fail(MPI_ERR_OTHER, "MPI is already initialized or was finalized; it can be initialized once");
  if (status st = check_launcher(); !st.is_ok()) return st;
  g_main_thread = std::this_thread::get_id();
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
    t->basic = d.value;
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

status is_thread_main(bool& flag) {
  flag = std::this_thread::get_id() == g_main_thread;
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

status get_processor_name(char* name, int& resultlen) {
  char host[MPI_MAX_PROCESSOR_NAME] = {};
  if (gethostname(host, sizeof host - 1) != 0) std::snprintf(host, sizeof host, "localhost");
  resultlen = std::snprintf(name, MPI_MAX_PROCESSOR_NAME, "%s", host);
  return status::ok();
}

status get_library_version(char* version, int& resultlen) {
  resultlen = std::snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                            "mpiattr %s (standalone runtime: one process; MPI %d.%d)",
                            MPIATTR_VERSION_STRING, gen::mpi_version, gen::mpi_subversion);
  return status::ok();
}

}  // namespace api
}  // namespace mpiattr
