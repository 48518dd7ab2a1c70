"""Reads spec/*.toml into the frozen model of model.py, checking every key."""
from __future__ import annotations

import dataclasses
import tomllib
from typing import Optional
from pathlib import Path

from .model import (CALLBACK_ROLES, Callback, Datatype, Deprecation, ErrorClass, FortranRoutine, Function, Handle,
                    Kind, Op, Param, PredefinedCallback, PredefinedKey, Removed, SizeofSpecific,
                    Spec, SpecError)

_KIND_KEYS = {"class", "c", "f90", "f08", "cxx", "core", "object", "c_by_value_pointer", "origin_fortran",
              "c_large", "f08_large", "large_func_suffix", "c_array_as_pointer"}
_PARAM_KEYS = {"name", "kind", "dir", "lis", "func_type", "const", "length", "c", "asynchronous",
               "ignored_with", "pointer", "cxx", "null_ok"}
_FUNCTION_KEYS = {"name", "ref", "object", "core", "unsupported", "deprecated", "cxx", "fortran", "desc", "params",
                  "init", "returns", "ierror", "source"}
_CALLBACK_KEYS = {"name", "ref", "object", "role", "deprecated", "cxx", "params", "ierror",
                  "ierror_kind", "fortran", "returns", "aliases", "desc"}
_PREDEF_KEYS = {"name", "ref", "object", "type", "behaviour", "deprecated", "params", "ierror",
                "ierror_kind", "fortran"}
_FORTRAN_KEYS = {"binding", "f08"}
_FORTRAN_ROUTINE_KEYS = {"name", "ref", "does", "desc", "deprecated", "params", "specifics", "ierror"}
_SIZEOF_KEYS = {"tag", "type", "kind", "bytes"}
_DIRS = {"in", "out", "inout"}
_OBJECTS = {"COMM", "WIN", "TYPE"}


def _check_keys(table: dict, allowed: set, origin: str) -> None:
    extra = set(table) - allowed
    if extra:
        raise SpecError(f"{origin}: unknown key(s) {sorted(extra)}; allowed: {sorted(allowed)}")


def _core(e: dict, o: str) -> Optional[str]:
    """A routine is carried out by the core (`core`) or, standalone, not at all (`unsupported`:
    why one process cannot; its C binding raises MPI_ERR_UNSUPPORTED_OPERATION, over a host the
    host's routine answers). Exactly one of the two."""
    if ("core" in e) == ("unsupported" in e):
        raise SpecError(f"{o}: give exactly one of `core` (the core entry point) and "
                        f"`unsupported` (why the standalone runtime cannot carry it out)")
    if "unsupported" in e and not str(e["unsupported"]).strip():
        raise SpecError(f"{o}: `unsupported` must say why")
    return e.get("core")


def _need(table: dict, key: str, origin: str):
    if key not in table:
        raise SpecError(f"{origin}: missing key {key!r}")
    return table[key]


def _kinds(data: dict, origin: str) -> dict:
    kinds = {}
    for name, t in data.items():
        o = f"{origin}: kind {name}"
        _check_keys(t, _KIND_KEYS, o)
        kinds[name] = Kind(name=name, cls=_need(t, "class", o), c=t.get("c"), f90=t.get("f90"),
                           f08=t.get("f08", t.get("f90")), cxx=t.get("cxx"), core=t.get("core"), object=t.get("object"),
                           c_by_value_pointer=bool(t.get("c_by_value_pointer", False)),
                           origin_fortran=t.get("origin_fortran"), c_large=t.get("c_large"),
                           f08_large=t.get("f08_large"),
                           large_func_suffix=t.get("large_func_suffix"),
                           c_array_as_pointer=bool(t.get("c_array_as_pointer", False)))
    return kinds


def _params(entry: dict, kinds: dict, origin: str) -> tuple[Param, ...]:
    out = []
    for p in _need(entry, "params", origin):
        o = f"{origin}, parameter {p.get('name', '?')}"
        _check_keys(p, _PARAM_KEYS, o)
        kind = _need(p, "kind", o)
        if kind not in kinds:
            raise SpecError(f"{o}: unknown kind {kind!r}")
        d = _need(p, "dir", o)
        lis = p.get("lis", d)
        if d not in _DIRS or lis not in _DIRS:
            raise SpecError(f"{o}: direction must be one of {sorted(_DIRS)}")
        out.append(Param(name=_need(p, "name", o), kind=kinds[kind], dir=d, lis=lis,
                         func_type=p.get("func_type"), const=bool(p.get("const", False)),
                         length=p.get("length"), c_decl=p.get("c"),
                         asynchronous=bool(p.get("asynchronous", False)),
                         ignored_with=p.get("ignored_with"), pointer=bool(p.get("pointer", False)),
                         cxx_decl=p.get("cxx"), null_ok=bool(p.get("null_ok", False))))
    for q in out:  # a datatype ignored with a buffer's MPI_IN_PLACE or an op's MPI_NO_OP
        by = next((r for r in out if r.name == q.ignored_with), None)
        if q.ignored_with and (by is None or not (by.kind.cls == "buffer" or by.kind.object == "op")):
            raise SpecError(f"{origin}, parameter {q.name}: ignored_with must name a buffer or an op "
                            f"parameter of the same routine, not {q.ignored_with!r}")
    return tuple(out)


def _dep(entry: dict, origin: str):
    d = entry.get("deprecated")
    if d is None:
        return None
    _check_keys(d, {"since", "replacement"}, origin + " deprecated")
    return Deprecation(since=_need(d, "since", origin), replacement=_need(d, "replacement", origin))


def _fortran(entry: dict, origin: str):
    f = entry.get("fortran")
    if f is not None:
        _check_keys(f, _FORTRAN_KEYS, origin + " fortran")
    return f


def _object(entry: dict, origin: str, required: bool):
    obj = entry.get("object")
    if obj is None and not required:
        return None
    if obj not in _OBJECTS:
        raise SpecError(f"{origin}: object must be one of {sorted(_OBJECTS)}, not {obj!r}")
    return obj


def load(spec_dir: str | Path) -> Spec:
    spec_dir = Path(spec_dir)
    files = sorted(spec_dir.glob("*.toml"))
    if not files:
        raise SpecError(f"{spec_dir}: no spec files")
    docs = {}
    for f in files:
        with open(f, "rb") as fh:
            try:
                docs[f.name] = tomllib.load(fh)
            except tomllib.TOMLDecodeError as e:
                raise SpecError(f"{f}: {e}") from e
    if "kinds.toml" not in docs or "constants.toml" not in docs:
        raise SpecError(f"{spec_dir}: kinds.toml and constants.toml are required")
    kinds = _kinds(docs["kinds.toml"], "spec/kinds.toml")
    # Another file may add kinds of its own (spec/interop.toml: the Fortran handle kinds of
    # MPI_Comm_c2f and friends) under [kind.NAME]; it may not redefine one.
    for fname, doc in docs.items():
        if fname in ("kinds.toml", "constants.toml") or "kind" not in doc:
            continue
        extra = _kinds(doc["kind"], f"spec/{fname}")
        clash = set(extra) & set(kinds)
        if clash:
            raise SpecError(f"spec/{fname}: kind(s) {sorted(clash)} already defined")
        kinds.update(extra)

    functions, callbacks, predefs, fortran_routines = [], [], [], []
    raw_predefs = []
    for fname, doc in docs.items():
        if fname in ("kinds.toml", "constants.toml"):
            continue
        _check_keys(doc, {"function", "callback", "predefined_callback", "kind", "large_count",
                          "fortran_routine"}, f"spec/{fname}")
        for e in doc.get("fortran_routine", []):
            fortran_routines.append(_fortran_routine(e, kinds, f"spec/{fname}: {e.get('name', '?')}"))
        for e in doc.get("function", []):
            o = f"spec/{fname}: {e.get('name', '?')}"
            _check_keys(e, _FUNCTION_KEYS, o)
            ret = e.get("returns")
            if ret is not None and ret not in kinds:
                raise SpecError(f"{o}: unknown return kind {ret!r}")
            init = e.get("init", "during")
            if init not in ("during", "before", "any", "setup"):
                raise SpecError(f"{o}: init must be during, before, any or setup")
            functions.append(Function(
                name=_need(e, "name", o), ref=_need(e, "ref", o), core=_core(e, o),
                unsupported=e.get("unsupported"),
                params=_params(e, kinds, o), origin=o, desc=e.get("desc", ""),
                object=_object(e, o, False), deprecated=_dep(e, o), cxx=e.get("cxx"),
                fortran=_fortran(e, o), init=init,
                returns=kinds[ret] if ret else None, ierror=e.get("ierror", "ierror"),
                source=e.get("source")))
        for e in doc.get("callback", []):
            o = f"spec/{fname}: {e.get('name', '?')}"
            _check_keys(e, _CALLBACK_KEYS, o)
            role = _need(e, "role", o)
            if role not in CALLBACK_ROLES:
                raise SpecError(f"{o}: role must be one of {list(CALLBACK_ROLES)}")
            ret = e.get("returns")
            if ret is not None and ret not in kinds:
                raise SpecError(f"{o}: unknown return kind {ret!r}")
            aliases = []
            for a in e.get("aliases", []):
                _check_keys(a, {"name", "since"}, o + " aliases")
                aliases.append((_need(a, "name", o), a.get("since")))
            callbacks.append(Callback(
                name=_need(e, "name", o), ref=_need(e, "ref", o),
                object=_object(e, o, role in ("copy", "delete")),
                role=role, params=_params(e, kinds, o), origin=o, deprecated=_dep(e, o),
                cxx=e.get("cxx"), ierror=e.get("ierror", "ierror"),
                ierror_kind=e.get("ierror_kind", "ERROR_CODE"), fortran=_fortran(e, o),
                returns=kinds[ret] if ret else None, aliases=tuple(aliases),
                desc=e.get("desc", "")))
        for e in doc.get("predefined_callback", []):
            raw_predefs.append((fname, e))
    by_name = {c.name: c for c in callbacks}
    for fname, e in raw_predefs:
        o = f"spec/{fname}: {e.get('name', '?')}"
        _check_keys(e, _PREDEF_KEYS, o)
        t = _need(e, "type", o)
        if t not in by_name:
            raise SpecError(f"{o}: unknown callback type {t!r}")
        beh = _need(e, "behaviour", o)
        expected = {"copy": ("null_copy", "dup"), "delete": ("null_delete",),
                    "datarep": ("null_conversion",)}.get(by_name[t].role, ())
        if beh not in expected:
            raise SpecError(f"{o}: behaviour {beh!r} does not fit a {by_name[t].role} callback")
        predefs.append(PredefinedCallback(
            name=_need(e, "name", o), ref=_need(e, "ref", o), object=_object(e, o, by_name[t].is_attr),
            type=by_name[t], behaviour=beh, params=_params(e, kinds, o), origin=o,
            deprecated=_dep(e, o), ierror=e.get("ierror", "ierror"),
            ierror_kind=e.get("ierror_kind", "ERROR_CODE"), fortran=_fortran(e, o)))

    names = [f.name for f in functions] + [c.name for c in callbacks] + [p.name for p in predefs]
    names += [f.name for f in fortran_routines]
    callback_large = _callback_large_forms(callbacks)
    names += [c.name for c in callback_large] + [a for c in callbacks for a, _ in c.aliases]
    dups = {n for n in names if names.count(n) > 1}
    if dups:
        raise SpecError(f"spec: defined more than once: {sorted(dups)}")
    cores = {f.core for f in functions}
    for f in functions:
        if f.object and f.core not in ("create_keyval", "free_keyval", "set_attr", "get_attr",
                                       "delete_attr"):
            raise SpecError(f"{f.origin}: a caching routine's core must be a caching operation")
    del cores

    c = docs["constants.toml"]
    o = "spec/constants.toml"
    _check_keys(c, {"version", "keyval_invalid", "predefined_key", "error_class", "handle", "op",
                    "datatype", "integers", "since", "removed", "c_integers", "c_enum", "c_handle",
                    "c_alias", "c_tool_error_strings", "fortran_kind"}, o)
    keys = tuple(PredefinedKey(name=k["name"], value=k["value"], object=k["object"],
                               value_kind=k["value_kind"], ref=k["ref"])
                 for k in c["predefined_key"])
    for k in keys:
        if k.value_kind not in ("int", "aint", "address"):
            raise SpecError(f"{o}: {k.name}: value_kind must be int, aint or address")
    errs = tuple(ErrorClass(name=e["name"], value=e["value"], string=e["string"])
                 for e in c["error_class"])
    handles = tuple(Handle(name=h["name"], type=h["type"], object=h["object"], value=h["value"],
                           null=bool(h.get("null", False))) for h in c["handle"])
    dtypes = tuple(Datatype(name=d["name"], value=d["value"], size=d["size"],
                            extent=d.get("extent", d["size"]),
                            aliases=tuple(d.get("aliases", ())), cxx_size=d.get("cxx_size"),
                            second_at=d.get("second_at"), align=d.get("align"),
                            optional=bool(d.get("optional", False)))
                   for d in c["datatype"])
    ops = tuple(Op(name=p["name"], value=p["value"]) for p in c["op"])
    removed = []
    for r in c.get("removed", []):
        ro = f"{o}: {r.get('name', '?')}"
        _check_keys(r, {"name", "type", "open_mpi", "value", "alias_of"}, ro)
        rtype = r.get("type")
        if rtype not in ("Datatype", "int", "typedef"):
            raise SpecError(f"{ro}: a removed name's type is Datatype, int or typedef")
        if rtype == "typedef":
            if _need(r, "alias_of", ro) not in by_name:
                raise SpecError(f"{ro}: alias_of names no callback type")
        else:
            _need(r, "open_mpi", ro)
            _need(r, "value", ro)
        removed.append(Removed(name=_need(r, "name", o), type=rtype, open_mpi=r.get("open_mpi"),
                               value=r.get("value"), alias_of=r.get("alias_of")))
    # Constants of the C binding only (MPI_F_*, the tool interface's): mpi.h has them, Fortran not.
    c_enums = []
    for e in c.get("c_enum", []):
        _check_keys(e, {"type", "values"}, f"{o}: c_enum {e.get('type', '?')}")
        c_enums.append((_need(e, "type", o), tuple(_need(e, "values", o).items())))
    c_handles = []
    for h in c.get("c_handle", []):
        _check_keys(h, {"name", "type", "value"}, f"{o}: c_handle {h.get('name', '?')}")
        c_handles.append((_need(h, "name", o), _need(h, "type", o), _need(h, "value", o)))
    # Other implementations' C names for standard ones, which programs written for them use
    # (ROMIO's MPIO_Request, ...): mpi.h defines each as the standard name (D107).
    c_aliases = []
    for a in c.get("c_alias", []):
        _check_keys(a, {"name", "of"}, f"{o}: c_alias {a.get('name', '?')}")
        c_aliases.append((_need(a, "name", o), a.get("of", "")))
    # The tool interface's return codes, C constants above, are error classes too (D123).
    c_ints = dict(c.get("c_integers", {}))
    tool_errs = []
    for name, text in c.get("c_tool_error_strings", {}).items():
        if name not in c_ints:
            raise SpecError(f"{o}: [c_tool_error_strings] {name} is no [c_integers] constant")
        tool_errs.append(ErrorClass(name=name, value=c_ints[name], string=text))
    if missing := {n for n in c_ints if n.startswith("MPI_T_ERR_")} - {e.name for e in tool_errs}:
        raise SpecError(f"{o}: [c_tool_error_strings] has no string for {sorted(missing)}")
    # Integer constants of another Fortran kind than INTEGER's (D141).
    fortran_kinds = dict(c.get("fortran_kind", {}))
    if unknown := set(fortran_kinds) - set(c["integers"]):
        raise SpecError(f"{o}: [fortran_kind] names no integer constant: {sorted(unknown)}")
    if bad := {k for k in fortran_kinds.values()
               if k not in ("MPI_ADDRESS_KIND", "MPI_OFFSET_KIND", "MPI_COUNT_KIND")}:
        raise SpecError(f"{o}: [fortran_kind] kinds are MPI_ADDRESS_KIND, MPI_OFFSET_KIND or "
                        f"MPI_COUNT_KIND, not {sorted(bad)}")
    since = dict(c.get("since", {}))
    known = {e.name for e in errs} | set(c["integers"])
    if unknown := set(since) - known:
        raise SpecError(f"{o}: [since] names no error class or integer constant: {sorted(unknown)}")
    values = [k.value for k in keys] + [c["keyval_invalid"]["value"]]
    if len(set(values)) != len(values):
        raise SpecError(f"{o}: predefined keys and MPI_KEYVAL_INVALID must be distinct")
    large = [doc["large_count"] for doc in docs.values() if "large_count" in doc]
    large_forms = _large_forms(functions, kinds, large)
    return Spec(kinds=kinds, functions=tuple(functions), large_forms=large_forms, callbacks=tuple(callbacks),
                predefined_callbacks=tuple(predefs), predefined_keys=keys,
                keyval_invalid=c["keyval_invalid"]["value"], error_classes=errs, handles=handles,
                datatypes=dtypes, ops=ops, integers=tuple(c["integers"].items()),
                since=tuple(sorted(since.items())), removed=tuple(removed),
                fortran_kinds=tuple(fortran_kinds.items()),
                c_integers=tuple(c.get("c_integers", {}).items()), c_enums=tuple(c_enums),
                tool_error_classes=tuple(tool_errs),
                c_handles=tuple(c_handles), c_aliases=tuple(c_aliases),
                version=(c["version"]["MPI_VERSION"], c["version"]["MPI_SUBVERSION"]),
                files=tuple(str(f) for f in files), fortran_routines=tuple(fortran_routines),
                callback_large_forms=callback_large)


def _callback_large_forms(callbacks: list) -> tuple:
    """The large-count forms of the callback types (MPI_User_function_c,
    MPI_Datarep_conversion_function_c: MPI-4.1 §19.2): one for each type with a parameter whose
    kind widens, that parameter widened (docs/decisions.md D47)."""
    forms = []
    for cb in callbacks:
        if not any(_widens(p) for p in cb.params):
            continue
        params = tuple(dataclasses.replace(p, kind=_large_kind(p.kind), base_kind=p.kind)
                       if _widens(p) else p for p in cb.params)
        forms.append(dataclasses.replace(cb, name=cb.name + "_c", params=params, large_of=cb.name,
                                         origin=f"{cb.origin} (its large-count form)", cxx=None,
                                         aliases=(), deprecated=None))
    return tuple(forms)


def _fortran_routine(e: dict, kinds: dict, o: str) -> FortranRoutine:
    """A routine of the Fortran bindings only (spec/fortran.toml)."""
    _check_keys(e, _FORTRAN_ROUTINE_KEYS, o)
    does = _need(e, "does", o)
    if does not in ("nothing", "sizeof"):
        raise SpecError(f"{o}: does must be nothing or sizeof")
    specifics = []
    for t in e.get("specifics", []):
        _check_keys(t, _SIZEOF_KEYS, f"{o}: specifics")
        specifics.append(SizeofSpecific(tag=_need(t, "tag", o), type=_need(t, "type", o),
                                        kind=t.get("kind"), bytes=str(_need(t, "bytes", o))))
    if (does == "sizeof") != bool(specifics):
        raise SpecError(f"{o}: `specifics` lists the types of MPI_SIZEOF's x, and only those")
    tags = [t.tag for t in specifics]
    if len(set(tags)) != len(tags):
        raise SpecError(f"{o}: a specific tag is given twice")
    return FortranRoutine(name=_need(e, "name", o), ref=_need(e, "ref", o), does=does,
                          params=_params(e, kinds, o), origin=o, desc=e.get("desc", ""),
                          deprecated=_dep(e, o), specifics=tuple(specifics),
                          ierror=e.get("ierror", "ierror"))


def _large_kind(k: Kind) -> Kind:
    """A POLY* kind as the large-count form types it (its c is c_large, its f08 f08_large)."""
    return dataclasses.replace(k, c=k.c_large, f08=k.f08_large or k.f08)


def _widens(p: Param) -> bool:
    k = p.kind
    return bool(k.c_large and k.c_large != k.c or k.large_func_suffix and p.func_type)


def _large_forms(functions: list, kinds: dict, tables: list) -> tuple:
    """The large-count forms MPI_X_c (MPI-4.1 §19.2, docs/decisions.md D47): one for each routine
    with a parameter whose kind widens (spec/kinds.toml c_large) or that spec/large_count.toml
    widens; its parameters are the routine's, widened, plus the form's own (large_only)."""
    o = "spec/large_count.toml"
    by_name = {f.name: f for f in functions}
    extra, widen, cores = {}, {}, {}
    for table in tables:
        _check_keys(table, {"param", "widen", "core"}, o)
        for e in table.get("param", []):
            _check_keys(e, {"function", "after", "name", "kind", "dir", "length"}, f"{o}: param")
            fn, after = _need(e, "function", o), _need(e, "after", o)
            if fn not in by_name or after not in [p.name for p in by_name[fn].params]:
                raise SpecError(f"{o}: param {e.get('name')}: no routine {fn} with parameter {after}")
            kind = kinds.get(_need(e, "kind", o))
            if kind is None:
                raise SpecError(f"{o}: param {e['name']}: unknown kind {e['kind']!r}")
            if e.get("dir") not in _DIRS:
                raise SpecError(f"{o}: param {e['name']}: direction must be one of {sorted(_DIRS)}")
            kind = _large_kind(kind) if kind.c_large else kind
            extra.setdefault(fn, []).append((after, Param(
                name=e["name"], kind=kind, dir=e["dir"], lis=e["dir"], length=e.get("length"),
                large_only=True)))
        for e in table.get("widen", []):
            _check_keys(e, {"function", "param", "as"}, f"{o}: widen")
            fn, pname, as_ = _need(e, "function", o), _need(e, "param", o), _need(e, "as", o)
            if fn not in by_name or pname not in [p.name for p in by_name[fn].params]:
                raise SpecError(f"{o}: widen: no routine {fn} with parameter {pname}")
            if as_ not in kinds or not kinds[as_].c_large:
                raise SpecError(f"{o}: widen {fn} {pname}: {as_!r} is no kind with a large type")
            widen[(fn, pname)] = _large_kind(kinds[as_])
        for fn, core in table.get("core", {}).items():
            if fn not in by_name:
                raise SpecError(f"{o}: core: no routine {fn}")
            cores[fn] = core
    forms = []
    for f in functions:
        if f.removed:  # MPI-3.0 removed them before large counts came (MPI-4.0): none (D58)
            continue
        if not any(_widens(p) or (f.name, p.name) in widen for p in f.params):
            continue
        params = []
        for p in f.params:
            if (f.name, p.name) in widen:
                params.append(dataclasses.replace(p, kind=widen[(f.name, p.name)], base_kind=p.kind))
            elif _widens(p) and p.kind.cls == "function":
                params.append(dataclasses.replace(
                    p, func_type=p.func_type + p.kind.large_func_suffix, base_kind=p.kind))
            elif _widens(p):
                params.append(dataclasses.replace(p, kind=_large_kind(p.kind), base_kind=p.kind))
            else:
                params.append(p)
            params.extend(q for after, q in extra.get(f.name, []) if after == p.name)
        forms.append(dataclasses.replace(
            f, name=f.name + "_c", params=tuple(params), large_of=f.name,
            large_core=cores.get(f.name) if f.core else None,
            origin=f"{f.origin} (its large-count form)", cxx=None,
            deprecated=None))
    unused = (set(extra) | {fn for fn, _ in widen} | set(cores)) - {f.large_of for f in forms}
    if unused:
        raise SpecError(f"{o}: routines without a large-count form: {sorted(unused)}")
    return tuple(forms)
