// mpiattr/lifecycle.h: the small interface between the caching core and whatever really creates
// and destroys MPI objects. Each runtime implements it: the standalone runtime for one process
// (runtime_standalone/, standalone_lifecycle()), host mode over MPICH or Open MPI through PMPI
// (runtime_host/host_runtime.cc, docs/host.md). The caching core (keyvals, attribute stores, copy
// and delete callbacks) is the same under both and knows neither: what a runtime keeps of an
// object beyond object.h is in its own types (host mode's records: runtime_host/record.h).
#pragma once
#include "mpiattr/object.h"
#include "mpiattr/status.h"

namespace mpiattr {

class lifecycle {
 public:
  virtual ~lifecycle() = default;
  // A new communicator as a duplicate of `old` (before its attributes are copied).
  virtual status comm_dup(const comm_object& old, comm_object& fresh) = 0;
  // A new communicator from split/create; `member` false means the caller gets MPI_COMM_NULL.
  virtual status comm_derive(const comm_object& parent, bool member, comm_object& fresh) = 0;
  // Releases what the comm_* calls created (after its attributes are deleted).
  virtual void comm_release(comm_object& comm) = 0;
  virtual status type_dup(const type_object& old, type_object& fresh) = 0;
  virtual void type_release(type_object& type) = 0;
  virtual status win_create(const comm_object& comm, win_object& fresh) = 0;
  virtual void win_release(win_object& win) = 0;
  // The values of the predefined MPI_COMM_WORLD attributes (R8.2).
  struct world_attributes {
    int tag_ub, host, io, wtime_is_global, universe_size, appnum;
    bool has_universe_size, has_appnum;
  };
  virtual world_attributes world() const = 0;
};

lifecycle& standalone_lifecycle();

}  // namespace mpiattr
