"""The host-MPI view of the spec: the C entry points of libmpiattr_<host> (runtime_host/), compiled
against the host's own mpi.h (MPICH or Open MPI), so that its handle types, callback typedefs and
constants are the host's.

Each routine of the spec gets a host role, derived from its `core` key:
  - caching: the keyval, set, get and delete routines (MPI-2 and MPI-1). A keyval mpiattr created is
    served by the core; any other keyval goes to the host's PMPI_ routine untouched
    (runtime_host/host.h: owned). Parameters are lowered as for the C bindings (lang/c.py), except
    the object handle, which the host runtime finds in its own table (or validates with the host).
  - dup: the host duplicates, then mpiattr's copy callbacks run (host::after_dup).
  - free: mpiattr's delete callbacks run at the call, then the host frees (host::before_free).
  - finalize, error_string: MPI_Finalize deletes MPI_COMM_SELF's attributes first;
    MPI_Error_string answers for the codes mpiattr issued (codes the host added, whose class the
    host's own MPI_Error_class gives: the library does not define that one, docs/decisions.md D87)
    and passes the host's through.
  - contents: MPI_Type_get_contents, the host's call; then, over MPICH, which returns the
    constituents' own handles with a reference each, mpiattr counts those references, so that their
    free does not delete the constituents' attributes (docs/decisions.md D132).
  - session_init, session_finalize: the host's call, then mpiattr counts the live sessions, so that
    caching works with sessions alone and stops with the last model (docs/decisions.md D57). Only
    where the host has sessions (MPICH 4; Open MPI 4.1 has none): guarded like any MPI-4 routine.
Every routine defined here but keyval creation is defined under its PMPI_ name too (both_names).
Every other routine is the host's: it is not defined here.

The Fortran entry points (mpif.h and `use mpi`; src/host/fortran.cc) exist because neither host's
Fortran binding reaches the C names for every caching call (docs/host-entry-points.md §3). They
replace the host's under every link name it exports (mpi_x_, mpi_x__, mpi_x, MPI_X). A caching
routine converts its arguments as the standalone Fortran binding does (lang/fortran.py), with
handles through the host's f2c, and passes a keyval mpiattr did not create to the host's own
Fortran routine; the other roles convert their arguments and call the C entry point above, so
each is done once whichever language calls it. Routines a host's mpi.h may lack (MPI-4
additions in Open MPI 4.1) are guarded by MPIATTR_HOST_HAS_<name>, which CMake sets per host."""
from __future__ import annotations

from . import c as clang
from . import fortran as flang
from .. import lowering
from ..lowering import Lowering
from ..model import Function, Param, Spec

OUTPUTS = [("host/functions.cc.j2", "src/host/functions.cc"),
           ("host/fortran.cc.j2", "src/host/fortran.cc"),
           ("host/mpi.h.j2", "include/host/mpi.h")]

_DUP = {"comm_dup", "comm_dup_with_info", "comm_idup", "comm_idup_with_info", "type_dup"}
_FREE = {"comm_free", "comm_disconnect", "type_free", "win_free"}
_CACHING = {"create_keyval", "free_keyval", "set_attr", "get_attr", "delete_attr"}
# MPI_Type_get_contents (and its large-count form): MPICH gives back the constituents' own handles,
# each with a reference, which a free of the returned handle releases (D132).
_CONTENTS = {"type_get_contents", "type_get_contents_c"}
# Routines every host of the MPI-3.1 era has; the rest are checked per host.
_ALWAYS = {"MPI_Comm_create_keyval", "MPI_Comm_free_keyval", "MPI_Comm_set_attr",
           "MPI_Comm_get_attr", "MPI_Comm_delete_attr", "MPI_Type_create_keyval",
           "MPI_Type_free_keyval", "MPI_Type_set_attr", "MPI_Type_get_attr",
           "MPI_Type_delete_attr", "MPI_Win_create_keyval", "MPI_Win_free_keyval",
           "MPI_Win_set_attr", "MPI_Win_get_attr", "MPI_Win_delete_attr", "MPI_Comm_dup",
           "MPI_Comm_free", "MPI_Type_dup", "MPI_Type_free", "MPI_Win_free", "MPI_Finalize",
           "MPI_Error_class", "MPI_Error_string", "MPI_Type_get_contents"}


def role(fn: Function) -> str | None:
    if fn.object and fn.core in _CACHING:
        return "caching"
    if fn.core in _DUP:
        return "dup"
    if fn.core in _FREE:
        return "free"
    if fn.core in ("finalize", "error_string", "session_init", "session_finalize"):
        return fn.core
    if fn.core in _CONTENTS:
        return "contents"
    return None


def guard(fn: Function) -> str | None:
    """The preprocessor condition under which the host has the routine, or None: always. The MPICH
    extensions (MPIX_) are mpiattr's on every host, which may lack them (docs/decisions.md D35)."""
    return None if fn.name in _ALWAYS or clang.extension(fn) else f"MPIATTR_HOST_HAS_{fn.name}"


def extension_pmpi_guard(fn: Function) -> str | None:
    """For an MPICH extension, the condition under which the library defines its PMPIX_ name too:
    the host has no such routine. Where it has one (MPICH >= 4.1), the PMPIX_ name stays the
    host's, as the caching routines' PMPI_ names do (D21)."""
    return f"!MPIATTR_HOST_HAS_{fn.name}" if clang.extension(fn) else None


def extensions(spec: Spec) -> list[Function]:
    """The MPICH extensions of the spec: the host's mpi.h may not declare them (include/host/mpi.h
    does, for programs)."""
    return [fn for fn in spec.functions if clang.extension(fn)]


def kind_enum(obj: str) -> str:
    return f"mpiattr::object_kind::{obj}"


def _object_param(fn: Function) -> Param:
    return next(p for p in fn.params if p.kind.cls == "handle" and p.kind.object in ("comm", "type", "win"))


def _host_lower(fn: Function, p: Param, first_target: bool, language_lower, handle: str,
                label: str) -> Lowering:
    """A language's lowering (lang/c.py, lang/fortran.py), but the caching routine's object (named
    by the C handle expression `handle`) comes from the host runtime's table: a set registers it
    (once, validating it with the host), a get or delete on an object mpiattr holds nothing for
    validates it with the host and sees an empty store. An inout keyval gets the host's
    MPI_KEYVAL_INVALID, which the program compares with (the core writes mpiattr's, 0)."""
    if p.kind.cls == "handle" and p.dir == "in":
        write = "true" if fn.core == "set_attr" else "false"
        L = Lowering()
        L.pre.append(f"auto* {p.name}_o = c.object<{kind_enum(p.kind.object)}>({handle}, "
                     f"\"{label}\", {write});")
        L.pre.append(f"if ({p.name}_o == nullptr) return c.fail();")
        L.arg = f"*{p.name}_o"
        return L
    L = language_lower(fn, p, first_target)
    if p.kind.cls == "keyval" and p.dir == "inout":
        L.post.append(f"*{p.name} = MPI_KEYVAL_INVALID;")
    return L


def lower(fn: Function, p: Param, first_target: bool) -> Lowering:
    return _host_lower(fn, p, first_target, clang.lower, p.name, p.name)


def lowerings(fn: Function) -> list[Lowering]:
    return lowering.lowerings(fn, lower)


def core_args(fn: Function) -> str:
    return lowering.core_args(fn, lowerings(fn), "mpiattr::language::c")


def keyval_param(fn: Function) -> Param:
    return next(p for p in fn.params if p.kind.cls == "keyval")


def routed(fn: Function) -> str | None:
    """For a caching routine, the condition under which the call goes to the host: its keyval was
    not created by mpiattr (and is not MPI_KEYVAL_INVALID, which mpiattr rejects itself). None
    for keyval creation (always mpiattr's)."""
    if fn.core == "create_keyval":
        return None
    k = keyval_param(fn)
    value = f"*{k.name}" if k.dir == "inout" else k.name
    if k.dir == "inout":
        return f"{k.name} != nullptr && mpiattr::host::to_host({value})"
    return f"mpiattr::host::to_host({value})"


def fast_path(fn: Function) -> str | None:
    """The fast-path attempt of a get, set, keyval create or keyval free (runtime_host/host_glue.h:
    fast_get, fast_set, fast_create_keyval, fast_free_keyval): an expression true when the call is
    done. MPI-1 MPI_Keyval_create/free name no object kind in their parameters: they are
    communicator routines (spec `object`)."""
    if fn.core not in ("get_attr", "set_attr", "create_keyval", "free_keyval"):
        return None
    if clang.extension(fn):  # MPIX_*_create_keyval_x: its destructor is set at creation
        return None
    names = ", ".join(p.name for p in fn.params)
    kind = kind_enum(lowering.OBJECT_ENUM[fn.object])
    if fn.core in ("create_keyval", "free_keyval"):
        return f"mpiattr::host::fast_{fn.core}<{kind}>({names})"
    return f"mpiattr::host::fast_{fn.core[:3]}<false, {object_enum(fn)}>({names})"


def fast_retry(fn: Function) -> str | None:
    """What the checked path of a C get or set tries first (host_glue.h: refilled): when the fast
    path declined because the cache in front of the record table did not know the object, the
    table is probed (filling the cache) and the fast path tried again (docs/decisions.md D69)."""
    if fn.core not in ("get_attr", "set_attr") or fast_path(fn) is None:
        return None
    return f"mpiattr::host::refilled<{object_enum(fn)}>({fn.params[0].name}) && {fast_path(fn)}"


def fast_path_concurrent(fn: Function) -> str | None:
    """The MPI_THREAD_MULTIPLE fast-path attempt of a get or set (host_glue.h: fast_get and
    fast_set with Concurrent true), made in a function of its own, which the entry point
    tail-calls at that level after the fast path of the levels below has declined."""
    if fn.core not in ("get_attr", "set_attr"):
        return None
    names = ", ".join(p.name for p in fn.params)
    return f"mpiattr::host::fast_{fn.core[:3]}<true, {object_enum(fn)}>({names})"


def both_names(fn: Function) -> bool:
    """Whether the library defines the routine as PMPI_ too, the same routine (MPI-4.1 §16.2.1):
    every routine it defines but keyval creation. The dups, frees, finalize and error routines, so
    that a call through the profiling name (a tool placed in front of mpiattr, the host's own
    Fortran and MPI-IO libraries, docs/host-entry-points.md §5) cannot bypass mpiattr's copy and
    delete callbacks; the set, get, delete and keyval-free routines, so that a tool that wraps some
    of them and forwards to PMPI_ reaches the keyvals mpiattr created, routed by the keyval as
    under the MPI_ name (D131). The creations' PMPI_ names stay the host's: a keyval created
    through them is the host's (ROMIO's are), and every later call with it reaches the host (D21).
    The MPICH extensions have their own rule (extension_pmpi_guard)."""
    return role(fn) is not None and fn.core != "create_keyval" and not clang.extension(fn)


def pmpi_call(fn: Function) -> str:
    """The host's own routine, called with the entry point's arguments. Where the library defines
    the PMPI_ name too, through the address dlsym(RTLD_NEXT) gives (host_glue.h), never this
    library's own PMPI_ name, which would come back here."""
    args = ", ".join(p.name for p in fn.params)
    if both_names(fn):
        return f"MPIATTR_HOST_PMPI({fn.name})({args})"
    return f"PMPI_{fn.name[4:]}({args})"


def dup_args(fn: Function) -> str:
    """host::after_dup's arguments: the old object, the address of the new one, the request (or
    nullptr) of a nonblocking dup."""
    old = _object_param(fn)
    new = next(p for p in fn.params if p.kind.cls == "handle" and p.dir == "out"
               and p.kind.object == old.kind.object)
    req = next((p.name for p in fn.params if p.kind.cls == "handle" and p.kind.object == "request"),
               "nullptr")
    return f"{old.name}, {new.name}, {req}"


def contents_args(fn: Function) -> str:
    """host::after_get_contents's arguments after the datatype: the array of datatypes the host
    filled and its length (max_datatypes)."""
    types = next(p for p in fn.params if p.kind.cls == "handle" and p.dir == "out")
    return f"{types.name}, {types.length}"


def free_param(fn: Function) -> Param:
    return _object_param(fn)


def object_enum(fn: Function) -> str:
    return kind_enum(_object_param(fn).kind.object)


def predefined_entries(spec: Spec) -> list[tuple[str, str]]:
    """(C name, behaviour) of every predefined callback: the host's mpi.h gives their addresses."""
    return [(pc.name, pc.behaviour) for pc in spec.attr_predefined_callbacks]


def filters(spec: Spec) -> dict:
    return {"c_params": clang.c_params, "c_prototype": clang.c_prototype, "host_role": role,
            "host_guard": guard, "extension_pmpi_guard": extension_pmpi_guard,
            "lowerings": lowerings, "core_args": core_args, "routed": routed,
            "pmpi_call": pmpi_call, "both_names": both_names, "fast_path": fast_path, "fast_retry": fast_retry,
            "fast_path_concurrent": fast_path_concurrent, "dup_args": dup_args, "contents_args": contents_args, "free_param": free_param,
            "object_enum": object_enum, **f_filters()}


def host_functions(spec: Spec) -> list[Function]:
    """The routines functions.cc goes through: the spec's, and the large-count forms that have a
    role (MPI_Type_get_contents_c)."""
    return list(spec.functions) + [f for f in spec.large_forms if role(f)]


def context(spec: Spec) -> dict:
    return {"host_functions": host_functions(spec), "predefined_entries": predefined_entries(spec),
            "extension_typedefs": clang.extension_typedefs(spec), "extensions": extensions(spec),
            "predefined_f08_entries": [(pc.name, pc.behaviour, pc.deprecated is not None)
                                       for pc in spec.attr_predefined_callbacks],
            "host_ffunctions": fortran_functions(spec)}


# ---- the Fortran entry points ----

_F2C = {"comm": "Comm", "type": "Type", "win": "Win", "info": "Info", "request": "Request",
        "group": "Group", "errhandler": "Errhandler"}


def fortran_functions(spec: Spec) -> list[Function]:
    """The Fortran routines the library replaces: all with a role but the session routines and
    MPI_TYPE_GET_CONTENTS, whose Fortran forms in MPICH (mpif.h, use mpi, mpi_f08) call the C names
    (MPI_Session_init, PMPI_Session_init, MPI_Type_get_contents, PMPI_Type_get_contents), all this
    library's (nm -D and objdump -d of libmpichfort.so.12)."""
    return [fn for fn in flang.fortran_functions(spec)
            if role(fn) and role(fn) not in ("session_init", "session_finalize", "contents")]


def f_lower(fn: Function, p: Param, first_target: bool) -> Lowering:
    handle = f"PMPI_{_F2C[p.kind.object]}_f2c(*{p.name})" if p.kind.cls == "handle" else ""
    return _host_lower(fn, p, first_target, flang.lower_param, handle, p.name.upper())


def f_lowerings(fn: Function) -> list[Lowering]:
    return lowering.lowerings(fn, f_lower)


def f_core_args(fn: Function) -> str:
    return lowering.core_args(fn, f_lowerings(fn), flang.fortran_language(fn))


def f_routed(fn: Function) -> str | None:
    if fn.core == "create_keyval":
        return None
    return f"mpiattr::host::to_host(*{keyval_param(fn).name})"


def f_args(fn: Function) -> str:
    """The entry point's own parameter names, in order (to pass a call on unchanged)."""
    names = [p.name for p in flang.fparams(fn)]
    if not fn.returns:
        names.append(fn.ierror)
    names += [f"{p.name}_len" for p in flang.fparams(fn) if p.kind.cls == "string"]
    return ", ".join(names)


def f_to_c(fn: Function) -> Lowering:
    """How a Fortran call of a dup, free, finalize or error routine becomes a call of the C entry
    point: handles through the host's f2c and c2f, INTEGERs as ints, CHARACTER results padded."""
    L = Lowering()
    args = []
    for p in flang.fparams(fn):
        k, n = p.kind, p.name
        if k.cls == "handle":
            conv = _F2C[k.object]
            if p.dir == "in":
                args.append(f"PMPI_{conv}_f2c(*{n})")
            else:
                ctype = k.c
                init = f"PMPI_{conv}_f2c(*{n})" if p.dir == "inout" else "{}"
                L.pre.append(f"{ctype} {n}_c = {init};")
                args.append(f"&{n}_c")
                L.always.append(f"*{n} = PMPI_{conv}_c2f({n}_c);")
        elif k.cls in ("scalar", "error"):
            if p.dir == "in":
                args.append(f"static_cast<int>(*{n})")
            else:
                L.pre.append(f"int {n}_c = 0;")
                args.append(f"&{n}_c")
                L.post.append(f"*{n} = {n}_c;")
        elif k.cls == "string":
            L.pre.append(f"char {n}_c[MPI_MAX_ERROR_STRING + 1] = {{}};")
            args.append(f"{n}_c")
            L.post.append(f"mpiattr::host::to_fortran({n}_c, {n}, {n}_len);")
        else:
            raise ValueError(f"{fn.origin}: no host Fortran conversion for kind {k.name}")
    L.arg = ", ".join(args)
    return L


def _f_fast_parts(fn: Function):
    """The parameters a Fortran fast path uses (handle, value, flag), or None when the routine has
    none (not a get or set on a communicator, datatype or window with IERROR)."""
    if fn.core not in ("get_attr", "set_attr") or fn.returns or not fn.ierror:
        return None
    ps = flang.fparams(fn)
    handle = next((p for p in ps if p.kind.cls == "handle"), None)
    value = next((p for p in ps if p.kind.cls == "attr"), None)
    flag = next((p for p in ps if p.kind.cls == "logical" and p.dir == "out"), None)
    if handle is None or value is None or handle.kind.object not in ("comm", "type", "win"):
        return None
    if fn.core == "get_attr" and flag is None:
        return None
    return handle, value, flag


def _f2c(handle) -> str:
    """The host's f2c of a Fortran handle, as the lambda the fast paths call (over MPICH the integer
    itself; over Open MPI only to fill the cache of Fortran handles, host_glue.h, D68)."""
    return f"[](MPI_Fint f) {{ return PMPI_{_F2C[handle.kind.object]}_f2c(f); }}"


def f_fast_path(fn: Function) -> str | None:
    """The fast-path attempt of a Fortran get or set below MPI_THREAD_MULTIPLE (host_glue.h:
    fast_get_fortran, fast_put_fortran; docs/decisions.md D63, D89): an expression true when the
    call is done (IERROR still to be written), or None. The keyval is checked first, through the
    fast paths' gate (closed at MPI_THREAD_MULTIPLE and while reporting), then the handle goes
    through the cache of Fortran handles (over Open MPI; MPICH's f2c is the integer itself, D68);
    the value converts by the attribute's kind (spec/kinds.toml), as on the checked path."""
    parts = _f_fast_parts(fn)
    if parts is None:
        return None
    handle, value, flag = parts
    kind, keyval = object_enum(fn), keyval_param(fn).name
    if fn.core == "set_attr":
        return (f"mpiattr::host::fast_put_fortran<{kind}>(*{handle.name}, {_f2c(handle)}, *{keyval}, "
                f"mpiattr::attribute_value::from_{value.kind.origin_fortran}(*{value.name}))")
    return (f"mpiattr::host::fast_get_fortran<{kind}, MPIATTR_F_TRUE, MPIATTR_F_FALSE>(*{handle.name}, "
            f"{_f2c(handle)}, *{keyval}, {value.name}, {flag.name})")


def f_fast_retry(fn: Function) -> str | None:
    """What the checked path of a Fortran get or set tries first (host_glue.h: fortran_refilled):
    when the fast path declined because the cache of Fortran handles or the record cache did not
    know the object, both are filled and the fast path tried again (D63, D89), as C's (fast_retry)."""
    parts = _f_fast_parts(fn)
    if parts is None:
        return None
    handle = parts[0]
    return f"mpiattr::host::fortran_refilled<{object_enum(fn)}>(*{handle.name}, {_f2c(handle)}) && {f_fast_path(fn)}"


def f_name_lower(fn: Function) -> str:
    return fn.name.lower()


def f_filters() -> dict:
    return {"f_c_params": flang.c_params, "f_lowerings": f_lowerings, "f_core_args": f_core_args,
            "f_routed": f_routed, "f_args": f_args, "f_to_c": f_to_c, "f_lower_name": f_name_lower,
            "f_fast_path": f_fast_path, "f_fast_retry": f_fast_retry,
            "upper": flang.upper}
