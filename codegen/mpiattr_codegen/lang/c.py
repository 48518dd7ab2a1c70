"""The C view of the spec: C declarations, and how the generated C binding checks, converts and
passes each parameter to the core (cxx_core/include/mpiattr/api.h).

Every parameter becomes a `Lowering`: lines run before the core call (checks, lookups, locals),
the expression passed to the core, and lines run after a successful call (writing outputs). The
templates only loop over these; all knowledge of kinds lives here and in spec/kinds.toml."""
from __future__ import annotations

from .. import lowering
from ..lowering import Lowering
from ..model import Callback, Function, Param, PredefinedCallback, Spec

OUTPUTS = [
    ("c/mpi.h.j2", "include/mpi.h"),
    ("c/mpio.h.j2", "include/mpio.h"),
    ("c/functions.cc.j2", "src/bindings_c/functions.cc"),
    ("c/predefined.cc.j2", "src/bindings_c/predefined.cc"),
]

# The null handle of each object table (its C constant), for outputs of failed calls.
_NULL = {"comm": "MPI_COMM_NULL", "type": "MPI_DATATYPE_NULL", "win": "MPI_WIN_NULL",
         "group": "MPI_GROUP_NULL", "request": "MPI_REQUEST_NULL",
         "errhandler": "MPI_ERRHANDLER_NULL", "info": "MPI_INFO_NULL", "op": "MPI_OP_NULL",
         "message": "MPI_MESSAGE_NULL", "session": "MPI_SESSION_NULL", "file": "MPI_FILE_NULL"}
_ERR = {"comm": "MPI_ERR_COMM", "type": "MPI_ERR_TYPE", "win": "MPI_ERR_WIN",
        "group": "MPI_ERR_GROUP", "request": "MPI_ERR_REQUEST",
        "errhandler": "MPI_ERR_ARG", "info": "MPI_ERR_INFO", "op": "MPI_ERR_OP", "file": "MPI_ERR_FILE",
        "message": "MPI_ERR_REQUEST", "session": "MPI_ERR_SESSION"}
# Handles the core looks up itself (it accepts their null and predefined values).
_PASS_AS_HANDLE = {"info", "op", "file", "request", "message", "session"}
# The core's object type for each looked-up handle kind.
_OBJECT_STRUCT = {"comm": "comm_object", "type": "type_object", "win": "win_object",
                  "group": "group_object", "errhandler": "errhandler_object"}


def c_type(p: Param) -> str:
    """The C declaration of a parameter, as the standard prints it (R12.1)."""
    k = p.kind
    if p.c_decl:
        return p.c_decl
    if k.cls == "function":  # (the MPI_T callbacks' kinds name their type: apis.json gives none)
        return f"{p.func_type or k.c}* {p.name}"
    if k.c_by_value_pointer or k.cls == "buffer":
        return f"{'const ' if p.const else ''}void* {p.name}"
    if k.cls == "string":
        return f"{'const ' if p.const or p.dir == 'in' else ''}char* {p.name}"
    if p.pointer:  # an input C passes by address (the error handlers', MPI_User_function's)
        return f"{k.c}* {p.name}"
    if p.length is not None and k.c_array_as_pointer:
        return f"{'const ' if p.const else ''}{k.c}* {p.name}"
    if p.length is not None:
        return f"{'const ' if p.const else ''}{k.c} {p.name}[]"
    if p.dir == "in":
        return f"{k.c} {p.name}"
    return f"{k.c}* {p.name}"


# The C typedefs of the MPICH extensions' callback types that spec parameters name (func_type):
# the MPI Forum's apis.json has none of them, so they are not spec entries; each is written as
# MPICH's mpi.h declares it (docs/decisions.md D35). mpi.h and the host-mode header and entry points
# declare them from here.
EXTENSION_TYPEDEFS = {
    "MPIX_Destructor_function": "typedef void MPIX_Destructor_function(void* extra_state)",
}


def tools(entry) -> bool:
    """A routine of the MPI tool information interface (MPI-4.1 §16.3): its errors are return codes
    only (MPI_T_ERR_*), never raised through an error handler."""
    return entry.name.startswith("MPI_T_")


def extension(entry) -> bool:
    """An MPICH extension (MPIX_ name), not a routine of the standard (docs/decisions.md D35)."""
    return entry.name.startswith("MPIX_")


def extension_typedefs(spec: Spec) -> list[str]:
    """The typedefs of EXTENSION_TYPEDEFS that the spec's parameters use, in first-use order; a
    func_type of MPIX_ form without one is an error."""
    out = []
    for fn in spec.functions:
        for p in fn.params:
            t = p.func_type
            if t and t.startswith("MPIX_") and EXTENSION_TYPEDEFS.get(t) is None:
                raise ValueError(f"{fn.origin}: no C typedef for extension callback type {t}")
            if t in EXTENSION_TYPEDEFS and EXTENSION_TYPEDEFS[t] not in out:
                out.append(EXTENSION_TYPEDEFS[t])
    return out


def c_params(entry) -> str:
    return ", ".join(c_type(p) for p in entry.params) or "void"


def c_return(fn: Function) -> str:
    return fn.returns.c if fn.returns else "int"


def c_prototype(entry, name: str | None = None) -> str:
    n = name or entry.name
    if isinstance(entry, Callback):  # an error code, or the type's own return (void)
        return f"typedef {entry.returns.c if entry.returns else 'int'} {n}({c_params(entry)})"
    ret = "int" if isinstance(entry, PredefinedCallback) else c_return(entry)
    return f"{ret} {n}({c_params(entry)})"


def _null_check(p: Param) -> str:
    return f'if ({p.name} == nullptr) return c.null_pointer("{p.name}");'


# The length kinds of an output string whose buffer size the program gives and the routine
# rewrites (MPI-4.1's "If buflen is set to 0, value is not changed"): MPI_Info_get_string's
# buflen, MPI_Session_get_nth_pset's pset_len, the MPI_T getters' name_len and desc_len.
_STRING_SIZE_KINDS = ("STRING_LENGTH", "INFO_VALUE_LENGTH")


def _string_size_param(fn: Function, p: Param) -> Param | None:
    """The inout size beside output string p (the parameter just before or just after it), if any."""
    if p.dir != "out":
        return None
    ps = list(fn.params)
    i = ps.index(p)
    for q in ps[i - 1:i] + ps[i + 1:i + 2]:
        if q.dir == "inout" and q.kind.name in _STRING_SIZE_KINDS and q.length is None:
            return q
    return None


def lower(fn: Function, p: Param, first_target: bool) -> Lowering:
    k, n, L = p.kind, p.name, Lowering()
    if k.cls == "handle":
        obj = k.object
        if p.length is not None and p.dir == "inout":  # array_of_requests: handles in and out
            count = lowering.array_length(p)
            L.pre.append(f"if ({count} > 0 && {n} == nullptr) return c.null_pointer(\"{n}\");")
            L.pre.append(f"std::vector<mpiattr::handle_t> {n}_h({count} > 0 ? {count} : 0);")
            L.pre.append(f"for (int i = 0; i < {count}; ++i) {n}_h[i] = mpiattr::cbind::to_handle({n}[i]);")
            L.always.append(f"for (int i = 0; i < {count}; ++i) {n}[i] = mpiattr::cbind::to_c<{k.c}>({n}_h[i]);")
            L.arg = f"{n}_h.data()"
        elif p.length is not None and p.dir == "out":  # MPI_Type_get_contents' array_of_datatypes
            count = lowering.array_length(p)  # the core writes the first entries; the rest stay as they are
            L.pre.append(f"if ({count} > 0 && {n} == nullptr) return c.null_pointer(\"{n}\");")
            L.pre.append(f"std::vector<mpiattr::handle_t> {n}_h({count} > 0 ? {count} : 0, mpiattr::unwritten_handle);")
            L.arg = f"{n}_h.data()"
            L.post.append(f"for (long long i = 0; i < {count}; ++i) if ({n}_h[i] != mpiattr::unwritten_handle) "
                          f"{n}[i] = mpiattr::cbind::to_c<{k.c}>({n}_h[i]);")
        elif p.length == "*" and p.dir == "in":  # MPI_Alltoallw's datatypes: the core knows
            L.arg = (f"mpiattr::api::handle_array{{{n}, [](const void* a, int i) {{ return "  # how many
                     f"mpiattr::cbind::to_handle(static_cast<const {k.c}*>(a)[i]); }}}}")
        elif p.length is not None and p.dir == "in" and obj in _PASS_AS_HANDLE:  # the core looks them up
            # (MPI_Request_get_status_all's requests, D55)
            L.pre.append(f"if ({p.length} > 0 && {n} == nullptr) return c.null_pointer(\"{n}\");")
            L.pre.append(f"std::vector<mpiattr::handle_t> {n}_h({p.length} > 0 ? {p.length} : 0);")
            L.pre.append(f"for (int i = 0; i < {p.length}; ++i) {n}_h[i] = mpiattr::cbind::to_handle({n}[i]);")
            L.arg = f"{n}_h.data()"
        elif p.length is not None and p.dir == "in":  # an array of handles: each looked up
            L.pre.append(f"if ({p.length} > 0 && {n} == nullptr) return c.null_pointer(\"{n}\");")
            L.pre.append(f"mpiattr::cbind::object_array<mpiattr::{_OBJECT_STRUCT[obj]}> {n}_o({p.length});")
            L.pre.append(f"for (int i = 0; i < {p.length}; ++i) {{")
            L.pre.append(f"  {n}_o[i] = c.lookup_{obj}({n}[i], \"{n}\");")
            L.pre.append(f"  if ({n}_o[i] == nullptr) return c.fail();")
            L.pre.append("}")
            L.arg = f"{n}_o.data()"
        elif p.dir == "in" and p.null_ok and p.length is None:  # its null handle: a null pointer
            L.pre.append(f"auto* {n}_o = {n} == {_NULL[obj]} ? nullptr : c.lookup_{obj}({n}, \"{n}\");")
            L.pre.append(f"if ({n}_o == nullptr && {n} != {_NULL[obj]}) return c.fail();")
            if first_target and obj in ("comm", "win"):
                L.pre.append(f"c.target({n}_o);")
            L.arg = f"{n}_o"
        elif p.dir == "in" and obj not in _PASS_AS_HANDLE:
            by = lowering.ignoring_param(fn, p)
            if by is not None:  # ignored with MPI_IN_PLACE or MPI_NO_OP: programs pass MPI_DATATYPE_NULL
                unused = "MPI_NO_OP" if by.kind.object == "op" else "MPI_IN_PLACE"
                L.pre.append(f"auto* {n}_o = c.lookup_{obj}({by.name} == {unused} ? MPI_BYTE : {n}, \"{n}\");")
            else:
                L.pre.append(f"auto* {n}_o = c.lookup_{obj}({n}, \"{n}\");")
            L.pre.append(f"if ({n}_o == nullptr) return c.fail();")
            if obj == "errhandler" and lowering.creates_session(fn):
                L.pre.append(f"c.target_session_init({n}_o);")
            if first_target and obj in ("comm", "win"):
                L.pre.append(f"c.target({n}_o);")
            L.arg = f"*{n}_o"
        elif p.dir == "in" and p.c_decl and "*" in p.c_decl:  # MPI_Cancel's MPI_Request*
            L.pre.append(_null_check(p))
            L.arg = f"mpiattr::cbind::to_handle(*{n})"
        elif p.dir == "in":
            if obj == "file":  # the core checks it; errors go to its handler, else MPI_FILE_NULL's
                L.pre.append(f"c.target_file(mpiattr::cbind::to_handle({n}));")
            if obj == "session":  # the core checks it; errors go to the session's handler (D49)
                L.pre.append(f"c.target_session(mpiattr::cbind::to_handle({n}));")
            L.arg = f"mpiattr::cbind::to_handle({n})"
        elif p.dir == "out":
            L.pre.append(_null_check(p))
            L.pre.append(f"mpiattr::handle_t {n}_h = mpiattr::cbind::to_handle({_NULL[obj]});")
            L.arg = f"{n}_h"
            # A failed call leaves the null handle (the core never returns half-built objects).
            L.always.append(f"*{n} = mpiattr::cbind::to_c<{k.c}>({n}_h);")
        else:  # inout: the core looks the handle up; the binding picks the error handler
            L.pre.append(_null_check(p))
            L.pre.append(f"mpiattr::handle_t {n}_h = mpiattr::cbind::to_handle(*{n});")
            if first_target and obj in ("comm", "win"):
                L.pre.append(f"c.target(c.peek_{obj}({n}_h));")
            if obj == "file":  # MPI_File_close: errors go to the file's handler
                L.pre.append(f"c.target_file({n}_h);")
            if obj == "session":  # MPI_Session_finalize: errors go to the session's handler (D49)
                L.pre.append(f"c.target_session({n}_h);")
            L.arg = f"{n}_h"
            # A request or message the call freed or consumed is gone even when it failed (a
            # truncated receive, a failing query_fn): written back whatever the call returned.
            (L.always if obj in ("request", "message") else L.post).append(
                f"*{n} = mpiattr::cbind::to_c<{k.c}>({n}_h);")
    elif k.cls == "keyval":
        if p.dir == "in":
            L.arg = n
        else:
            L.pre.append(_null_check(p))
            L.arg = f"*{n}"
    elif k.cls == "attr":
        if p.dir == "in":
            L.arg = f"mpiattr::attribute_value::from_c({n})"
        else:
            L.pre.append(_null_check(p))
            L.pre.append(f"mpiattr::attr_read {n}_r;")
            L.arg = f"{n}_r"
            L.post.append(f"if ({n}_r.found) *static_cast<void**>({n}) = {n}_r.as_c();")
    elif k.cls == "extra":
        L.arg = f"reinterpret_cast<mpiattr::aint>({n})"
    elif k.cls == "function":
        L.arg = f"reinterpret_cast<mpiattr::fnptr>({n})"
    elif k.cls == "logical" and p.length is not None:  # periods, remain_dims: C ints, 0 is false
        L.arg = n
    elif k.cls == "logical" and p.dir == "in":  # MPI_Op_create's commute
        L.arg = f"{n} != 0"
    elif k.cls == "logical":
        L.pre.append(_null_check(p))
        L.pre.append(f"bool {n}_b = false;")
        L.arg = f"{n}_b"
        L.post.append(f"*{n} = {n}_b ? 1 : 0;")
    elif k.cls in ("scalar", "error"):
        if p.length is not None:
            L.arg = n
        elif p.dir == "in":
            L.arg = n
        else:
            L.pre.append(_null_check(p))
            L.arg = f"*{n}"
    elif k.cls == "string":
        size = _string_size_param(fn, p)
        if size is not None:  # a size of 0 asks for the length only: the string is not written (D121)
            L.pre.append(f'if ({n} == nullptr && {size.name} != nullptr && *{size.name} != 0) '
                         f'return c.null_pointer("{n}");')
        else:
            L.pre.append(_null_check(p))
        L.arg = n
    elif k.cls == "buffer":
        if k.name == "C_BUFFER" and p.dir == "out":
            L.pre.append(_null_check(p))
        L.arg = n
    elif k.cls == "buffer_address":  # MPI_Buffer_detach's buffer_addr: a void** in a void*
        L.pre.append(_null_check(p))
        L.arg = f"*static_cast<void**>({n})"
    elif k.cls == "status":
        if p.dir == "in":  # MPI_Get_count: a status a completed operation wrote
            L.pre.append(_null_check(p))
            L.pre.append(f"const mpiattr::api::msg_status {n}_s = mpiattr::cbind::read_status({n});")
        elif p.dir == "inout":  # MPI_Status_set_elements, _set_cancelled: read, changed, written back whole
            L.pre.append(_null_check(p))
            L.pre.append(f"mpiattr::api::msg_status {n}_s = mpiattr::cbind::read_status({n});")
            L.post.append(f"mpiattr::cbind::set_status({n}, {n}_s, true);")
        elif p.length is not None:  # array_of_statuses, or MPI_STATUSES_IGNORE
            count = lowering.array_length(p, fn)
            L.pre.append(f"std::vector<mpiattr::api::msg_status> {n}_s({count} > 0 ? {count} : 0);")
            L.post.append(f"if ({n} != MPI_STATUSES_IGNORE) for (int i = 0; i < {lowering.written_count(fn, count)}; ++i) "
                          f"mpiattr::cbind::set_status(&{n}[i], {n}_s[i], true);")
            L.arg = f"{n}_s.data()"
            return L
        else:
            L.pre.append(f"mpiattr::api::msg_status {n}_s;")
            L.post.append(f"mpiattr::cbind::set_status({n}, {n}_s, false);")
        L.arg = f"{n}_s"
    elif k.cls == "fortran_status":  # MPI_Status_f082f, _f2f08: a Fortran status, copied whole
        L.pre.append(_null_check(p))
        L.pre.append(f'if (mpiattr::cbind::fortran_status_ignore({n})) return c.ignored_status("{n}");')
        L.arg = n
    elif k.cls in ("argc", "argv"):
        L.arg = n
    elif k.cls == "varargs":  # MPI_Pcontrol's ...: the core receives none (D50)
        pass
    else:
        raise ValueError(f"{fn.origin}: no C lowering for kind {k.name}")
    return L


def _peek(p: Param) -> str:
    return f"c.target(c.peek_{p.kind.object}(mpiattr::cbind::to_handle({p.name})));"


def lowerings(fn: Function) -> list[Lowering]:
    return lowering.lowerings(fn, lower, _peek)


def core_args(fn: Function) -> str:
    return lowering.core_args(fn, lowerings(fn), "mpiattr::language::c")


def buffer_checks(fn: Function) -> list[str]:
    """Each buffer's NULL test, after the lookups (lowering.buffer_checks, D111)."""
    return lowering.buffer_checks(fn, lambda n: n, lambda n: n)


def return_expr(fn: Function) -> str:
    """What a routine that returns a value instead of an error code returns (MPI_Wtime, and the
    handle conversions of spec/interop.toml, which are value casts: handles are the same integer
    in C and Fortran, D1)."""
    if fn.core == "handle_c2f":
        return f"static_cast<MPI_Fint>(mpiattr::cbind::to_handle({fn.params[0].name}))"
    if fn.core == "handle_f2c":
        return (f"mpiattr::cbind::to_c<{fn.returns.c}>("
                f"static_cast<mpiattr::handle_t>({fn.params[0].name}))")
    if fn.core in BINDING_ROUTINES:  # done by the binding itself (docs/decisions.md D39)
        return f"mpiattr::cbind::{fn.core}({', '.join(p.name for p in fn.params)})"
    return f"mpiattr::api::{fn.core}({', '.join(p.name for p in fn.params)})"


# Routines that need no runtime and are carried out by the C binding (bindings_c/c_glue.h): address
# arithmetic and the status conversions between C and Fortran (docs/decisions.md D39), and between
# the two Fortran statuses (status_fortran_copy: MPI_Status_f082f and _f2f08, which return an error
# code through the error handler, not an error class, D51).
BINDING_ROUTINES = {"aint_add", "aint_diff", "status_c2f", "status_f2c", "status_c2f08", "status_f082c",
                    "status_fortran_copy"}


def core_entry(fn: Function) -> str:
    """The function a routine's entry point calls: its core entry point, or the binding's own
    (BINDING_ROUTINES)."""
    return f"mpiattr::{'cbind' if fn.core in BINDING_ROUTINES else 'api'}::{fn.core}"


# The object tables of mpiattr::runtime, by object kind.
_TABLE = {"comm": "comms", "type": "types", "win": "wins"}


def fast_path(fn: Function, concurrent: bool = False) -> str | None:
    """The fast-path attempt of a caching routine (cxx_core/include/mpiattr/fast.h,
    bindings_c/c_glue.h): an expression that is true when the call is done, or None for routines
    without one. concurrent: the form for MPI_THREAD_MULTIPLE (the *_concurrent functions, D67),
    which the checked path tries first."""
    sfx = "_concurrent" if concurrent else ""
    if not fn.object or fn.core not in ("get_attr", "set_attr", "create_keyval", "free_keyval"):
        return None
    if extension(fn):  # MPIX_*_create_keyval_x: its destructor is set at creation (checked path)
        return None
    obj = lowering.OBJECT_ENUM[fn.object]
    kind = f"mpiattr::object_kind::{obj}"
    names = [p.name for p in fn.params]
    if fn.core == "create_keyval":
        copy_fn, delete_fn, keyval, extra = names
        return (f"mpiattr::fast::create_keyval{sfx}<{kind}>(mpiattr::language::c, "
                f"reinterpret_cast<mpiattr::fnptr>({copy_fn}), "
                f"reinterpret_cast<mpiattr::fnptr>({delete_fn}), {keyval}, "
                f"reinterpret_cast<mpiattr::aint>({extra}))")
    if fn.core == "free_keyval":
        return f"mpiattr::fast::free_keyval{sfx}<{kind}>({names[0]})"
    args = (f"{kind}>(mpiattr::rt().{_TABLE[obj]}, "
            f"mpiattr::cbind::to_handle({names[0]}), {', '.join(names[1:])}")
    return f"mpiattr::cbind::fast_{'get' if fn.core == 'get_attr' else 'set'}{sfx}<{args})"


def predefined_body(pc: PredefinedCallback) -> list[str]:
    names = [p.name for p in pc.params]
    if pc.behaviour == "dup":  # R6.5: flag = 1, *out = in
        return [f"*static_cast<void**>({names[4]}) = {names[3]};", f"*{names[5]} = 1;",
                "return MPI_SUCCESS;"]
    if pc.behaviour == "null_copy":
        return [f"*{names[5]} = 0;", "return MPI_SUCCESS;"]
    return ["return MPI_SUCCESS;"]


def _voids(names) -> str:
    """`(void)a; (void)b;`: parameters a generated body does not use."""
    return " ".join(f"(void){n};" for n in names)


def unused_params(pc: PredefinedCallback) -> str:
    used = {"dup": {3, 4, 5}, "null_copy": {5}, "null_delete": set()}[pc.behaviour]
    return _voids(p.name for i, p in enumerate(pc.params) if i not in used)


def handle_types(spec: Spec) -> list[str]:
    seen = []
    for k in spec.kinds.values():
        if k.cls == "handle" and k.c not in seen:
            seen.append(k.c)
    return seen


# The error handler of a routine the standalone runtime does not carry out: its communicator's or
# window's (the first such handle it takes), a file's (MPI_ERRORS_RETURN: no file exists), else
# the no-object handler. That communicator or window is looked up as a routine carried out looks
# it up: an invalid one is its kind's error (MPI_ERR_COMM, MPI_ERR_WIN), as on the hosts, before
# the refusal (D103).
def unsupported_body(fn: Function) -> list[str]:
    why = fn.unsupported.replace("\\", "\\\\").replace('"', '\\"')
    out = []
    if tools(fn):  # no error handler, whether or not MPI is initialized (MPI-4.1 §16.3.10)
        names = [p.name for p in fn.params]
        return ([_voids(names)] if names else []) + [f'return c.unsupported_tool("{why}");']
    if fn.init == "during":
        out.append("if (!c.usable()) return c.fail();")
    handles = [p for p in fn.params if p.kind.cls == "handle" and p.length is None]
    first = handles[0] if handles else None
    names = [p.name for p in fn.params if p.kind.cls != "varargs"]
    if names:
        out.append(_voids(names))
    if lowering.io_routine(fn) or first is not None and first.kind.object == "file":
        out.append(f'return c.unsupported_on_file("{why}");')
        return out
    target = lowering.refusal_target(fn.params)
    if target is not None:
        t, obj = target.name, target.kind.object
        out.append(f'auto* {t}_o = c.lookup_{obj}({t}, "{t}");')
        out.append(f"if ({t}_o == nullptr) return c.fail();")
        out.append(f"c.target({t}_o);")
    out.append(f'return c.unsupported("{why}");')
    return out


# ---- the large-count forms MPI_X_c (MPI-4.1 §19.2, docs/decisions.md D47) ----

def _array_length(fn: Function, p: Param, narrowed: set) -> str:
    """The element count of an array parameter of a large-count form: its length parameter (the
    narrowed copy where it has one), or for apis.json's "*" (the counts and displacements of the
    v-collectives) the size of the routine's communicator, or for a neighbourhood collective the
    topology's in-degree (receive side: recvcounts, rdispls, displs) or out-degree (send side)."""
    if p.length == "*":
        return lowering.per_process_length(fn, p)
    length = str(p.length)
    return f"{length}_n" if length in narrowed else length


def _large_lower(fn: Function, p: Param, first: bool, narrowed: set) -> tuple[list[str], Lowering]:
    """A parameter of a large-count form that the core takes in its own (int or MPI_Aint) type:
    the lines that narrow it (run before any other parameter's, so that no lookup sees a value out
    of range), and its lowering. Inputs out of range are MPI_ERR_COUNT (D47); outputs are widened."""
    n, L = p.name, Lowering()
    if p.large_only:  # the large counts of a datatype's constructor: none (D47)
        if p.dir != "in" and p.length is None:
            L.pre.append(_null_check(p))
            L.post.append(f"*{n} = 0;")
        else:  # a maximum, or the array nothing is written to
            L.pre.append(f"(void){n};")
        return [], L
    if p.base_kind is None or p.kind.cls == "function":
        return [], lower(fn, p, first)
    t = p.base_kind.c
    fail = f'return c.fail(mpiattr::cbind::too_large("{n}", '
    if p.length is not None:
        length = _array_length(fn, p, narrowed)
        if p.dir == "in":
            check = [f"std::vector<{t}> {n}_n;",
                     f"if (const long long i = mpiattr::cbind::narrow_array({n}, {length}, {n}_n); i >= 0)",
                     f'  {fail}{n}[i], "{t}", i));']
            L.arg = f"{n} == nullptr ? nullptr : {n}_n.data()"
            return check, L
        L.pre.append(f"std::vector<{t}> {n}_n({length} > 0 ? {length} : 0);")
        L.arg = f"{n} == nullptr ? nullptr : {n}_n.data()"
        L.post.append(f"if ({n} != nullptr) for (std::size_t i = 0; i < {n}_n.size(); ++i) {n}[i] = {n}_n[i];")
        return [], L
    if p.dir == "in":
        narrowed.add(n)
        L.arg = f"{n}_n"
        return [f"{t} {n}_n{{}};",
                f'if (!mpiattr::cbind::narrow({n}, {n}_n)) {fail}{n}, "{t}"));'], L
    L.arg = f"{n}_n"
    L.post.append(f"*{n} = {n}_n;")
    if p.dir == "out":
        L.pre.append(_null_check(p))
        L.pre.append(f"{t} {n}_n{{}};")
        return [], L
    # inout (MPI_Pack's position): checked where the other inputs are, written back on success
    return [f"if ({n} == nullptr) return c.null_pointer(\"{n}\");", f"{t} {n}_n{{}};",
            f'if (!mpiattr::cbind::narrow(*{n}, {n}_n)) {fail}*{n}, "{t}"));'], L


def large_body(fn: Function) -> list[str]:
    """The body of a carried-out large-count form: the routine's own body around its core entry,
    with its widened parameters narrowed, or, where spec/large_count.toml names a core entry that
    takes the large types (fn.large_core), that entry called with them as they are."""
    out = []  # (after the template's `call c`, inside its guarded body)
    if fn.init == "during":
        out.append("if (!c.usable()) return c.fail();")
    if fn.large_core:
        lows = lowering.lowerings(fn, lower, _peek)
        core = fn.large_core
    else:
        checks, narrowed, lows = [], set(), []
        targeted = False
        for p in fn.params:
            first = not targeted and p.kind.cls == "handle" and p.kind.object in ("comm", "win")
            targeted = targeted or first
            pre, L = _large_lower(fn, p, first, narrowed)
            checks.extend(pre)
            lows.append(L)
        if checks:
            # An input out of range is raised on the routine's communicator's or window's handler,
            # as the routine's own errors are: choose it before narrowing (D47).
            target = next((p for p in fn.params if p.kind.cls == "handle" and p.length is None
                           and p.dir == "in" and p.kind.object in ("comm", "win")), None)
            if target is not None:
                out.append(_peek(target))
            if (fh := lowering.file_param(fn)) is not None:  # a file's: its handler (MPI-4.1 §15.7)
                out.append(f"c.target_file(mpiattr::cbind::to_handle({fh.name}));")
        out.extend(checks)
        core = fn.core
    return out + lowering.core_call(fn, lows, core, "mpiattr::language::c", buffer_checks(fn))


def thrown_nulls(fn: Function) -> list[str]:
    """What an entry point writes when its body throws (out of memory, D65): the null handle to
    each output handle, as a failed call leaves them (the call's `always` lines did not run)."""
    return [f"if ({p.name} != nullptr) *{p.name} = {_NULL[p.kind.object]};" for p in fn.params
            if p.kind.cls == "handle" and p.dir == "out" and p.length is None and p.kind.object in _NULL]


def large_forms(spec: Spec, fn: Function) -> list[Function]:
    f = spec.large_form(fn)
    return [f] if f else []


def filters(spec: Spec) -> dict:
    return {"c_params": c_params, "c_prototype": c_prototype, "c_return": c_return,
            "lowerings": lowerings, "core_args": core_args, "buffer_checks": buffer_checks, "core_entry": core_entry, "fast_path": fast_path, "predefined_body": predefined_body,
            "unused_params": unused_params, "return_expr": return_expr, "extension": extension,
            "unsupported_body": unsupported_body, "large_body": large_body, "thrown_nulls": thrown_nulls,
            "large_forms": lambda fn: large_forms(spec, fn)}


def context(spec: Spec) -> dict:
    return {"handle_types": handle_types(spec), "extension_typedefs": extension_typedefs(spec)}
