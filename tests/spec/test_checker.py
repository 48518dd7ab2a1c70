"""The checker itself: each deliberate mismatch, in our spec or in apis.json, is reported, naming the
entry and the parameter. Only messages that the real data does not already produce count."""
import copy
import dataclasses

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


@pytest.fixture(scope="module")
def errata():
    return sc.load_errata()


@pytest.fixture(scope="module")
def new_mismatches(spec, apis, errata, caching):
    """check_spec on altered inputs, less what it reports on the real ones."""
    baseline = set(sc.check_spec(spec, apis, errata, caching))

    def run(spec_=spec, apis_=apis, errata_=errata):
        found = [m for m in sc.check_spec(spec_, apis_, errata_, caching) if m not in baseline]
        assert found, "the checker accepted a deliberate mismatch"
        return found
    return run


def replace_entry(spec, name, change):
    assert name in {e.name for e in sc.spec_entries(spec)}, name

    def sub(entries):
        return tuple(change(e) if e.name == name else e for e in entries)
    return dataclasses.replace(spec, functions=sub(spec.functions), callbacks=sub(spec.callbacks),
                               predefined_callbacks=sub(spec.predefined_callbacks))


def edit_param(spec, entry, pname, /, **changes):
    return replace_entry(spec, entry, lambda e: dataclasses.replace(e, params=tuple(
        dataclasses.replace(p, **changes) if p.name == pname else p for p in e.params)))


def edit_apis(apis, name, pname, **changes):
    apis = copy.deepcopy(apis)
    for p in apis[name.lower()]["parameters"]:
        if p["name"] == pname:
            p.update(changes)
    return apis


def names(messages, *words):
    """Some message names all of `words` (entry, parameter, field ...)."""
    return any(all(w in m for w in words) for m in messages)


def test_swapped_parameter_order(spec, new_mismatches):
    def swap(e):
        p = list(e.params)
        p[0], p[1] = p[1], p[0]
        return dataclasses.replace(e, params=tuple(p))
    found = new_mismatches(replace_entry(spec, "MPI_Comm_set_attr", swap))
    assert names(found, "MPI_Comm_set_attr", "parameter 1", "'comm_keyval'", "'comm'")


def test_renamed_parameter(spec, new_mismatches):
    found = new_mismatches(edit_param(spec, "MPI_Win_get_attr", "attribute_val", name="attr_val"))
    assert names(found, "MPI_Win_get_attr", "'attr_val'", "'attribute_val'")


def test_missing_parameter(spec, new_mismatches):
    found = new_mismatches(replace_entry(spec, "MPI_Type_delete_attr", lambda e: dataclasses.replace(
        e, params=e.params[:1])))
    assert names(found, "MPI_Type_delete_attr", "parameter 2", "'type_keyval'")


def test_attribute_val_kind_10(spec, new_mismatches):
    found = new_mismatches(edit_param(spec, "MPI_Comm_set_attr", "attribute_val",
                                      kind=spec.kinds["ATTRIBUTE_VAL_10"]))
    assert names(found, "MPI_Comm_set_attr", "attribute_val", "kind", "ATTRIBUTE_VAL_10")


def test_extra_state_kind_in_apis(apis, new_mismatches):
    found = new_mismatches(apis_=edit_apis(apis, "MPI_Keyval_create", "extra_state",
                                           kind="EXTRA_STATE"))
    assert names(found, "MPI_Keyval_create", "extra_state", "kind", "EXTRA_STATE2")


@pytest.mark.parametrize("field,attr", [("param_direction", "dir"), ("lis_direction", "lis")])
def test_changed_direction(spec, new_mismatches, field, attr):
    found = new_mismatches(edit_param(spec, "MPI_Comm_get_attr", "flag", **{attr: "inout"}))
    assert names(found, "MPI_Comm_get_attr", "flag", field, "'inout'")


def test_changed_direction_in_apis(apis, new_mismatches):
    found = new_mismatches(apis_=edit_apis(apis, "MPI_Comm_set_attr", "comm",
                                           lis_direction="in"))
    assert names(found, "MPI_Comm_set_attr", "comm", "lis_direction")


def test_changed_callback_type(spec, new_mismatches):
    found = new_mismatches(edit_param(spec, "MPI_Win_create_keyval", "win_copy_attr_fn",
                                      func_type="MPI_Comm_copy_attr_function"))
    assert names(found, "MPI_Win_create_keyval", "win_copy_attr_fn", "func_type")


def test_ierror_name_and_kind(spec, new_mismatches):
    found = new_mismatches(replace_entry(spec, "MPI_Copy_function",
                                         lambda e: dataclasses.replace(e, ierror="ierror")))
    assert names(found, "MPI_Copy_function", "ierr", "error argument")
    found = new_mismatches(replace_entry(spec, "MPI_TYPE_NULL_DELETE_FN",
                                         lambda e: dataclasses.replace(e, ierror_kind="ERROR_CODE")))
    assert names(found, "MPI_TYPE_NULL_DELETE_FN", "ierror", "ERROR_CODE_SHOW_INTENT")


def test_c_only_suppressed_parameter(apis, new_mismatches):
    """A parameter apis.json drops from C that is not the error argument cannot be in our spec."""
    found = new_mismatches(apis_=edit_apis(apis, "MPI_Comm_dup", "newcomm",
                                           suppress="c_parameter"))
    assert names(found, "MPI_Comm_dup", "newcomm", "suppresses it in C")


def test_lis_suppressed_parameters_are_c_parameters(spec, new_mismatches):
    """MPI_Init's argc/argv are absent from the LIS and Fortran, but compared as C parameters."""
    found = new_mismatches(edit_param(spec, "MPI_Init", "argc", dir="in"))
    assert names(found, "MPI_Init", "argc", "param_direction")


def test_missing_routine(spec, apis, new_mismatches):
    found = new_mismatches(dataclasses.replace(spec, functions=tuple(
        f for f in spec.functions if f.name != "MPI_Comm_idup")))
    assert names(found, "MPI_Comm_idup", "missing from our spec")
    gone = {k: v for k, v in apis.items() if k != "mpi_win_set_attr"}
    assert names(new_mismatches(apis_=gone), "MPI_Win_set_attr", "not in apis.json")


def test_stale_erratum_apis_fixed(apis, new_mismatches):
    found = new_mismatches(apis_=edit_apis(apis, "MPI_Comm_delete_attr_function", "attribute_val",
                                           param_direction="in"))
    assert names(found, "MPI_Comm_delete_attr_function", "attribute_val", "stale erratum",
                 "param_direction")


def test_stale_erratum_spec_changed(spec, new_mismatches):
    found = new_mismatches(edit_param(spec, "MPI_COMM_DUP_FN", "attribute_val_out", dir="inout"))
    assert names(found, "MPI_COMM_DUP_FN", "attribute_val_out", "stale erratum")
    assert names(found, "MPI_COMM_DUP_FN", "attribute_val_out", "param_direction is 'inout'")


def test_stale_erratum_unknown_entry(errata, new_mismatches):
    bogus = dict(errata[0], entry="MPI_No_such_function")
    found = new_mismatches(errata_=[*errata, bogus])
    assert names(found, "MPI_No_such_function", errata[0]["param"], "stale erratum")


def test_erratum_must_match_exactly(errata, new_mismatches):
    """An erratum excuses one (official, ours) pair, not any value of the field."""
    wrong = [dict(e, ours="inout") if e["entry"] == "MPI_Type_copy_attr_function" else e
             for e in errata]
    found = new_mismatches(errata_=wrong)
    assert names(found, "MPI_Type_copy_attr_function", "attribute_val_out", "in apis.json")


def test_without_errata_the_quirks_are_reported(new_mismatches):
    found = new_mismatches(errata_=[])
    assert names(found, "MPI_Comm_delete_attr_function", "attribute_val", "'out' in apis.json")


def test_malformed_errata_file_is_rejected(tmp_path):
    bad = tmp_path / "errata.toml"
    bad.write_text('[[erratum]]\nentry = "MPI_X"\nparam = "p"\nfield = "kind"\n'
                   'official = "a"\nours = "b"\nreason = "r"\n')
    with pytest.raises(ValueError, match="erratum #1"):
        sc.load_errata(bad)


def test_prototype_const_added_is_caught(spec, caching):
    assert not sc.check_prototypes(spec, caching)
    altered = edit_param(spec, "MPI_Comm_set_attr", "attribute_val", const=True)
    found = sc.check_prototypes(altered, caching)
    assert names(found, "MPI_Comm_set_attr", "C prototype", "const void* attribute_val")
    assert names(found, "MPI_Comm_set_attr", "PMPI prototype")
    assert len(found) == 2


def test_prototype_pointer_dropped_is_caught(spec, caching):
    altered = edit_param(spec, "MPI_Comm_copy_attr_function", "flag", dir="in")
    found = sc.check_prototypes(altered, caching)
    assert names(found, "MPI_Comm_copy_attr_function", "int flag")


# ---- the MPICH extensions: checked against MPICH's prototypes, never an MPI_ name (D35) ----

def test_D35_mpich_extension_prototype_is_checked(spec, new_mismatches):
    found = new_mismatches(spec_=edit_param(spec, "MPIX_Comm_create_keyval_x", "destructor_fn",
                                            name="destructor"))
    assert any("MPIX_Comm_create_keyval_x: C prototype differs from MPICH's" in m for m in found)
    assert any("PMPI prototype differs" in m for m in found)


def test_D35_mpich_extension_needs_no_fortran_binding(spec, new_mismatches):
    found = new_mismatches(spec_=replace_entry(spec, "MPIX_Win_create_keyval_x",
                                               lambda e: dataclasses.replace(e, fortran=None)))
    assert any("MPIX_Win_create_keyval_x: MPICH has no Fortran binding" in m for m in found)


def test_D35_unknown_mpix_entry_is_reported(spec, new_mismatches):
    found = new_mismatches(spec_=replace_entry(spec, "MPIX_Type_create_keyval_x",
                                               lambda e: dataclasses.replace(e, name="MPIX_Type_made_up")))
    assert any(m.startswith("MPIX_Type_made_up: an MPIX_ entry that is neither") for m in found)


def test_D35_exemption_cannot_hide_an_mpi_routine(spec, apis, errata, caching):
    """An MPI_ routine absent from apis.json is reported even when the extension table lists it,
    and the table itself is reported for listing it."""
    renamed = replace_entry(spec, "MPIX_Comm_create_keyval_x",
                            lambda e: dataclasses.replace(e, name="MPI_Comm_create_keyval_x"))
    table = dict(sc.MPICH_EXTENSIONS)
    table["MPI_Comm_create_keyval_x"] = table["MPIX_Comm_create_keyval_x"].replace("MPIX_", "MPI_", 1)
    found = sc.check_spec(renamed, apis, errata, caching, extensions=table)
    assert "MPI_Comm_create_keyval_x: in our spec but not in apis.json" in found
    assert any(m.startswith("MPI_Comm_create_keyval_x: listed as an MPICH extension") for m in found)
    assert not sc.is_mpich_extension("MPI_Comm_create_keyval")
