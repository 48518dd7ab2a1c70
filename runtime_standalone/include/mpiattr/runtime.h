// mpiattr/runtime.h: the process's MPI state: initialisation, the object tables, and error
// raising through an object's error handler.
#pragma once
#include <atomic>

#include "mpiattr/handles.h"
#include "mpiattr/lifecycle.h"
#include "mpiattr/object.h"
#include "mpiattr/report.h"
#include "mpiattr/status.h"

namespace mpiattr {

// `state` says whether MPI is usable: running while the World Model is active or any session is
// live (MPI-4.1 §11.2, §11.3; docs/decisions.md D49); finalized once neither is, until the next
// MPI_Init or MPI_Session_init. `world` and `live_sessions` say which models make it so.
enum class phase : int { before_init = 0, running = 1, finalizing = 2, finalized = 3 };
// The World Model (MPI_Init ... MPI_Finalize): it happens at most once (MPI-4.1 §11.2.1).
enum class world_model : int { never = 0, active = 1, finalizing = 2, finalized = 3 };

struct runtime {
  std::atomic<int> state{static_cast<int>(phase::before_init)};
  std::atomic<int> world{static_cast<int>(world_model::never)};
  std::atomic<int> live_sessions{0};      // sessions initialized and not yet finalized
  std::atomic<bool> had_session{false};  // whether MPI_Session_init ever succeeded
  // Whether the fast paths (fast.h) may run: MPI usable, and no two calls can overlap (below
  // MPI_THREAD_MULTIPLE). It is the mask a fast path applies to a handle to index its table
  // (handles.h: object_table::fast_lookup): all index bits when they may, 0 when not, so that
  // every handle then finds the table's entry 0, which is always empty. The gate costs nothing.
  // MPIATTR_REPORT keeps them off, so that every call is counted (report.h).
  std::atomic<std::uint32_t> fast_mask{0};
  bool fast_paths() const { return fast_mask.load(std::memory_order_relaxed) != 0; }
  // The same gate for the fast paths of MPI_THREAD_MULTIPLE (fast.h: *_concurrent, D67): all
  // index bits when MPI is usable at that level and nothing is being reported, else 0.
  std::atomic<std::uint32_t> concurrent_mask{0};
  bool concurrent_fast_paths() const { return concurrent_mask.load(std::memory_order_relaxed) != 0; }
  int thread_level = 0;
  object_table<comm_object> comms{object_kind::comm};
  object_table<type_object> types{object_kind::type};
  object_table<win_object> wins{object_kind::win};
  object_table<group_object> groups{object_kind::group};
  object_table<request_object> requests{object_kind::request};
  object_table<errhandler_object> errhandlers{object_kind::errhandler};
  object_table<info_object> infos{object_kind::info};
  object_table<op_object> ops{object_kind::op};
  lifecycle* life = nullptr;

  void set_phase(phase p) {
    state.store(static_cast<int>(p), std::memory_order_release);
    fast_mask.store(usable() && !sync::concurrent() && !report::on() ? handles::kIndexMask : 0u,
                    std::memory_order_release);
    concurrent_mask.store(usable() && sync::concurrent() && !report::on() ? handles::kIndexMask : 0u,
                          std::memory_order_release);
  }
  world_model world_state() const { return static_cast<world_model>(world.load(std::memory_order_acquire)); }
  // MPI_COMM_WORLD and MPI_COMM_SELF exist (installed by MPI_Init, removed at the end of
  // MPI_Finalize, after their attributes were deleted).
  bool world_active() const {
    world_model w = world_state();
    return w == world_model::active || w == world_model::finalizing;
  }
  bool running() const { return state.load(std::memory_order_acquire) == static_cast<int>(phase::running); }
  // Caching and object routines are callable from init until MPI_COMM_SELF is freed (R10.5).
  bool usable() const {
    int s = state.load(std::memory_order_acquire);
    return s == static_cast<int>(phase::running) || s == static_cast<int>(phase::finalizing);
  }
};

extern never_destroyed<runtime> g_runtime;
inline runtime& rt() { return g_runtime.value; }

// Sets the runtime's predefined objects up (error handlers, datatypes, MPI_GROUP_EMPTY,
// MPI_INFO_ENV, predefined keyvals), once, at the first of MPI_Init and MPI_Session_init; it
// does not make MPI usable. Fails (nothing set up) when a launcher started several copies (D26).
status runtime_setup();
// Why MPI is not usable now, naming both models (for "MPI is not initialized" errors).
const char* not_usable_why();

// Turns a failed status into an error code and raises it on the error handler of `target` (an
// attr_object's kind and handle; MPI_COMM_SELF when target is null, or the initial handler before
// init and after finalize). Returns the code for the binding to return; may not return (fatal).
int raise_error(const attr_object* target, status st, const char* routine);
// The same for a file routine: the error handler is the open file `file`'s, else MPI_FILE_NULL's
// (MPI-4.1 §15.7), which is MPI_ERRORS_RETURN until the program sets another.
int raise_file_error(handle_t file, status st, const char* routine);
// The same for a session routine: the error handler is the session's (MPI-4.1 §9.3); when
// `session` is not a live session, MPI_COMM_SELF's, as for errors tied to no object (D4, D49);
// but MPI_Session_init's go to its `given` errhandler argument when it is one for sessions (or
// predefined): MPI-4.1 §11.3.1, whether or not a model is active.
int raise_session_error(handle_t session, status st, const char* routine,
                        errhandler_object* given = nullptr);

// What error handler invocation needs from a language (the C binding calls C handlers).
using errhandler_invoker = void (*)(const errhandler_object& eh, object_kind kind, handle_t obj,
                                    int code);
void register_errhandler_invoker(language lang, errhandler_invoker invoke);

}  // namespace mpiattr
