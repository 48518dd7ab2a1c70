"""The large-count forms MPI_X_c (MPI-4.1 §19.2, docs/decisions.md D47) that the generator derives
from the spec, against the MPI Forum's ABI header (reference/mpi-abi/mpi.h): the same set of names,
MPI_ and PMPI_, and for each the same parameter C types in the same order (names and whitespace
aside; an array parameter `T x[]` is the pointer `T*` that C adjusts it to, so the ABI's
`const char datarep[]` matches our `const char* datarep`). The spec has every ABI form (D55 added the four that apis.json's lack of their routines left out).

And the form's own parameters (spec/large_count.toml) against apis.json's `large_only` ones."""
import re

import pytest

import spec_check as sc
from mpiattr_codegen.lang.c import c_prototype

ABI_HEADER = sc.SOURCE_DIR / "reference" / "mpi-abi" / "mpi.h"


def param_type(decl: str) -> str:
    """`const MPI_Count recvcounts[]` -> `const MPI_Count*` (C's adjustment of an array parameter);
    `MPI_Count *size` -> `MPI_Count*`; `MPI_User_function_c *user_fn` -> `MPI_User_function_c*`."""
    decl = " ".join(decl.split())
    if decl == "void":
        return ""
    m = re.fullmatch(r"(.*?)\s*\b(\w+)\s*(\[\])?", decl)
    assert m, decl
    t = m.group(1).replace(" *", "*").replace("* ", "*").strip()
    return t + ("*" if m.group(3) else "")


def prototypes(text: str) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Every `int P?MPI_X_c(...)` declaration of a C header: name -> (return type, parameter types)."""
    out = {}
    for m in re.finditer(r"^\s*(int|double|MPI_\w+)\s+(P?MPI_\w+_c)\s*\(([^;]*?)\)\s*[^;()]*;", text, re.M | re.S):
        params = tuple(param_type(p) for p in m.group(3).split(",") if p.strip() != "void")
        out[m.group(2)] = (m.group(1), params)
    return out


def ours(spec) -> dict[str, tuple[str, tuple[str, ...]]]:
    text = []
    for f in spec.large_forms:
        text.append(c_prototype(f) + ";")
        text.append(c_prototype(f, f.pmpi_name) + ";")
    return prototypes("\n".join(text))


def mismatches(mine: dict, abi: dict, base_names: set[str]) -> list[str]:
    out = []
    for name in sorted(set(abi) - set(mine)):
        base = name[1:-2] if name.startswith("P") else name[:-2]
        if base in base_names:  # a routine of ours whose large-count form we do not generate
            out.append(f"{name}: in the ABI header, not generated")
    for name in sorted(set(mine) - set(abi)):
        out.append(f"{name}: generated, not in the ABI header")
    for name in sorted(set(mine) & set(abi)):
        if mine[name] != abi[name]:
            out.append(f"{name}: prototype differs:\n  ours: {mine[name]}\n  ABI:  {abi[name]}")
    return out


@pytest.fixture(scope="module")
def spec():
    return sc.load_spec(sc.SPEC_DIR)


@pytest.fixture(scope="module")
def abi():
    return prototypes(ABI_HEADER.read_text())


def test_the_parser_sees_the_abi_forms(abi):
    # 161 routines with a large-count form, each as MPI_ and PMPI_.
    assert len(abi) == 322
    assert abi["MPI_Send_c"] == ("int", ("const void*", "MPI_Count", "MPI_Datatype", "int", "int",
                                         "MPI_Comm"))
    assert abi["PMPI_Alltoallv_c"][1][1:3] == ("const MPI_Count*", "const MPI_Aint*")
    assert abi["MPI_Op_create_c"][1][0] == "MPI_User_function_c*"


def test_D47_large_count_forms_are_the_abi_headers(spec, abi):
    found = mismatches(ours(spec), abi, {f.name for f in spec.functions})
    if found:
        pytest.fail(f"{len(found)} large-count form(s) out of step with reference/mpi-abi/mpi.h:\n"
                    + "\n".join(found), pytrace=False)
    # Every form of the header is ours: the four of the MPI-4.1 attach_buffer family too, since
    # their routines are in the spec although apis.json lacks them (D55).
    assert sorted(set(abi) - set(ours(spec))) == []


def test_the_check_sees_a_name_or_type_out_of_step(spec, abi):
    mine = ours(spec)
    names = {f.name for f in spec.functions}
    dropped = {k: v for k, v in mine.items() if k != "MPI_Send_c"}
    assert mismatches(dropped, abi, names) == ["MPI_Send_c: in the ABI header, not generated"]
    extra = dict(mine, MPI_Comm_rank_c=("int", ("MPI_Comm", "int*")))
    assert mismatches(extra, abi, names) == ["MPI_Comm_rank_c: generated, not in the ABI header"]
    narrowed = dict(mine, MPI_Get_count_c=("int", ("const MPI_Status*", "MPI_Datatype", "int*")))
    assert [m.split(":")[0] for m in mismatches(narrowed, abi, names)] == ["MPI_Get_count_c"]


def test_large_only_parameters_are_apis_jsons(spec):
    apis = sc.load_apis()
    theirs = {}
    for e in apis.values():
        plist = [p for p in e["parameters"] if "c_parameter" not in p["suppress"].split()]
        for i, p in enumerate(plist):
            if p["large_only"]:
                theirs[(e["name"], p["name"])] = (p["kind"], p["param_direction"], p["length"],
                                                  plist[i - 1]["name"])
    mine = {}
    for f in spec.large_forms:
        for i, p in enumerate(f.params):
            if p.large_only:
                mine[(f.large_of, p.name)] = (p.kind.name, p.dir, p.length, f.params[i - 1].name)
    assert mine == theirs and len(mine) == 3


def test_refused_routines_have_refused_forms_and_carried_out_ones_carried_out(spec):
    for f in spec.large_forms:
        base = spec.function(f.large_of)
        assert (f.core, f.unsupported) == (base.core, base.unsupported)
        assert f.large_core is None or base.core is not None
