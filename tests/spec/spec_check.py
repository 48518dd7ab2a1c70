"""Checks spec/*.toml against the MPI Forum's apis.json (pympistandard), vendored in reference/mpi-forum/.

For every routine, callback typedef and predefined callback of our spec, the apis.json entry of the
same name must agree on: the name, what the entry is (procedure / callback typedef / predefined
callback of the same type), the return kind, the C parameters (order, names, kinds, directions as
passed and as printed, callback type, const, array length) and the Fortran error argument (name
and kind). Known faults of apis.json are listed in apis_errata.toml (docs/decisions.md D17); the
checker accepts exactly those deviations and reports an erratum that no longer applies.

Which apis.json parameters are C parameters: apis.json marks a parameter absent from a language
binding with `suppress` tokens. Those with "c_parameter" are not C parameters; in the data these are
exactly the Fortran error arguments (kind ERROR_CODE*), which our spec names `ierror` / `ierror_kind`
(any other C-suppressed parameter is reported: the spec cannot express it). Parameters suppressed
only in the LIS and Fortran ("lis_parameter f08_parameter f90_parameter": MPI_Init's argc/argv) ARE
C parameters, and are compared like any other. Routines whose C return kind is not ERROR_CODE
(MPI_Wtime, MPI_Wtick) have no error argument at all.
"""
from __future__ import annotations

import json
import os
import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE_DIR = Path(os.environ.get("MPIATTR_SOURCE_DIR") or HERE.parents[1]).resolve()
SPEC_DIR = SOURCE_DIR / "spec"
CODEGEN_DIR = SOURCE_DIR / "codegen"
REFERENCE_DIR = SOURCE_DIR / "reference" / "mpi-forum"  # provenance: its README.md
ERRATA_FILE = HERE / "apis_errata.toml"

if str(CODEGEN_DIR) not in sys.path:
    sys.path.insert(0, str(CODEGEN_DIR))

from mpiattr_codegen.load import load as load_spec  # noqa: E402
from mpiattr_codegen.lang.fortran import has_f08, pending as fortran_pending  # noqa: E402
from mpiattr_codegen.model import Callback, FortranRoutine, PredefinedCallback  # noqa: E402

ERRATUM_KEYS = {"entry", "param", "field", "official", "ours", "reason"}
ERRATUM_FIELDS = {"param_direction", "lis_direction", "constant"}


def load_apis() -> dict:
    with open(REFERENCE_DIR / "apis.json") as f:
        return json.load(f)


def load_caching() -> dict:
    with open(REFERENCE_DIR / "caching_apis.json") as f:
        return json.load(f)["entries"]


def load_errata(path=ERRATA_FILE) -> list[dict]:
    with open(path, "rb") as f:
        errata = tomllib.load(f).get("erratum", [])
    for i, e in enumerate(errata):
        if set(e) != ERRATUM_KEYS or e["field"] not in ERRATUM_FIELDS or not e["reason"].strip():
            raise ValueError(f"{path}: erratum #{i + 1} {e}: needs exactly the keys "
                             f"{sorted(ERRATUM_KEYS)}, field in {sorted(ERRATUM_FIELDS)}, a reason")
    return errata


def _tokens(p: dict) -> list[str]:
    return p["suppress"].split()


def _our_view(p) -> dict:
    """One of our parameters in apis.json's vocabulary."""
    return {"kind": p.kind.name, "param_direction": p.dir, "lis_direction": p.lis,
            "func_type": p.func_type or "", "constant": p.const, "length": p.length,
            "asynchronous": p.asynchronous}


def _official_view(p: dict) -> dict:
    return {k: p[k] for k in ("kind", "param_direction", "lis_direction", "func_type", "constant",
                              "length", "asynchronous")}


def compare_entry(ours, official: dict, errata: list[dict]) -> list[str]:
    """Mismatches between one spec entry and its apis.json entry, less the accepted errata."""
    n, out = ours.name, []
    if official["name"] != n:
        out.append(f"{n}: apis.json spells the name {official['name']!r}")

    # What the entry is.
    attrs = official.get("attributes", {})
    if isinstance(ours, Callback) != bool(attrs.get("callback")):
        out.append(f"{n}: callback typedef in one of our spec and apis.json, not in the other")
    predef_type = attrs.get("predefined_function")
    ours_type = ours.type.name if isinstance(ours, PredefinedCallback) else None
    if ours_type != predef_type:
        out.append(f"{n}: predefined callback of type {ours_type!r} in our spec, "
                   f"{predef_type!r} in apis.json")
    # Whether it has an mpi_f08 binding (the MPI-1 family has none: `fortran = { f08 = false }`).
    if fortran_pending(ours):
        pass  # counted apart, by fortran_gap() (docs/decisions.md D36)
    elif has_f08(ours) != bool(attrs.get("f08_expressible")):
        out.append(f"{n}: an mpi_f08 binding in {'our spec' if has_f08(ours) else 'apis.json'} "
                   f"only (apis.json f08_expressible = {attrs.get('f08_expressible')})")
    ret = ours.returns.name if getattr(ours, "returns", None) else "ERROR_CODE"
    if ret != official["return_kind"]:
        out.append(f"{n}: return kind is {ret!r} in our spec, {official['return_kind']!r} in apis.json")

    # The Fortran error argument: the C-suppressed parameter(s).
    suppressed = [p for p in official["parameters"] if "c_parameter" in _tokens(p)]
    errs = [p for p in suppressed if p["kind"].startswith("ERROR_CODE")]
    for p in suppressed:
        if p not in errs:
            out.append(f"{n}: parameter {p['name']}: apis.json suppresses it in C only, and it is "
                       f"not the error argument (kind {p['kind']}); our spec cannot express that")
    our_ierror = (ours.ierror, getattr(ours, "ierror_kind", "ERROR_CODE"))
    if isinstance(ours, FortranRoutine) != (attrs.get("c_expressible") is False):
        out.append(f"{n}: a routine of the Fortran bindings only in one of our spec "
                   f"(spec/fortran.toml) and apis.json (c_expressible = false), not in the other")
    if fortran_pending(ours):
        pass  # the error argument is Fortran's, and these have no Fortran binding yet (D36)
    elif not ours.ierror:  # MPI_F_SYNC_REG(buf), MPI_PCONTROL(level): none
        if errs:
            out.append(f"{n}: no error argument in our spec, {errs[0]['name']!r} in apis.json")
    elif ret == "ERROR_CODE":
        if len(errs) != 1:
            out.append(f"{n}: apis.json has {len(errs)} error arguments, expected one")
        elif (errs[0]["name"], errs[0]["kind"]) != our_ierror:
            out.append(f"{n}: parameter {errs[0]['name']}: error argument is "
                       f"{our_ierror[0]!r} of kind {our_ierror[1]!r} in our spec, "
                       f"{errs[0]['name']!r} of kind {errs[0]['kind']!r} in apis.json")
    elif errs and (attrs.get("f90_expressible") or attrs.get("f08_expressible")):
        # (A routine with no Fortran binding, such as MPI_Comm_c2f, has no error argument whatever
        # apis.json lists: the argument exists only in Fortran.)
        out.append(f"{n}: returns {ret} yet apis.json has error argument {errs[0]['name']!r}")

    # The C parameters: order and names by position, then each field by name.
    mine = {p.name: _our_view(p) for p in ours.params}
    theirs = {p["name"]: _official_view(p) for p in official["parameters"]
              if "c_parameter" not in _tokens(p)
              and not p.get("large_only")}  # large_only: in the MPI_X_c (large count) form only
    a, b = list(mine), list(theirs)
    for i in range(max(len(a), len(b))):
        x, y = (a[i] if i < len(a) else None), (b[i] if i < len(b) else None)
        if x != y:
            out.append(f"{n}: parameter {i + 1} is {x!r} in our spec, {y!r} in apis.json "
                       f"(our order {a}, apis.json order {b})")
    accepted = [e for e in errata if e["entry"] == n]
    used = set()
    for pname in (x for x in a if x in theirs):
        for field, ov in mine[pname].items():
            tv = theirs[pname][field]
            if ov == tv:
                continue
            match = [i for i, e in enumerate(accepted) if (e["param"], e["field"], e["official"],
                                                           e["ours"]) == (pname, field, tv, ov)]
            if match:
                used.update(match)
                continue
            out.append(f"{n}: parameter {pname}: {field} is {ov!r} in our spec, {tv!r} in apis.json")
    for i, e in enumerate(accepted):
        if i not in used:
            now_official = theirs.get(e["param"], {}).get(e["field"])
            now_ours = mine.get(e["param"], {}).get(e["field"])
            out.append(f"{n}: parameter {e['param']}: stale erratum on {e['field']} (expects "
                       f"apis.json {e['official']!r}, ours {e['ours']!r}; now apis.json "
                       f"{now_official!r}, ours {now_ours!r})")
    return out


def spec_entries(spec) -> list:
    return [*spec.functions, *spec.callbacks, *spec.predefined_callbacks, *spec.fortran_routines]


# The MPICH extensions of the spec (docs/decisions.md D35): apis.json is the standard's and has none,
# so each is checked against its C prototype as MPICH's mpi.h declares it (MPICH 4.2, mpi_proto.h;
# whitespace aside), under its MPIX_ and PMPIX_ names, and must have neither a Fortran binding
# (MPICH gives none) nor a C++ one. Only names of MPIX_ form are ever exempt from apis.json: an MPI_
# routine listed here is still compared with apis.json, and this table is reported.
MPICH_EXTENSIONS = {
    "MPIX_Comm_create_keyval_x":
        "int MPIX_Comm_create_keyval_x(MPI_Comm_copy_attr_function *comm_copy_attr_fn, "
        "MPI_Comm_delete_attr_function *comm_delete_attr_fn, MPIX_Destructor_function *destructor_fn, "
        "int *comm_keyval, void *extra_state)",
    "MPIX_Type_create_keyval_x":
        "int MPIX_Type_create_keyval_x(MPI_Type_copy_attr_function *type_copy_attr_fn, "
        "MPI_Type_delete_attr_function *type_delete_attr_fn, MPIX_Destructor_function *destructor_fn, "
        "int *type_keyval, void *extra_state)",
    "MPIX_Win_create_keyval_x":
        "int MPIX_Win_create_keyval_x(MPI_Win_copy_attr_function *win_copy_attr_fn, "
        "MPI_Win_delete_attr_function *win_delete_attr_fn, MPIX_Destructor_function *destructor_fn, "
        "int *win_keyval, void *extra_state)",
}


def is_mpich_extension(name: str) -> bool:
    """Whether a spec entry is checked against MPICH_EXTENSIONS instead of apis.json: an MPIX_ name
    (never an MPI_ one, whatever the table says)."""
    return name.startswith("MPIX_")


def compare_with_mpich(e, theirs: str, whose: str) -> list[str]:
    """An entry's C and PMPI prototypes against MPICH's C prototype `theirs`."""
    from mpiattr_codegen.lang.c import c_prototype
    out = []
    pairs = [("C", c_prototype(e), theirs),
             ("PMPI", c_prototype(e, e.pmpi_name), theirs.replace(f" {e.name}(", f" P{e.name}(", 1))]
    for what, mine, official in pairs:
        if normalise_c(mine) != normalise_c(official):
            out.append(f"{e.name}: {what} prototype differs from {whose}:\n  ours:  {mine}\n"
                       f"  MPICH: {official}")
    return out


def check_extension(e, extensions: dict) -> list[str]:
    """An MPICH extension of the spec against its MPICH prototype."""
    theirs = extensions.get(e.name)
    if theirs is None:
        return [f"{e.name}: an MPIX_ entry that is neither in apis.json nor a known MPICH extension"]
    out = compare_with_mpich(e, theirs, "MPICH's")
    if (e.fortran or {}).get("binding", True) is not False:
        out.append(f"{e.name}: MPICH has no Fortran binding for it; the spec must say fortran = {{ binding = false }}")
    if getattr(e, "cxx", None):
        out.append(f"{e.name}: an MPICH extension has no MPI:: binding")
    return out


# The MPI-1 routines MPI-3.0 removed (spec/removed.toml, docs/decisions.md D58): apis.json
# (MPI-4.1) lacks them; each is marked `source = REMOVED` and checked against MPICH 4.0.2's
# prototype (mpi_proto.h; MPI-2.2's own, its arrays not const), C and PMPI. They have mpif.h and
# `use mpi` bindings (MPI-2.2's), none in mpi_f08 and no MPI:: one.
REMOVED = "MPI-2.2, removed in MPI-3.0"
REMOVED_PROTOTYPES = {
    "MPI_Address": "int MPI_Address(void *location, MPI_Aint *address)",
    "MPI_Type_extent": "int MPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent)",
    "MPI_Type_lb": "int MPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement)",
    "MPI_Type_ub": "int MPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement)",
    "MPI_Type_hindexed": "int MPI_Type_hindexed(int count, int array_of_blocklengths[], "
                         "MPI_Aint array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype)",
    "MPI_Type_hvector": "int MPI_Type_hvector(int count, int blocklength, MPI_Aint stride, "
                        "MPI_Datatype oldtype, MPI_Datatype *newtype)",
    "MPI_Type_struct": "int MPI_Type_struct(int count, int array_of_blocklengths[], "
                       "MPI_Aint array_of_displacements[], MPI_Datatype array_of_types[], "
                       "MPI_Datatype *newtype)",
    "MPI_Errhandler_create": "int MPI_Errhandler_create(MPI_Comm_errhandler_function *comm_errhandler_fn, "
                             "MPI_Errhandler *errhandler)",
    "MPI_Errhandler_get": "int MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler)",
    "MPI_Errhandler_set": "int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler)",
}


def check_removed(e, prototypes: dict = REMOVED_PROTOTYPES) -> list[str]:
    """A routine MPI-3.0 removed against its MPI-2.2 (MPICH) prototype."""
    theirs = prototypes.get(e.name)
    if theirs is None:
        return [f"{e.name}: marked {REMOVED!r}, but it is no routine MPI-3.0 removed (REMOVED_PROTOTYPES)"]
    out = compare_with_mpich(e, theirs, "MPI-2.2's (MPICH's)")
    if (e.fortran or {}).get("binding", True) is False or (e.fortran or {}).get("f08", True) is not False:
        out.append(f"{e.name}: a removed routine has mpif.h and `use mpi` bindings and none in mpi_f08 "
                   "(fortran = { f08 = false })")
    if getattr(e, "cxx", None):
        out.append(f"{e.name}: a removed routine has no MPI:: binding (MPI-2.2 had none)")
    return out


def fortran_gap(spec, apis: dict) -> list[str]:
    """The routines apis.json gives a Fortran binding that mpiattr does not have yet."""
    return sorted(f.name for f in spec.functions if fortran_pending(f)
                  and (apis.get(f.name.lower(), {}).get("attributes", {}).get("f90_expressible")
                       or apis.get(f.name.lower(), {}).get("attributes", {}).get("f08_expressible")))


# The MPI-4.1 routines apis.json lacks (spec/mpi41_additions.toml, docs/decisions.md D55): each is
# marked `source = NOT_IN_APIS` and checked against its C prototype in the MPI Forum's ABI header
# (MPI_ and PMPI_ names, parameter types in order; names, whitespace and `T x[]` against `T* x`
# aside), and must have no MPI:: binding. The header's MPI-5.0 additions are not MPI-4.1's.
NOT_IN_APIS = "MPI-4.1, not in apis.json"
ABI_HEADER = SOURCE_DIR / "reference" / "mpi-abi" / "mpi.h"
MPI5_ONLY_PREFIXES = ("MPI_Abi_",)
MPI5_ONLY_SUFFIXES = ("_toint", "_fromint")


def abi_param_type(decl: str) -> str:
    """`const MPI_Request array_of_requests[]` -> `const MPI_Request*`; `MPI_Count *size` ->
    `MPI_Count*`; `void` -> ``."""
    import re
    decl = " ".join(decl.split())
    if decl == "void":
        return ""
    m = re.fullmatch(r"(.*?)\s*\b(\w+)\s*(\[\])?", decl)
    if m is None:  # `int ranges[][3]`, function pointers: compared as written
        return decl
    t = m.group(1).replace(" *", "*").replace("* ", "*").strip()
    return t + ("*" if m.group(3) else "")


def abi_prototypes(text: str) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Every routine declaration of a C header: name -> (return type, parameter types)."""
    import re
    out = {}
    for m in re.finditer(r"^\s*(int|double|MPI_\w+)\s+(P?MPI_\w+)\s*\(([^;]*?)\)\s*[^;()]*;", text, re.M | re.S):
        out[m.group(2)] = (m.group(1), tuple(t for t in (abi_param_type(p) for p in m.group(3).split(","))
                                             if t))
    return out


def is_mpi5_only(name: str) -> bool:
    base = name[1:] if name.startswith("PMPI_") else name
    return base.startswith(MPI5_ONLY_PREFIXES) or base.endswith(MPI5_ONLY_SUFFIXES)


def check_not_in_apis(e, abi: dict) -> list[str]:
    """A spec routine marked NOT_IN_APIS (and its large-count form, if any) against the ABI header."""
    from mpiattr_codegen.lang.c import c_prototype
    out = []
    for name in (e.name, e.pmpi_name):
        mine = abi_prototypes(c_prototype(e, name) + ";").get(name)
        theirs = abi.get(name)
        if theirs is None:
            out.append(f"{name}: marked {NOT_IN_APIS!r}, but the ABI header does not declare it either")
        elif mine != theirs:
            out.append(f"{name}: prototype differs from the ABI header's:\n  ours: {mine}\n  ABI:  {theirs}")
    if getattr(e, "cxx", None):
        out.append(f"{e.name}: an MPI-4.1 addition has no MPI:: binding")
    return out


def check_spec(spec, apis: dict, errata: list[dict], caching: dict | None = None,
               extensions: dict = MPICH_EXTENSIONS) -> list[str]:
    """All mismatches between the spec and apis.json; with `caching` (caching_apis.json's entries),
    also every caching entry the spec lacks. The MPICH extensions are checked against `extensions`
    instead (is_mpich_extension)."""
    out = [f"{n}: listed as an MPICH extension, but only MPIX_ names can be"
           for n in extensions if not is_mpich_extension(n)]
    entries = spec_entries(spec)
    abi = abi_prototypes(ABI_HEADER.read_text())
    for e in entries:
        official = apis.get(e.name.lower())
        source = getattr(e, "source", None)
        if source == REMOVED and official is not None:
            out.append(f"{e.name}: marked {REMOVED!r}, but apis.json has it: drop the marker")
        elif source == REMOVED:
            out.extend(check_removed(e))
        elif source is not None and source != NOT_IN_APIS:
            out.append(f"{e.name}: source = {source!r}; the markers are {NOT_IN_APIS!r} and {REMOVED!r}")
        elif source is not None and official is not None:
            out.append(f"{e.name}: marked {NOT_IN_APIS!r}, but apis.json has it: drop the marker")
        elif source is not None:
            out.extend(check_not_in_apis(e, abi))
            for f in spec.large_forms:
                if f.large_of == e.name:
                    out.extend(check_not_in_apis(f, abi))
        elif official is None and is_mpich_extension(e.name):
            out.extend(check_extension(e, extensions))
        elif official is None:
            out.append(f"{e.name}: in our spec but not in apis.json")
        else:
            out.extend(compare_entry(e, official, errata))
    names = {e.name for e in entries}
    for key, c in (caching or {}).items():
        if c["raw"]["name"] not in names:
            out.append(f"{c['raw']['name']}: caching entry of caching_apis.json ({key}) is missing "
                       f"from our spec")
    for e in errata:
        if e["entry"] not in names:
            out.append(f"{e['entry']}: parameter {e['param']}: stale erratum on {e['field']}: "
                       f"no such entry in our spec")
    return out


def normalise_c(proto: str) -> str:
    """A C prototype with insignificant whitespace removed: none around * ( ) , and single spaces."""
    s = " ".join(proto.split())
    for tok in ("*", "(", ")", ","):
        s = s.replace(f" {tok}", tok).replace(f"{tok} ", tok)
    return s


def normalise_f08(proto: str) -> str:
    """An mpi_f08 prototype with insignificant whitespace removed (tabs, line breaks, indents)."""
    return " ".join(proto.split())


def check_prototypes(spec, caching: dict) -> list[str]:
    """The C (and, for procedures, PMPI) prototypes that lang/c.py renders for the spec, and the
    mpi_f08 ones that lang/fortran.py renders, against the ones pympistandard renders for the
    caching entries of caching_apis.json."""
    from mpiattr_codegen.lang.c import c_prototype
    from mpiattr_codegen.lang.fortran import f08_prototype, has_f08
    by_name = {e.name: e for e in spec_entries(spec)}
    out = []
    for key, c in caching.items():
        ours = by_name.get(c["raw"]["name"])
        if ours is None:
            out.append(f"{c['raw']['name']}: no entry in our spec to render")
            continue
        rendered = c["rendered_by_pympistandard_0.1.2"]
        pairs = [("C", c_prototype(ours), rendered["iso_c"])]
        if rendered.get("iso_c_pmpi"):
            pairs.append(("PMPI", c_prototype(ours, ours.pmpi_name), rendered["iso_c_pmpi"]))
        for what, mine, theirs in pairs:
            if normalise_c(mine) != normalise_c(theirs):
                out.append(f"{ours.name}: {what} prototype differs:\n  ours:     {mine}\n"
                           f"  official: {theirs}")
        official_f08 = rendered.get("f08")
        if bool(official_f08) != has_f08(ours):
            out.append(f"{ours.name}: mpi_f08 binding in one of our spec and apis.json only")
        elif official_f08:
            mine = f08_prototype(ours)
            if normalise_f08(mine) != normalise_f08(official_f08):
                out.append(f"{ours.name}: mpi_f08 prototype differs:\n  ours:\n{mine}\n"
                           f"  official:\n{official_f08}")
    return out
