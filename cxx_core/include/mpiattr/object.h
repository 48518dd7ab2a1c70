// mpiattr/object.h: the MPI objects as the core and the runtimes see them. Communicators, windows and
// datatypes carry attributes (attr_object); groups, requests, error handlers and infos do not.
#pragma once
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "mpiattr/attr_store.h"
#include "mpiattr/handles.h"
#include "mpiattr/keyval.h"
#include "mpiattr/predefined.h"

namespace mpiattr {

struct type_envelope;  // the standalone runtime's (runtime_standalone/src/datatypes_internal.h)

struct errhandler_object {
  handle_t handle = 0;
  enum class builtin : std::uint8_t { none, fatal, ret, abort } what = builtin::none;
  object_kind for_kind = object_kind::comm;  // which objects a user handler was made for
  // Made by MPI_File_create_errhandler: for files, which have no object_kind (no table holds them;
  // standalone, MPI_FILE_NULL is the only file handle). for_kind is then unused.
  bool for_file = false;
  // Made by MPI_Session_create_errhandler: for sessions, which have no object_kind either (their
  // handles live outside the object tables, D49). for_kind is then unused.
  bool for_session = false;
  language lang = language::c;
  fnptr fn = nullptr;
  bool predefined = false;
  // The program's references to a user handler's handle: one from its creation and one from each
  // MPI_XXX_get_errhandler, each given back by an MPI_Errhandler_free (MPI-4.1 §10.3.4).
  std::atomic<int> handle_refs{1};
};

struct attr_object;

// What an object with attributes keeps apart from its hot part (docs/decisions.md D125): the
// attribute store's cold part (attr_store.h) and the fields no get or set reads. A standalone
// object holds it as a member after its hot part; host mode's records keep theirs in another part
// of their block (runtime_host/record.h), so that many records' hot parts share few pages.
struct attr_object_cold : attr_store::cold {
  std::atomic<errhandler_object*> errhandler{nullptr};  // unused for datatypes
  std::string name;                                     // guarded by attrs.mutex()
  attr_object* building_next = nullptr;  // the next dup in progress (attributes.h: dup_in_progress)
  // A window's predefined attributes (MPI_WIN_BASE, ...: R8.3), when its runtime keeps them.
  const predefined_values* predefined = nullptr;
};

// The hot part of an object with attributes: 128 bytes, what a get or a set reads (D125); the rest
// is its cold part, which the object's maker constructs first and keeps as long as the object.
struct attr_object {
  attr_object(object_kind k, attr_object_cold& c) : kind(k), attrs(c) {}
  attr_object(const attr_object&) = delete;
  virtual ~attr_object() = default;
  handle_t handle = 0;
  // The handle the application holds when a host MPI owns the object (host mode: an int in
  // MPICH, a pointer in Open MPI); 0 in standalone mode, where `handle` is the application's.
  std::uintptr_t native = 0;
  object_kind kind;
  bool predefined = false;
  // Whether a dup filling it is on that list, or will be once it copies something.
  // building_in_slot: a plain dup at MPI_THREAD_MULTIPLE holds it in its thread's slot instead (D73).
  enum : std::uint8_t { building_none, building_wanted, building_listed, building_in_slot } building = building_none;
  // A free at MPI_THREAD_MULTIPLE is dropping its plain attributes without the store's lock: a
  // census waits for 0 before it visits the object (attributes.cc: delete_all, census_one; D73).
  std::atomic<std::uint8_t> dropping{0};
  // A communicator made by MPI_Comm_create_from_group, or derived from such a communicator: the
  // Sessions Model, where MPI_TAG_UB is the only predefined attribute (R8.2, D124).
  bool sessions_model = false;
  // Three bytes a runtime keeps on its objects (host mode's records: record.h); the core never
  // reads them.
  std::uint8_t runtime_bytes[3] = {};
  // What callbacks and error handlers receive as the object (lifecycle.h).
  std::uintptr_t app_handle() const { return native != 0 ? native : handle; }
  attr_store attrs;
  // The cold part (always there: the object's maker gave it).
  attr_object_cold& cold() const { return static_cast<attr_object_cold&>(attrs.cold_part()); }
  // (A runtime keeps what else it needs of an object in its own type: host mode's records derive
  // from attr_object, runtime_host/record.h; the standalone runtime's objects are the structs
  // below.)
};
static_assert(sizeof(attr_object) == 128, "an object's hot part is two lines (D125)");

struct group_object {
  handle_t handle = 0;
  int size = 0;  // 0 or 1: one process
  bool predefined = false;
  handle_t session = 0;  // MPI_Group_from_session_pset's session: its communicators derive from it (D55)
};

struct comm_object : attr_object {
  comm_object() : attr_object(object_kind::comm, own_cold) {}
  attr_object_cold own_cold;
  int size = 1;  // in standalone mode every communicator holds the one process
  int rank = 0;
  std::uint64_t context = 0;  // distinguishes congruent communicators (MPI_Comm_compare)
};

// One contiguous run of bytes of a datatype's element, at `disp` from the element's start.
struct type_block {
  aint disp;
  aint len;
};

struct type_object : attr_object {
  type_object() : attr_object(object_kind::type, own_cold) {}
  attr_object_cold own_cold;
  aint size = 0;
  aint lb = 0;
  aint extent = 0;
  bool committed = false;
  // The standalone runtime's type map (MPI-4.1 §6.1): the element's bytes in type-map order,
  // adjacent runs merged (shared, so a dup copies a pointer), and the alignment the struct
  // constructor pads to. Unused over a host.
  std::shared_ptr<const std::vector<type_block>> map;
  aint align = 1;
  // The one predefined datatype all its basic elements are (what an accumulate combines, MPI-4.1
  // §13.3.4), basic_mixed when they differ, 0 when it has none. Unused over a host.
  handle_t basic = 0;
  // MPI-2.2 §4.1.6 and MPI-4.1 §6.1.7: which bound a marker sets (MPI_LB, MPI_UB in a type map,
  // or MPI_Type_create_resized); a marked bound is sticky: the constructors keep it (D58).
  // bound_absent: the pure markers MPI_LB and MPI_UB have no other bound. Unused over a host.
  enum : std::uint8_t { lb_marked = 1, ub_marked = 2, lb_absent = 4, ub_absent = 8 };
  std::uint8_t marks = 0;
  // How the standalone runtime made it (D43, D62; unused over a host). `env` is the constructor and
  // arguments of a derived datatype (null for a basic one), shared by reference count with every
  // dup of it and every part that names it: immutable once published. A dup builds nothing:
  // `dups` counts the MPI_Type_dup calls between this object and the datatype `env` describes
  // (0: none), `dup_named` is that datatype when it is predefined, and `dup_committed` whether the
  // datatype this one duplicates was committed when it was duplicated (what its contents say).
  std::shared_ptr<const type_envelope> env;
  handle_t dup_named = 0;
  std::uint32_t dups = 0;
  bool dup_committed = false;
};
inline constexpr handle_t basic_mixed = ~handle_t{0};

struct win_object : attr_object {
  win_object() : attr_object(object_kind::win, own_cold) { own_cold.predefined = &predefined_attrs; }
  attr_object_cold own_cold;
  void* base = nullptr;
  aint size = 0;
  int disp_unit = 1;
  int flavor = 0;
  int model = 0;
  bool owns_memory = false;
  predefined_values predefined_attrs;  // MPI_WIN_BASE, ... (R8.3)
};

struct request_object {
  handle_t handle = 0;
  bool complete = true;
};

// A user-defined reduction operation (MPI_Op_create). On one process a reduction has one
// contribution, so the function is never called; the object is what MPI_Op_free frees.
struct op_object {
  handle_t handle = 0;
  fnptr fn = nullptr;
  language lang = language::c;  // how fn is called: C's MPI_User_function or Fortran's
  bool large = false;            // made by MPI_Op_create_c: fn takes an MPI_Count length
  bool commute = true;
  bool predefined = false;
};

// An info object (MPI-4.1 §11): (key, value) strings in the order keys were first set, which is
// the order MPI_Info_get_nthkey gives. Its mutex makes concurrent calls on one info safe.
struct info_object {
  handle_t handle = 0;
  std::vector<std::pair<std::string, std::string>> pairs;
  bool predefined = false;
  std::mutex mu;
};

}  // namespace mpiattr
