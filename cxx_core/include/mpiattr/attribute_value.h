// mpiattr/attribute_value.h: an attribute value and the rules for reading it from each language.
//
// MPI behaves as if every attribute were one address-sized word (R7.1), tagged with how it was
// written (R7.2). The tag decides what each reader gets (R7.3):
//
//   written by \ read by       C get_attr              Fortran MPI_ATTR_GET   Fortran MPI_XXX_GET_ATTR
//   C set_attr(p)              p                       low part of (aint)p    (aint)p
//   Fortran MPI_ATTR_PUT(v)    int* to the stored v    v                      v sign-extended
//   Fortran MPI_XXX_SET_ATTR(v) MPI_Aint* to stored v  low part of v          v
//
// Examples (the standard's own, R7.4): C stores &x: C reads &x back, Fortran MPI-2 reads the
// address as an integer. Fortran MPI_ATTR_PUT(-5): C reads an int* to -5, MPI_COMM_GET_ATTR reads
// -5 (sign-extended). Fortran MPI_COMM_SET_ATTR(2**40): C reads an MPI_Aint* to 2**40, MPI_ATTR_GET
// reads 0 (the low 32 bits). The pointers C gets for Fortran-written values point into the
// attribute's own storage, so they stay valid while the attribute exists.
//
// Predefined attributes follow the same rules (R7.5): integer-valued ones are stored as if by
// MPI_ATTR_PUT, MPI_WIN_SIZE as if by MPI_WIN_SET_ATTR, MPI_WIN_BASE as if by C.
#pragma once
#include <cstdint>
#include <cstring>

#include "mpiattr/config.h"

namespace mpiattr {

// How an attribute was written. Values fit in two bits; 0 is reserved for "no attribute".
enum class origin : std::uint8_t { c_address = 1, fortran_int = 2, fortran_aint = 3 };

class attribute_value {
 public:
  constexpr attribute_value() = default;
  constexpr attribute_value(aint word, origin o) : word_(word), origin_(o) {}

  static attribute_value from_c(const void* p) {
    return {reinterpret_cast<aint>(p), origin::c_address};
  }
  // MPI_ATTR_PUT stores into the low part and sign-extends to the whole word (R7.1).
  static constexpr attribute_value from_fortran_int(fint v) {
    return {static_cast<aint>(v), origin::fortran_int};
  }
  static constexpr attribute_value from_fortran_aint(aint v) { return {v, origin::fortran_aint}; }

  aint word() const { return word_; }
  origin how_written() const { return origin_; }

  // What C's get_attr stores into *(void**)attribute_val: the address itself for a C-written
  // value, else a pointer to the integer at `stored`, the value's home (the attribute's slot), so
  // that it stays valid while the attribute exists. The value is never re-read from `stored`: a
  // concurrent set may be changing it.
  void* as_c(const aint* stored) const {
    if constexpr (!MPIATTR_BIG_ENDIAN) {
      // Both Fortran origins have bit 1 set and read back their home's address (the low part
      // is at it): one test, no compare of the origin (D71).
      static_assert((static_cast<int>(origin::fortran_int) & 2) && (static_cast<int>(origin::fortran_aint) & 2) &&
                    !(static_cast<int>(origin::c_address) & 2));
      return (static_cast<unsigned>(origin_) & 2u) ? const_cast<aint*>(stored) : reinterpret_cast<void*>(word_);
    }
    switch (origin_) {
      case origin::c_address: return reinterpret_cast<void*>(word_);
      case origin::fortran_int: return const_cast<char*>(low_part_address(stored));
      case origin::fortran_aint: break;
    }
    return const_cast<aint*>(stored);
  }
  // MPI_ATTR_GET: the least significant part, whoever wrote the value (R7.1). Implementation-
  // defined narrowing of an out-of-range value is two's complement truncation on every target.
  fint as_fortran_int() const { return static_cast<fint>(static_cast<std::uint64_t>(word_)); }
  // MPI_XXX_GET_ATTR: the whole word. For MPI_ATTR_PUT values it is already sign-extended.
  aint as_fortran_aint() const { return word_; }

 private:
  static const char* low_part_address(const aint* stored) {
    const char* p = reinterpret_cast<const char*>(stored);
    return MPIATTR_BIG_ENDIAN ? p + (sizeof(aint) - sizeof(fint)) : p;
  }

  aint word_ = 0;
  origin origin_ = origin::c_address;
};

}  // namespace mpiattr
