// The environment: init, finalize, launcher check, flush, clocks, versions, processor name, abort.
#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <mutex>
#include <iostream>
#include <iterator>
#include <memory>
#include <thread>
#include <vector>

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

namespace {

// The transitions between the models (MPI_Init, MPI_Finalize's end, the first and last session)
// and the one-time setup. Never held while user code runs (delete callbacks).
std::mutex g_model_mu;
bool g_handles_set_up = false;  // the predefined error handlers, MPI_GROUP_EMPTY, MPI_INFO_ENV
bool g_set_up = false;          // all of it: MPI can be made usable

}  // namespace

namespace api {
// The thread that initialized MPI (MPI_Is_thread_main): MPI_Init's, else the first session's.
std::thread::id g_main_thread;
}  // namespace api

namespace {

// What the routines that may come before MPI is initialized need (MPI_Session_init's error
// handler argument, the info routines, MPI_Session_create_errhandler: D49): the predefined error
// handlers, MPI_GROUP_EMPTY and MPI_INFO_ENV. Static objects, installed without allocating
// (install_predefined allocates nothing), so this cannot run out of memory (D85).
status install_handles_locked() {
  if (g_handles_set_up) return status::ok();
  if (status st = check_launcher(); !st.is_ok()) return st;
  runtime& r = rt();
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

  static group_object empty_group;
  empty_group.size = 0;
  empty_group.predefined = true;
  r.groups.install_predefined(h::group_empty, &empty_group);

  static info_object env_info;  // MPI_INFO_ENV: no key is known of how this process was started
  env_info.predefined = true;
  r.infos.install_predefined(h::info_env, &env_info);
  g_handles_set_up = true;
  return status::ok();
}

// The predefined datatypes, all made before any is installed (D85): when memory runs out the
// unique_ptrs free what was made, and nothing was installed. A few allocations in all (an array of
// the objects, the distinct type maps, the names too long to be kept inline), not four a datatype:
// less to fail, and less for MPI_Init to do.
struct predefined_types {
  std::unique_ptr<type_object[]> objects;  // (installed, they live as long as the process)
  std::vector<std::unique_ptr<const std::vector<type_block>>> maps;  // (owned until installed)
};

// A predefined datatype lives as long as the process, and so does its type map: shared without
// a count (an aliasing pointer with no owner, which allocates nothing), so that copying it (a dup
// of MPI_INT, the part a constructor keeps) costs no atomic read-modify-write (D67). Datatypes
// with the same map (MPI_INT and MPI_FLOAT, ...) share one.
std::shared_ptr<const std::vector<type_block>> immortal(predefined_types& made, std::initializer_list<type_block> blocks) {
  auto same = [&](const std::vector<type_block>& m) {
    return std::equal(m.begin(), m.end(), blocks.begin(), blocks.end(),
                      [](const type_block& a, const type_block& b) { return a.disp == b.disp && a.len == b.len; });
  };
  const std::vector<type_block>* map = nullptr;
  for (const auto& m : made.maps)
    if (same(*m)) map = m.get();
  if (map == nullptr) {
    made.maps.push_back(std::make_unique<const std::vector<type_block>>(blocks));
    map = made.maps.back().get();
  }
  return std::shared_ptr<const std::vector<type_block>>(std::shared_ptr<void>(), map);
}

void make_types(predefined_types& made) {
  made.objects = std::make_unique<type_object[]>(std::size(gen::datatypes) + std::size(gen::bound_markers));
  made.maps.reserve(std::size(gen::datatypes));
  type_object* t = made.objects.get();
  for (const auto& d : gen::datatypes) {
    t->predefined = true;
    t->size = d.size;
    t->extent = d.extent;
    t->committed = true;
    t->cold().name = d.name;
    t->basic = d.value;
    if (d.second_at > 0) {  // MPI_SHORT_INT: the short, a gap, then the int, which ends the extent
      const aint second = d.extent - d.second_at;
      t->map = immortal(made, {type_block{0, d.size - second}, type_block{d.second_at, second}});
    } else if (d.size > 0)
      t->map = immortal(made, {type_block{0, d.size}});
    // A basic type aligns to its size (at most 16); a pair type (MPI_DOUBLE_INT) to 8 or 4,
    // unless the spec gives it (MPI_LONG_DOUBLE_INT).
    aint a = d.align > 0 ? d.align : d.size == d.extent ? d.size : (d.extent % 8 == 0 ? 8 : 4);
    while (a > 1 && (a & (a - 1)) != 0) a &= a - 1;  // a power of two
    t->align = a > 16 ? 16 : (a < 1 ? 1 : a);
    ++t;
  }
  // MPI_LB and MPI_UB (removed in MPI-3.0, kept: D58): pure bound markers, no data, no alignment.
  for (const auto& m : gen::bound_markers) {
    t->predefined = true;
    t->committed = true;
    t->cold().name = m.name;
    t->marks = m.upper ? type_object::ub_marked | type_object::lb_absent
                       : type_object::lb_marked | type_object::ub_absent;
    ++t;
  }
}

// The one-time setup of MPI_Init, MPI_Init_thread and the first MPI_Session_init. Out of memory
// is MPI_ERR_NO_MEM having changed nothing (D85): everything that allocates (the predefined
// datatypes, MPIATTR_REPORT's records) is made first, then installed by steps that cannot fail,
// so a failed setup leaves MPI as it was (not initialized) and the next call sets up from
// nothing.
status setup_locked() {
  if (g_set_up) return status::ok();
  if (status st = install_handles_locked(); !st.is_ok()) return st;
  runtime& r = rt();
  predefined_types made;
  try {
    make_types(made);
  } catch (...) {
    return from_exception("the predefined datatypes");
  }
  // MPIATTR_REPORT: decided once, before the first set_phase (a report keeps the fast paths off);
  // it makes its records or nothing.
  try {
    report::start(0, 1, "standalone");
  } catch (...) {
    return from_exception("MPIATTR_REPORT's records");
  }
  // Nothing below allocates.
  api::g_main_thread = std::this_thread::get_id();
  if (r.life == nullptr) r.life = &standalone_lifecycle();
  for (const auto& k : gen::predefined_keys) keyvals().define_predefined(k.value, k.object);

  auto w = r.life->world();
  // R8.2, D11: the environment's values, which every communicator answers.
  set_int(g_environment, MPI_TAG_UB, w.tag_ub);
  set_int(g_environment, MPI_HOST, w.host);
  set_int(g_environment, MPI_IO, w.io);
  set_int(g_environment, MPI_WTIME_IS_GLOBAL, w.wtime_is_global);
  if (w.has_universe_size) set_int(g_environment, MPI_UNIVERSE_SIZE, w.universe_size);
  if (w.has_appnum) set_int(g_environment, MPI_APPNUM, w.appnum);
  set_int(g_environment, MPI_LASTUSEDCODE, MPI_ERR_LASTCODE);

  type_object* t = made.objects.release();  // (immortal: the installed datatypes and their maps)
  for (const auto& d : gen::datatypes) r.types.install_predefined(d.value, t++);
  for (const auto& m : gen::bound_markers) r.types.install_predefined(m.value, t++);
  for (auto& m : made.maps) (void)m.release();
  keyvals().set_attribute_census(census);
  keyvals().use_thread_spares();  // (keyval create + free at MPI_THREAD_MULTIPLE, D67)
  // The core's locks are on until MPI is set up (sync.h); no object is shared yet, so they go
  // off here, and the first model's level decides: only MPI_THREAD_MULTIPLE turns them back on
  // (provide_level). Left on, every program ran the locked, checked paths, the fast paths off.
  sync::set_concurrent(false);
  g_set_up = true;
  return status::ok();
}

// A thread level asked for: at MPI_THREAD_MULTIPLE, objects may be shared between threads, so
// the core's locks go on now (before any is); they never go off again (D49).
void provide_level(int level) {
  if (level == MPI_THREAD_MULTIPLE && !sync::concurrent()) sync::set_concurrent(true);
}

// MPIATTR_REPORT (D33): what survives, with the counts, when MPI stops being usable.
void finish_report() {
  runtime& r = rt();
  report::finish([&](const std::function<void(const attr_object&)>& f) {
    auto visit = [&](attr_object* o) { f(*o); };
    r.comms.for_each(visit);
    r.comms.for_each_predefined(visit);
    r.types.for_each(visit);
    r.types.for_each_predefined(visit);
    r.wins.for_each(visit);
  });
}

}  // namespace

// The routines that may come before MPI is initialized (spec `init = "setup"`) need the
// predefined handles only; MPI_Init and the first session do the rest (setup_locked), so that
// MPI_Session_init's failure to set up goes to its own error handler (D85).
status runtime_setup() {
  std::lock_guard lock(g_model_mu);
  return install_handles_locked();
}

const char* not_usable_why() {
  const runtime& r = rt();
  const world_model w = r.world_state();
  const bool sessions = r.had_session.load(std::memory_order_acquire);
  if (w == world_model::never && !sessions)
    return "MPI is not initialized: call MPI_Init (the World Model) or MPI_Session_init (the Sessions Model) first "
           "(MPI-4.1 sections 11.2 and 11.3; see docs/rules.md R10.5)";
  if (w == world_model::never)
    return "MPI is not initialized: no session is live (every session was finalized) and MPI_Init was not called; "
           "MPI_Session_init or MPI_Init starts MPI again (MPI-4.1 sections 11.2 and 11.3; docs/decisions.md D49)";
  if (!sessions)
    return "MPI has been finalized: MPI_Finalize ended the World Model and no session is live; MPI_Session_init "
           "starts MPI again (MPI-4.1 sections 11.2 and 11.3; see docs/rules.md R10.5)";
  return "MPI is not initialized: MPI_Finalize ended the World Model and every session was finalized; "
         "MPI_Session_init starts MPI again (MPI-4.1 sections 11.2 and 11.3; docs/decisions.md D49)";
}

// A session begins (sessions.cc): MPI is usable from now on, at least at `level`.
status session_begin(int level) {
  std::lock_guard lock(g_model_mu);
  if (status st = setup_locked(); !st.is_ok()) return st;
  runtime& r = rt();
  provide_level(level);
  r.live_sessions.fetch_add(1, std::memory_order_acq_rel);
  r.had_session.store(true, std::memory_order_release);
  r.set_phase(phase::running);  // (again: the fast paths' mask follows the thread level)
  return status::ok();
}

// A session ended: with the last one, unless the World Model is active, MPI is usable no more.
void session_end() {
  runtime& r = rt();
  bool report_now = false;
  {
    std::lock_guard lock(g_model_mu);
    if (r.live_sessions.fetch_sub(1, std::memory_order_acq_rel) == 1 && !r.world_active()) {
      r.set_phase(phase::finalized);
      report_now = true;
    }
  }
  if (report_now) finish_report();
}

namespace api {

// ---- environment ----

status init(int*, char***) {
  int provided = 0;
  return init_thread(nullptr, nullptr, MPI_THREAD_SINGLE, provided);
}

status init_thread(int*, char***, int required, int& provided) {
  runtime& r = rt();
  std::lock_guard lock(g_model_mu);
  switch (r.world_state()) {
    case world_model::never: break;
    case world_model::finalized:
      return fail(MPI_ERR_OTHER, "MPI_Finalize was called: the World Model can be initialized once "
                                 "(MPI-4.1 section 11.2.1); MPI_Session_init can start MPI again");
    default:
      return fail(MPI_ERR_OTHER, "MPI is already initialized (MPI_Init was called); it can be initialized once");
  }
  if (status st = setup_locked(); !st.is_ok()) return st;
  g_main_thread = std::this_thread::get_id();
  errhandler_object* fatal = r.errhandlers.lookup(h::errors_are_fatal);
  // Static: MPI_Finalize only takes them out of the table (a thread may still hold one), and the
  // World Model happens once. Never destroyed: code run at exit may still look them up.
  static never_destroyed<comm_object> world_storage, self_storage;
  comm_object* world = &world_storage.value;
  comm_object* self = &self_storage.value;
  world->predefined = self->predefined = true;
  world->context = 1;
  self->context = 2;
  world->cold().name = "MPI_COMM_WORLD";
  self->cold().name = "MPI_COMM_SELF";
  world->cold().errhandler.store(fatal);
  self->cold().errhandler.store(fatal);
  r.comms.install_predefined(h::comm_world, world);
  r.comms.install_predefined(h::comm_self, self);
  r.thread_level = required < MPI_THREAD_SINGLE ? MPI_THREAD_SINGLE
                   : required > MPI_THREAD_MULTIPLE ? MPI_THREAD_MULTIPLE : required;
  provide_level(r.thread_level);  // before any object is shared
  provided = r.thread_level;
  r.world.store(static_cast<int>(world_model::active), std::memory_order_release);
  r.set_phase(phase::running);
  return status::ok();
}

// The World Model only (MPI-4.1 §11.2.1): false in a program that only uses sessions.
status initialized(bool& flag) {
  flag = rt().world_state() != world_model::never;
  return status::ok();
}

status finalize() {
  runtime& r = rt();
  {
    std::lock_guard lock(g_model_mu);
    switch (r.world_state()) {
      case world_model::active: break;
      case world_model::never:
        return fail(MPI_ERR_OTHER, "MPI_Init was not called: there is no World Model to finalize "
                                   "(a session ends with MPI_Session_finalize)");
      default: return fail(MPI_ERR_OTHER, "MPI_Finalize was already called");
    }
    r.world.store(static_cast<int>(world_model::finalizing), std::memory_order_release);
    r.set_phase(phase::finalizing);
  }
  auto undo = [&] {
    std::lock_guard lock(g_model_mu);
    r.world.store(static_cast<int>(world_model::active), std::memory_order_release);
    r.set_phase(phase::running);
  };
  // R10.1: first, the equivalent of freeing MPI_COMM_SELF: its attributes are deleted newest
  // first while MPI is still fully usable (MPI_Finalized is false in the callbacks).
  comm_object* self = r.comms.lookup(h::comm_self);
  if (status st = delete_attributes(*self); !st.is_ok()) {
    undo();
    return st;
  }
  // Then MPI_COMM_WORLD's, as MPICH and Open MPI both do (docs/decisions.md D18). Other objects
  // are not freed, and their attributes get no delete callbacks (R10.3).
  comm_object* world = r.comms.lookup(h::comm_world);
  if (status st = delete_attributes(*world); !st.is_ok()) {
    undo();
    return st;
  }
  bool report_now = false;
  {
    std::lock_guard lock(g_model_mu);
    // MPI_COMM_WORLD and MPI_COMM_SELF exist in the World Model only (MPI-4.1 §11.2): a session's
    // objects stay usable while it lives, these do not.
    r.comms.remove_predefined(h::comm_self);
    r.comms.remove_predefined(h::comm_world);
    r.world.store(static_cast<int>(world_model::finalized), std::memory_order_release);
    if (r.live_sessions.load(std::memory_order_acquire) > 0) {
      r.set_phase(phase::running);
    } else {
      r.set_phase(phase::finalized);
      report_now = true;
    }
  }
  if (report_now) finish_report();
  return status::ok();
}

// The World Model only (MPI-4.1 §11.2.1).
status finalized(bool& flag) {
  flag = rt().world_state() == world_model::finalized;
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
  // The errorcode's low 8 bits, what exit(errorcode) gives: 0 ends the process as a success, as
  // on MPICH and Open MPI (MPI-4.1 §11.5; D150).
  std::_Exit(errorcode & 0xFF);
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
