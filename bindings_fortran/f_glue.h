// bindings_fortran/f_glue.h: the hand-written half of the Fortran bindings (mpif.h, `use mpi`).
// The generated entry points (functions.cc) reuse the C binding's `call` (bindings_c/c_glue.h) to
// check that MPI is usable, look up handles and raise errors through the object's error handler;
// this header adds what is Fortran's own: INTEGER handles, LOGICAL values, CHARACTER arguments,
// status arrays, and the link names (mangle_probe.f90 finds the mangling: fc_mangle.h).
#pragma once
#include <cstddef>
#include <string>
#include <type_traits>

#include "c_glue.h"
#include "callbacks.h"
#include "mpiattr/fc_mangle.h"       // MPIATTR_FC_GLOBAL_(name, NAME): the compiler's link name
#include "mpiattr/fortran_config.h"  // MPIATTR_F_TRUE/FALSE, MPIATTR_FC_SCHEME (configure time)

static_assert(sizeof(MPI_Fint) == MPIATTR_SIZEOF_FINT, "MPI_Fint must be Fortran's INTEGER");

namespace mpiattr::fbind {

// A Fortran INTEGER handle is the handle itself (D1): the conversions are value casts.
template <typename H>
inline H c_handle(MPI_Fint f) {
  return cbind::to_c<H>(static_cast<handle_t>(f));
}

// The fast paths of MPI_XXX_GET_ATTR / MPI_ATTR_GET and MPI_XXX_SET_ATTR / MPI_ATTR_PUT, as C's
// (c_glue.h: fast_get, fast_set; mpiattr/fast.h): the whole call, IERROR included, when it can
// take the fast path (a live object and keyval, a slot that exists; at MPI_THREAD_MULTIPLE the
// concurrent form, D67);
// otherwise false with nothing written, and the entry point takes its checked path. V, the
// value's Fortran type: INTEGER(KIND=MPI_ADDRESS_KIND) (MPI-2) or INTEGER (MPI-1, R7.1). F08: an
// mpi_f08 entry, whose IERROR is OPTIONAL (a null pointer when absent). D63.
template <object_kind K, bool F08, typename T, typename V, bool Concurrent = false>
MPIATTR_HOT bool fast_get(const object_table<T>& table, handle_t h, int keyval, V* value, MPI_Fint* flag,
                          MPI_Fint* ierror) {
  if constexpr (!Concurrent) {
    // (The word whoever wrote it: the hit is one test of the slot's origin, D82.)
    aint word;
    switch (fast::get_attr<K>(table, h, keyval,
                             [&word](const attr_store& s, std::size_t i) { return s.read_word_unsynchronised(i, &word); })) {
      case fast::got::not_done: return false;
      case fast::got::present:
        if constexpr (std::is_same_v<V, MPI_Fint>) *value = attribute_value(word, origin::c_address).as_fortran_int();
        else *value = word;
        fast::put_flag(flag, MPIATTR_F_TRUE);
        break;
      case fast::got::absent: fast::put_flag(flag, MPIATTR_F_FALSE); break;
    }
    if (!F08 || ierror != nullptr) [[likely]] *ierror = MPI_SUCCESS;
    return true;
  }
  attr_read r;
  if (!fast::get_attr_concurrent<K>(table, h, keyval, r)) return false;  // (Concurrent)
  // (A hit is the likely case, laid out straight through with the flag a constant store: the
  // compiler otherwise put it out of line with a jump back, D71; it still did until the flag
  // stores became volatile and read_unsynchronised's test [[likely]], D76.)
  if (r.found) [[likely]] {
    if constexpr (std::is_same_v<V, MPI_Fint>) *value = r.value.as_fortran_int();
    else *value = r.value.as_fortran_aint();
    fast::put_flag(flag, MPIATTR_F_TRUE);
  } else {
    fast::put_flag(flag, MPIATTR_F_FALSE);
  }
  if (!F08 || ierror != nullptr) [[likely]] *ierror = MPI_SUCCESS;
  return true;
}
template <object_kind K, bool F08, typename T, bool Concurrent = false>
MPIATTR_HOT bool fast_set(const object_table<T>& table, handle_t h, int keyval, attribute_value v,
                          MPI_Fint* ierror) {
  if (!(Concurrent ? fast::set_attr_concurrent<K>(table, h, keyval, v) : fast::set_attr<K>(table, h, keyval, v)))
    return false;
  if (!F08 || ierror != nullptr) *ierror = MPI_SUCCESS;
  return true;
}
// At MPI_THREAD_MULTIPLE (the checked path tries them first, D67).
template <object_kind K, bool F08, typename T, typename V>
MPIATTR_HOT bool fast_get_concurrent(const object_table<T>& table, handle_t h, int keyval, V* value,
                                     MPI_Fint* flag, MPI_Fint* ierror) {
  return fast_get<K, F08, T, V, true>(table, h, keyval, value, flag, ierror);
}
template <object_kind K, bool F08, typename T>
MPIATTR_HOT bool fast_set_concurrent(const object_table<T>& table, handle_t h, int keyval, attribute_value v,
                                     MPI_Fint* ierror) {
  return fast_set<K, F08, T, true>(table, h, keyval, v, ierror);
}

// A CHARACTER argument without its trailing blanks, as a C string.
std::string from_fortran(const char* s, std::size_t len);
// An info key or value: without its leading and trailing blanks (MPI-4.1 §10, D144).
std::string from_fortran_info(const char* s, std::size_t len);
// Copies a C string into a CHARACTER argument, blank-padded (truncated if it does not fit).
void to_fortran(const char* src, char* dst, std::size_t len);

}  // namespace mpiattr::fbind

// The special addresses of the Fortran bindings (MPI-4.1 §3.5.4), defined here: mpi_f08's
// BIND(C) variables, and the COMMON blocks of mpif.h and the mpi module (/MPIATTR_BOTTOM/, ...).
// A routine given MPI_STATUS_IGNORE or MPI_STATUSES_IGNORE writes no status; MPI_BOTTOM and
// MPI_IN_PLACE become C's.
extern "C" MPIATTR_EXPORT MPI_Fint mpiattr_f08_status_ignore[8];
extern "C" MPIATTR_EXPORT MPI_Fint mpiattr_f08_statuses_ignore[8];
extern "C" MPIATTR_EXPORT MPI_Fint mpiattr_f08_bottom;
extern "C" MPIATTR_EXPORT MPI_Fint mpiattr_f08_in_place;
extern "C" MPIATTR_EXPORT MPI_Fint mpiattr_f08_buffer_automatic;
extern "C" MPIATTR_EXPORT MPI_Fint MPIATTR_FC_GLOBAL_(mpiattr_status_ignore, MPIATTR_STATUS_IGNORE)[8];
extern "C" MPIATTR_EXPORT MPI_Fint MPIATTR_FC_GLOBAL_(mpiattr_statuses_ignore, MPIATTR_STATUSES_IGNORE)[8];
extern "C" MPIATTR_EXPORT MPI_Fint MPIATTR_FC_GLOBAL_(mpiattr_bottom, MPIATTR_BOTTOM);
extern "C" MPIATTR_EXPORT MPI_Fint MPIATTR_FC_GLOBAL_(mpiattr_in_place, MPIATTR_IN_PLACE);
extern "C" MPIATTR_EXPORT MPI_Fint MPIATTR_FC_GLOBAL_(mpiattr_buffer_automatic, MPIATTR_BUFFER_AUTOMATIC);
extern "C" MPIATTR_EXPORT MPI_Fint mpiattr_f08_unweighted[1];
extern "C" MPIATTR_EXPORT MPI_Fint mpiattr_f08_weights_empty[1];
extern "C" MPIATTR_EXPORT MPI_Fint MPIATTR_FC_GLOBAL_(mpiattr_unweighted, MPIATTR_UNWEIGHTED)[1];
extern "C" MPIATTR_EXPORT MPI_Fint MPIATTR_FC_GLOBAL_(mpiattr_weights_empty, MPIATTR_WEIGHTS_EMPTY)[1];

namespace mpiattr::fbind {

// A choice buffer as C sees it: MPI_BOTTOM, MPI_IN_PLACE and MPI_BUFFER_AUTOMATIC of any binding
// become C's.
inline void* buffer(void* p) {
  if (p == &mpiattr_f08_bottom || p == &MPIATTR_FC_GLOBAL_(mpiattr_bottom, MPIATTR_BOTTOM)) return MPI_BOTTOM;
  if (p == &mpiattr_f08_in_place || p == &MPIATTR_FC_GLOBAL_(mpiattr_in_place, MPIATTR_IN_PLACE)) return MPI_IN_PLACE;
  if (p == &mpiattr_f08_buffer_automatic ||
      p == &MPIATTR_FC_GLOBAL_(mpiattr_buffer_automatic, MPIATTR_BUFFER_AUTOMATIC))
    return MPI_BUFFER_AUTOMATIC;
  return p;
}

// A weights array as the core sees it: MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY of any binding become
// C's (MPI-4.1 §8.5.4; MPI_Fint is int).
template <typename T>
inline T* weights(T* p) {
  if (p == mpiattr_f08_unweighted || p == MPIATTR_FC_GLOBAL_(mpiattr_unweighted, MPIATTR_UNWEIGHTED))
    return MPI_UNWEIGHTED;
  if (p == mpiattr_f08_weights_empty || p == MPIATTR_FC_GLOBAL_(mpiattr_weights_empty, MPIATTR_WEIGHTS_EMPTY))
    return MPI_WEIGHTS_EMPTY;
  return p;
}

// A status array (or TYPE(MPI_Status)) as written by a routine: MPI_SOURCE, MPI_TAG, MPI_ERROR
// (multiple completion only), then the byte count and the cancelled flag (D44), as C's
// MPI_Status; nothing for an IGNORE.
inline bool ignored(const MPI_Fint* s) {
  return s == mpiattr_f08_status_ignore || s == mpiattr_f08_statuses_ignore ||
         s == MPIATTR_FC_GLOBAL_(mpiattr_status_ignore, MPIATTR_STATUS_IGNORE) ||
         s == MPIATTR_FC_GLOBAL_(mpiattr_statuses_ignore, MPIATTR_STATUSES_IGNORE);
}
inline void set_status(MPI_Fint* s, const api::msg_status& m, bool error_field) {
  if (ignored(s)) return;
  s[0] = m.source;
  s[1] = m.tag;
  if (error_field || m.empty_inquiry) s[2] = m.error;
  s[3] = m.bytes_low();
  s[4] = m.bytes_high();
  s[5] = m.cancelled ? 1 : 0;
}
inline api::msg_status read_status(const MPI_Fint* s) {
  api::msg_status m;
  m.source = s[0];
  m.tag = s[1];
  m.error = s[2];
  m.bytes = api::msg_status::bytes_of(s[3], s[4]);
  m.cancelled = s[5] != 0;
  return m;
}

}  // namespace mpiattr::fbind

// ---- link names ----
// The entry point is defined under the compiler's own name (MPIATTR_FC_GLOBAL_); the other names
// Fortran compilers use are weak aliases of it. MPIATTR_FC_SCHEME says which of the four the
// compiler's own is (1 name_, 2 name__, 3 name, 4 NAME; 0 another), so it is not defined twice.
#define MPIATTR_F_STR_(x) #x
#define MPIATTR_F_STR(x) MPIATTR_F_STR_(x)
#define MPIATTR_F_ALIAS(sym, l, U)                                                        \
  extern "C" MPIATTR_EXPORT __typeof__(MPIATTR_FC_GLOBAL_(l, U)) sym                      \
      __attribute__((weak, alias(MPIATTR_F_STR(MPIATTR_FC_GLOBAL_(l, U)))));
#define MPIATTR_F_NOTHING(sym, l, U)
#if MPIATTR_FC_SCHEME == 1
#define MPIATTR_F_ALIAS_1 MPIATTR_F_NOTHING
#else
#define MPIATTR_F_ALIAS_1 MPIATTR_F_ALIAS
#endif
#if MPIATTR_FC_SCHEME == 2
#define MPIATTR_F_ALIAS_2 MPIATTR_F_NOTHING
#else
#define MPIATTR_F_ALIAS_2 MPIATTR_F_ALIAS
#endif
#if MPIATTR_FC_SCHEME == 3
#define MPIATTR_F_ALIAS_3 MPIATTR_F_NOTHING
#else
#define MPIATTR_F_ALIAS_3 MPIATTR_F_ALIAS
#endif
#if MPIATTR_FC_SCHEME == 4
#define MPIATTR_F_ALIAS_4 MPIATTR_F_NOTHING
#else
#define MPIATTR_F_ALIAS_4 MPIATTR_F_ALIAS
#endif
#define MPIATTR_F_VARIANTS(l, U) \
  MPIATTR_F_ALIAS_1(l##_, l, U) MPIATTR_F_ALIAS_2(l##__, l, U) MPIATTR_F_ALIAS_3(l, l, U) MPIATTR_F_ALIAS_4(U, l, U) \
  MPIATTR_F_PMPI(l, U)
// The profiling names (MPI-4.1 §16.2): PMPI_X under every mangling, aliases of the MPI_X entry.
#define MPIATTR_F_PMPI(l, U) \
  MPIATTR_F_ALIAS(p##l##_, l, U) MPIATTR_F_ALIAS(p##l##__, l, U) MPIATTR_F_ALIAS(p##l, l, U) MPIATTR_F_ALIAS(P##U, l, U)
// mpi_f08's profiling names: PMPI_Comm_set_attr_f08 under this compiler's mangling.
#define MPIATTR_F08_PMPI(l, U) MPIATTR_F_ALIAS(MPIATTR_FC_GLOBAL_(p##l, P##U), l, U)
// The predefined callbacks have no upper-case variant: MPI_COMM_DUP_FN is the C function (R6.6).
#if MPIATTR_FC_SCHEME == 4
#error "this Fortran compiler's link names (MPI_X) would be those of the C predefined callbacks (MPI-4.1 section 8.7.2; see docs/rules.md R6.6)"
#endif
#define MPIATTR_F_VARIANTS_NOT_UPPER(l, U) \
  MPIATTR_F_ALIAS_1(l##_, l, U) MPIATTR_F_ALIAS_2(l##__, l, U) MPIATTR_F_ALIAS_3(l, l, U)
