"""The manual pages (codegen/mpiattr_codegen/lang/man.py): one per routine, callback type and
predefined callback, and an ERRORS section true to the C binding: every check the generated C
binding makes (lang/c.py's lowering: NULL pointers, handle lookups, MPI initialized) is listed with
the class it raises, and nothing is listed that no check raises."""
import re
import subprocess
import sys

import pytest

import spec_check as sc
from mpiattr_codegen.lang import c as lang_c, man
from mpiattr_codegen.load import load

SPEC = load(sc.SPEC_DIR)


def test_one_page_per_routine_callback_type_and_predefined_callback(tmp_path):
    r = subprocess.run([sys.executable, "-m", "mpiattr_codegen", "--lang", "man", "--spec",
                        sc.SPEC_DIR, "--out", tmp_path], cwd=sc.CODEGEN_DIR,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    pages = {p.name for p in (tmp_path / "share/man/man3").iterdir()}
    want = {e.name + ".3" for e in (*SPEC.functions, *SPEC.callbacks, *SPEC.attr_predefined_callbacks)}
    assert pages == want
    assert (tmp_path / "share/man/man7/mpiattr.7").exists()
    text = (tmp_path / "share/man/man3/MPI_Comm_delete_attr.3").read_text()
    for synopsis in ("int MPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval);",
                     "subroutine mpi_comm_delete_attr(comm, comm_keyval, ierror)",
                     "TYPE(MPI_Comm), INTENT(IN) :: comm",
                     "void MPI::Comm::Delete_attr(int comm_keyval);"):
        assert synopsis in text


def checks_in_c_binding(fn):
    """(class, parameter or None) for each failure the generated C binding's code can raise."""
    out = set()
    if fn.init == "during":
        out.add(("MPI_ERR_OTHER", None))
    if fn.unsupported:  # spec/surface.toml: the binding only refuses (docs/decisions.md D36)
        if any("c.unsupported" in line for line in lang_c.unsupported_body(fn)):
            out.add(("MPI_ERR_UNSUPPORTED_OPERATION", None))
        return out
    for p, L in zip(fn.params, lang_c.lowerings(fn)):
        for line in L.pre:
            if "c.null_pointer(" in line:
                out.add(("MPI_ERR_ARG", p.name))
            # the parameter a lookup names (a communicator's moves ahead of the others, D146)
            m = re.search(r'c\.lookup_(\w+)\(.*"(\w+)"\)', line)
            assert m or "c.lookup_" not in line, line
            if m:
                out.add((lang_c._ERR[m.group(1)], m.group(2)))
    return out


@pytest.mark.parametrize("fn", [f for f in SPEC.functions if f.returns is None],
                         ids=lambda f: f.name)
def test_errors_section_lists_every_check_of_the_c_binding(fn):
    listed = man.errors(fn)
    for cls, param in checks_in_c_binding(fn):
        assert any(c == cls and (param is None or re.search(rf"\b{param}\b", why))
                   for c, why in listed), (cls, param, listed)


@pytest.mark.parametrize("fn", [f for f in SPEC.functions if f.returns is None],
                         ids=lambda f: f.name)
def test_errors_section_lists_only_classes_something_raises(fn):
    checked = {cls for cls, _ in checks_in_c_binding(fn)}
    for cls, why in man.errors(fn):
        if cls in checked:
            continue
        # Raised by the core, not the binding: keyvals (cxx_core/src/keyval.cc, attributes.cc),
        # handles the core looks up itself (INOUT handles, info, op), callbacks' own codes, and
        # out of memory where the core allocates (D61).
        core = {"MPI_ERR_KEYVAL"} | {lang_c._ERR[p.kind.object] for p in fn.params
                                     if p.kind.cls == "handle"}
        assert cls in core or (cls, why) in (man.ERR_CALLBACK, man.ERR_NO_MEM), (cls, why)


def test_functions_without_error_code_list_none():
    for fn in SPEC.functions:
        if fn.returns is not None:
            assert man.errors(fn) == []
