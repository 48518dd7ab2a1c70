"""The spec's constants against the MPI Forum's reference header of the MPI-5.0 ABI, vendored in
reference/mpi-abi/ (docs/decisions.md D1, D2): every constant the spec defines and the header names
has the header's value. The spec's MPI_VERSION and MPI_SUBVERSION are the exception: mpiattr
declares the MPI-4.1 routines it implements (D1), the header MPI-5.0.

And every name of the header is a spec constant, save the ABI's own version (NOT_PROMISED, D1)."""
import hashlib
import re
import tomllib

import pytest

import spec_check as sc

ABI_DIR = sc.SOURCE_DIR / "reference" / "mpi-abi"
ABI_SHA256 = "bf957b3d64443ee321282188cf42c76b9c37819a47403cda56e5ecf388fb2159"
NOT_ABI = {"MPI_VERSION", "MPI_SUBVERSION"}  # D1
# What only an implementation of the MPI-5.0 ABI may define: a program tests them to learn that it
# runs on the ABI (D1: mpiattr has the ABI's values, not its binary interface).
NOT_PROMISED = {"MPI_ABI_VERSION", "MPI_ABI_SUBVERSION"}
_NUMBER = r"(-?0x[0-9a-fA-F]+|-?\d+)"


def abi_values(text: str) -> dict[str, int]:
    """Every integer constant of the header: `#define MPI_X ((MPI_Type)0x...)`, `#define MPI_X 12`
    and the enumerators `MPI_X = 12,`."""
    values: dict[str, int] = {}
    for pattern in (rf"^#define\s+(MPI_\w+)\s+\(\(\w+\)\s*{_NUMBER}\)",
                    rf"^#define\s+(MPI_\w+)\s+{_NUMBER}\b",
                    rf"^\s+(MPI_\w+)\s*=\s*{_NUMBER}\s*,?"):
        for m in re.finditer(pattern, text, re.M):
            values[m.group(1)] = int(m.group(2), 0)
    return values


def spec_values(constants: dict) -> dict[str, int]:
    values = {e["name"]: e["value"]
              for table in ("predefined_key", "handle", "datatype", "error_class", "op")
              for e in constants[table]}
    values[constants["keyval_invalid"]["name"]] = constants["keyval_invalid"]["value"]
    values.update(constants["integers"])
    # The constants of the C binding only (docs/decisions.md D39).
    values.update(constants.get("c_integers", {}))
    values.update({h["name"]: h["value"] for h in constants.get("c_handle", [])})
    for e in constants.get("c_enum", []):
        values.update(e["values"])
    values.update(constants["version"])
    return values


def mismatches(spec: dict[str, int], abi: dict[str, int]) -> list[str]:
    return [f"{name}: spec {value:#x}, ABI {abi[name]:#x}" for name, value in sorted(spec.items())
            if name in abi and name not in NOT_ABI and abi[name] != value]


@pytest.fixture(scope="module")
def abi():
    return abi_values((ABI_DIR / "mpi.h").read_text())


@pytest.fixture(scope="module")
def spec():
    with open(sc.SPEC_DIR / "constants.toml", "rb") as f:
        return spec_values(tomllib.load(f))


def test_abi_header_is_the_documented_snapshot(abi):
    assert hashlib.sha256((ABI_DIR / "mpi.h").read_bytes()).hexdigest() == ABI_SHA256
    # The parser found the header's tables: handles, datatypes, error classes, keys, limits.
    assert abi["MPI_COMM_WORLD"] == 0x101 and abi["MPI_TAG_UB"] == 501 and abi["MPI_ERR_KEYVAL"] == 36
    assert len(abi) >= 330


def test_D1_D2_spec_constants_have_the_abi_values(spec, abi):
    found = mismatches(spec, abi)
    if found:
        pytest.fail(f"{len(found)} value(s) out of step with reference/mpi-abi/mpi.h:\n" +
                    "\n".join(found), pytrace=False)


def test_every_spec_constant_is_an_abi_name(spec, abi):
    assert sorted(set(spec) - set(abi)) == []


def test_the_check_sees_a_changed_value(spec, abi):
    for name in ("MPI_APPNUM", "MPI_ERRORS_RETURN", "MPI_CHARACTER", "MPI_MAX_INFO_KEY"):
        altered = dict(spec, **{name: spec[name] + 1})
        assert [m for m in mismatches(altered, abi) if m.startswith(name + ":")], name


def test_every_abi_name_is_in_the_spec(spec, abi):
    """Issue 26 item 1: every constant and predefined handle of the header, save NOT_PROMISED (D1),
    is a spec constant (the tool interface's and MPI_F_* as C-only ones, D39)."""
    missing = sorted(set(abi) - set(spec) - NOT_PROMISED)
    assert missing == [], f"{len(missing)} ABI names missing: {missing}"


def test_D41_removed_names_are_not_abi_names(abi):
    """The MPI-1 names MPI-3.0 removed (spec/constants.toml [[removed]], offered by MPI:: over a host
    only) are not in the ABI, and no spec constant is also a removed name."""
    with open(sc.SPEC_DIR / "constants.toml", "rb") as f:
        constants = tomllib.load(f)
    removed = {r["name"] for r in constants["removed"]}
    assert removed >= {"MPI_LB", "MPI_UB", "MPI_COMBINER_STRUCT_INTEGER"}
    assert removed & set(abi) == set()
    assert removed & set(spec_values(constants)) == set()


def test_D1_the_abi_version_is_not_claimed(spec):
    assert NOT_PROMISED & set(spec) == set()
