"""What the C and Fortran bindings share: each parameter is lowered to lines run before the core
call (checks, lookups, locals), the expression passed to the core, and lines run afterwards; the
core call's arguments follow from that. Each language supplies only its per-parameter rule."""
from __future__ import annotations

import re

from dataclasses import dataclass, field
from typing import Callable, Optional

from .model import Function, Param

OBJECT_ENUM = {"COMM": "comm", "WIN": "win", "TYPE": "type"}


@dataclass
class Lowering:
    pre: list[str] = field(default_factory=list)
    arg: str | None = None
    post: list[str] = field(default_factory=list)     # after a successful call
    always: list[str] = field(default_factory=list)   # after the call, whatever it returned


def array_length(p: Param, fn: Function | None = None) -> str:
    """An array parameter's length: its `length`, or for apis.json's "*" (the statuses of
    MPI_Waitall and the counts of MPI_Gatherv) the routine's `count`, the one length those
    routines have (`incount` for MPI_Waitsome and MPI_Testsome)."""
    if p.length == "*":
        return "incount" if fn is not None and any(q.name == "incount" for q in fn.params) else "count"
    return str(p.length)


def written_count(fn: Function, length: str) -> str:
    """How many entries of an OUT status array a routine writes: all `length`, or for
    MPI_Waitsome and MPI_Testsome the `outcount` first ones (none when it is MPI_UNDEFINED);
    `length` is how the binding names the array length, outcount's value is `*outcount`."""
    if any(q.name == "outcount" for q in fn.params):
        return "(*outcount == MPI_UNDEFINED ? 0 : *outcount)"
    return length


def lowerings(fn: Function, lower: Callable[[Function, Param, bool], Lowering],
              peek: Optional[Callable[[Param], str]] = None) -> list[Lowering]:
    """Lowers every parameter; the first communicator or window argument also picks the error
    handler (docs/decisions.md D4), which `lower` is told through its third argument. Where other
    handles come before it (MPI_Send's datatype), `peek(p)` gives the line that picks it first,
    before any of them is looked up, so that their errors too go to its handler (D116); and where
    `lower` looks it up, that lookup moves first too, so that an invalid communicator or window
    is its own error (MPI_ERR_COMM, MPI_ERR_WIN) whatever else is wrong, as on both hosts (D146)."""
    out, targeted = [], False
    for p in fn.params:
        first = not targeted and p.kind.cls == "handle" and p.kind.object in ("comm", "win")
        targeted = targeted or first
        out.append(lower(fn, p, first))
    if peek is not None and (t := early_target(fn)) is not None:
        low = out[fn.params.index(t)]
        if any(f"lookup_{t.kind.object}(" in line for line in low.pre):
            out[0].pre[:0], low.pre = low.pre, []
        else:
            out[0].pre.insert(0, peek(t))
    if out and opens_file(fn):  # before any argument is checked: its errors too go there
        out[0].pre.insert(0, FILE_NULL_TARGET)
    return out


def early_target(fn: Function) -> Optional[Param]:
    """The communicator or window input whose handler takes a routine's errors (D4), when handles
    that are looked up come before it in the argument list (a datatype, an operation, a group);
    None when it comes first, or there is none."""
    for i, p in enumerate(fn.params):
        if p.kind.cls == "handle" and p.kind.object in ("comm", "win") and p.length is None:
            after_handles = any(q.kind.cls == "handle" for q in fn.params[:i])
            return p if after_handles and p.dir == "in" else None
    return None


# The error handler of a routine without a file to raise on: MPI_FILE_NULL's (MPI-4.1 §15.7).
FILE_NULL_TARGET = "c.target_file(mpiattr::gen::handle::file_null);"


def io_routine(fn) -> bool:
    """A routine of the I/O chapter (MPI-4.1 §15): one without a file raises on MPI_FILE_NULL's
    error handler (§15.7)."""
    return fn.name.startswith(("MPI_File_", "MPI_Register_datarep"))


def file_param(fn):
    """The file handle a routine takes as input (its error handler is the file's), or None."""
    return next((p for p in fn.params if p.kind.cls == "handle" and p.kind.object == "file"
                 and p.dir == "in" and p.length is None), None)


def opens_file(fn) -> bool:
    """The I/O routines without a file handle to raise on (MPI_File_open, MPI_File_delete,
    MPI_Register_datarep), whose errors go to MPI_FILE_NULL's error handler (MPI-4.1 §15.7), even an
    invalid communicator's."""
    return fn.core in ("file_delete", "register_datarep", "register_datarep_c") or any(
        p.kind.cls == "handle" and p.kind.object == "file" and p.dir == "out" for p in fn.params)


def core_args(fn: Function, lowered: list[Lowering], language: str) -> str:
    """The core call's arguments: those the routine's family implies (the object kind of a keyval
    routine, the creating language of callbacks), then one per parameter the core receives."""
    prefix = []
    if fn.object and fn.core in ("create_keyval", "free_keyval"):
        prefix.append(f"mpiattr::object_kind::{OBJECT_ENUM[fn.object]}")
    if any(p.kind.cls == "function" for p in fn.params):  # (its callbacks' calling convention)
        prefix.append(language)
    return ", ".join(prefix + [L.arg for L in lowered if L.arg is not None])


def creates_session(fn) -> bool:
    """MPI_Session_init: its errors go to its errhandler argument (MPI-4.1 §11.3.1)."""
    return any(q.kind.cls == "handle" and q.kind.object == "session" and q.dir == "out"
               for q in fn.params)


def refusal_target(params):
    """The communicator or window whose error handler a routine the standalone runtime does not
    carry out uses (D36): the first such handle it takes as input (not always the first handle:
    MPI_Comm_spawn's comes after an info). Looked up first: an invalid one is its error (D103)."""
    return next((p for p in params if p.kind.cls == "handle" and p.length is None and p.dir == "in"
                 and p.kind.object in ("comm", "win")), None)


def ignoring_param(fn, p):
    """The parameter whose special value makes datatype p ignored: a buffer (MPI_IN_PLACE,
    MPI-4.1 §7.2.1) or an op (MPI_NO_OP: MPI_Get_accumulate's origin, §13.3.4.2)."""
    if not p.ignored_with:
        return None
    return next(q for q in fn.params if q.name == p.ignored_with)


def per_process_count(fn, p):
    """For a large-count form's array of apis.json length "*" (the counts and displacements of the
    v-collectives): the routine's communicator parameter, and which count sizes the array: "size"
    (one entry per process), or for a neighbourhood collective "in" (the topology's in-degree:
    the receive side's recvcounts, rdispls, displs) or "out" (out-degree: the send side's) (D48)."""
    comm = next(q for q in fn.params if q.kind.cls == "handle" and q.kind.object == "comm")
    if "eighbor_" not in fn.name:
        return comm, "size"
    return comm, "in" if p.name.startswith("r") or p.name == "displs" else "out"


def per_process_length(fn, p, comm_c=lambda name: name) -> str:
    """per_process_count's element count, as C++ of a binding; comm_c(name) is the MPI_Comm of
    the communicator parameter `name` there."""
    comm, which = per_process_count(fn, p)
    comm_c = comm_c(comm.name)
    if which == "size":
        return f"mpiattr::cbind::comm_size_of({comm_c})"
    return f"mpiattr::cbind::degree_of({comm_c}, {'true' if which == 'in' else 'false'})"


def buffered(fn):
    """The (buffer, count, datatype) parameters of each BUFFER whose element count and datatype
    are scalars: the count is the first parameter after the buffer that is not a buffer (MPI_Reduce's
    sendbuf shares recvbuf's), the datatype the one after it. Left out: a buffer whose datatype an
    op can make ignored (MPI_Get_accumulate's origin with MPI_NO_OP), and MPI_Exscan's recvbuf,
    undefined on rank 0 (MPI-4.1 §7.11.2). The bindings test each (buffer_checks, D111)."""
    out = []
    params = fn.params
    for i, p in enumerate(params):
        if p.kind.name != "BUFFER" or p.length is not None:
            continue
        rest = [q for q in params[i + 1:] if q.kind.name != "BUFFER"]
        if len(rest) < 2:
            continue
        count, dt = rest[0], rest[1]
        if "NUM_ELEM" not in count.kind.name or count.length is not None:
            continue
        if not (dt.kind.cls == "handle" and dt.kind.object == "type" and dt.length is None):
            continue
        by = ignoring_param(fn, dt)
        if by is not None and by.kind.object == "op":
            continue
        if "exscan" in fn.core and p.name == "recvbuf":
            continue
        out.append((p, count, dt))
    return out


def in_place_allowed(fn) -> bool:
    """Whether MPI_IN_PLACE may stand for one of a routine's buffers: the collectives (MPI-4.1 §7,
    the neighbourhood ones of §9.6-9.8, whose core checks which buffer it may be), no other (D149)."""
    return re.match(r"MPI-4\.1 §(7|9\.[678])\b", fn.ref or "") is not None


def buffer_checks(fn, buf, count, name=lambda n: n) -> list[str]:
    """The bindings' test of each buffered(fn) triple, after every lookup (so that its error
    goes to the routine's handler): buf(name) and count(name) are the binding's expressions for
    them, name(name) the parameter's name in messages; the datatype is its lookup's `<name>_o`.
    Outside the collectives MPI_IN_PLACE is refused as well (in_place_allowed)."""
    tail = "" if in_place_allowed(fn) else ", false"
    return [f'if (!c.buffer_ok({buf(p.name)}, {count(n.name)}, *{t.name}_o, "{name(p.name)}"{tail})) return c.fail();'
            for p, n, t in buffered(fn)]


def core_call(fn, lows, core: str, language: str, checks=()) -> list[str]:
    """A large-count form's call into the core (after its checks): each parameter's lowering
    before, then `checks` (buffer_checks), the call of `core` in `language`, the failure path, and
    the outputs written after."""
    if core == "create_keyval":
        raise ValueError(f"{fn.origin}: no large-count form of a keyval constructor")
    out = [line for L in lows for line in L.pre]
    out += list(checks)
    out.append(f"mpiattr::status st = mpiattr::caught([&] {{ return mpiattr::api::{core}("
               f"{core_args(fn, lows, language)}); }});  // (D65)")
    out += [line for L in lows for line in L.always]
    out.append("if (!st.is_ok()) return c.fail(st);")
    out += [line for L in lows for line in L.post]
    out.append("return MPI_SUCCESS;")
    return out
