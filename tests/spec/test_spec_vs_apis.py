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
