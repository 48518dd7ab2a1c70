// mpiattr/predefined.h: the values of the predefined attributes (R7.5, R8).
//
// They are not kept in objects' attribute slots. The communicator keys (MPI_TAG_UB, MPI_HOST,
// MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_UNIVERSE_SIZE, MPI_APPNUM, MPI_LASTUSEDCODE) describe the
// process: one table holds them and every communicator answers them (docs/decisions.md D11),
// but for MPI_TAG_UB alone in the Sessions Model (D124).
// The window keys describe one window and live in it. Either way a value stays at one address
// while it can be read, so the int* and MPI_Aint* that C gets stay valid (R7.3).
#pragma once
#include <cstdint>

#include "mpiattr/attribute_value.h"

namespace mpiattr {

// Predefined keys map to keyval indices below this (keyval.h).
inline constexpr std::uint32_t kPredefinedIndices = 16;

struct predefined_slot {
  aint word = 0;
  origin how = origin::fortran_int;
  bool present = false;
};

struct predefined_values {
  predefined_slot slot[kPredefinedIndices];
  void set(std::uint32_t index, attribute_value v) { slot[index] = {v.word(), v.how_written(), true}; }
};

// The communicator keys' values, set once by MPI_Init.
extern constinit predefined_values g_environment;

}  // namespace mpiattr
