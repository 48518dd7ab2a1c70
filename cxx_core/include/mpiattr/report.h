// mpiattr/report.h: MPIATTR_REPORT, what mpiattr served, printed at MPI_Finalize
// (docs/host.md "MPIATTR_REPORT", docs/decisions.md D33).
//
// When the environment asks for it, the runtime (standalone or host) calls start() when it starts
// and finish() at the end of MPI_Finalize; in between the core counts, per object kind, keyvals
// created and freed, attributes set, read, deleted and copied, and the user callbacks it ran, and
// remembers which routine created each keyval. finish() prints the counts and every keyval and
// attribute still alive, a leak report, naming the program's call that created each keyval, set
// each attribute and made each object (D60): only return addresses are kept while the program
// runs; they are resolved (dladdr, then addr2line) when the report is printed.
//
// Off (the variable unset, empty or "0"), nothing here costs more than one load of g_on and a
// branch never taken, and only on the checked paths: the fast paths never count, because a
// runtime that reports turns them off (so every call takes a checked path, where the counting is).
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>

#include "mpiattr/handles.h"

namespace mpiattr {
struct attr_object;
}

namespace mpiattr::report {

extern std::atomic<bool> g_on;
// Whether reporting is on: the runtimes keep their fast paths off then.
inline bool on() { return g_on.load(std::memory_order_relaxed); }

// Whether MPIATTR_REPORT asks for a report (read from the environment at each call).
bool requested();
// Reads MPIATTR_REPORT; if it asks for a report, turns counting on for this process, which is
// `rank` of `size` in MPI_COMM_WORLD, mpiattr running `how` ("over MPICH", "standalone").
// Returns on(). The first call decides; later ones return the same answer.
bool start(int rank, int size, const char* how);
// Calls f(object) for every object that may carry attributes (the runtime's records).
using object_visitor = std::function<void(const std::function<void(const attr_object&)>&)>;
// Prints the report (once) if reporting is on: to stderr, or to the file MPIATTR_REPORT names.
void finish(const object_visitor& for_each_object);

// ---- counting (the core's checked paths) ----
enum counter : int { keyvals_created, keyvals_freed, attrs_set, attrs_read, attrs_deleted, attrs_copied };
constexpr int kCounters = 6;
enum callback_counter : int { copy_run, copy_failed, delete_run, delete_failed };
constexpr int kCallbackCounters = 4;

void add_slow(counter c, object_kind kind, std::uint64_t n);
void add_callback_slow(callback_counter c);
// `n` of counter `c` for objects of `kind` (comm, type or win).
inline void add(counter c, object_kind kind, std::uint64_t n = 1) {
  if (on()) [[unlikely]] add_slow(c, kind, n);
}
// A user copy or delete callback ran (rc its result): predefined callbacks the core runs without
// a call (MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, ...) are not counted.
inline void callback_ran(bool copy, int rc) {
  if (on()) [[unlikely]] {
    add_callback_slow(copy ? copy_run : delete_run);
    if (rc != 0) add_callback_slow(copy ? copy_failed : delete_failed);
  }
}

// ---- the routine that creates a keyval ----
// Called by a binding just before its create_keyval: `routine` is the name the program called
// (MPI_Comm_create_keyval, MPI_Keyval_create, MPI_COMM_CREATE_KEYVAL, ...; a string literal).
void creating_slow(const char* routine);
inline void creating(const char* routine) {
  if (on()) [[unlikely]] creating_slow(routine);
}
// A keyval was created (api::create_keyval) or freed (api::free_keyval) through the core.
void keyval_created(object_kind kind, int keyval);
void keyval_freed(object_kind kind, int keyval);
// A C++ binding made `keyval` its own (mpiattr's MPI:: glue, MPICH's C++ bindings over host
// mode): its creator is reported as MPI::<Class>::Create_keyval.
void keyval_from_cxx(int keyval);

// ---- places: the program's calls (docs/decisions.md D60) ----
// An attribute was set (set_attr) on `obj` under keyval index `index`: remembers where.
void attribute_set_slow(const attr_object& obj, std::uint32_t index);
inline void attribute_set(const attr_object& obj, std::uint32_t index) {
  if (on()) [[unlikely]] attribute_set_slow(obj, index);
}
// An object of `kind` was made, `handle` the program's handle of it (standalone: every object
// the runtime publishes; host mode: the dups it intercepts). `routine` is the routine the program
// called, or null: found from the stack (the MPI entry point the program called).
void object_made_slow(object_kind kind, std::uintptr_t handle, const char* routine);
inline void object_made(object_kind kind, std::uintptr_t handle, const char* routine = nullptr) {
  if (on()) [[unlikely]] object_made_slow(kind, handle, routine);
}
// The object `handle` of `kind` was freed: forgets what was known of it (its handle may be reused).
void object_gone_slow(object_kind kind, std::uintptr_t handle);
inline void object_gone(object_kind kind, std::uintptr_t handle) {
  if (on()) [[unlikely]] object_gone_slow(kind, handle);
}

}  // namespace mpiattr::report
