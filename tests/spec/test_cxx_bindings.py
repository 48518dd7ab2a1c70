"""The MPI:: bindings from the spec (docs/cxx.md, issue 14 item 6): every routine that MPI-2.2 gives
a C++ binding has its `cxx` key, and a routine added to the spec later gets its C++ member from
that key alone, without a change to the generator: shown with routines the runtime does not have
yet (point-to-point, Waitall, Gatherv, Type_create_struct, Info_get, ...), whose generated members
must have MPI-2.2's exact signatures."""
import shutil
import subprocess
import sys

import pytest

import spec_check as sc

# Routines of the spec that have no MPI-2.2 C++ binding, and why. Any other routine must have a
# `cxx` key: when one is added to the spec, so is its C++ binding.
NO_CXX = {
    **{n: "deprecated in MPI-2.0: MPI-2's C++ bindings give only the new names (MPI-2.0 §10.1.1)"
       for n in ("MPI_Keyval_create", "MPI_Keyval_free", "MPI_Attr_put", "MPI_Attr_get",
                 "MPI_Attr_delete")},
    **{n: "C/Fortran handle conversion; C++ converts through the C handle (MPI-2.2 §16.3.4)"
       for n in ("MPI_Comm_c2f", "MPI_Comm_f2c", "MPI_Type_c2f", "MPI_Type_f2c", "MPI_Win_c2f",
                 "MPI_Win_f2c", "MPI_Group_c2f", "MPI_Group_f2c", "MPI_Request_c2f",
                 "MPI_Request_f2c", "MPI_Info_c2f", "MPI_Info_f2c", "MPI_Errhandler_c2f",
                 "MPI_Errhandler_f2c", "MPI_Op_c2f", "MPI_Op_f2c")},
    **{n: "MPI-3.0 or later: the C++ bindings were removed in MPI-3.0 (R9.3)"
       for n in ("MPI_Comm_dup_with_info", "MPI_Comm_idup", "MPI_Comm_idup_with_info",
                 "MPI_Comm_split_type", "MPI_Comm_create_group", "MPI_Win_allocate",
                 "MPI_Win_create_dynamic", "MPI_Get_library_version", "MPI_Info_get_string",
                 "MPI_Type_create_hindexed_block", "MPI_Get_elements_x", "MPI_Status_set_elements_x",
                 "MPI_Type_size_x", "MPI_Type_get_extent_x", "MPI_Type_get_true_extent_x",
                 # requests and collectives the standalone runtime carries out (D44)
                 "MPI_Isendrecv", "MPI_Isendrecv_replace", "MPI_Mprobe", "MPI_Improbe", "MPI_Mrecv",
                 "MPI_Imrecv", "MPI_Psend_init", "MPI_Precv_init", "MPI_Pready", "MPI_Pready_range",
                 "MPI_Pready_list", "MPI_Parrived", "MPI_Ibarrier", "MPI_Ibcast", "MPI_Ireduce",
                 "MPI_Iallreduce", "MPI_Igather", "MPI_Igatherv", "MPI_Iscatter", "MPI_Iscatterv",
                 "MPI_Iallgather", "MPI_Iallgatherv", "MPI_Ialltoall", "MPI_Ialltoallv", "MPI_Iscan",
                 "MPI_Iexscan", "MPI_Ireduce_scatter", "MPI_Ireduce_scatter_block", "MPI_Barrier_init",
                 "MPI_Bcast_init", "MPI_Reduce_init", "MPI_Allreduce_init", "MPI_Gather_init",
                 "MPI_Gatherv_init", "MPI_Scatter_init", "MPI_Scatterv_init", "MPI_Allgather_init",
                 "MPI_Allgatherv_init", "MPI_Alltoall_init", "MPI_Alltoallv_init", "MPI_Scan_init",
                 "MPI_Exscan_init", "MPI_Reduce_scatter_init", "MPI_Reduce_scatter_block_init")},
    **{n: "deprecated in MPI-2.0, removed in MPI-3.0: MPI-2's C++ bindings never had them (D58)"
       for n in ("MPI_Address", "MPI_Type_extent", "MPI_Type_lb", "MPI_Type_ub", "MPI_Type_hvector",
                 "MPI_Type_hindexed", "MPI_Type_struct", "MPI_Errhandler_create", "MPI_Errhandler_set",
                 "MPI_Errhandler_get")},
    **{n: "an MPICH extension, which MPICH binds in C only (docs/decisions.md D35)"
       for n in ("MPIX_Comm_create_keyval_x", "MPIX_Type_create_keyval_x", "MPIX_Win_create_keyval_x")},
}
# The MPI-3 one-sided routines carried out standalone (spec/runtime.toml, D46).
NO_CXX.update({n: "MPI-3.0 or later: the C++ bindings were removed in MPI-3.0 (R9.3)"
               for n in ("MPI_Win_lock_all", "MPI_Win_unlock_all", "MPI_Win_flush", "MPI_Win_flush_all",
                         "MPI_Win_flush_local", "MPI_Win_flush_local_all", "MPI_Win_sync",
                         "MPI_Get_accumulate", "MPI_Fetch_and_op", "MPI_Compare_and_swap", "MPI_Rput",
                         "MPI_Rget", "MPI_Raccumulate", "MPI_Rget_accumulate", "MPI_Win_allocate_shared",
                         "MPI_Win_shared_query", "MPI_Win_attach", "MPI_Win_detach", "MPI_Win_get_info",
                         "MPI_Win_set_info")})
# spec/surface_mpi4.toml holds only routines that MPI-2.2 did not have, or had in C only (the
# status and File conversions): none has an MPI-2.2 C++ binding (docs/decisions.md D39).
NO_CXX.update({f.name: "MPI-3.0 or later, or C only in MPI-2.2 (spec/surface_mpi4.toml, D39)"
               for f in sc.load_spec(sc.SPEC_DIR).functions
               if f.origin.startswith("spec/surface_mpi4.toml:")})
# spec/mpi41_additions.toml: MPI-4.1's late additions (D55), long after the C++ bindings.
NO_CXX.update({f.name: "MPI-4.1 (spec/mpi41_additions.toml, D55)"
               for f in sc.load_spec(sc.SPEC_DIR).functions
               if f.origin.startswith("spec/mpi41_additions.toml:")})


def test_mpi22_every_routine_has_its_cxx_binding():
    spec = sc.load_spec(sc.SPEC_DIR)
    missing = [f.name for f in spec.functions if f.cxx is None and f.name not in NO_CXX]
    assert not missing, (f"{missing}: add the MPI-2.2 C++ binding as the entry's `cxx` key "
                         f"(docs/cxx.md 'How it is built'), or list the routine in NO_CXX with why")
    wrong = [f.name for f in spec.functions if f.cxx is not None and f.name in NO_CXX]
    assert not wrong, f"{wrong} have no MPI-2.2 C++ binding (NO_CXX) but a `cxx` key"


# Routines as another engineer would add them to spec/runtime.toml, with their `cxx` keys.
LATER = '''
[[function]]
name = "MPI_Send"
ref = "MPI-4.1 §4.2.1"
core = "send"
cxx = { class = "Comm", method = "Send", const = true, self = "comm" }
params = [
  { name = "buf", kind = "BUFFER", dir = "in", const = true },
  { name = "count", kind = "POLYXFER_NUM_ELEM_NNI", dir = "in" },
  { name = "datatype", kind = "DATATYPE", dir = "in" },
  { name = "dest", kind = "RANK", dir = "in" },
  { name = "tag", kind = "TAG", dir = "in" },
  { name = "comm", kind = "COMMUNICATOR", dir = "in" },
]

[[function]]
name = "MPI_Recv"
ref = "MPI-4.1 §4.2.4"
core = "recv"
cxx = { class = "Comm", method = "Recv", const = true, self = "comm" }
params = [
  { name = "buf", kind = "BUFFER", dir = "out" },
  { name = "count", kind = "POLYXFER_NUM_ELEM_NNI", dir = "in" },
  { name = "datatype", kind = "DATATYPE", dir = "in" },
  { name = "source", kind = "RANK", dir = "in" },
  { name = "tag", kind = "TAG", dir = "in" },
  { name = "comm", kind = "COMMUNICATOR", dir = "in" },
  { name = "status", kind = "STATUS", dir = "out" },
]

[[function]]
name = "MPI_Isend"
ref = "MPI-4.1 §4.7.2"
core = "isend"
cxx = { class = "Comm", method = "Isend", const = true, self = "comm", returns = "request" }
params = [
  { name = "buf", kind = "BUFFER", dir = "in", const = true },
  { name = "count", kind = "POLYXFER_NUM_ELEM_NNI", dir = "in" },
  { name = "datatype", kind = "DATATYPE", dir = "in" },
  { name = "dest", kind = "RANK", dir = "in" },
  { name = "tag", kind = "TAG", dir = "in" },
  { name = "comm", kind = "COMMUNICATOR", dir = "in" },
  { name = "request", kind = "REQUEST", dir = "out" },
]

[[function]]
name = "MPI_Get_count"
ref = "MPI-4.1 §4.2.5"
core = "get_count"
cxx = { class = "Status", method = "Get_count", const = true, self = "status", returns = "count" }
params = [
  { name = "status", kind = "STATUS", dir = "in", c = "const MPI_Status *status" },
  { name = "datatype", kind = "DATATYPE", dir = "in" },
  { name = "count", kind = "POLYDTYPE_NUM_ELEM", dir = "out" },
]

[[function]]
name = "MPI_Waitall"
ref = "MPI-4.1 §4.7.5"
core = "waitall"
cxx = { class = "Request", method = "Waitall", static = true }
params = [
  { name = "count", kind = "ARRAY_LENGTH", dir = "in" },
  { name = "array_of_requests", kind = "REQUEST", dir = "inout", length = "count" },
  { name = "array_of_statuses", kind = "STATUS", dir = "out", length = "count" },
]

[[function]]
name = "MPI_Gatherv"
ref = "MPI-4.1 §7.5.1"
core = "gatherv"
cxx = { class = "Comm", method = "Gatherv", const = true, self = "comm" }
params = [
  { name = "sendbuf", kind = "BUFFER", dir = "in", const = true },
  { name = "sendcount", kind = "POLYXFER_NUM_ELEM_NNI", dir = "in" },
  { name = "sendtype", kind = "DATATYPE", dir = "in" },
  { name = "recvbuf", kind = "BUFFER", dir = "out" },
  { name = "recvcounts", kind = "POLYXFER_NUM_ELEM_NNI", dir = "in", const = true, length = "size" },
  { name = "displs", kind = "POLYDTYPE_NUM_ELEM", dir = "in", const = true, length = "size" },
  { name = "recvtype", kind = "DATATYPE", dir = "in" },
  { name = "root", kind = "RANK", dir = "in" },
  { name = "comm", kind = "COMMUNICATOR", dir = "in" },
]

[[function]]
name = "MPI_Type_create_struct"
ref = "MPI-4.1 §6.1.2"
core = "type_create_struct"
cxx = { class = "Datatype", method = "Create_struct", static = true, returns = "newtype" }
params = [
  { name = "count", kind = "ARRAY_LENGTH", dir = "in" },
  { name = "array_of_blocklengths", kind = "POLYDTYPE_NUM_ELEM_NNI", dir = "in", const = true, length = "count" },
  { name = "array_of_displacements", kind = "POLYDISPLACEMENT_AINT_COUNT", dir = "in", const = true, length = "count" },
  { name = "array_of_types", kind = "DATATYPE", dir = "in", const = true, length = "count" },
  { name = "newtype", kind = "DATATYPE", dir = "out" },
]

[[function]]
name = "MPI_Info_get"
ref = "MPI-4.1 §11.4"
core = "info_get"
cxx = { class = "Info", method = "Get", const = true, returns = "flag" }
params = [
  { name = "info", kind = "INFO", dir = "in" },
  { name = "key", kind = "STRING", dir = "in", const = true },
  { name = "valuelen", kind = "STRING_LENGTH", dir = "in" },
  { name = "value", kind = "STRING", dir = "out", length = "valuelen" },
  { name = "flag", kind = "LOGICAL", dir = "out" },
]

[[function]]
name = "MPI_Get_processor_name"
ref = "MPI-4.1 §10.1.1"
core = "get_processor_name"
cxx = { class = "", method = "Get_processor_name" }
params = [
  { name = "name", kind = "STRING", dir = "out", length = "MPI_MAX_PROCESSOR_NAME" },
  { name = "resultlen", kind = "STRING_LENGTH", dir = "out" },
]

[[function]]
name = "MPI_Add_error_class"
ref = "MPI-4.1 §10.5"
core = "add_error_class"
cxx = { class = "", method = "Add_error_class", returns = "errorclass" }
params = [
  { name = "errorclass", kind = "ERROR_CLASS", dir = "out" },
]
'''

# Each generated member, as a pointer of MPI-2.2's exact type: compiles only if the signature is it.
SIGNATURES = r'''
#include <mpi.h>
void (MPI::Comm::*send)(const void*, int, const MPI::Datatype&, int, int) const = &MPI::Comm::Send;
void (MPI::Comm::*recv)(void*, int, const MPI::Datatype&, int, int, MPI::Status&) const = &MPI::Comm::Recv;
void (MPI::Comm::*recv_ignore)(void*, int, const MPI::Datatype&, int, int) const = &MPI::Comm::Recv;
MPI::Request (MPI::Comm::*isend)(const void*, int, const MPI::Datatype&, int, int) const = &MPI::Comm::Isend;
int (MPI::Status::*get_count)(const MPI::Datatype&) const = &MPI::Status::Get_count;
void (*waitall)(int, MPI::Request[], MPI::Status[]) = &MPI::Request::Waitall;
void (*waitall_ignore)(int, MPI::Request[]) = &MPI::Request::Waitall;
void (MPI::Comm::*gatherv)(const void*, int, const MPI::Datatype&, void*, const int[], const int[],
                           const MPI::Datatype&, int) const = &MPI::Comm::Gatherv;
MPI::Datatype (*create_struct)(int, const int[], const MPI::Aint[], const MPI::Datatype[]) =
    &MPI::Datatype::Create_struct;
bool (MPI::Info::*info_get)(const char*, int, char*) const = &MPI::Info::Get;
void (*processor_name)(char*, int&) = &MPI::Get_processor_name;
int (*add_error_class)() = &MPI::Add_error_class;
'''


@pytest.mark.skipif(shutil.which("g++") is None, reason="no g++")
def test_cxx_binding_of_a_routine_added_later_is_spec_only(tmp_path):
    spec = tmp_path / "spec"
    shutil.copytree(sc.SPEC_DIR, spec)
    have = {f.name for f in sc.load_spec(spec).functions}
    text = LATER
    for block in LATER.split("[[function]]")[1:]:
        name = block.split('name = "')[1].split('"')[0]
        if name in have:  # added since: its own entry must then be the one that works
            text = text.replace("[[function]]" + block, "")
    with open(spec / "runtime.toml", "a") as f:
        f.write(text)
    out = tmp_path / "out"
    for lang in ("c", "cxx"):
        r = subprocess.run([sys.executable, "-m", "mpiattr_codegen", "--spec", str(spec), "--lang",
                            lang, "--out", str(out)], cwd=sc.CODEGEN_DIR, capture_output=True,
                           text=True)
        assert r.returncode == 0, r.stderr
    src = tmp_path / "signatures.cc"
    src.write_text(SIGNATURES)
    for std in ("-std=c++98", "-std=c++17"):
        r = subprocess.run(["g++", std, "-Wall", "-Wextra", "-Werror", "-fsyntax-only",
                            "-I", str(out / "include"), str(src)], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
