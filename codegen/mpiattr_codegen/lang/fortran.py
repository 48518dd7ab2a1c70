"""The Fortran view of the spec (mpif.h, `use mpi` and `use mpi_f08`): Fortran declarations, and how
the generated Fortran entry points (C++ functions with Fortran calling conventions: everything by
reference, a trailing IERROR, hidden CHARACTER lengths at the end) convert each argument and pass it
to the core (cxx_core/include/mpiattr/api.h).

As in lang/c.py every parameter becomes a `Lowering` (lines before the core call, the core argument,
lines after it); the templates only loop over these. What this module derives rather than reads:
  - which routines have a Fortran binding: all, except those whose spec entry says
    `fortran = { binding = false }` (spec/interop.toml: MPI_Comm_c2f and friends);
  - the creator language of a keyval: `fortran_mpi1` for a routine whose values are INTEGER (kind
    ATTRIBUTE_VAL_10 / EXTRA_STATE2: MPI_KEYVAL_CREATE), else `fortran_mpi2` (R1.6, R7);
  - how a value enters and leaves: the kind's `origin_fortran` (fortran_aint | fortran_int) picks
    attribute_value::from_fortran_aint / from_fortran_int and as_fortran_aint / as_fortran_int;
  - which entries have an mpi_f08 binding: those with a Fortran binding, except the MPI-1 family
    (`fortran = { f08 = false }`). An mpi_f08 routine is the same C++ entry point as the `use mpi`
    one (a TYPE(MPI_Comm) is one INTEGER passed by reference, as mpif.h's handles are) under its
    specific name (MPI_Comm_set_attr_f08), with an OPTIONAL ierror (absent: a null pointer) and
    the creator language fortran_f08 (docs/fortran.md).
Fortran's LOGICAL values and link-name mangling are facts about the compiler, found at configure
time (bindings_fortran/CMakeLists.txt); the generated code names them by macro."""
from __future__ import annotations

import dataclasses
import textwrap

from .. import lowering
from ..lowering import Lowering
from ..model import Callback, Function, Param, PredefinedCallback, Spec
from .c import core_entry

OUTPUTS = [
    ("fortran/mpif.h.j2", "include/mpif.h"),
    ("fortran/mpif-constants.h.j2", "include/mpif-constants.h"),
    ("fortran/mpi.f90.j2", "src/bindings_fortran/mpi.f90"),
    ("fortran/functions.cc.j2", "src/bindings_fortran/functions.cc"),
    ("fortran/predefined.cc.j2", "src/bindings_fortran/predefined.cc"),
    ("fortran/callbacks.h.j2", "src/bindings_fortran/callbacks.h"),
    ("fortran/mpi_f08.f90.j2", "src/bindings_fortran/mpi_f08.f90"),
]

# The kind parameters mpif-config.h defines (configured by CMake, not generated).
KIND_PARAMETERS = ("MPI_ADDRESS_KIND", "MPI_OFFSET_KIND", "MPI_COUNT_KIND", "MPI_INTEGER_KIND")
# Status layout: MPI_Status of mpi.h is 8 ints; MPI_SOURCE, MPI_TAG, MPI_ERROR index it (1-based).
STATUS_SIZE = 8
STATUS_INDICES = (("MPI_SOURCE", 1), ("MPI_TAG", 2), ("MPI_ERROR", 3))
# The special addresses of mpif.h and the mpi module (MPI-4.1 §3.5.4): variables in COMMON blocks
# of their own (/MPIATTR_BOTTOM/, ...) that libmpiattr defines (f_glue.cc) and the entry points
# recognise by address (fbind::buffer, fbind::empty_status). (name, dimensions)
# MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY are INTEGER arrays, passed as a weights argument
# (fbind::weights).
SENTINELS = (("MPI_BOTTOM", ""), ("MPI_IN_PLACE", ""), ("MPI_BUFFER_AUTOMATIC", ""), ("MPI_STATUS_IGNORE", "(MPI_STATUS_SIZE)"),
             ("MPI_STATUSES_IGNORE", "(MPI_STATUS_SIZE,1)"), ("MPI_UNWEIGHTED", "(1)"),
             ("MPI_WEIGHTS_EMPTY", "(1)"))

_NULL = {"comm": "MPI_COMM_NULL", "type": "MPI_DATATYPE_NULL", "win": "MPI_WIN_NULL",
         "group": "MPI_GROUP_NULL", "request": "MPI_REQUEST_NULL",
         "errhandler": "MPI_ERRHANDLER_NULL", "info": "MPI_INFO_NULL", "op": "MPI_OP_NULL",
         "message": "MPI_MESSAGE_NULL", "session": "MPI_SESSION_NULL", "file": "MPI_FILE_NULL"}
_C_HANDLE = {"comm": "MPI_Comm", "type": "MPI_Datatype", "win": "MPI_Win", "group": "MPI_Group",
             "errhandler": "MPI_Errhandler"}
_PASS_AS_HANDLE = {"info", "op", "file", "request", "message", "session"}  # the core looks these up itself
# Longest string an OUT CHARACTER argument can receive from the core.
_STRING_MAX = {"comm_get_name": "MPI_MAX_OBJECT_NAME", "win_get_name": "MPI_MAX_OBJECT_NAME",
               "type_get_name": "MPI_MAX_OBJECT_NAME", "error_string": "MPI_MAX_ERROR_STRING",
               "info_get": "MPI_MAX_INFO_VAL", "info_get_string": "MPI_MAX_INFO_VAL",
               "info_get_nthkey": "MPI_MAX_INFO_KEY", "session_get_nth_pset": "MPI_MAX_PSET_NAME_LEN",
               "get_library_version": "MPI_MAX_LIBRARY_VERSION_STRING",
               "get_processor_name": "MPI_MAX_PROCESSOR_NAME", "file_get_view": "MPI_MAX_DATAREP_STRING"}


# ---- which routines, which names ----

# Routines with no Fortran binding yet, each with why (docs/decisions.md D40). Every other routine
# apis.json gives a Fortran binding has one in mpif.h, `use mpi` and `use mpi_f08`: those the
# standalone runtime carries out call the core; those it does not (spec/surface*.toml
# `unsupported`) raise MPI_ERR_UNSUPPORTED_OPERATION as their C entry point does (D36, D40).
FORTRAN_PENDING: dict[str, str] = {
}


def pending(entry) -> bool:
    """A routine kept without a Fortran binding, for the reason FORTRAN_PENDING gives (D40)."""
    return isinstance(entry, Function) and entry.name in FORTRAN_PENDING


def tools(entry) -> bool:
    """The tool information interface (MPI_T_*) has no Fortran binding (MPI-4.1 §16.3)."""
    return entry.name.startswith("MPI_T_")


def has_binding(fn: Function) -> bool:
    return (not pending(fn) and not tools(fn) and (fn.fortran or {}).get("binding", True))


def fortran_functions(spec: Spec) -> list[Function]:
    return [f for f in spec.functions if has_binding(f)]


def fparams(entry) -> list[Param]:
    """The parameters a Fortran caller passes (C's argc/argv and MPI_Pcontrol's ... do not exist
    in Fortran). Any other kind without an f90 type is a gap in spec/kinds.toml: fail, not guess."""
    out = []
    for p in entry.params:
        if p.kind.cls in ("argc", "argv", "varargs"):
            continue
        if p.kind.f90 is None:
            raise ValueError(f"{getattr(entry, 'origin', entry.name)}: parameter {p.name}: kind "
                             f"{p.kind.name} has no f90 type in spec/kinds.toml")
        out.append(p)
    return out


def upper(name: str) -> str:
    return name.upper()


def lower(name: str) -> str:
    return name.lower()


def ierror_name(entry) -> str:
    return entry.ierror


def fortran_language(fn: Function, f08: bool = False) -> str:
    """The creator language a keyval or error handler made by this routine records (R1.6)."""
    if f08:
        return "mpiattr::language::fortran_f08"
    mpi1 = any(p.kind.name in ("ATTRIBUTE_VAL_10", "EXTRA_STATE2") for p in fn.params)
    return "mpiattr::language::fortran_mpi1" if mpi1 else "mpiattr::language::fortran_mpi2"


# ---- Fortran declarations (the mpi module's interfaces) ----

def f_decl(p: Param) -> str:
    """One dummy argument's declaration in an explicit interface, with its intent."""
    k = p.kind
    intent = {"in": "in", "out": "out", "inout": "inout"}[p.dir]
    if k.cls == "function":
        return f"external :: {p.name}"
    if choice(p):
        # A choice buffer: any type and rank, passed by address (gfortran's NO_ARG_CHECK).
        return f"type(*), dimension(*) :: {p.name}"
    if k.cls == "string":
        return f"character(len=*), intent({intent}) :: {p.name}"
    if k.cls == "string_array":  # MPI_COMM_SPAWN's ARGV(*), SPAWN_MULTIPLE's ARRAY_OF_ARGV(COUNT, *)
        return f"character(len=*), intent({intent}) :: {p.name}({_string_array_dims(p)})"
    if k.cls == "status":
        dims = "MPI_STATUS_SIZE, *" if p.length is not None else "MPI_STATUS_SIZE"
        return f"integer, intent({intent}) :: {p.name}({dims})"
    t = k.f90.lower()
    for kp in KIND_PARAMETERS:
        t = t.replace(f"kind={kp.lower()}", f"kind={kp}")
    t = t.replace("mpi_status_size", "MPI_STATUS_SIZE")
    # MPI_STATUS_F082F's TYPE(MPI_Status): the mpi module's is mpi_f08's (D51)
    t = t.replace("type(mpi_status)", "type(MPI_Status)")
    if p.length is not None:
        if isinstance(p.length, list):
            dims = ", ".join(str(x) for x in reversed(p.length))  # column-major
            return f"{t}, intent({intent}) :: {p.name}({dims})"
        return f"{t}, intent({intent}) :: {p.name}({p.length or '*'})"  # "": apis.json gives none
    return f"{t}, intent({intent}) :: {p.name}"


def choice(p: Param) -> bool:
    """A choice buffer (`<type>` in the mpi module): any type and rank, by address."""
    return p.kind.f90 == "<type>"


def _string_array_dims(p: Param) -> str:
    if p.kind.c == "char**":  # an array of argument lists, one column per command
        lead = p.length if isinstance(p.length, str) and p.length != "*" else "*"
        return f"{lead}, *"
    return "*"


def f_no_arg_check(entry) -> list[str]:
    return [p.name for p in fparams(entry) if choice(p)]


def f08_no_arg_check(entry) -> list[str]:
    """mpi_f08's choice buffers (MPI_BUFFER_DETACH's TYPE(C_PTR) is not one there)."""
    return [p.name for p in fparams(entry) if choice(p) and "C_PTR" not in (p.kind.f08 or "")]


def f_imports(entry) -> str:
    names = set()
    for p in fparams(entry):
        for kp in KIND_PARAMETERS:
            if kp in (p.kind.f90 or ""):
                names.add(kp)
        if p.kind.cls == "status" or "MPI_STATUS_SIZE" in (p.kind.f90 or ""):
            names.add("MPI_STATUS_SIZE")
        if "TYPE(MPI_Status)" in (p.kind.f90 or ""):
            names.add("MPI_Status")
    return ", ".join(sorted(names))


def f_arglist(entry) -> str:
    names = [p.name for p in fparams(entry)]
    if not getattr(entry, "returns", None) and entry.ierror:  # MPI_PCONTROL(LEVEL) has none
        names.append(entry.ierror)
    return ", ".join(names)


def free_form(line: str, indent: int = 4, width: int = 100) -> str:
    """A free-form statement broken after commas into continuation lines of at most `width`
    columns (Fortran allows 132; long argument lists exceed it)."""
    if len(line) + indent <= width:
        return line
    pad = " " * (indent + 4)
    out, cur = [], ""
    for part in line.split(", "):
        piece = part if not cur else cur + ", " + part
        if cur and len(piece) + indent + 2 > width:
            out.append(cur + ", &")
            cur = pad + part
        else:
            cur = piece
    out.append(cur)
    return "\n".join(out)


def f_return_type(fn: Function) -> str:
    return fn.returns.f90.lower()


# ---- the C++ entry points ----

def c_type(p: Param) -> str:
    """The C++ declaration of a parameter as a Fortran caller passes it (by reference)."""
    k, n = p.kind, p.name
    if k.cls == "function":
        return f"mpiattr::fnptr {n}"
    if choice(p) or k.cls in ("buffer", "buffer_address"):
        return f"void* {n}" if choice(p) else f"MPI_Aint* {n}"
    if k.cls in ("string", "string_array"):
        return f"{'const ' if p.dir == 'in' else ''}char* {n}"
    if k.cls in ("status", "fortran_status"):
        return f"{'const ' if p.dir == 'in' else ''}MPI_Fint* {n}"
    if k.cls == "attr" or k.cls == "extra":
        base = "MPI_Aint" if "ADDRESS_KIND" in k.f90 else "MPI_Fint"
        return f"{'const ' if p.dir == 'in' else ''}{base}* {n}"
    if k.cls in ("handle", "keyval", "logical", "error"):
        return f"{'const ' if p.dir == 'in' else ''}MPI_Fint* {n}"
    if k.cls == "scalar" and _aint_as_integer(p):
        return f"{'const ' if p.dir == 'in' else ''}MPI_Fint* {n}"
    if k.cls == "scalar":
        base = {"int": "MPI_Fint", "MPI_Aint": "MPI_Aint", "double": "double", "MPI_Offset": "MPI_Offset",
                "MPI_Count": "MPI_Count"}.get(k.c)
        if base is None:
            raise ValueError(f"parameter {n}: kind {k.name}: no Fortran entry-point type for C type {k.c}")
        return f"{'const ' if p.dir == 'in' else ''}{base}* {n}"
    raise ValueError(f"no Fortran entry-point type for kind {k.name}")


def _aint_as_integer(p: Param) -> bool:
    """An MPI_Aint in C that the MPI-2.2 Fortran bindings pass as a default INTEGER (the routines
    MPI-3.0 removed: MPI_ADDRESS, MPI_TYPE_EXTENT, MPI_TYPE_STRUCT's displacements, D58). Not a
    large-count form's widened displacement (base_kind: its kind is MPI_Aint in C and in mpi_f08
    alike, whatever the routine's INTEGER in the MPI-2.2 bindings, D115)."""
    return p.kind.c == "MPI_Aint" and p.kind.f90 == "INTEGER" and p.base_kind is None


def c_params(fn: Function) -> str:
    ps = [c_type(p) for p in fparams(fn)]
    if not fn.returns and fn.ierror:
        ps.append(f"MPI_Fint* {fn.ierror}")
    # gfortran (>= 8) and the other current compilers pass CHARACTER lengths as size_t, last.
    ps += [f"std::size_t {p.name}_len" for p in fparams(fn) if p.kind.cls in ("string", "string_array")]
    return ", ".join(ps) or "void"


def c_return(fn: Function) -> str:
    return fn.returns.c if fn.returns else "void"


def lower_param(fn: Function, p: Param, first_target: bool) -> Lowering:
    k, n, L = p.kind, p.name, Lowering()
    if k.cls == "varargs":  # MPI_PCONTROL has no `...`, and the core takes none (D50)
        return L
    if k.f90 is None:  # argc / argv: Fortran's MPI_INIT and MPI_INFO_CREATE_ENV have none
        L.arg = "0" if p.c_decl == "int argc" else "nullptr"
        return L
    if k.cls == "handle":
        obj = k.object
        if p.length is not None and p.dir == "inout":  # ARRAY_OF_REQUESTS: handles in and out
            count = fortran_length(p)
            L.pre.append(f"std::vector<mpiattr::handle_t> {n}_h({count} > 0 ? {count} : 0);")
            L.pre.append(f"for (int i = 0; i < {count}; ++i) {n}_h[i] = static_cast<mpiattr::handle_t>({n}[i]);")
            L.always.append(f"for (int i = 0; i < {count}; ++i) {n}[i] = static_cast<MPI_Fint>({n}_h[i]);")
            L.arg = f"{n}_h.data()"
        elif p.length is not None and p.dir == "out":  # MPI_TYPE_GET_CONTENTS' ARRAY_OF_DATATYPES
            count = fortran_length(p)  # the core writes the first entries; the rest stay as they are
            L.pre.append(f"std::vector<mpiattr::handle_t> {n}_h({count} > 0 ? {count} : 0, mpiattr::unwritten_handle);")
            L.arg = f"{n}_h.data()"
            L.post.append(f"for (long long i = 0; i < {count}; ++i) if ({n}_h[i] != mpiattr::unwritten_handle) "
                          f"{n}[i] = static_cast<MPI_Fint>({n}_h[i]);")
        elif p.length == "*" and p.dir == "in":  # MPI_ALLTOALLW's datatypes: the core knows
            L.arg = (f"mpiattr::api::handle_array{{{n}, [](const void* a, int i) {{ return "  # how many
                     f"static_cast<mpiattr::handle_t>(static_cast<const MPI_Fint*>(a)[i]); }}}}")
        elif p.length is not None and p.dir == "in" and obj in _PASS_AS_HANDLE:  # the core looks them up
            count = fortran_length(p)  # (MPI_REQUEST_GET_STATUS_ALL's requests, D55)
            L.pre.append(f"std::vector<mpiattr::handle_t> {n}_h({count} > 0 ? {count} : 0);")
            L.pre.append(f"for (int i = 0; i < {count}; ++i) {n}_h[i] = static_cast<mpiattr::handle_t>({n}[i]);")
            L.arg = f"{n}_h.data()"
        elif p.length is not None and p.dir == "in":  # an array of handles: each looked up
            L.pre.append(f"mpiattr::cbind::object_array<mpiattr::{clang_object_struct(obj)}> {n}_o({fortran_length(p)});")
            L.pre.append(f"for (int i = 0; i < {fortran_length(p)}; ++i) {{")
            L.pre.append(f"  {n}_o[i] = c.lookup_{obj}(mpiattr::fbind::c_handle<{_C_HANDLE[obj]}>"
                         f"({n}[i]), \"{upper(n)}\");")
            L.pre.append(f"  if ({n}_o[i] == nullptr) return c.fail();")
            L.pre.append("}")
            L.arg = f"{n}_o.data()"
        elif p.dir == "in" and p.null_ok and p.length is None:  # its null handle: a null pointer
            handle = f"mpiattr::fbind::c_handle<{_C_HANDLE[obj]}>(*{n})"
            L.pre.append(f"auto* {n}_o = {handle} == {_NULL[obj]} ? nullptr : c.lookup_{obj}({handle}, \"{upper(n)}\");")
            L.pre.append(f"if ({n}_o == nullptr && {handle} != {_NULL[obj]}) return c.fail();")
            if first_target and obj in ("comm", "win"):
                L.pre.append(f"c.target({n}_o);")
            L.arg = f"{n}_o"
        elif p.dir == "in" and obj not in _PASS_AS_HANDLE:
            by = lowering.ignoring_param(fn, p)
            handle = f"mpiattr::fbind::c_handle<{_C_HANDLE[obj]}>(*{n})"
            if by is not None and by.kind.object == "op":  # ignored with MPI_NO_OP
                handle = f"(mpiattr::fbind::c_handle<MPI_Op>(*{by.name}) == MPI_NO_OP ? MPI_BYTE : {handle})"
            elif by is not None:  # ignored with MPI_IN_PLACE
                handle = f"(mpiattr::fbind::buffer({by.name}) == MPI_IN_PLACE ? MPI_BYTE : {handle})"
            L.pre.append(f"auto* {n}_o = c.lookup_{obj}({handle}, \"{upper(n)}\");")
            L.pre.append(f"if ({n}_o == nullptr) return c.fail();")
            if obj == "errhandler" and lowering.creates_session(fn):
                L.pre.append(f"c.target_session_init({n}_o);")
            if first_target and obj in ("comm", "win"):
                L.pre.append(f"c.target({n}_o);")
            L.arg = f"*{n}_o"
        elif p.dir == "in":
            if obj == "file":  # the core checks it; errors go to its handler, else MPI_FILE_NULL's
                L.pre.append(f"c.target_file(static_cast<mpiattr::handle_t>(*{n}));")
            if obj == "session":  # the core checks it; errors go to the session's handler (D49)
                L.pre.append(f"c.target_session(static_cast<mpiattr::handle_t>(*{n}));")
            L.arg = f"static_cast<mpiattr::handle_t>(*{n})"
        elif p.dir == "out":
            L.pre.append(f"mpiattr::handle_t {n}_h = mpiattr::cbind::to_handle({_NULL[obj]});")
            L.arg = f"{n}_h"
            L.always.append(f"*{n} = static_cast<MPI_Fint>({n}_h);")
        else:
            L.pre.append(f"mpiattr::handle_t {n}_h = static_cast<mpiattr::handle_t>(*{n});")
            if first_target and obj in ("comm", "win"):
                L.pre.append(f"c.target(c.peek_{obj}({n}_h));")
            if obj == "file":  # MPI_FILE_CLOSE: errors go to the file's handler
                L.pre.append(f"c.target_file({n}_h);")
            if obj == "session":  # MPI_Session_finalize: errors go to the session's handler (D49)
                L.pre.append(f"c.target_session({n}_h);")
            L.arg = f"{n}_h"
            # As in C: a request or message freed or consumed by a failing call is gone.
            (L.always if obj in ("request", "message") else L.post).append(
                f"*{n} = static_cast<MPI_Fint>({n}_h);")
    elif k.cls == "keyval":
        L.arg = f"*{n}"
    elif k.cls == "attr":
        origin = k.origin_fortran  # fortran_aint | fortran_int (spec/kinds.toml)
        if p.dir == "in":
            L.arg = f"mpiattr::attribute_value::from_{origin}(*{n})"
        else:
            L.pre.append(f"mpiattr::attr_read {n}_r;")
            L.arg = f"{n}_r"
            L.post.append(f"if ({n}_r.found) *{n} = {n}_r.value.as_{origin}();")
    elif k.cls == "extra":
        L.arg = f"static_cast<mpiattr::aint>(*{n})"  # an INTEGER extra_state is sign-extended
    elif k.cls == "function" and p.func_type in NULL_CONVERSION_TYPES:
        L.arg = f"mpiattr::fbind::null_if_no_conversion({n})"  # MPI_CONVERSION_FN_NULL: none (D118)
    elif k.cls == "function":
        L.arg = n
    elif k.cls == "logical" and p.length is not None and p.dir == "in":  # PERIODS: non-zero is true
        L.arg = n
    elif k.cls == "logical" and p.length is not None:  # MPI_CART_GET's PERIODS: what the core wrote
        count = fortran_length(p)
        L.pre.append(f"std::vector<int> {n}_v({count} > 0 ? {count} : 0, -1);")
        L.arg = f"{n}_v.data()"
        L.post.append(f"for (int i = 0; i < {count}; ++i) if ({n}_v[i] != -1) "
                      f"{n}[i] = {n}_v[i] ? MPIATTR_F_TRUE : MPIATTR_F_FALSE;")
    elif k.cls == "logical" and p.dir == "in":  # MPI_OP_CREATE's COMMUTE: any non-zero is true
        L.arg = f"*{n} != 0"
    elif k.cls == "logical":
        L.pre.append(f"bool {n}_b = false;")
        L.arg = f"{n}_b"
        L.post.append(f"*{n} = {n}_b ? MPIATTR_F_TRUE : MPIATTR_F_FALSE;")
    elif k.cls == "scalar" and _aint_as_integer(p):  # widened going in, narrowed coming out (D58)
        if p.dir == "in" and p.length is not None:
            count = fortran_length(p)
            L.pre.append(f"std::vector<mpiattr::aint> {n}_a({n}, {n} + ({count} > 0 ? {count} : 0));")
            L.arg = f"{n}_a.data()"
        elif p.dir == "in":
            L.arg = f"static_cast<mpiattr::aint>(*{n})"
        else:
            L.pre.append(f"mpiattr::aint {n}_a = 0;")
            L.arg = f"{n}_a"
            if fn.name in _MODERN:  # an extent or a bound: a value, which must fit
                L.post.append(f"if ({n}_a != static_cast<MPI_Fint>({n}_a)) return c.fail(mpiattr::fail(MPI_ERR_VALUE_TOO_LARGE, "
                              f"\"{upper(n)} = %lld does not fit in a default INTEGER (use {_MODERN[fn.name]})\", "
                              f"static_cast<long long>({n}_a)));")
            # MPI_ADDRESS: the address's low-order bits, as MPICH's and Open MPI's; the
            # differences of two addresses, what a program uses them for, are exact where they fit.
            L.post.append(f"*{n} = static_cast<MPI_Fint>(static_cast<std::uint64_t>({n}_a));")
    elif fn.core == "info_get_string" and n == "buflen":
        # Fortran's BUFLEN counts characters, C's the terminating null too (MPI-4.1 §10: "In C,
        # buflen includes the required space for the null terminator"; D144).
        L.pre.append(f"const MPI_Fint {n}_in = *{n};")
        L.pre.append(f"int {n}_c = {n}_in > 0 && {n}_in < INT_MAX ? {n}_in + 1 : {n}_in;")
        L.arg = f"{n}_c"
        L.post.append(f"if (flag_b) *{n} = {n}_c - 1;")
    elif k.cls in ("scalar", "error"):
        if k.name == "INDEX" and p.dir == "out" and p.length is None:  # MPI_WAITANY: from 1
            L.arg = f"*{n}"
            L.post.append(f"if (*{n} != MPI_UNDEFINED) *{n} += 1;")
            return L
        if k.name == "INDEX" and p.dir == "out" and any(q.name == "outcount" for q in fn.params):
            # MPI_WAITSOME's indices, outcount of them: from 1
            L.arg = n
            L.post.append(f"if (*outcount != MPI_UNDEFINED) for (int i = 0; i < *outcount; ++i) {n}[i] += 1;")
            return L
        if p.length is not None and k.name == "WEIGHT":  # MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY become C's
            L.arg = f"mpiattr::fbind::weights({n})"
        elif p.length is not None:
            L.arg = (f"reinterpret_cast<int (*)[3]>(const_cast<MPI_Fint*>({n}))" if isinstance(p.length, list) else n)
        else:
            L.arg = f"*{n}"
    elif k.cls == "string":
        if p.dir == "in":
            # An info key or value loses its leading blanks too (MPI-4.1 §10; D144).
            trim = "from_fortran_info" if fn.core.startswith("info_") else "from_fortran"
            L.pre.append(f"std::string {n}_s = mpiattr::fbind::{trim}({n}, {n}_len);")
            L.arg = f"{n}_s.c_str()"
        else:
            L.pre.append(f"char {n}_buf[{_STRING_MAX[fn.core]} + 1] = {{}};")
            L.arg = f"{n}_buf"
            copy = f"mpiattr::fbind::to_fortran({n}_buf, {n}, {n}_len);"
            if fn.core == "info_get":  # a missing key leaves VALUE as it was (D144)
                copy = f"if (flag_b) {copy}"
            elif fn.core == "info_get_string":  # ... and so does a BUFLEN of 0 (D144)
                copy = f"if (flag_b && buflen_in > 0) {copy}"
            L.post.append(copy)
    elif k.cls == "buffer":
        # MPI_BOTTOM, MPI_IN_PLACE and MPI_BUFFER_AUTOMATIC arrive as the address of their Fortran variable.
        L.arg = f"mpiattr::fbind::buffer({n})" if k.name == "BUFFER" else n
    elif k.cls == "buffer_address":  # MPI_BUFFER_DETACH's BUFFER_ADDR: Fortran has no use for it
        L.pre.append(f"void* {n}_p = nullptr;")
        L.pre.append(f"(void){n};")
        L.arg = f"{n}_p"
    elif k.cls == "fortran_status":  # MPI_STATUS_F082F, _F2F08: either status, copied whole (D51)
        L.pre.append(f"if (mpiattr::fbind::ignored({n})) return c.fail(mpiattr::fail(MPI_ERR_ARG, "
                     f"\"{upper(n)} is MPI_STATUS_IGNORE, which is no status\"));")
        L.arg = n
    elif k.cls == "status":
        if p.dir == "in":  # MPI_GET_COUNT
            L.pre.append(f"const mpiattr::api::msg_status {n}_s = mpiattr::fbind::read_status({n});")
        elif p.dir == "inout":  # MPI_STATUS_SET_ELEMENTS, _SET_CANCELLED: written back whole
            L.pre.append(f"mpiattr::api::msg_status {n}_s = mpiattr::fbind::read_status({n});")
            L.post.append(f"mpiattr::fbind::set_status({n}, {n}_s, true);")
        elif p.length is not None:  # ARRAY_OF_STATUSES(MPI_STATUS_SIZE, *), or MPI_STATUSES_IGNORE
            count = fortran_length(p, fn)
            L.pre.append(f"std::vector<mpiattr::api::msg_status> {n}_s({count} > 0 ? {count} : 0);")
            L.post.append(f"if (!mpiattr::fbind::ignored({n})) for (int i = 0; i < {lowering.written_count(fn, count)}; ++i) "
                          f"mpiattr::fbind::set_status({n} + {STATUS_SIZE} * i, {n}_s[i], true);")
            L.arg = f"{n}_s.data()"
            return L
        else:
            L.pre.append(f"mpiattr::api::msg_status {n}_s;")
            L.post.append(f"mpiattr::fbind::set_status({n}, {n}_s, false);")
        L.arg = f"{n}_s"
    else:
        raise ValueError(f"{fn.origin}: no Fortran lowering for kind {k.name}")
    return L


# The routine that replaced a removed one whose output (an extent, a bound) may not fit in an
# INTEGER: MPI_ERR_VALUE_TOO_LARGE then (D58).
_MODERN = {"MPI_Type_extent": "MPI_TYPE_GET_EXTENT",
           "MPI_Type_lb": "MPI_TYPE_GET_EXTENT", "MPI_Type_ub": "MPI_TYPE_GET_EXTENT"}


_FAST_TABLE = {"comm": "comms", "type": "types", "win": "wins"}


def fast_path(fn: Function, f08: bool = False, concurrent: bool = False) -> str | None:
    """The fast-path attempt of a Fortran get or set (bindings_fortran/f_glue.h: fast_get,
    fast_set; docs/decisions.md D63), as C's (lang/c.py: fast_path): an expression that is true
    when the call is done, IERROR written, or None for routines without one. MPI-1 and MPI-2
    routines alike: the attribute's kind says how its value converts (spec/kinds.toml).
    concurrent: the form for MPI_THREAD_MULTIPLE, which the checked path tries first (D67)."""
    sfx = "_concurrent" if concurrent else ""
    if fn.unsupported or fn.returns or not fn.ierror or fn.core not in ("get_attr", "set_attr"):
        return None
    ps = fparams(fn)
    handle = next((p for p in ps if p.kind.cls == "handle"), None)
    keyval = next((p for p in ps if p.kind.cls == "keyval"), None)
    value = next((p for p in ps if p.kind.cls == "attr"), None)
    if handle is None or keyval is None or value is None or handle.kind.object not in _FAST_TABLE:
        return None
    obj = handle.kind.object
    head = (f"<mpiattr::object_kind::{obj}, {'true' if f08 else 'false'}>(mpiattr::rt().{_FAST_TABLE[obj]}, "
            f"static_cast<mpiattr::handle_t>(*{handle.name}), *{keyval.name}, ")
    if fn.core == "set_attr":
        return (f"mpiattr::fbind::fast_set{sfx}{head}mpiattr::attribute_value::from_{value.kind.origin_fortran}"
                f"(*{value.name}), {fn.ierror})")
    flag = next((p for p in ps if p.kind.cls == "logical" and p.dir == "out"), None)
    if flag is None:
        return None
    return f"mpiattr::fbind::fast_get{sfx}{head}{value.name}, {flag.name}, {fn.ierror})"


def unsupported_body(fn: Function) -> list[str]:
    """The body of the Fortran entry point of a routine the standalone runtime does not carry out
    (spec/surface*.toml `unsupported`): what its C entry point does (lang/c.py unsupported_body,
    D36): MPI_ERR_UNSUPPORTED_OPERATION with why, through its communicator's or window's error
    handler (a file routine's: returned only), the message naming the routine (D40); an invalid
    communicator or window is MPI_ERR_COMM or MPI_ERR_WIN first (D103)."""
    if fn.returns:
        raise ValueError(f"{fn.origin}: an unsupported routine with a return value has no Fortran stub")
    why = fn.unsupported.replace("\\", "\\\\").replace('"', '\\"')
    out = []
    if fn.init == "during":
        out.append("if (!c.usable()) return c.fail();")
    ps = fparams(fn)
    names = [p.name for p in ps] + [f"{p.name}_len" for p in ps if p.kind.cls in ("string", "string_array")]
    if names:
        out.append(" ".join(f"(void){n};" for n in names))
    handles = [p for p in ps if p.kind.cls == "handle" and p.length is None]
    if lowering.io_routine(fn) or handles and handles[0].kind.object == "file":
        out.append(f'return c.unsupported_on_file("{why}");')
        return out
    target = lowering.refusal_target(ps)
    if target is not None:  # looked up: an invalid one is its kind's error (D103)
        t, obj = target.name, target.kind.object
        out.append(f'auto* {t}_o = c.lookup_{obj}(mpiattr::fbind::c_handle<{_C_HANDLE[obj]}>(*{t}), "{upper(t)}");')
        out.append(f"if ({t}_o == nullptr) return c.fail();")
        out.append(f"c.target({t}_o);")
    out.append(f'return c.unsupported("{why}");')
    return out


def clang_object_struct(obj: str) -> str:
    from .c import _OBJECT_STRUCT
    return _OBJECT_STRUCT[obj]


def fortran_length(p: Param, fn: Function | None = None) -> str:
    """An array argument's length as C++ sees it: a length parameter is an MPI_Fint* here."""
    n = lowering.array_length(p, fn)
    return n if n.isdigit() else f"*{n}"


def _peek(p: Param) -> str:
    return f"c.target(c.peek_{p.kind.object}(static_cast<mpiattr::handle_t>(*{p.name})));"


def lowerings(fn: Function) -> list[Lowering]:
    return lowering.lowerings(fn, lower_param, _peek)


def core_args(fn: Function, f08: bool = False) -> str:
    return lowering.core_args(fn, lowerings(fn), fortran_language(fn, f08))


def buffer_checks(fn: Function) -> list[str]:
    """Each buffer's NULL test (MPI_BOTTOM's address arrives as NULL), after the lookups
    (lowering.buffer_checks, D111)."""
    return lowering.buffer_checks(fn, lambda n: f"mpiattr::fbind::buffer({n})", lambda n: f"*{n}", str.upper)


# ---- predefined callbacks and callback types ----

def callback_c_params(entry) -> str:
    ps = [c_type(p).replace("const ", "") for p in entry.params]
    ps.append(f"MPI_Fint* {entry.ierror}")
    return ", ".join(ps)


def callback_c_types(entry) -> str:
    return ", ".join(" ".join(t.split()[:-1]) for t in callback_c_params(entry).split(", "))


def predefined_body(pc: PredefinedCallback) -> list[str]:
    names = [p.name for p in pc.params]
    out = []
    if pc.behaviour == "dup":  # R6.5: flag = .TRUE., out = in
        out += [f"*{names[4]} = *{names[3]};", f"*{names[5]} = MPIATTR_F_TRUE;"]
    elif pc.behaviour == "null_copy":
        out += [f"*{names[5]} = MPIATTR_F_FALSE;"]
    out.append(f"*{pc.ierror} = MPI_SUCCESS;")
    return out


def unused_params(pc: PredefinedCallback) -> str:
    used = {"dup": {3, 4, 5}, "null_copy": {5}, "null_delete": set(),
            "null_conversion": set()}[pc.behaviour]
    return " ".join(f"(void){p.name};" for i, p in enumerate(pc.params) if i not in used)


def c_ident(name: str) -> str:
    """MPI_Comm_copy_attr_function -> f_MPI_Comm_copy_attr_function (the Fortran procedure type)."""
    return f"f_{name}"


# ---- mpi_f08 ----

# The handle types of mpi_f08 (MPI-4.1 §20.3.5), each `TYPE(MPI_X)` with one INTEGER, MPI_VAL.
F08_HANDLE_TYPES = ("MPI_Comm", "MPI_Datatype", "MPI_Errhandler", "MPI_File", "MPI_Group",
                    "MPI_Info", "MPI_Message", "MPI_Op", "MPI_Request", "MPI_Session", "MPI_Win")


def has_f08(entry) -> bool:
    """Whether the entry has an mpi_f08 binding (routine, callback type or predefined callback)."""
    if pending(entry):
        return False
    f = getattr(entry, "fortran", None) or {}
    return f.get("binding", True) and f.get("f08", True)


def f08_functions(spec: Spec) -> list[Function]:
    return [f for f in spec.functions if has_f08(f)]


def f08_callbacks(spec: Spec) -> list:
    """The callback types with an abstract interface in mpi_f08: the spec's (all 21 of the
    standard but the MPI-1 attribute callbacks and the tool interface's), each followed by its
    large-count form (MPI_User_function_c)."""
    out = []
    for c in spec.callbacks:
        if has_f08(c):
            out.append(c)
            large = spec.callback_large_form(c)
            if large is not None:
                out.append(large)
    return out


def fortran_predefined(spec: Spec) -> list[PredefinedCallback]:
    """The predefined callbacks of mpif.h and `use mpi`: the attribute ones (R6.5) and
    MPI_CONVERSION_FN_NULL (MPI-4.1 §15.5.3), each a procedure of its own (R6.6). Only the
    attribute ones are in the table create_keyval recognises (predefined_callbacks[])."""
    return [p for p in spec.predefined_callbacks
            if p.type.is_attr or p.behaviour == "null_conversion"]


def f08_predefined(spec: Spec) -> list[PredefinedCallback]:
    """The predefined callbacks of mpi_f08: fortran_predefined's, and MPI_CONVERSION_FN_NULL_C,
    the "no conversion" of the large-count conversion functions (MPI-4.1 §15.5.3, §19.2), which
    mpi_f08 alone has (D118)."""
    out = [p for p in fortran_predefined(spec) if has_f08(p)]
    for p in list(out):
        large = spec.callback_large_form(p.type) if p.behaviour == "null_conversion" else None
        if large is not None:
            out.append(dataclasses.replace(p, name=p.name + "_C", type=large, params=large.params))
    return out


# The callback types whose predefined "no conversion" procedure (MPI_CONVERSION_FN_NULL) the
# bindings pass to the core as a null function, as C's MPI_CONVERSION_FN_NULL is (D118). Set by
# context().
NULL_CONVERSION_TYPES: set[str] = set()


def null_conversions(spec: Spec) -> list[tuple[PredefinedCallback, str]]:
    """The predefined "no conversion" procedures, each with its link name: MPI_CONVERSION_FN_NULL
    of mpif.h and `use mpi`, then mpi_f08's (MPIATTR_F08_CONVERSION_FN_NULL, and _C's)."""
    return ([(p, p.name) for p in fortran_predefined(spec) if p.behaviour == "null_conversion"]
            + [(p, f08_link(p)) for p in f08_predefined(spec) if p.behaviour == "null_conversion"])


# The abstract interfaces mpi_f08 defines: the spec's callback types (f08_callbacks). Set by
# context(); a PROCEDURE argument of a type without one (none today) is declared EXTERNAL (D40).
F08_INTERFACES: set[str] = set()


def f08_specific(fn: Function) -> str:
    """The specific procedure name of a routine in mpi_f08 (MPI-4.1 §20.1.5): MPI_Comm_set_attr_f08."""
    return f"{fn.name}_f08"


def f08_link(pc: PredefinedCallback) -> str:
    """The external name of a predefined callback's mpi_f08 form (mpi_f08 renames it on use):
    distinct from the `use mpi` one (mpi_comm_dup_fn_) and the C one (MPI_COMM_DUP_FN), R6.6."""
    return "MPIATTR_F08_" + pc.name[len("MPI_"):]


def _is_callback(entry) -> bool:
    return isinstance(entry, (Callback, PredefinedCallback))


def _f08_type(p: Param) -> str:
    if p.kind.cls == "function":
        return f"PROCEDURE({p.func_type})"
    if p.kind.cls == "string" and p.length is not None:
        return f"CHARACTER(LEN={p.length})"
    return p.kind.f08


def _f08_dims(p: Param) -> str:
    if ", VALUE" in (p.kind.f08 or ""):  # an address by value (MPI_User_function's invec): scalar
        return ""
    if p.kind.cls == "string_array":
        return f"({_string_array_dims(p)})"
    if p.length is None or p.kind.cls == "string":  # a string's length is its LEN
        return ""
    if isinstance(p.length, list):
        return "(" + ", ".join(str(x) for x in reversed(p.length)) + ")"  # column-major
    return f"({p.length or '*'})"


def _f08_std_groups(entry) -> list[tuple[str, list[str]]]:
    """The declaration lines of the standard's mpi_f08 prototype: (attributes, names), grouped by
    identical attributes in the order of first appearance, as MPI-4.1 prints them."""
    cb = _is_callback(entry)
    groups: dict[str, list[str]] = {}
    for p in fparams(entry):
        t = _f08_type(p)
        if not cb and p.kind.cls != "function":
            t += f", INTENT({p.dir.upper()})"
            if p.asynchronous:
                t += ", ASYNCHRONOUS"
        groups.setdefault(t, []).append(p.name + _f08_dims(p))
    if not getattr(entry, "returns", None) and entry.ierror:
        if cb:
            t = "INTEGER, INTENT(OUT)" if entry.ierror_kind == "ERROR_CODE_SHOW_INTENT" else "INTEGER"
        else:
            t = "INTEGER, OPTIONAL, INTENT(OUT)"
        groups.setdefault(t, []).append(entry.ierror)
    return list(groups.items())


def f08_prototype(entry) -> str:
    """The entry's mpi_f08 binding as the standard prints it (and pympistandard renders it from
    apis.json): the spec check compares the two (tests/spec/spec_check.py)."""
    names = [p.name for p in fparams(entry)]
    if not getattr(entry, "returns", None) and entry.ierror:
        names.append(entry.ierror)
    head = f"{entry.name}({', '.join(names)})"
    if getattr(entry, "returns", None) and entry.returns.cls != "nothing":  # (NOTHING: a SUBROUTINE)
        head = f"{entry.returns.f08} {head}"
    lines = [f"{attrs} :: {', '.join(ns)}" for attrs, ns in _f08_std_groups(entry)]
    if isinstance(entry, Callback):
        return "\n\t".join(["ABSTRACT INTERFACE", head, *("\t" + x for x in lines)])
    return "\n\t".join([head, *lines])


def f08_decl(p: Param, callback: bool = False) -> str:
    """One dummy argument's declaration in the mpi_f08 module. As the standard's, except a choice
    buffer: `TYPE(*), DIMENSION(*)` without argument checking (the mpi module's form), not
    assumed rank, so the entry point receives its address (MPI_SUBARRAYS_SUPPORTED = .FALSE.)."""
    k = p.kind
    if k.cls == "function":
        if p.func_type not in F08_INTERFACES:
            # A callback type with no abstract interface in mpi_f08: any procedure, as the mpi
            # module's EXTERNAL (D40; every callback type of the spec has one since D54).
            return f"external :: {p.name}"
        return f"procedure({p.func_type}) :: {p.name}"
    t = p.kind.f08.lower().replace("mpi_address_kind", "MPI_ADDRESS_KIND")  # CHARACTER(LEN=*)
    t = t.replace("mpi_count_kind", "MPI_COUNT_KIND")
    for h in F08_HANDLE_TYPES + ("MPI_Status",):
        t = t.replace(f"type({h.lower()})", f"type({h})")
    attrs = [t]
    if choice(p) and "c_ptr" not in t:
        attrs = ["type(*), dimension(*)"]  # no INTENT, as in the mpi module
    elif not callback:
        attrs.append(f"intent({p.dir})")
    if p.asynchronous:
        attrs.append("asynchronous")
    return f"{', '.join(attrs)} :: {p.name}{_f08_dims(p)}"


def f08_ierror_decl(entry) -> str:
    """ierror's declaration in the module: OPTIONAL in a routine; in a callback without INTENT,
    even for MPI_TYPE_NULL_DELETE_FN, whose printed binding has INTENT(OUT): a predefined
    callback must have the characteristics of its abstract interface to be passed as one."""
    if _is_callback(entry):
        return f"integer :: {entry.ierror}"
    return f"integer, optional, intent(out) :: {entry.ierror}"


def f08_integer_constants(spec: Spec) -> list[tuple[str, int]]:
    """The INTEGER constants of mpi_f08: mpif.h's, less the handles (TYPE(MPI_X) there)."""
    handles = {h.name for h in spec.handles} | {o.name for o in spec.ops}
    for d in spec.datatypes:
        handles.add(d.name)
        handles.update(d.aliases)
    return [(n, v) for n, v in constants(spec) if n not in handles]


def f08_handle_constants(spec: Spec) -> list[tuple[str, str, int]]:
    """(name, TYPE, value) of every handle constant of mpi_f08."""
    out = [(h.name, h.type, h.value) for h in spec.handles]
    out += [(o.name, "MPI_Op", o.value) for o in spec.ops]
    for d in spec.datatypes:
        out.append((d.name, "MPI_Datatype", d.value))
        out += [(a, "MPI_Datatype", d.value) for a in d.aliases]
    return out


# ---- the routines of the Fortran bindings only (spec/fortran.toml, docs/decisions.md D51) ----

# The largest rank of an array (Fortran 2008): mpif.h's MPI_SIZEOF has a specific for each rank.
MAX_RANK = 15


def fr_specifics(fr, form: str) -> list[dict]:
    """The specific procedures of a Fortran-only routine in one binding (form: mpif, mpi or f08):
    each with its link name (`name`), dummy arguments (`args`), the ISO_FORTRAN_ENV kind it needs
    (`use`), its declarations (`decls`), the C++ parameters of its entry point (`c_params`) and what
    that entry point writes into size (`bytes`, MPI_SIZEOF only). MPI_F_SYNC_REG is one procedure
    under its own name (mpi_f08: MPI_F_sync_reg_f08, as every routine's specific), the same in
    mpif.h and the mpi module; MPI_SIZEOF one per type of x, MPIATTR_SIZEOF_<TAG> (mpi_f08: _F08,
    whose ierror is OPTIONAL; mpif.h: one per type and rank, _<TAG>_R<rank>), all external
    procedures of libmpiattr."""
    f08 = form == "f08"
    names = [p.name for p in fr.params] + ([fr.ierror] if fr.ierror else [])
    ierr = []
    if fr.ierror:
        ierr = [f"integer, optional, intent(out) :: {fr.ierror}" if f08
                else f"integer, intent(out) :: {fr.ierror}"]
    c_ierr = [f"MPI_Fint* {fr.ierror}"] if fr.ierror else []
    if fr.does == "nothing":
        (buf,) = fr.params
        if f08:  # as the standard: TYPE(*), DIMENSION(..), ASYNCHRONOUS (a descriptor, unused)
            decls = [f"type(*), dimension(..), asynchronous :: {buf.name}"]
        else:  # as the module's choice buffers (f_decl): any type and rank, by address
            decls = [f"type(*), dimension(*) :: {buf.name}",
                     f"!GCC$ ATTRIBUTES NO_ARG_CHECK :: {buf.name}"]
        name = f08_specific(fr) if f08 else fr.name.upper()
        return [{"name": name, "args": ", ".join(names), "use": None, "decls": decls + ierr,
                 "c_params": ", ".join([f"void* {buf.name}", *c_ierr]), "bytes": None,
                 "unused": [buf.name]}]
    x, size = fr.params
    out = []
    for sp in fr.specifics:
        t = sp.type.lower() + (f"(kind={sp.kind})" if sp.kind else "")
        if sp.type == "CHARACTER":
            t = "character(len=*)"
        hidden = [f"std::size_t {x.name}_len"] if sp.type == "CHARACTER" else []
        # The modules: x assumed rank (one specific per type). mpif.h: one specific per type and
        # rank, x scalar or assumed size (_R<rank>), so that mpif.h is Fortran 2008 and a program
        # that includes it builds at -std=f2008, as with Open MPI's (assumed rank is Fortran
        # 2018); DIMENSION as a statement of its own keeps rank 15 within fixed form's 72 columns
        # (D151). The entry points read only the type, by address: the same C for every form.
        for rank in (range(MAX_RANK + 1) if form == "mpif" else (None,)):
            if rank is None:
                x_decls = [f"{t}, dimension(..), intent(in) :: {x.name}"]
            else:
                x_decls = [f"{t}, intent(in) :: {x.name}"]
                if rank:
                    x_decls.append(f"dimension {x.name}({','.join(['1'] * (rank - 1) + ['*'])})")
            out.append({"name": f"MPIATTR_SIZEOF_{sp.tag}" + ("_F08" if f08 else "")
                                + ("" if rank is None else f"_R{rank}"),
                        "args": ", ".join(names), "use": sp.kind,
                        "decls": [*x_decls, f"integer, intent(out) :: {size.name}", *ierr],
                        "c_params": ", ".join([f"const void* {x.name}", f"MPI_Fint* {size.name}",
                                               *c_ierr, *hidden]),
                        "bytes": sp.bytes, "unused": [x.name] + ([f"{x.name}_len"] if hidden else [])})
    return out


def fortran_routines(spec: Spec) -> list:
    return list(spec.fortran_routines)


# ---- mpi_f08's large-count specifics (MPI-4.1 §19.1.4, §20.2; docs/decisions.md D52) ----
# mpi_f08 (and only it: not `use mpi`, not mpif.h) gives each large-count form MPI_X_c (spec:
# Spec.large_forms, D47) as a second specific procedure, MPI_X_c_f08, of the routine's generic
# MPI_X, which a call selects by its arguments' kinds (INTEGER(KIND=MPI_COUNT_KIND) counts). Two
# exceptions, both from §19.1.4 and both derived here from the two forms' argument types:
#   - the forms that differ from the routine only in a callback's interface (MPI_Op_create_c,
#     MPI_Register_datarep_c): no generic can tell them apart, so they are called by their own
#     name, a generic MPI_X_c;
#   - the forms whose arguments have the same types as the routine's (MPI_Type_get_extent_c,
#     MPI_Type_get_true_extent_c, MPI_Type_create_resized_c: MPI_Aint becomes MPI_Count, and
#     MPI_ADDRESS_KIND = MPI_COUNT_KIND in mpiattr, bindings_fortran/mpif-config.h.in): "the
#     implementation shall not provide the _c specific procedure"; the routine's own specific
#     takes the large kinds already.

def _f08_signature(fn: Function, kinds_equal: bool = True) -> list[tuple[str, bool]]:
    """Each dummy argument's type and whether it is an array: what tells two specifics of one
    generic apart (a callback's interface does not)."""
    out = []
    for p in fparams(fn):
        t = "PROCEDURE" if p.kind.cls == "function" else (p.kind.f08 or "").upper().replace(" ", "")
        if kinds_equal:
            t = t.replace("MPI_ADDRESS_KIND", "MPI_COUNT_KIND")
        out.append((t, p.length is not None))
    return out


def f08_large(spec: Spec, fn: Function) -> tuple[Function, bool] | None:
    """The large-count form mpi_f08 provides for the routine `fn` (None: none), and whether it is
    called by its own name (MPI_Op_create_c) rather than through the routine's generic."""
    large = spec.large_form(fn)
    if large is None or not has_f08(fn):
        return None
    if _f08_signature(large) != _f08_signature(fn):
        return large, False
    if any(p.kind.cls == "function" and p.base_kind is not None for p in large.params):
        return large, True  # only a callback's interface differs
    return None  # only MPI_ADDRESS_KIND against MPI_COUNT_KIND: the same kind here


def f08_large_specific(large: Function) -> str:
    """The large form's specific procedure name (MPI-4.1 §19.1.4: `_c`, then Table 19.1's token)."""
    return f"{large.name}_f08"


def _large_target(fn: Function) -> list[str]:
    target = next((p for p in fparams(fn) if p.kind.cls == "handle" and p.length is None
                   and p.dir == "in" and p.kind.object in ("comm", "win")), None)
    out = []
    if target is not None:
        out.append(_peek(target))
    if (fh := lowering.file_param(fn)) is not None:  # a file's: its handler (MPI-4.1 §15.7)
        out.append(f"c.target_file(static_cast<mpiattr::handle_t>(*{fh.name}));")
    return out


def _large_array_length(fn: Function, p: Param, narrowed: set) -> str:
    if p.length == "*":  # a v-collective's counts and displacements: per process, or per edge
        return lowering.per_process_length(fn, p, lambda comm: f"mpiattr::fbind::c_handle<MPI_Comm>(*{comm})")
    length = str(p.length)
    return f"{length}_n" if length in narrowed else f"*{length}"


def f08_large_body(fn: Function) -> list[str]:
    """The body of a carried-out large-count specific (inside the entry point's lambda, after
    `call c`): as the C form's (lang/c.py large_body), with Fortran's arguments (by reference):
    the widened inputs narrowed first (MPI_ERR_COUNT, through the communicator's or window's error
    handler, for one that does not fit), or, where spec/large_count.toml names a core entry that
    takes the large types, that entry called with them as they are."""
    out = []
    if fn.init == "during":
        out.append("if (!c.usable()) return c.fail();")
    if fn.large_core:
        lows, core = lowerings(fn), fn.large_core
    else:
        checks, narrowed, lows, targeted = [], set(), [], False
        for p in fn.params:
            first = not targeted and p.kind.cls == "handle" and p.kind.object in ("comm", "win")
            targeted = targeted or first
            n, L = p.name, Lowering()
            if p.large_only:  # the large counts of a datatype's constructor: none (D47)
                if p.dir != "in" and p.length is None:
                    L.post.append(f"*{n} = 0;")
                else:
                    L.pre.append(f"(void){n};")
            elif p.base_kind is None or p.kind.cls == "function":
                L = lower_param(fn, p, first)
            else:
                t = p.base_kind.c
                fail = f'return c.fail(mpiattr::cbind::too_large("{n}", '
                if p.length is not None and p.dir == "in":
                    checks += [f"std::vector<{t}> {n}_n;",
                               f"if (const long long i = mpiattr::cbind::narrow_array({n}, "
                               f"{_large_array_length(fn, p, narrowed)}, {n}_n); i >= 0)",
                               f'  {fail}{n}[i], "{t}", i));']
                    L.arg = f"{n}_n.data()"
                elif p.length is not None:
                    raise ValueError(f"{fn.origin}: {n}: no Fortran large-count lowering for an OUT array")
                elif p.dir == "in":
                    narrowed.add(n)
                    checks += [f"{t} {n}_n{{}};",
                               f'if (!mpiattr::cbind::narrow(*{n}, {n}_n)) {fail}*{n}, "{t}"));']
                    L.arg = f"{n}_n"
                elif p.dir == "out":
                    L.pre.append(f"{t} {n}_n{{}};")
                    L.arg = f"{n}_n"
                    L.post.append(f"*{n} = {n}_n;")
                else:  # inout (MPI_Pack's position): checked with the inputs, written back on success
                    checks += [f"{t} {n}_n{{}};",
                               f'if (!mpiattr::cbind::narrow(*{n}, {n}_n)) {fail}*{n}, "{t}"));']
                    L.arg = f"{n}_n"
                    L.post.append(f"*{n} = {n}_n;")
            lows.append(L)
        if checks:
            out += _large_target(fn) + checks
        core = fn.core
    return out + lowering.core_call(fn, lows, core, fortran_language(fn, True), buffer_checks(fn))


# ---- mpif.h: lines that are both fixed form and free form ----

def fixed_comment(text: str) -> list[str]:
    """A comment as '!' lines of at most 72 columns (a comment in both source forms)."""
    return ["! " + line for line in textwrap.wrap(text, 70)] or ["!"]


def constants(spec: Spec) -> list[tuple[str, int]]:
    """Every integer constant of mpif.h, in the order of spec/constants.toml."""
    out = [("MPI_VERSION", spec.version[0]), ("MPI_SUBVERSION", spec.version[1])]
    out += [(e.name, e.value) for e in spec.error_classes]
    out.append(("MPI_KEYVAL_INVALID", spec.keyval_invalid))
    out += [(k.name, k.value) for k in spec.predefined_keys]
    out += [(h.name, h.value) for h in spec.handles]
    out += [(o.name, o.value) for o in spec.ops]
    for d in spec.datatypes:
        out.append((d.name, d.value))
        out += [(a, d.value) for a in d.aliases]
    out += list(spec.integers)
    # The MPI-1 names MPI-3.0 removed (MPI_LB, MPI_UB, the _INTEGER combiners): mpif.h and `use
    # mpi` keep them, as MPICH's do; mpi_f08 never had them (docs/decisions.md D58).
    out += [(r.name, r.value) for r in spec.removed if r.type != "typedef"]
    out.append(("MPI_STATUS_SIZE", STATUS_SIZE))
    out += list(STATUS_INDICES)
    return out


def thrown_nulls(fn: Function) -> list[str]:
    """What an entry point writes when its body throws (out of memory, D65): the null handle to
    each output handle, as the C entry point (lang/c.py thrown_nulls)."""
    return [f"*{p.name} = static_cast<MPI_Fint>(mpiattr::cbind::to_handle({_NULL[p.kind.object]}));"
            for p in fparams(fn)
            if p.kind.cls == "handle" and p.dir == "out" and p.length is None and p.kind.object in _NULL]


def filters(spec: Spec) -> dict:
    return {"upper": upper, "lower": lower, "fparams": fparams, "f_decl": f_decl,
            "f_imports": f_imports, "f_arglist": f_arglist, "f_return_type": f_return_type,
            "f_no_arg_check": f_no_arg_check, "f08_no_arg_check": f08_no_arg_check, "free_form": free_form, "c_params": c_params, "c_return": c_return,
            "lowerings": lowerings, "core_args": core_args, "buffer_checks": buffer_checks, "core_entry": core_entry, "predefined_body": predefined_body,
            "unused_params": unused_params, "callback_c_params": callback_c_params,
            "callback_c_types": callback_c_types, "c_ident": c_ident,
            "fixed_comment": fixed_comment, "has_f08": has_f08, "f08_specific": f08_specific,
            "f08_link": f08_link, "f08_decl": f08_decl, "f08_ierror_decl": f08_ierror_decl,
            "f08_prototype": f08_prototype, "unsupported_body": unsupported_body,
            "fr_specifics": fr_specifics,
            "f08_large": lambda fn: f08_large(spec, fn), "f08_large_specific": f08_large_specific,
            "f08_large_body": f08_large_body, "fast_path": fast_path, "thrown_nulls": thrown_nulls}


def context(spec: Spec) -> dict:
    F08_INTERFACES.update(c.name for c in f08_callbacks(spec))
    NULL_CONVERSION_TYPES.update(p.type.name for p, _ in null_conversions(spec))
    return {"ffunctions": fortran_functions(spec), "constants": constants(spec),
            "constant_kinds": dict(spec.fortran_kinds),
            "sentinels": SENTINELS,
            "kind_parameters": KIND_PARAMETERS, "f08_functions": f08_functions(spec),
            "f08_callbacks": f08_callbacks(spec), "f08_predefined": f08_predefined(spec),
            "fortran_predefined": fortran_predefined(spec), "null_conversions": null_conversions(spec),
            "f08_handle_types": F08_HANDLE_TYPES, "status_size": STATUS_SIZE,
            "f08_integer_constants": f08_integer_constants(spec),
            "f08_handle_constants": f08_handle_constants(spec),
            "fortran_routines": fortran_routines(spec)}
