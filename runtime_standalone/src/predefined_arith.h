// What the predefined operations (MPI-4.1 §7.9.2) make of the predefined datatypes, shared by the
// reductions (collectives.cc: check_op, MPI_Reduce_local) and the accumulates (rma.cc): each
// predefined datatype's group of §7.9.2 and the C type its elements are combined as.
#pragma once
#include <array>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <type_traits>

#include "runtime_internal.h"

namespace mpiattr::arith {

// §7.9.2's groups (logical: C's and Fortran's alike; pair: MINLOC's and MAXLOC's), and `other`:
// a predefined datatype no operation but MPI_REPLACE and MPI_NO_OP applies to (MPI_WCHAR, ...).
enum class cat : char { none, c_int, f_int, floating, complex, logical, byte, pair, other };
// The C type of an element (of a complex, of each part); none where this build has no
// arithmetic of that size (MPI_INTEGER16, MPI_REAL2, MPI_REAL16, MPI_COMPLEX4, MPI_COMPLEX32).
enum class num : char { none, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64, fld, pair };
struct basic_info {
  const char* name = nullptr;  // null: no predefined datatype
  cat c = cat::none;
  num n = num::none;
  num value = num::none, index = num::none;  // a pair's two members (MINLOC, MAXLOC)
};

inline num int_of(aint size, bool is_signed) {
  switch (size) {
    case 1: return is_signed ? num::i8 : num::u8;
    case 2: return is_signed ? num::i16 : num::u16;
    case 4: return is_signed ? num::i32 : num::u32;
    case 8: return is_signed ? num::i64 : num::u64;
    default: return num::none;
  }
}

inline num float_of(aint size) {
  if (size == static_cast<aint>(sizeof(float))) return num::f32;
  if (size == static_cast<aint>(sizeof(double))) return num::f64;
  return num::none;
}

inline bool is_unsigned(num n) { return n == num::u8 || n == num::u16 || n == num::u32 || n == num::u64; }

inline bool named(const char* name, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (std::strcmp(name, n) == 0) return true;
  return false;
}

inline basic_info classify(const gen::datatype_info& d) {
  const char* n = d.name;
  basic_info b;
  b.name = n;
  if (named(n, {"MPI_INT", "MPI_LONG", "MPI_SHORT", "MPI_LONG_LONG", "MPI_SIGNED_CHAR", "MPI_INT8_T",
                "MPI_INT16_T", "MPI_INT32_T", "MPI_INT64_T", "MPI_AINT", "MPI_OFFSET", "MPI_COUNT"})) {
    b.c = cat::c_int;
    b.n = int_of(d.size, true);
  } else if (named(n, {"MPI_UNSIGNED_SHORT", "MPI_UNSIGNED", "MPI_UNSIGNED_LONG", "MPI_UNSIGNED_LONG_LONG",
                       "MPI_UNSIGNED_CHAR", "MPI_UINT8_T", "MPI_UINT16_T", "MPI_UINT32_T", "MPI_UINT64_T"})) {
    b.c = cat::c_int;
    b.n = int_of(d.size, false);
  } else if (named(n, {"MPI_CHAR", "MPI_CHARACTER"})) {
    // Not in §7.9.2's lists; both hosts reduce and accumulate them as integers of char's sign,
    // and programs that run on both do (D109).
    b.c = cat::c_int;
    b.n = int_of(d.size, std::is_signed_v<char>);
  } else if (named(n, {"MPI_INTEGER", "MPI_INTEGER1", "MPI_INTEGER2", "MPI_INTEGER4", "MPI_INTEGER8",
                       "MPI_INTEGER16"})) {
    b.c = cat::f_int;
    b.n = int_of(d.size, true);
  } else if (named(n, {"MPI_FLOAT", "MPI_DOUBLE", "MPI_REAL", "MPI_DOUBLE_PRECISION", "MPI_REAL2", "MPI_REAL4",
                       "MPI_REAL8", "MPI_REAL16"})) {
    b.c = cat::floating;
    b.n = float_of(d.size);
  } else if (named(n, {"MPI_LONG_DOUBLE"})) {
    b.c = cat::floating;
    b.n = num::fld;
  } else if (named(n, {"MPI_C_FLOAT_COMPLEX", "MPI_C_DOUBLE_COMPLEX", "MPI_CXX_FLOAT_COMPLEX",
                       "MPI_CXX_DOUBLE_COMPLEX", "MPI_COMPLEX", "MPI_DOUBLE_COMPLEX", "MPI_COMPLEX4",
                       "MPI_COMPLEX8", "MPI_COMPLEX16", "MPI_COMPLEX32"})) {
    b.c = cat::complex;
    b.n = float_of(d.size / 2);
  } else if (named(n, {"MPI_C_LONG_DOUBLE_COMPLEX", "MPI_CXX_LONG_DOUBLE_COMPLEX"})) {
    b.c = cat::complex;
    b.n = num::fld;
  } else if (named(n, {"MPI_C_BOOL", "MPI_CXX_BOOL", "MPI_LOGICAL", "MPI_LOGICAL1", "MPI_LOGICAL2",
                       "MPI_LOGICAL4", "MPI_LOGICAL8", "MPI_LOGICAL16"})) {
    b.c = cat::logical;  // any non-zero value is true; true is written as 1 (as gfortran's .TRUE.)
    b.n = int_of(d.size, false);
  } else if (named(n, {"MPI_BYTE"})) {
    b.c = cat::byte;
    b.n = num::u8;
  } else if (named(n, {"MPI_2INT", "MPI_FLOAT_INT", "MPI_DOUBLE_INT", "MPI_LONG_INT", "MPI_SHORT_INT",
                       "MPI_LONG_DOUBLE_INT", "MPI_2REAL", "MPI_2DOUBLE_PRECISION", "MPI_2INTEGER"})) {
    b.c = cat::pair;
    b.n = num::pair;
    if (named(n, {"MPI_2REAL"})) b.value = b.index = num::f32;
    else if (named(n, {"MPI_2DOUBLE_PRECISION"})) b.value = b.index = num::f64;
    else if (named(n, {"MPI_2INTEGER"})) b.value = b.index = int_of(d.size / 2, true);
    else {
      b.index = num::i32;
      aint vsize = d.size - static_cast<aint>(sizeof(int));
      b.value = named(n, {"MPI_FLOAT_INT"}) ? num::f32 : named(n, {"MPI_DOUBLE_INT"}) ? num::f64
                : named(n, {"MPI_LONG_DOUBLE_INT"}) ? num::fld : int_of(vsize, true);
    }
  } else {
    b.c = cat::other;  // MPI_WCHAR, MPI_PACKED, ...: MPI_REPLACE and MPI_NO_OP only
  }
  return b;
}

// The predefined datatype `type`'s (a default basic_info for any other handle). Worked out once for
// every predefined handle, in a table that allocates nothing (a reduction's first call cannot fail
// for want of memory, D65).
inline basic_info basic_of(handle_t type) {
  using table = std::array<basic_info, handles::kPredefinedLimit>;
  static const table by_handle = [] {
    table t{};
    for (const auto& d : gen::datatypes)  // (the last of aliases with one value)
      if (d.value < handles::kPredefinedLimit) t[d.value] = classify(d);
    return t;
  }();
  if (type < handles::kPredefinedLimit) return by_handle[type];
  basic_info b;
  for (const auto& d : gen::datatypes)
    if (d.value == type) b = classify(d);
  return b;
}

// The group, or `other` where this build has no arithmetic for the datatype's size (what the
// accumulates and MPI_Compare_and_swap take; the reductions check the group itself).
inline cat computable(const basic_info& b) {
  return b.c != cat::other && b.c != cat::none && b.n == num::none ? cat::other : b.c;
}

inline const char* op_name(handle_t op) {
  for (const auto& o : gen::ops)
    if (o.value == op) return o.name;
  return nullptr;
}

// Whether §7.9.2 defines the predefined operation `op` (by name) on elements of group c.
// MPI_REPLACE and MPI_NO_OP, the accumulates' own, are not reductions: false.
inline bool op_applies(const char* op, cat c) {
  if (op == nullptr) return false;
  if (named(op, {"MPI_MAX", "MPI_MIN"})) return c == cat::c_int || c == cat::f_int || c == cat::floating;
  if (named(op, {"MPI_SUM", "MPI_PROD"}))
    return c == cat::c_int || c == cat::f_int || c == cat::floating || c == cat::complex;
  if (named(op, {"MPI_LAND", "MPI_LOR", "MPI_LXOR"})) return c == cat::c_int || c == cat::logical;
  if (named(op, {"MPI_BAND", "MPI_BOR", "MPI_BXOR"})) return c == cat::c_int || c == cat::f_int || c == cat::byte;
  if (named(op, {"MPI_MAXLOC", "MPI_MINLOC"})) return c == cat::pair;
  return false;
}

template <typename T>
T load(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <typename T>
void store(char* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

// f(a value of n's C type), or nothing for num::none and num::pair.
template <typename F>
void with_num(num n, F f) {
  switch (n) {
    case num::i8: f(std::int8_t{}); break;
    case num::i16: f(std::int16_t{}); break;
    case num::i32: f(std::int32_t{}); break;
    case num::i64: f(std::int64_t{}); break;
    case num::u8: f(std::uint8_t{}); break;
    case num::u16: f(std::uint16_t{}); break;
    case num::u32: f(std::uint32_t{}); break;
    case num::u64: f(std::uint64_t{}); break;
    case num::f32: f(float{}); break;
    case num::f64: f(double{}); break;
    case num::fld: f(static_cast<long double>(0)); break;
    default: break;
  }
}

inline aint num_size(num n) {
  aint s = 0;
  with_num(n, [&](auto v) { s = static_cast<aint>(sizeof v); });
  return s;
}

}  // namespace mpiattr::arith
