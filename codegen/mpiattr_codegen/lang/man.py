"""The manual pages: one man3 page per routine, callback type and predefined callback, and the
mpiattr(7) overview, all rendered from the spec with the other families' own renderings of a
declaration (lang/c.py, lang/fortran.py, lang/cxx.py), so a page cannot disagree with the headers
and modules it documents.

Which error classes a routine can return is derived here, in ERRORS and errors(), from its
parameters' kinds, the way the C binding checks them (lang/c.py's lowering, bindings_c/c_glue.h)
and the core reports them (cxx_core: keyvals)."""
from __future__ import annotations

import re

from .. import lowering
from ..model import Callback, Function, Param, PredefinedCallback, Spec
from . import c as c_lang
from . import cxx as cxx_lang
from . import fortran as f_lang

OUTPUTS = []  # unused: outputs() lists one page per entry of the spec

MAN3 = "share/man/man3"
MAN7 = "share/man/man7"


def outputs(spec: Spec) -> list[tuple[str, str, dict]]:
    out = [("man/mpiattr.7.j2", f"{MAN7}/mpiattr.7", {})]
    for e in entries(spec):
        out.append(("man/page.3.j2", f"{MAN3}/{e.name}.3", {"page": page(spec, e)}))
    return out


def entries(spec: Spec) -> list:
    return [*spec.functions, *spec.callbacks, *spec.attr_predefined_callbacks]


# ---- roff ----

_CHARS = {"§": "section ", "≥": ">=", "≤": "<=", "—": r"\(em", "–": r"\(en", "’": "'",
          "“": r"\(lq", "”": r"\(rq", "…": "..."}


def roff(text: str) -> str:
    """Text safe in a roff line: backslashes escaped, ASCII only, no line read as a request."""
    text = text.replace("\\", r"\e")
    text = "".join(_CHARS.get(ch, ch if ord(ch) < 128 else f"\\[u{ord(ch):04X}]") for ch in text)
    return "\n".join((r"\&" + ln if ln[:1] in (".", "'") else ln) for ln in text.split("\n"))


# ---- the error classes a routine can return, and why ----

# The one table: (error class, why), per cause. ERR_HANDLE is per object kind, as the C binding's
# handle lookup raises it (c_glue.h lookup_*, lang/c.py _ERR); info and op handles are looked up by
# the core, which raises the same classes.
ERR_NOT_USABLE = ("MPI_ERR_OTHER", "MPI is not initialized yet, or has been finalized.")
ERR_NULL = "MPI_ERR_ARG"
ERR_KEYVAL = ("MPI_ERR_KEYVAL",
              "{n} is MPI_KEYVAL_INVALID, not a keyval, freed, created for another kind of object, "
              "or a predefined key that cannot be changed.")
ERR_CALLBACK = ("the callback's code",
                "a copy or delete callback that the routine ran returned this code instead of "
                "MPI_SUCCESS; the routine returns it (DESCRIPTION says what stays done).")
ERR_HANDLE = c_lang._ERR
# Routines that run attribute callbacks (copy on duplication, delete on deletion, replacement or
# freeing), by core operation.
# Caching routines that may need memory: out of memory fails them with nothing changed (D61).
ALLOCATES = {"set_attr", "comm_dup", "comm_dup_with_info", "comm_idup", "comm_idup_with_info",
             "type_dup"}
ERR_NO_MEM = ("MPI_ERR_NO_MEM",
              "out of memory: the routine changed nothing (a set leaves the old value, a "
              "duplication gives the null handle and runs the delete callback of any copy a copy "
              "callback made), and the message says what could not be allocated "
              "(docs/decisions.md D61).")
RUNS_CALLBACKS = {"set_attr", "delete_attr", "comm_dup", "comm_dup_with_info", "comm_idup",
                  "comm_idup_with_info", "type_dup", "comm_free", "type_free", "win_free",
                  "finalize"}


def _param_errors(p: Param) -> list[tuple[str, str]]:
    k, n = p.kind, p.name
    null = (ERR_NULL, f"{n} is a NULL pointer (in C).")
    if k.cls == "handle" and k.object == "file" and p.dir == "in":  # the core checks it
        return [("MPI_ERR_FILE", f"{n} is not MPI_FILE_NULL (the standalone runtime has no files).")]
    if k.cls == "handle" and k.object == "session" and p.dir != "out":  # the core checks it (D49)
        return ([] if p.dir == "in" else [null]) + [
            ("MPI_ERR_SESSION", f"{n} is MPI_SESSION_NULL or not a session (never initialized, or finalized).")]
    if k.cls == "handle":
        err = ERR_HANDLE[k.object]
        what = "{n} is the null handle or not a valid handle (freed, never created, or another kind's)."
        if p.length is not None and p.dir == "inout":  # array_of_requests: converted, not looked up
            return [(ERR_NULL, f"{n} is a NULL pointer and {p.length} > 0 (in C).")]
        if p.length == "*" and p.dir == "in":  # MPI_Alltoallw's datatypes: the core reads them
            return [(err, what.format(n=f"an element of {n} that the call uses"))]
        if p.length is not None and p.dir == "in":  # an array of handles, each looked up
            return [(ERR_NULL, f"{n} is a NULL pointer and {p.length} > 0 (in C)."),
                    (err, what.format(n=f"an element of {n}"))]
        if p.dir == "in" and p.c_decl and "*" in p.c_decl:  # MPI_Cancel's MPI_Request*
            return [null, (err, what.format(n="*" + n))]
        if p.dir == "in":
            return [(err, what.format(n=n))]
        if p.dir == "out":
            return [null]
        return [null, (err, what.format(n="*" + n))]
    if k.cls == "keyval":
        if p.dir == "out":  # a new keyval: only running out of them fails
            return [null, (ERR_KEYVAL[0], "every keyval is in use.")]
        kv = (ERR_KEYVAL[0], ERR_KEYVAL[1].format(n=n if p.dir == "in" else "*" + n))
        return [kv] if p.dir == "in" else [null, kv]
    if k.cls == "attr" and p.dir != "in":
        return [null]
    if k.cls == "logical" and (p.dir == "in" or p.length is not None):  # a value, or an array
        return []                                                          # the core checks
    if k.cls in ("logical", "string"):
        return [null]
    if k.cls == "status" and p.dir in ("in", "inout"):  # MPI_Get_count reads it, Status_set_elements too
        return [null]
    if k.cls == "buffer_address":  # MPI_Buffer_detach's void**
        return [null]
    if k.cls == "fortran_status":  # MPI_Status_f082f, _f2f08 (D51)
        return [(ERR_NULL, f"{n} is a NULL pointer (in C) or MPI_STATUS_IGNORE (in Fortran).")]
    if k.cls in ("scalar", "error") and p.length is None and p.dir != "in":
        return [null]
    if k.cls == "buffer" and k.name == "C_BUFFER" and p.dir == "out":
        return [null]
    return []


def error_handler(fn: Function) -> str:
    """Whose error handler the C binding raises the routine's errors on (lang/c.py's targets)."""
    objects = [p.kind.object for p in fn.params if p.kind.cls == "handle"]
    if "file" in objects:  # MPI-4.1 §9.3; standalone there are no open files (D36)
        return "the error handler of MPI_FILE_NULL"
    if "session" in objects:  # D49
        return ("the error handler of its session (of MPI_COMM_SELF when the session is not "
                "live)")
    return "the error handler of its first communicator or window argument (else of MPI_COMM_SELF)"


def errors(fn: Function) -> list[tuple[str, str]]:
    """(error class, why) for each way the C binding of the routine can fail, in order."""
    if fn.returns is not None:
        return []
    out = []
    if fn.init == "during":
        out.append(ERR_NOT_USABLE)
    if fn.unsupported:  # spec/surface.toml: the standalone runtime does not carry it out
        target = lowering.refusal_target(fn.params)
        if target is not None:  # looked up first (D103)
            out.extend(_param_errors(target))
        when = f"for any valid {target.name}" if target is not None else "always"
        out.append(("MPI_ERR_UNSUPPORTED_OPERATION",
                    f"{when}, in the standalone runtime: {fn.unsupported}. Over a host MPI "
                    f"(docs/host.md), the host's routine runs and raises what it raises."))
        return out
    for p in fn.params:
        for e in _param_errors(p):
            if e not in out:
                out.append(e)
    if fn.core in RUNS_CALLBACKS:
        out.append(ERR_CALLBACK)
    if fn.core in ALLOCATES:
        out.append(ERR_NO_MEM)
    return out


# ---- descriptions of what the spec does not describe ----

_CALLBACK_DESC = {
    "copy": "The type of a user-written copy callback, given to {creator}. It runs when an object "
            "carrying an attribute under the callback's key is duplicated: it sets flag to true "
            "and attribute_val_out to the value the new object gets, or flag to false to leave the "
            "attribute off the copy, and returns MPI_SUCCESS; any other return value fails the "
            "duplication with that code.",
    "delete": "The type of a user-written delete callback, given to {creator}. It runs when an "
              "attribute under the callback's key is deleted, replaced by a new value, or its object "
              "freed, and returns MPI_SUCCESS; any other return value fails that call with the "
              "code, and the attribute stays.",
}
_PREDEFINED_DESC = {
    "null_copy": "A predefined copy callback: it sets flag to false, so duplicated objects do not "
                 "get the attribute, and returns MPI_SUCCESS.",
    "dup": "A predefined copy callback: it sets flag to true and attribute_val_out to "
           "attribute_val_in, so the duplicate shares the attribute's value (for a pointer, the "
           "same object: the delete callback must not free it unless it counts references), and "
           "returns MPI_SUCCESS.",
    "null_delete": "A predefined delete callback: it does nothing and returns MPI_SUCCESS.",
}


def _creator(spec: Spec, cb) -> str:
    """The routine(s) that take this callback type."""
    names = [f.name for f in spec.functions
             if any(p.func_type == cb.name for p in f.params)]
    return " or ".join(names) or "a keyval-creating routine"


def description(spec: Spec, e) -> str:
    if isinstance(e, Function):
        return e.desc
    if isinstance(e, Callback) and e.desc:  # the other callback types (spec/callbacks.toml)
        return e.desc
    if isinstance(e, Callback):
        return _CALLBACK_DESC[e.role].format(creator=_creator(spec, e))
    return _PREDEFINED_DESC[e.behaviour] + f" It has the type {e.type.name}."


# ---- synopses ----

def _indent(lines: list[str]) -> list[str]:
    return ["    " + ln for ln in lines]


def fortran_synopsis(e) -> list[str] | None:
    """mpif.h and `use mpi`: the mpi module's interface (lang/fortran.py's declarations)."""
    if isinstance(e, Function) and not f_lang.has_binding(e):
        return None
    if isinstance(e, Callback) and (e.fortran or {}).get("binding", True) is False:
        return None  # the tool interface's events (MPI-4.1 §16.3)
    names = [p.name for p in f_lang.fparams(e)]
    decls = [f_lang.f_decl(p) for p in f_lang.fparams(e)]
    if isinstance(e, Function) and e.returns is not None:
        return [*wrap(f"{f_lang.f_return_type(e)} function {e.name.lower()}({', '.join(names)})",
                      cont=" &"), *_indent(decls)]
    if not e.ierror:  # MPI_PCONTROL(LEVEL): no error argument (MPI-4.1 §15.2.4)
        name = e.name[len("MPI_"):] if isinstance(e, Callback) else e.name  # a callback: the user's
        return [*wrap(f"subroutine {name.lower()}({', '.join(names)})", cont=" &"), *_indent(decls)]
    names.append(e.ierror)
    if isinstance(e, Callback):  # the user writes it; the name is theirs
        head = f"subroutine {e.name[len('MPI_'):].lower()}({', '.join(names)})"
        ierr = f"integer :: {e.ierror}"
    else:
        head = f"subroutine {e.name.lower()}({', '.join(names)})"
        ierr = f"integer, intent(out) :: {e.ierror}"
    return [*wrap(head, cont=" &"), *_indent(decls), "    " + ierr]


def f08_none(e) -> str:
    """Why an entry has no mpi_f08 binding."""
    if isinstance(e, Function) and not f_lang.has_binding(e):
        return "None: there is no Fortran binding."
    if isinstance(e, Callback) and (e.fortran or {}).get("binding", True) is False:
        return "None: there is no Fortran binding."
    if getattr(e, "removed", False):  # spec/removed.toml (D58)
        return "None: MPI\\-3.0 removed the routine, and mpi_f08 never had it."
    if e.deprecated:
        return "None: the deprecated MPI\\-1 attribute interface has no mpi_f08 binding."
    return "None."


def f08_synopsis(e) -> list[str] | None:
    if not f_lang.has_f08(e):
        return None
    lines = [ln.replace("\t", "    ") for ln in f_lang.f08_prototype(e).split("\n")]
    return [w for ln in lines for w in (wrap(ln, cont=" &") if "::" not in ln else [ln])]


def cxx_synopsis(spec: Spec, e) -> list[str]:
    if isinstance(e, Function):
        return [ln for m in cxx_lang.routine_members(e, spec) for ln in wrap(m.synopsis + ";")]
    if isinstance(e, Callback) and not e.is_attr:
        if not e.cxx:
            return []
        scope = f"MPI::{e.cxx['class']}::" if e.cxx["class"] else "MPI::"
        return wrap(cxx_lang.other_callback_typedef(e, scope) + ";")
    if isinstance(e, Callback):
        if not e.cxx:
            return []
        scope = f"MPI::{e.cxx['class']}::" if e.cxx["class"] else "MPI::"
        out = []
        for form in [None, *cxx_lang.host_forms(e)]:  # the annex's, then a host's (D59)
            name = (form or e.cxx)["name"]
            t = cxx_lang.callback_typedef(e, form)
            out += wrap(t.replace(f"typedef int {name}(", f"typedef int {scope}{name}(") + ";")
        return out
    for cls, items in cxx_lang.predefined_cxx(spec).items():
        for it in items:
            if it["c_name"] == e.name:
                scope = f"MPI::{cls}::" if cls else "MPI::"
                return wrap(f"{'static ' if cls else ''}int {scope}{it['name']}({it['params']});")
    return []


def _split_params(text: str) -> list[str]:
    """A parameter list split at its top-level commas."""
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += ch in "(<[" and 1 or 0
        depth -= ch in ")>]" and 1 or 0
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return out + ([cur.strip()] if cur.strip() else [])


def wrap(decl: str, width: int = 72, cont: str = "") -> list[str]:
    """A declaration `head(params)tail`, one parameter a line when it is wider than `width`;
    `cont` ends each continued line (Fortran's `&`)."""
    if len(decl) <= width or "(" not in decl:
        return [decl]
    head, _, rest = decl.partition("(")
    close = rest.rindex(")")
    params, tail = _split_params(rest[:close]), rest[close:]
    if len(params) < 2:
        return [decl]
    pad = " " * (len(head) + 1)
    lines = [f"{head}({params[0]},{cont}"]
    lines += [f"{pad}{p},{cont}" for p in params[1:-1]]
    lines.append(f"{pad}{params[-1]}{tail}")
    return lines


# ---- see also ----

def _family(e) -> str:
    """Routines without an object family group by name: MPI_Info_set with MPI_Info_*."""
    if getattr(e, "object", None):
        return "attr:" + e.object
    m = re.match(r"MPI_([A-Za-z]+)_", e.name)
    return "name:" + (m.group(1).lower() if m else e.name)


def _other_callback(x) -> bool:
    return isinstance(x, Callback) and not x.is_attr


def see_also(spec: Spec, e) -> list[str]:
    if _other_callback(e):  # the routines that take it (their large-count forms are on their pages)
        return [f.name for f in spec.functions if any(p.func_type == e.name for p in f.params)]
    fam = _family(e)
    out = [x.name for x in entries(spec) if x is not e and _family(x) == fam
           and not _other_callback(x)]
    if e.deprecated and e.deprecated.replacement not in out:
        out.insert(0, e.deprecated.replacement)
    return out


# ---- one page ----

def param_word(p: Param) -> str:
    """What a parameter is, in a few words, from its kind."""
    k = p.kind
    obj = {"comm": "communicator", "type": "datatype", "win": "window", "op": "operation",
           "errhandler": "error handler"}.get(k.object, k.object)
    words = {"handle": f"{obj} handle" if k.object else "handle", "keyval": "keyval",
             "attr": "attribute value", "extra": "extra state, handed to the callbacks",
             "function": f"callback, of type {p.func_type}", "logical": "logical flag",
             "string": "string", "status": "status", "buffer": "buffer", "error": "error code",
             "argc": "argument count", "argv": "argument vector"}
    w = words.get(k.cls, "integer" if (k.c or "") == "int" else (k.c or k.name.lower()))
    return w + (" array" if p.length is not None and k.cls not in ("string", "argv") else "")


def kind_word(e) -> str:
    if isinstance(e, Callback):
        return "callback type"
    if isinstance(e, PredefinedCallback):
        return "predefined callback"
    return "routine"


def page(spec: Spec, e) -> dict:
    c = c_lang.c_prototype(e) + ";"
    return {
        "name": e.name,
        "kind": kind_word(e),
        "summary": summary(spec, e),
        "ref": e.ref,
        "c": wrap(c),
        # Its large-count form MPI_X_c, on the same page (MPI-4.1 §19.2, docs/decisions.md D47).
        "c_large": (wrap(c_lang.c_prototype(spec.large_form(e)) + ";")
                    if isinstance(e, Function) and spec.large_form(e) else
                    wrap(c_lang.c_prototype(spec.callback_large_form(e)) + ";")
                    if isinstance(e, Callback) and spec.callback_large_form(e) else None),
        "fortran": fortran_synopsis(e),
        "f08": f08_synopsis(e),
        "f08_none": f08_none(e),
        "fortran_none": (f"None: MPICH, whose extension this {kind_word(e)} is, gives it no Fortran "
                         f"binding, and neither does mpiattr (docs/decisions.md D35)."
                         if c_lang.extension(e) else
                         f"None: this {kind_word(e)} cannot be expressed in Fortran."),
        "cxx": cxx_synopsis(spec, e),
        "desc": description(spec, e),
        "params": [(p.name, p.dir.upper(), param_word(p)) for p in e.params],
        "errors": errors(e) if isinstance(e, Function) else None,
        "error_handler": error_handler(e) if isinstance(e, Function) else None,
        "ierror": bool(e.ierror),  # MPI_PCONTROL(LEVEL) has none (MPI-4.1 §15.2.4)
        # The caching routines' errors all follow from their parameters; the runtime's routines
        # also check argument values their own way (runtime_standalone), which the list omits.
        "errors_complete": bool(getattr(e, "object", None)),
        "returns": e.returns.c if isinstance(e, Function) and e.returns else None,
        "deprecated": e.deprecated,
        "see_also": see_also(spec, e),
    }


def summary(spec: Spec, e) -> str:
    """The NAME line's one-line summary: the description's first sentence."""
    text = description(spec, e)
    first = re.split(r"(?<=[a-z0-9)])\. ", text, maxsplit=1)[0].rstrip(".")
    return first


def filters(spec: Spec) -> dict:
    return {"roff": roff}


def context(spec: Spec) -> dict:
    groups = [
        ("Attribute caching on communicators", [e.name for e in entries(spec)
                                                if getattr(e, "object", None) == "COMM" and not e.deprecated]),
        ("Attribute caching on windows", [e.name for e in entries(spec)
                                          if getattr(e, "object", None) == "WIN"]),
        ("Attribute caching on datatypes", [e.name for e in entries(spec)
                                            if getattr(e, "object", None) == "TYPE"]),
        ("Deprecated MPI-1 attribute routines", [e.name for e in entries(spec)
                                                 if getattr(e, "object", None) and e.deprecated]),
        ("Callback types of error handlers, reductions, generalized requests, data representations "
         "and tool events", [c.name for c in spec.callbacks if not c.is_attr]),
        ("The runtime the caching routines need", [f.name for f in spec.functions
                                                   if not f.object and f.core]),
        ("Routines the standalone runtime does not carry out (MPI_ERR_UNSUPPORTED_OPERATION; "
         "over a host MPI, the host's)", [f.name for f in spec.functions if f.unsupported]),
    ]
    return {"groups": [(t, ns) for t, ns in groups if ns],
            "version": f"{spec.version[0]}.{spec.version[1]}"}
