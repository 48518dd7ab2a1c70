"""The spec against the MPI Forum's apis.json, and the C prototypes generated from it against the
ones pympistandard renders (caching_apis.json)."""
import hashlib
import json

import pytest

import spec_check as sc


@pytest.fixture(scope="module")
def spec():
    return sc.load_spec(sc.SPEC_DIR)


@pytest.fixture(scope="module")
def apis():
    return sc.load_apis()


@pytest.fixture(scope="module")
def caching():
    return sc.load_caching()


def test_reference_data_is_the_documented_snapshot(apis, caching):
    with open(sc.REFERENCE_DIR / "caching_apis.json") as f:
        source = json.load(f)["_source"]
    digest = hashlib.sha256((sc.REFERENCE_DIR / "apis.json").read_bytes()).hexdigest()
    assert digest == source["sha256"]
    assert len(apis) == 515 and len(caching) == 48
    for key, c in caching.items():
        assert c["raw"] == apis[key], key


def test_spec_matches_apis_json(spec, apis, caching):
    mismatches = sc.check_spec(spec, apis, sc.load_errata(), caching)
    if mismatches:
        pytest.fail(f"{len(mismatches)} mismatch(es) with apis.json:\n" + "\n".join(mismatches),
                    pytrace=False)


def test_every_routine_has_fortran_bindings(spec, apis):
    """Every routine apis.json gives a Fortran binding has one in mpif.h, `use mpi` and `use mpi_f08`
    (docs/decisions.md D40), generated from its kinds; the only exceptions are those of
    lang/fortran.py FORTRAN_PENDING, each with why, and no more than those."""
    from mpiattr_codegen.lang.fortran import FORTRAN_PENDING
    gap = sc.fortran_gap(spec, apis)
    assert sorted(gap) == sorted(FORTRAN_PENDING), gap
    assert all(why.strip() for why in FORTRAN_PENDING.values())
    assert len(FORTRAN_PENDING) <= 1, FORTRAN_PENDING  # MPI_Pcontrol (D40; D51 did the others)


def test_spec_covers_runtime_and_caching(spec, caching):
    """The checker really looked at every kind of entry (a guard against an empty spec)."""
    # (20 of the standard, and the 3 MPICH extensions MPIX_*_create_keyval_x: D35)
    assert len(spec.caching_functions) == 23 and len(spec.attr_callbacks) == 8
    assert len(spec.callbacks) == 21  # every callback type of apis.json (docs/decisions.md D54)
    assert len(spec.attr_predefined_callbacks) == 12
    assert len(spec.predefined_callbacks) == 13  # and MPI_CONVERSION_FN_NULL (D54)
    assert len(spec.functions) > len(spec.caching_functions)
    names = {e.name for e in sc.spec_entries(spec)}
    assert {c["raw"]["name"] for c in caching.values()} <= names


def test_errata_are_well_formed_and_cover_the_known_quirks():
    errata = sc.load_errata()
    keys = [(e["entry"], e["param"], e["field"]) for e in errata]
    assert len(keys) == len(set(keys)), "duplicate erratum"
    assert ("MPI_Comm_delete_attr_function", "attribute_val", "param_direction") in keys
    assert ("MPI_Type_copy_attr_function", "attribute_val_out", "param_direction") in keys
    for e in errata:
        assert e["official"] != e["ours"], e


@pytest.mark.parametrize("key", sorted(sc.load_caching()))
def test_c_prototype_matches_pympistandard(spec, caching, key):
    mismatches = sc.check_prototypes(spec, {key: caching[key]})
    if mismatches:
        pytest.fail("\n".join(mismatches), pytrace=False)


def test_normalise_c():
    assert sc.normalise_c("int  f( MPI_Comm *c ,void * v )") == "int f(MPI_Comm*c,void*v)"
    assert sc.normalise_c("int f(MPI_Comm* c, void* v)") == "int f(MPI_Comm*c,void*v)"
    assert sc.normalise_c("int f(const void* v)") != sc.normalise_c("int f(void* v)")


def test_D55_mpi41_additions_are_the_abi_routines_apis_json_lacks(spec, apis):
    """Every MPI-4.1 routine of the Forum's ABI header that apis.json lacks (the header's MPI-5.0
    additions aside: MPI_Abi_*, MPI_*_toint, MPI_*_fromint) is in the spec, marked NOT_IN_APIS, and
    nothing else is marked; their prototypes are checked by test_spec_matches_apis_json."""
    abi = sc.abi_prototypes(sc.ABI_HEADER.read_text())
    lacking = {n for n in abi if n.startswith("MPI_") and not sc.is_mpi5_only(n)
               and n.lower() not in apis and (n[:-2] if n.endswith("_c") else n).lower() not in apis}
    marked = {f.name for f in spec.functions if f.source == sc.NOT_IN_APIS}
    marked |= {f.name for f in spec.large_forms if f.name[:-2] in marked}
    assert marked == lacking
    assert len(marked) == 28 and "MPI_Buffer_flush" in marked and "MPI_Session_attach_buffer_c" in marked
    assert sum(sc.is_mpi5_only(n) for n in abi if n.startswith("MPI_")) == 28  # 6 Abi_, 11 toint, 11 fromint


def test_D55_the_check_sees_an_addition_out_of_step_with_the_abi(spec):
    import dataclasses
    abi = sc.abi_prototypes(sc.ABI_HEADER.read_text())
    f = spec.function("MPI_Status_get_source")
    assert sc.check_not_in_apis(f, abi) == []
    narrowed = dataclasses.replace(f, params=f.params[:1])
    assert [m.split(":")[0] for m in sc.check_not_in_apis(narrowed, abi)] == ["MPI_Status_get_source",
                                                                             "PMPI_Status_get_source"]
    renamed = dataclasses.replace(f, name="MPI_Status_get_sauce")
    assert "does not declare it" in sc.check_not_in_apis(renamed, abi)[0]
    # A marked routine that apis.json has, or another marker, is reported.
    stale = dataclasses.replace(spec.function("MPI_Buffer_attach"), source=sc.NOT_IN_APIS)
    other = dataclasses.replace(f, source="MPI-5.0")
    fake = dataclasses.replace(spec, functions=(stale, other))
    found = sc.check_spec(fake, sc.load_apis(), [], None)
    assert any(m.startswith("MPI_Buffer_attach: marked") for m in found)
    assert any(m.startswith("MPI_Status_get_source: source = 'MPI-5.0'") for m in found)


def test_D58_removed_routines_are_mpi22s_and_only_those(spec, apis):
    """The routines MPI-3.0 removed are in the spec, marked REMOVED, with MPI-2.2's (MPICH's) C
    prototypes; none has a large-count form, an mpi_f08 binding or an MPI:: one."""
    marked = {f.name for f in spec.functions if f.source == sc.REMOVED}
    assert marked == set(sc.REMOVED_PROTOTYPES)
    for name in marked:
        f = spec.function(name)
        assert sc.check_removed(f) == [], name
        assert name.lower() not in apis
        assert spec.large_form(f) is None
    assert {f.name for f in spec.large_forms} & {n + "_c" for n in marked} == set()


def test_D58_the_check_sees_a_removed_routine_out_of_step(spec):
    import dataclasses
    f = spec.function("MPI_Type_struct")
    narrowed = dataclasses.replace(f, params=f.params[:-1])
    assert [m.split(":")[0] for m in sc.check_removed(narrowed)] == ["MPI_Type_struct", "MPI_Type_struct"]
    assert "no routine MPI-3.0 removed" in sc.check_removed(dataclasses.replace(f, name="MPI_Type_strict"))[0]
    stale = dataclasses.replace(spec.function("MPI_Type_create_struct"), source=sc.REMOVED)
    found = sc.check_spec(dataclasses.replace(spec, functions=(stale,)), sc.load_apis(), [], None)
    assert any(m.startswith("MPI_Type_create_struct: marked") for m in found)
