"""The C++ view of the spec: the MPI-2.2 `MPI::` bindings (mpicxx.h), implemented over the C API
only (every member calls MPI_* functions from mpi.h), so they can sit over another MPI too.

A spec entry's `cxx` key (one table, or a list of tables for overloads) says where a routine lives
in C++ and what it looks like (docs/cxx.md):
  class        "Comm", "Intracomm", "Intercomm", "Nullcomm", "Datatype", "Win", "Group",
               "Errhandler", "Info", "Request", "Status", "Op", or "" for a function in namespace MPI
  method       the C++ name
  const/static the member's qualifiers
  self         the parameter that is *this (default: the first handle parameter; name it when
               that is not the object, as for Comm::Send's comm or Status::Get_count's status)
  returns      the OUT parameter returned as the value (otherwise OUT parameters are references)
  return_type  the C++ type returned, when the kind table's type is not it (Dup -> Intracomm)
  clone        return a new T holding the result as a T& (Clone; allocated before the call)
  omit         parameters the overload leaves out (passed as null pointers, MPI::Init(), or as
               MPI_STATUS(ES)_IGNORE). An OUT status needs no entry of its own: every routine with
               one gets both MPI-2.2 forms, with `Status&` (or `Status[]`) and without.
  param_types  { name = "C++ declaration type" } for a parameter the kind table cannot type
  order        the C++ parameters' names in the order MPI-2.2 gives them, where it is not C's
               (Datatype::Unpack takes position after outcount)
  raise_pending  the routine invokes an error handler itself (Call_errhandler): throw if it was
               MPI::ERRORS_THROW_EXCEPTIONS
On callbacks: { class, name } of the typedef, const_in for a const attribute_val_in, host_forms
(the forms a host's own bindings accept beside the annex's, D59: [{ name, host, const_in }]), and
returns
where C++'s return type is not C's (Datarep_extent_function: void); a parameter's own `cxx` gives
its declaration where MPI-2.2 departs from other_callback_typedef's rule (D54).

Parameters follow their kind class: handles as `const T&` (arrays as `T[]`, converted element by
element), OUT scalars as references, buffers as `const void*` / `void*`, strings as
`const char*` / `char*`, FUNCTION parameters through CXX_FUNCTIONS below. So a routine added to the
runtime later gets its C++ binding from its `cxx` key alone.

Each C++ member becomes a `Member`: its declaration and body lines. Templates only lay out
classes and loop over members; all knowledge of kinds lives here and in spec/kinds.toml."""
from __future__ import annotations

import re

from dataclasses import dataclass, field

from .. import lowering
from ..model import Callback, Function, Param, Spec, SpecError

OUTPUTS = [
    ("cxx/mpicxx.h.j2", "include/mpicxx.h"),
    ("cxx/constants.cc.j2", "src/bindings_cxx/constants.cc"),
]

_CXX_KEYS = {"class", "method", "const", "static", "self", "returns", "return_type", "clone",
             "omit", "param_types", "raise_pending", "order", "lengths", "unused"}
# `unused`: C++ parameters MPI-2.2 prints that the C routine has no use for, first (Annex A.4's
# `Distgraphcomm::Get_dist_neighbors_count(int rank, int indegree[], ...)`).
# `lengths`: { param = how } for an array whose length the C binding does not pass (see _len).
_CLASSES = ("", "Comm", "Intracomm", "Intercomm", "Nullcomm", "Cartcomm", "Graphcomm",
            "Distgraphcomm", "Datatype", "Win", "File", "Group", "Errhandler", "Info", "Request", "Prequest", "Grequest", "Status",
            "Op")
# The C++ class that wraps each object table's handles, and its null constant in C.
_HANDLE_CLASS = {"comm": "Comm", "type": "Datatype", "win": "Win", "group": "Group",
                 "errhandler": "Errhandler", "info": "Info", "request": "Request", "op": "Op",
                 "file": "File"}
_C_NULL = {"comm": "MPI_COMM_NULL", "type": "MPI_DATATYPE_NULL", "win": "MPI_WIN_NULL",
           "group": "MPI_GROUP_NULL", "errhandler": "MPI_ERRHANDLER_NULL", "info": "MPI_INFO_NULL",
           "request": "MPI_REQUEST_NULL", "op": "MPI_OP_NULL", "file": "MPI_FILE_NULL"}
# The kind of object a class's handle is (for an MPI::Errhandler argument: which C handler).
_CLASS_OBJECT = {"Comm": "comm", "Intracomm": "comm", "Intercomm": "comm", "Nullcomm": "comm",
                 "Cartcomm": "comm", "Graphcomm": "comm", "Distgraphcomm": "comm", "Datatype": "type", "Win": "win",
                 "File": "file", "Group": "group", "Errhandler": "errhandler", "Info": "info",
                 "Request": "request", "Prequest": "request", "Grequest": "request", "Op": "op"}
_OBJ_ENUM = {"COMM": "comm", "WIN": "win", "TYPE": "type"}
# Caching routines whose C++ member needs the hand-written glue (bindings_cxx/cxx_glue.cc): a
# keyval with C++ callbacks is a C keyval over trampolines (docs/cxx.md C1).
_GLUE_CORES = {"create_keyval"}
# C function types that MPI-2.2 takes as C++ functions: the typedef's name in the member's class
# and the glue function that gives a C function calling the C++ one (bindings_cxx/cxx_glue.cc).
# A FUNCTION parameter of another type has no generated C++ binding until it is added here and
# in the glue (MPI_User_function, for Op::Init, when the runtime has MPI_Op_create).
CXX_FUNCTIONS = {"MPI_Comm_errhandler_function": ("Errhandler_function", "comm_errhandler_fn"),
                 "MPI_Win_errhandler_function": ("Errhandler_function", "win_errhandler_fn"),
                 "MPI_File_errhandler_function": ("Errhandler_function", "file_errhandler_fn")}
# Function parameters whose glue needs the whole call (the C function cannot find the C++ one
# from its own arguments): the member's body is one call to the named glue function with the C++
# arguments (bindings_cxx/cxx_glue.cc). Op::Init (MPI_User_function has no extra_state),
# Grequest::Start and Register_datarep (their C++ functions take MPI:: objects).
CXX_GLUE_CALLS = {"MPI_Op_create": "op_init", "MPI_Grequest_start": "grequest_start",
                  "MPI_Register_datarep": "register_datarep"}
# C++ types of the function parameters CXX_GLUE_CALLS bind, as MPI-2.2 gives them, without the
# `const` A.4 puts before Grequest's function types: a cv-qualifier on a function type is ignored
# (the type is the same), and clang's -Wextra warns of it in every program that includes mpi.h.
CXX_GLUE_TYPES = {"MPI_User_function": "User_function*",
                  "MPI_Grequest_query_function": "Grequest::Query_function*",
                  "MPI_Grequest_free_function": "Grequest::Free_function*",
                  "MPI_Grequest_cancel_function": "Grequest::Cancel_function*",
                  "MPI_Datarep_conversion_function": "Datarep_conversion_function*",
                  "MPI_Datarep_extent_function": "Datarep_extent_function*"}

# MPI-2.2's C++ names of predefined datatypes where they are not the C name without "MPI_"
# (MPI-2.2 §16.1.6 tables): MPI::TWOINT, the Fortran COMPLEX and DOUBLE COMPLEX as
# MPI::F_COMPLEX and MPI::F_DOUBLE_COMPLEX (MPI::COMPLEX and MPI::DOUBLE_COMPLEX are the C++
# complex<float> and complex<double>, MPI_CXX_FLOAT_COMPLEX and MPI_CXX_DOUBLE_COMPLEX), the C++
# bool type MPI::BOOL (MPI_CXX_BOOL), and the Fortran pairs MPI::TWOREAL, ... (MPI_2REAL, ...).
DATATYPE_NAMES = {"MPI_2INT": ("TWOINT",), "MPI_COMPLEX": ("F_COMPLEX",),
                  "MPI_DOUBLE_COMPLEX": ("F_DOUBLE_COMPLEX",), "MPI_C_BOOL": ("C_BOOL",),
                  "MPI_CXX_BOOL": ("BOOL",), "MPI_CXX_FLOAT_COMPLEX": ("COMPLEX",),
                  "MPI_CXX_DOUBLE_COMPLEX": ("DOUBLE_COMPLEX",),
                  "MPI_CXX_LONG_DOUBLE_COMPLEX": ("LONG_DOUBLE_COMPLEX",),
                  "MPI_2REAL": ("TWOREAL",), "MPI_2DOUBLE_PRECISION": ("TWODOUBLE_PRECISION",),
                  "MPI_2INTEGER": ("TWOINTEGER",)}


def cxx_entries(fn: Function) -> list[dict]:
    """The routine's C++ overloads, validated."""
    raw = fn.cxx
    if raw is None:
        return []
    entries = raw if isinstance(raw, list) else [raw]
    for e in entries:
        extra = set(e) - _CXX_KEYS
        if extra:
            raise SpecError(f"{fn.origin}: cxx: unknown key(s) {sorted(extra)}; allowed: "
                            f"{sorted(_CXX_KEYS)}")
        if e.get("class") not in _CLASSES or "method" not in e:
            raise SpecError(f"{fn.origin}: cxx needs a class among {_CLASSES} and a method")
        for key in ("self", "returns"):
            if e.get(key) is not None:
                _param(fn, e[key], f"cxx {key}")
    return entries


def _param(fn: Function, name: str, what: str) -> Param:
    """A parameter by name, or the one parameter of that kind class (`returns = "keyval"`)."""
    hits = [p for p in fn.params if p.name == name] or [p for p in fn.params if p.kind.cls == name]
    if len(hits) != 1:
        raise SpecError(f"{fn.origin}: {what} {name!r} names no parameter")
    return hits[0]


def _base_type(kind) -> str:
    t = kind.cxx or ""
    return t[5:] if t.startswith("MPI::") else t


@dataclass
class Member:
    cls: str
    name: str
    ret: str
    params: list[str]
    body: list[str] = field(default_factory=list)
    const: bool = False
    static: bool = False
    origin: str = ""

    @property
    def decl(self) -> str:
        # `inline` in the declaration too: an out-of-class inline virtual (Clone) must not become
        # the class's key function, or every TU including mpi.h would emit its vtable.
        return (f"{'static ' if self.static else ''}inline {self.ret} {self.name}("
                f"{', '.join(self.params)})"
                f"{' const' if self.const else ''}")

    @property
    def synopsis(self) -> str:
        """The declaration as a user reads it (the manual pages): qualified, without `inline`."""
        scope = f"MPI::{self.cls}::" if self.cls else "MPI::"
        return (f"{'static ' if self.static else ''}{self.ret} {scope}{self.name}("
                f"{', '.join(self.params)}){' const' if self.const else ''}")


def _self_param(fn: Function, e: dict):
    if not e.get("class") or e.get("static"):
        return None
    if e.get("self"):
        return _param(fn, e["self"], "cxx self")
    for p in fn.params:
        if p.kind.cls == "handle":
            return p
    raise SpecError(f"{fn.origin}: cxx member of {e['class']} has no handle parameter for *this")


def _length(fn: Function, p: Param) -> str:
    """The C++ expression of a 1-D array's length: its length parameter (or constant)."""
    if not isinstance(p.length, str):
        raise SpecError(f"{fn.origin}: array {p.name} of handles or statuses needs a 1-D length")
    return lowering.array_length(p)


def _len(fn: Function, e: dict, p: Param, pre: list[str]) -> str:
    """An array's length, or the lines that compute it when the C binding's is not a parameter
    (cxx key `lengths`): "cartdim" (the communicator's Cartesian dimensions: Cartcomm::Sub),
    "commsize" (its group's size, the remote one on an intercommunicator: Alltoallw's
    datatypes), or another parameter's name (Waitsome's statuses: incount)."""
    how = e.get("lengths", {}).get(p.name)
    if how is None:
        return _length(fn, p)
    n = f"{p.name}_n"
    if how == "cartdim":
        pre += [f"int {n} = 0;", f"mpiattr_detail::check(MPI_Cartdim_get(mpiattr_handle_, &{n}));"]
    elif how == "commsize":
        pre += [f"int {n} = 0, {n}_inter = 0;",
                f"mpiattr_detail::check(MPI_Comm_test_inter(mpiattr_handle_, &{n}_inter));",
                f"mpiattr_detail::check({n}_inter ? MPI_Comm_remote_size(mpiattr_handle_, &{n})"
                f" : MPI_Comm_size(mpiattr_handle_, &{n}));"]
    elif any(q.name == how for q in fn.params):
        return how
    else:
        raise SpecError(f"{fn.origin}: cxx lengths: {p.name} = {how!r}: 'cartdim', 'commsize' or "
                        f"a parameter")
    return n


def _array_decl(p: Param, t: str) -> str:
    """`const int ranks[]`, `const int ranges[][3]`, `int ranks[]`."""
    dims = p.length if isinstance(p.length, list) else [p.length]
    extra = "".join(f"[{d}]" for d in dims[1:])
    return f"{'const ' if p.dir == 'in' else ''}{t} {p.name}[]{extra}"


def _array_arg(p: Param, t: str) -> str:
    """An IN array whose C parameter is not const (MPI_Group_range_incl's int ranges[][3])."""
    if p.dir != "in" or p.const:
        return p.name
    dims = p.length if isinstance(p.length, list) else [p.length]
    ptr = f"{t}(*){''.join(f'[{d}]' for d in dims[1:])}" if len(dims) > 1 else f"{t}*"
    return f"const_cast<{ptr}>({p.name})"


def _absent(p: Param) -> str:
    """What an omitted parameter passes: the status-ignore constants, else a null pointer."""
    if p.kind.cls == "status":
        return "MPI_STATUSES_IGNORE" if p.length is not None else "MPI_STATUS_IGNORE"
    if p.kind.name == "WEIGHT":  # Dist_graph_create without weights (MPI-2.2 §7.5.4)
        return "MPI_UNWEIGHTED"
    return "0"


def member(fn: Function, e: dict) -> Member:
    cls = e["class"]
    self_p = _self_param(fn, e)
    ret_p = _param(fn, e["returns"], "cxx returns") if e.get("returns") else None
    omit = set(e.get("omit", ()))
    ptypes = e.get("param_types", {})
    params, pre, args, post = [], [], [], []
    ret_type, ret_expr = "void", None
    if fn.returns is not None:  # MPI_Wtime: the C function returns the value itself
        m = Member(cls, e["method"], _base_type(fn.returns), [], origin=fn.origin)
        m.body = [f"return {fn.name}();"]
        return m
    for p in fn.params:
        k, n = p.kind, p.name
        if p is self_p:
            if k.cls == "status":  # MPI::Status holds the C status itself
                args.append("const_cast<MPI_Status*>(&mpiattr_handle_)")
            elif p.dir == "in" and p.c_decl and "*" in p.c_decl:  # MPI_Cancel's MPI_Request*
                args.append(f"const_cast<{k.c}*>(&mpiattr_handle_)")
            else:
                args.append("mpiattr_handle_" if p.dir == "in" else "&mpiattr_handle_")
            continue
        if n in omit:
            args.append(_absent(p))
            continue
        returned = p is ret_p
        if k.cls == "handle" and p.length is not None:
            # An array of handles: converted to a C array and, unless IN, back (Waitall).
            cxx_t = ptypes.get(n) or _HANDLE_CLASS.get(k.object)
            length = _len(fn, e, p, pre)
            params.append(_array_decl(p, cxx_t))
            pre.append(f"std::vector<{k.c}> {n}_c({length} > 0 ? {length} : 0);")
            pre.append(f"for (int i = 0; i < {length}; ++i) {n}_c[i] = {n}[i].mpiattr_c();")
            args.append(f"{n}_c.empty() ? 0 : &{n}_c[0]")
            if p.dir != "in":
                post.append(f"for (int i = 0; i < {length}; ++i) {n}[i] = {cxx_t}({n}_c[i]);")
        elif k.cls == "handle":
            obj = k.object
            cxx_t = ptypes.get(n) or _HANDLE_CLASS.get(obj)
            if cxx_t is None:
                raise SpecError(f"{fn.origin}: no C++ class for {k.name}")
            if p.dir == "in":
                if n not in ptypes:
                    cxx_t = f"const {cxx_t}&"
                params.append(f"{cxx_t} {n}")
                if obj == "errhandler":
                    target = _CLASS_OBJECT[cls]
                    args.append(f"mpiattr_detail::c_errhandler({n}, mpiattr_detail::{target}_kind)")
                else:
                    args.append(f"{n}.mpiattr_c()")
            elif p.dir == "out":
                pre.append(f"{k.c} {n}_c = {_C_NULL[obj]};")
                args.append(f"&{n}_c")
                if not returned:  # File::Get_view's etype and filetype: references
                    params.append(f"{cxx_t}& {n}")
                    post.append(f"{n} = {cxx_t}({n}_c);")
                    continue
                ret_type = e.get("return_type", cxx_t)
                if obj == "errhandler":
                    ret_expr = f"mpiattr_detail::cxx_errhandler({n}_c)"
                else:
                    ret_expr = f"{ret_type}({n}_c)"
            else:
                raise SpecError(f"{fn.origin}: INOUT handle {n} other than *this")
        elif k.cls == "status":
            if p.length is not None:  # Waitall's array_of_statuses
                length = _len(fn, e, p, pre)
                params.append(f"Status {n}[]")
                pre.append(f"std::vector<MPI_Status> {n}_c({length} > 0 ? {length} : 1);")
                args.append(f"&{n}_c[0]")
                post.append(f"for (int i = 0; i < {length}; ++i) {n}[i] = Status({n}_c[i]);")
            else:
                params.append(f"{'const ' if p.dir == 'in' else ''}Status& {n}")
                args.append(f"{n}.mpiattr_c_status()")
        elif k.cls == "varargs":  # Pcontrol(const int level, ...): the C call gets none
            params.append("...")
        elif k.cls == "string_array":  # argv: const in C++, as MPI-2.2 prints it
            cxx_t = "const char**" if k.c == "char**" else "const char*"
            params.append(f"{cxx_t} {n}[]")
            args.append(f"const_cast<{k.c}*>({n})")
        elif k.cls == "buffer_address":  # Detach_buffer(void*& buffer)
            params.append(f"void*& {n}")
            args.append(f"&{n}")
        elif k.cls == "logical" and p.length is not None:  # bool[] <-> int[] (Create_cart)
            length = _len(fn, e, p, pre)
            params.append(_array_decl(p, "bool"))
            pre.append(f"std::vector<int> {n}_c({length} > 0 ? {length} : 1);")
            if p.dir != "out":
                pre.append(f"for (int i = 0; i < {length}; ++i) {n}_c[i] = {n}[i] ? 1 : 0;")
            args.append(f"&{n}_c[0]")
            if p.dir != "in":
                post.append(f"for (int i = 0; i < {length}; ++i) {n}[i] = {n}_c[i] != 0;")
        elif k.cls == "function":
            if p.func_type not in CXX_FUNCTIONS:
                raise SpecError(f"{fn.origin}: no C++ binding for function type {p.func_type} "
                                f"(CXX_FUNCTIONS in lang/cxx.py)")
            typedef, glue = CXX_FUNCTIONS[p.func_type]
            params.append(f"{typedef}* {n}")
            args.append(f"mpiattr_detail::{glue}({n})")
        elif k.cls in ("scalar", "keyval", "error") or k.cls == "logical":
            t = "bool" if k.cls == "logical" else _base_type(k)
            if n in ptypes:  # as MPI-2.2 prints it: `int recvcounts[]`, `int nnodes[]` (an OUT int)
                params.append(f"{ptypes[n].removesuffix('[]')} {n}[]" if ptypes[n].endswith("[]")
                              or p.length is not None else f"{ptypes[n]} {n}")
                args.append(n)
            elif p.length is not None:
                params.append(_array_decl(p, t))
                args.append(_array_arg(p, "int" if k.cls == "logical" else t))
            elif p.dir == "in":
                params.append(f"{t} {n}")
                args.append(n)
            elif returned:
                ctype = "int" if k.cls == "logical" else t
                pre.append(f"{ctype} {n}_c = 0;")
                args.append(f"&{n}_c")
                ret_type = t
                ret_expr = f"{n}_c != 0" if k.cls == "logical" else f"{n}_c"
            elif k.cls == "logical":
                params.append(f"bool& {n}")
                pre.append(f"int {n}_c = 0;")
                args.append(f"&{n}_c")
            else:
                params.append(f"{t}& {n}")
                args.append(f"&{n}")
        elif k.cls == "attr":
            params.append(f"{'const ' if p.dir == 'in' else ''}void* {n}")
            args.append(f"const_cast<void*>({n})" if p.dir == "in" else n)
        elif k.cls == "string":
            params.append(f"{'const ' if p.dir == 'in' else ''}char* {n}")
            args.append(f"const_cast<char*>({n})" if p.dir == "in" else n)
        elif k.cls == "buffer":
            if p.dir == "out" and returned:
                pre.append(f"void* {n}_c = 0;")
                args.append(f"&{n}_c")
                ret_type, ret_expr = "void*", f"{n}_c"
            elif p.dir == "in":
                params.append(f"{ptypes.get(n, 'const void*')} {n}")  # Get_address(void* location)
                args.append(f"const_cast<void*>({n})")
            else:
                params.append(f"void* {n}")
                args.append(n)
        elif k.cls == "argc":
            params.append(f"int& {n}")
            args.append(f"&{n}")
        elif k.cls == "argv":
            params.append(f"char**& {n}")
            args.append(f"&{n}")
        else:
            raise SpecError(f"{fn.origin}: no C++ binding for kind {k.name}")
    if e.get("unused"):
        params = [*e["unused"], *params]
        pre = ["(void)" + re.search(r"(\w+)$", d).group(1) + ";" for d in e["unused"]] + pre
    if e.get("order"):  # MPI-2.2's parameter order, where it is not C's
        by_name = {re.search(r"(\w+)(\[\])?$", d).group(1): d for d in params}
        if sorted(by_name) != sorted(e["order"]):
            raise SpecError(f"{fn.origin}: cxx order {e['order']} names not exactly the C++ "
                            f"parameters {sorted(by_name)}")
        params = [by_name[n] for n in e["order"]]
    body = list(pre)
    if e.get("clone"):
        # Clone's object is allocated before the C call: should the program's `new` fail, nothing
        # has been duplicated; should the call throw, the owner deletes the object (D64).
        body.insert(0, f"struct mpiattr_owner {{ {ret_type}* p; ~mpiattr_owner() {{ delete p; }} }} "
                       f"mpiattr_new = {{ new {ret_type} }};")
    call = f"{fn.name}({', '.join(args)})"
    if post:  # copy results back before a failure may throw
        body += [f"const int mpiattr_rc = {call};", *post, "mpiattr_detail::check(mpiattr_rc);"]
    else:
        body.append(f"mpiattr_detail::check({call});")
    for p in fn.params:
        if p.kind.cls == "logical" and p.dir == "out" and p is not ret_p and p.name not in omit \
                and p.length is None:
            body.append(f"{p.name} = {p.name}_c != 0;")
    if e.get("raise_pending"):
        body.append("mpiattr_detail::raise_pending();")
    if e.get("clone"):
        body += [f"*mpiattr_new.p = {ret_type}({ret_expr});",
                 f"{ret_type}* const mpiattr_result = mpiattr_new.p;", "mpiattr_new.p = 0;",
                 "return *mpiattr_result;"]
        ret_type += "&"
    elif ret_expr is not None:
        body.append(f"return {ret_expr};")
    return Member(cls, e["method"], ret_type, params, body, const=bool(e.get("const")),
                  static=bool(e.get("static")), origin=fn.origin)


def _glue_member(fn: Function, e: dict) -> Member:
    """A member whose C call the glue makes (CXX_GLUE_CALLS): Op::Init sets *this, Grequest::Start
    returns the request, Register_datarep returns nothing."""
    self_p = _self_param(fn, e)
    ret_p = _param(fn, e["returns"], "cxx returns") if e.get("returns") else None
    params, args = [], []
    for p in fn.params:
        k, n = p.kind, p.name
        if p is self_p or p is ret_p:
            continue
        if k.cls == "function":
            params.append(f"{CXX_GLUE_TYPES[p.func_type]} {n}")
        elif k.cls in ("extra", "attr"):
            params.append(f"void* {n}")
        elif k.cls == "logical":
            params.append(f"bool {n}")
        elif k.cls == "string":
            params.append(f"const char* {n}")
        else:
            raise SpecError(f"{fn.origin}: no glue call argument for kind {k.name}")
        args.append(n)
    call = f"mpiattr_detail::{CXX_GLUE_CALLS[fn.name]}({', '.join(args)})"
    if self_p is not None and self_p.dir == "out":  # Op::Init: the new handle is *this
        body, ret = [f"mpiattr_handle_ = {call};"], "void"
    elif ret_p is not None:
        ret = e.get("return_type", _HANDLE_CLASS[ret_p.kind.object])
        body = [f"return {ret}({call});"]
    else:
        body, ret = [f"{call};"], "void"
    return Member(e["class"], e["method"], ret, params, body, const=bool(e.get("const")),
                  static=bool(e.get("static")), origin=fn.origin)


def overloads(fn: Function, e: dict) -> list[dict]:
    """MPI-2.2 gives every routine with an OUT status two C++ forms: with a Status& (or an array
    of them) and without (MPI_STATUS_IGNORE): Recv, Wait, Test, Probe, Waitall, ..."""
    statuses = [p.name for p in fn.params if p.kind.cls == "status" and p.dir == "out"
                and p.name not in e.get("omit", ()) and p.name != e.get("self")]
    if not statuses:
        return [e]
    return [e, {**e, "omit": [*e.get("omit", ()), *statuses]}]


def _caching_member(fn: Function, e: dict, spec: Spec) -> list[Member]:
    """Create_keyval: four overloads (C++ or C callbacks, MPI-2.2 node151), and two more per host
    form of the copy function (D59: with a C++ or a C delete function), through the glue,
    which makes C++ callbacks a C keyval's trampolines (docs/cxx.md C1, C2)."""
    cls, obj = e["class"], _OBJ_ENUM[fn.object]
    if fn.core == "create_keyval":
        cbs = {cb.role: cb for cb in spec.attr_callbacks
               if cb.object == fn.object and cb.cxx and cb.cxx.get("class") == cls}
        c_copy = fn.params[0].func_type
        c_del = fn.params[1].func_type
        cxx_copy, cxx_del = cbs["copy"].cxx["name"], cbs["delete"].cxx["name"]
        # The copy forms a host's bindings take beside the annex's (D59): each is one more
        # argument of the glue's create_keyval_<obj>, after the annex's four, and two overloads.
        hosts = [f["name"] for f in host_forms(cbs["copy"])]
        if host_forms(cbs["delete"]):
            raise SpecError(f"{cbs['delete'].origin}: cxx.host_forms: only copy functions have "
                            "them")
        extra = fn.params[3].name
        out = []
        combos = [(cxx_copy, cxx_del), (c_copy, c_del), (cxx_copy, c_del), (c_copy, cxx_del)]
        combos += [(h, d) for h in hosts for d in (cxx_del, c_del)]
        for copy_t, del_t in combos:
            ca = [("copy_fn" if copy_t == c_copy else "0"), ("delete_fn" if del_t == c_del else "0"),
                  ("copy_fn" if copy_t == cxx_copy else "0"), ("delete_fn" if del_t == cxx_del else "0")]
            ca += [("copy_fn" if copy_t == h else "0") for h in hosts]
            out.append(Member(cls, "Create_keyval", "int",
                              [f"{copy_t}* copy_fn", f"{del_t}* delete_fn", f"void* {extra}"],
                              [f"return mpiattr_detail::create_keyval_{obj}({', '.join(ca)}, {extra});"],
                              static=True, origin=fn.origin))
        return out
    raise SpecError(f"{fn.origin}: no glue member for core {fn.core}")


def members(spec: Spec) -> dict[str, list[Member]]:
    """Every generated C++ member and namespace function, by class ("" = namespace MPI)."""
    out: dict[str, list[Member]] = {c: [] for c in _CLASSES}
    for fn in spec.functions:
        for m in routine_members(fn, spec):
            out[m.cls].append(m)
    return out


def routine_members(fn: Function, spec: Spec) -> list[Member]:
    """The C++ members and namespace functions one routine is bound to (none without `cxx`)."""
    out = []
    for e in cxx_entries(fn):
        if fn.object and fn.core in _GLUE_CORES:
            out.extend(_caching_member(fn, e, spec))
        elif fn.name in CXX_GLUE_CALLS:
            out.append(_glue_member(fn, e))
        else:
            out.extend(member(fn, v) for v in overloads(fn, e))
    return out


_ATTR_CALLBACK_KEYS = {"class", "name", "const_in", "host_forms"}
_HOST_FORM_KEYS = {"name", "const_in", "host"}


def host_forms(cb: Callback) -> list[dict]:
    """The forms of an attribute callback that a host's own C++ bindings take and Annex A.4 does
    not (spec `host_forms`, D59): each gets a typedef of its own name in the class and
    Create_keyval overloads beside the annex's."""
    extra = set(cb.cxx) - _ATTR_CALLBACK_KEYS
    if extra:
        raise SpecError(f"{cb.origin}: cxx: unknown key(s) {sorted(extra)}; allowed: "
                        f"{sorted(_ATTR_CALLBACK_KEYS)}")
    forms = cb.cxx.get("host_forms", [])
    for f in forms:
        bad = set(f) - _HOST_FORM_KEYS
        if bad or "name" not in f or "host" not in f:
            raise SpecError(f"{cb.origin}: cxx.host_forms: each form is "
                            f"{{ name, host, const_in }}; got {f}")
        if cb.role != "copy" and "const_in" in f:
            raise SpecError(f"{cb.origin}: cxx.host_forms: const_in is for a copy function")
    return forms


def callback_typedef(cb: Callback, form: dict | None = None) -> str:
    """typedef int Copy_attr_function(const Comm& oldcomm, ...) in the MPI-2.2 form, or in one of
    the callback's host forms (host_forms)."""
    spec_form = {**cb.cxx, **(form or {})}
    ps = []
    for i, p in enumerate(cb.params):
        k = p.kind
        if k.cls == "handle":
            cls = _HANDLE_CLASS[k.object]
            ps.append(f"{'const ' if cb.role == 'copy' else ''}{cls}& {p.name}")
        elif k.cls == "logical":
            ps.append(f"bool& {p.name}")
        elif k.cls in ("attr", "extra"):
            const = (spec_form.get("const_in") and p.dir == "in" and k.cls == "attr"
                     and cb.role == "copy")
            ps.append(f"{'const ' if const else ''}void* {p.name}")
        else:
            ps.append(f"{_base_type(k)} {p.name}")
    return f"typedef int {spec_form['name']}({', '.join(ps)})"


def predefined_cxx(spec: Spec) -> dict[str, list[dict]]:
    """The predefined callbacks as static members (Comm::DUP_FN) or, for the deprecated MPI-1 ones,
    functions of namespace MPI (MPI::DUP_FN): name, signature and body, by class."""
    out: dict[str, list[dict]] = {}
    for pc in spec.attr_predefined_callbacks:
        cb = pc.type
        if not cb.cxx:
            continue
        cls = cb.cxx["class"]
        short = pc.name[4:]
        for prefix in ("COMM_", "WIN_", "TYPE_"):
            if short.startswith(prefix):
                short = short[len(prefix):]
        sig = callback_typedef(cb).replace(f"typedef int {cb.cxx['name']}(", "")[:-1]
        names = [p.name for p in cb.params]
        if pc.behaviour == "dup":
            body = [f"*static_cast<void**>({names[4]}) = const_cast<void*>({names[3]});",
                    f"{names[5]} = true;"]
            unused = names[:3]
        elif pc.behaviour == "null_copy":
            body = [f"{names[5]} = false;"]
            unused = names[:5]
        else:
            body = []
            unused = names
        body = [f"(void){n};" for n in unused] + body + ["return MPI_SUCCESS;"]
        out.setdefault(cls, []).append({"name": short, "params": sig, "body": body,
                                        "c_name": pc.name})
    return out


def class_callbacks(spec: Spec) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for cb in spec.attr_callbacks:
        if cb.cxx:
            out.setdefault(cb.cxx["class"], []).append(callback_typedef(cb))
            for form in host_forms(cb):
                out[cb.cxx["class"]].append(callback_typedef(cb, form))
    return out


def _other_param(p) -> str:
    """A parameter of a callback type other than the attribute ones, as MPI-2.2 Annex A.4 declares
    it: a handle by reference, an output by reference, what C passes by address by pointer; where
    the annex departs from that, the spec's param `cxx` says it."""
    k, n = p.kind, p.name
    if p.cxx_decl:
        return p.cxx_decl
    if k.cls == "varargs":
        return "..."
    if k.cls == "handle":
        return f"{_HANDLE_CLASS[k.object]}& {n}"
    if k.cls in ("buffer", "extra"):
        return f"void* {n}"
    if k.cls == "status":
        return f"Status& {n}"
    t = "bool" if k.cls == "logical" else _base_type(k)
    if p.pointer:
        return f"{t}* {n}"
    return f"{t}& {n}" if p.dir != "in" else f"{t} {n}"


def other_callback_typedef(cb: Callback, scope: str = "") -> str:
    """typedef void Errhandler_function(Comm& comm, int* error_code, ...); `scope` before the name
    (MPI::Comm::, for the man page)."""
    extra = set(cb.cxx) - {"class", "name", "returns"}
    if extra:
        raise SpecError(f"{cb.origin}: cxx: unknown key(s) {sorted(extra)}; allowed: class, name, returns")
    ret = cb.cxx.get("returns") or (cb.returns.c if cb.returns else "int")
    return f"typedef {ret} {scope}{cb.cxx['name']}({', '.join(_other_param(p) for p in cb.params)})"


def other_callback_typedefs(spec: Spec) -> dict[str, list[str]]:
    """The MPI:: typedefs of the callback types other than the attribute ones (MPI-2.2 Annex A.4:
    Comm::Errhandler_function, User_function, Grequest::Query_function, ...), by class ("": of
    namespace MPI), each followed by its `_fn` alias where the C type has one (Errhandler_fn)."""
    out: dict[str, list[str]] = {}
    for cb in spec.callbacks:
        if cb.is_attr or not cb.cxx:
            continue
        name = cb.cxx["name"]
        lines = out.setdefault(cb.cxx["class"], [])
        lines.append(other_callback_typedef(cb))
        for _alias, _since in cb.aliases:
            lines.append(f"typedef {name} {name.replace('_function', '_fn')}")
    return out


def datatype_names(spec: Spec) -> list[tuple[str, str, bool]]:
    """(C++ name, C constant, optional) of every predefined datatype; an optional one exists over
    a host only where the host's mpi.h defines its C name."""
    out = []
    for d in spec.datatypes:
        for n in DATATYPE_NAMES.get(d.name, (d.name[4:],)):
            out.append((n, d.name, d.optional))
        for a in d.aliases:
            out.append((a[4:], d.name, d.optional))
    return out


def cxx_constant(name: str) -> str:
    return name[4:]


def filters(spec: Spec) -> dict:
    return {"cxx_constant": cxx_constant}


def context(spec: Spec) -> dict:
    return {"members": members(spec), "predefined": predefined_cxx(spec),
            "typedefs": class_callbacks(spec), "other_typedefs": other_callback_typedefs(spec),
            "datatype_names": datatype_names(spec)}
