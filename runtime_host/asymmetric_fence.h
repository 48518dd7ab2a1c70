// runtime_host/asymmetric_fence.h: the core's asymmetric fences (mpiattr/asymmetric_fence.h), by
// the name host mode's code uses.
#pragma once
#include "mpiattr/asymmetric_fence.h"

namespace mpiattr::host {
namespace asymmetric = mpiattr::asymmetric;
}  // namespace mpiattr::host
