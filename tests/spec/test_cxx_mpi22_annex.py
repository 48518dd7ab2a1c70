"""The MPI:: bindings hold exactly MPI-2.2 Annex A.4 (issue 25): each of the annex's 336 members is
in the generated mpicxx.h with its exact type (a pointer to it compiles), and each member the
generator writes from the spec is one of the annex's. reference/mpi-2.2/cxx-bindings.txt is the
annex, vendored."""
import re
import shutil
import subprocess
import sys
from collections import Counter

import pytest

import spec_check as sc

sys.path.insert(0, str(sc.CODEGEN_DIR))
from mpiattr_codegen.lang import cxx  # noqa: E402

ANNEX = sc.SOURCE_DIR / "reference" / "mpi-2.2" / "cxx-bindings.txt"
SIG = re.compile(r"(static\s+)?(.*?)\s*\b(?:(\w+)::)?(\w+)\s*\((.*)\)\s*(const)?\s*(=\s*0)?$")


def _type_of(decl: str, unqualify: bool = True) -> str:
    """A parameter's type as the function's type has it: without its name, a top-level const
    (`const Aint lb` is an Aint parameter) and a class qualifier of a callback type (in its class,
    `Comm::Errhandler_function` is `Errhandler_function`): `const int ranges[][3]` -> `const int[][3]`."""
    decl = decl.strip()
    if decl == "...":
        return decl
    m = re.match(r"(.*?)(\w+)\s*((?:\[\w*\])*)$", decl)
    t = f"{m.group(1)}{m.group(3)}" if m and m.group(1).strip() else decl
    t = re.sub(r"\s+", " ", re.sub(r"\s*([*&\[\]])\s*", r"\1", t)).strip()
    if not re.search(r"[*&\[]", t):
        t = re.sub(r"^const ", "", t)
    # A cv-qualifier on a function type is ignored: A.4's `const Grequest::Query_function*` is
    # the type `Grequest::Query_function*`, which mpicxx.h spells without it (clang warns).
    t = re.sub(r"^const (?=(?:\w+::)?\w+_function\*$)", "", t)
    return re.sub(r"\b(?:Comm|Win|File|Datatype|Grequest)::(?=\w+_function)", "", t) if unqualify else t


def _split(params: str) -> list[str]:
    return [p for p in (x.strip() for x in params.split(",")) if p and p != "void"]


def annex() -> list[dict]:
    out = []
    for line in ANNEX.read_text().splitlines():
        line = line.strip().lstrip("{").strip()
        if not line or line.startswith("#"):
            continue
        line = ERRATA.get(line, line)
        m = SIG.match(line)
        assert m, f"unparsed annex line: {line}"
        out.append({"static": bool(m[1]), "ret": re.sub(r"\s*([*&])", r"\1", m[2]), "cls": m[3] or "",
                    "name": m[4], "params": [_type_of(p) for p in _split(m[5])],
                    "qualified": [_type_of(p, False) for p in _split(m[5])],
                    "const": bool(m[6]), "text": line})
    return out


# Where Annex A.4 misprints a member, the standard's body text wins (none so far: the annex's
# Distgraphcomm::Get_dist_neighbors_count, with its unused `int rank` and its counts as arrays, is
# what MPI-2.2 prints, and neither host has a Distgraphcomm to differ from).
ERRATA: dict[str, str] = {}
# Members mpiattr adds to A.4, each documented: Create_keyval with C callbacks, or one of each
# (docs/cxx.md C2: a legacy code passes MPI_COMM_NULL_COPY_FN, MPI_COMM_DUP_FN, ...).
EXTENSIONS = {
    f"static int {c}::Create_keyval({a}, {b}, void*)"
    for c, t in (("Comm", "Comm"), ("Datatype", "Type"), ("Win", "Win"))
    for a, b in ((f"MPI_{t}_copy_attr_function*", f"MPI_{t}_delete_attr_function*"),
                 ("Copy_attr_function*", f"MPI_{t}_delete_attr_function*"),
                 (f"MPI_{t}_copy_attr_function*", "Delete_attr_function*"))} | {
    # Beside the annex's form: the three OUT arguments of MPI_Dist_graph_neighbors_count as
    # references, as MPICH's own C++ test suite (distgraphcxx) calls it.
    "void Distgraphcomm::Get_dist_neighbors_count(int&, int&, bool&) const"} | {
    # D59: MPICH's form of the datatype copy function (void* attribute_val_in), beside the annex's.
    f"static int Datatype::Create_keyval(Mpich_copy_attr_function*, {d}, void*)"
    for d in ("Delete_attr_function*", "MPI_Type_delete_attr_function*")} | {
    # D145: MPI::COMM_NULL's class (MPI-2.2 §16.1.7 leaves it to the implementation) is a
    # communicator, so it implements Comm's pure virtual Clone (MPICH's class and member).
    "Nullcomm& Nullcomm::Clone() const"}


def key(static, ret, cls, name, params, const) -> str:
    return f"{'static ' if static else ''}{ret} {cls}::{name}({', '.join(params)}){' const' if const else ''}"


def test_annex_is_the_documented_file():
    members = annex()
    assert len(members) == 336
    assert len({m["text"] for m in members}) == 336


def test_every_generated_member_is_an_annex_member():
    want = Counter(key(m["static"], m["ret"], m["cls"], m["name"], m["params"], m["const"])
                   for m in annex())
    spec = sc.load_spec(sc.SPEC_DIR)
    extra = []
    for cls, ms in cxx.members(spec).items():
        for m in ms:
            k = key(m.static, m.ret, cls, m.name, [_type_of(p) for p in m.params], m.const)
            if k not in want and k not in EXTENSIONS:
                extra.append(f"{k}  [{m.origin}]")
    assert not extra, "generated members that MPI-2.2 Annex A.4 does not have:\n" + "\n".join(extra)


def _pointer(m: dict, i: int) -> str:
    """`R (Cls::*p3)(A, B) const = &Cls::Name;` in namespace MPI: compiles only for that type."""
    params = ", ".join(m["qualified"])
    scope = f"{m['cls']}::" if m["cls"] else ""
    if m["cls"] and not m["static"]:
        ptr = f"{m['ret']} ({m['cls']}::*p{i})({params}){' const' if m['const'] else ''}"
    else:
        ptr = f"{m['ret']} (*p{i})({params})"
    return f"{ptr} = &{scope}{m['name']};  // {m['text']}"


@pytest.mark.skipif(shutil.which("g++") is None, reason="no g++")
def test_header_has_every_annex_member_with_its_type(tmp_path):
    out = tmp_path / "out"
    for lang in ("c", "cxx"):
        r = subprocess.run([sys.executable, "-m", "mpiattr_codegen", "--spec", str(sc.SPEC_DIR),
                            "--lang", lang, "--out", str(out)], cwd=sc.CODEGEN_DIR,
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
    lines = ["#include <mpi.h>", "namespace MPI {", "void mpiattr_annex_check() {"]
    lines += [f"  {_pointer(m, i)}\n  (void)p{i};" for i, m in enumerate(annex())]
    lines += ["}", "}  // namespace MPI"]
    src = tmp_path / "annex.cc"
    src.write_text("\n".join(lines) + "\n")
    r = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", "-fmax-errors=400",
                        "-Wno-deprecated-declarations", "-I", str(out / "include"), str(src)],
                       capture_output=True, text=True)
    missing = sorted({re.sub(r".*// ", "", line) for line in src.read_text().splitlines()
                      if "//" in line and f"annex.cc:{src.read_text().splitlines().index(line) + 1}:"
                      in r.stderr})
    assert r.returncode == 0, (f"{len(missing)} annex members missing or of another type:\n"
                               + "\n".join(missing) + "\n\n" + r.stderr[-3000:])
