"""The generator: the loader's errors, --list-outputs, deterministic output, and an mpi.h that
compiles as C and C++."""
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import spec_check as sc
from mpiattr_codegen.lang import c as lang_c, core as lang_core
from mpiattr_codegen.model import SpecError

LANGS = {"c": lang_c, "core": lang_core}


def codegen(*args):
    return subprocess.run([sys.executable, "-m", "mpiattr_codegen", *map(str, args)],
                          cwd=sc.CODEGEN_DIR, capture_output=True, text=True)


def altered_spec(tmp_path, file, entry, old, new):
    """A copy of spec/ where the first `old` after entry `entry` in `file` reads `new`."""
    d = tmp_path / "spec"
    shutil.copytree(sc.SPEC_DIR, d)
    text = (d / file).read_text()
    at = text.index(f'name = "{entry}"')
    where = text.index(old, at)
    (d / file).write_text(text[:where] + new + text[where + len(old):])
    return d


@pytest.mark.parametrize("file,entry,old,new,words", [
    ("caching.toml", "MPI_COMM_DUP_FN", "behaviour =", "behavior =", ["behavior"]),
    ("caching.toml", "MPI_Comm_set_attr", 'dir = "in", lis', 'direction = "in", lis',
     ["parameter comm", "direction"]),
    ("runtime.toml", "MPI_Init_thread", '"THREAD_LEVEL"', '"THREAD_LEVL"',
     ["parameter required", "unknown kind", "THREAD_LEVL"]),
    ("caching.toml", "MPI_Attr_get", '"ATTRIBUTE_VAL_10"', '"ATTRIBUTE_VAL_1O"',
     ["parameter attribute_val", "unknown kind"]),
])
def test_loader_rejects_with_file_and_entry(tmp_path, file, entry, old, new, words):
    d = altered_spec(tmp_path, file, entry, old, new)
    with pytest.raises(SpecError) as e:
        sc.load_spec(d)
    for w in [file, entry, *words]:
        assert w in str(e.value)
    r = codegen("--spec", d, "--lang", "c", "--out", tmp_path / "out")
    assert r.returncode == 1 and file in r.stderr and entry in r.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("name", sorted(LANGS))
def test_list_outputs(tmp_path, name):
    r = codegen("--spec", "../spec", "--lang", name, "--out", tmp_path / "o", "--list-outputs")
    assert r.returncode == 0 and r.stderr == ""
    assert r.stdout.endswith("\n") and not r.stdout.endswith("\n\n")
    lines = r.stdout.split("\n")[:-1]
    assert lines == [str((tmp_path / "o" / path).resolve()) for _, path in LANGS[name].OUTPUTS]
    assert all(line and Path(line).is_absolute() for line in lines)
    assert not (tmp_path / "o").exists(), "--list-outputs wrote files"


def generate(out):
    for name in LANGS:
        r = codegen("--spec", sc.SPEC_DIR, "--lang", name, "--out", out)
        assert r.returncode == 0, r.stderr
    return {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    return tmp_path_factory.mktemp("gen1"), tmp_path_factory.mktemp("gen2")


def test_generation_is_deterministic_and_undated(generated):
    a, b = (generate(d) for d in generated)
    expected = {Path(p) for m in LANGS.values() for _, p in m.OUTPUTS}
    assert set(a) == expected
    assert a == b
    date = re.compile(rb"\b(19|20)\d\d-\d\d-\d\d\b|\b\d\d:\d\d:\d\d\b")
    for path, data in a.items():
        assert not date.search(data), f"{path} carries a timestamp"
        assert str(generated[0]).encode() not in data, f"{path} carries the output path"


@pytest.mark.parametrize("compiler,flags,suffix", [
    ("gcc", ["-std=c11", "-x", "c"], ".c"),
    ("g++", ["-std=c++17", "-x", "c++"], ".cc"),
])
def test_mpi_h_compiles(generated, tmp_path, compiler, flags, suffix):
    if shutil.which(compiler) is None:
        pytest.skip(f"no {compiler}")
    out = generated[0]
    if not (out / "include" / "mpi.h").exists():
        generate(out)
    src = tmp_path / f"use_mpi{suffix}"
    src.write_text("#include <mpi.h>\n"
                   "static MPI_Comm_copy_attr_function *copy_fn = MPI_COMM_DUP_FN;\n"
                   "int main(void) { int k; (void)copy_fn;\n"
                   "  return MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN,\n"
                   "      MPI_COMM_NULL_DELETE_FN, &k, (void*)0); }\n")
    r = subprocess.run([compiler, "-fsyntax-only", *flags, "-Wall", "-Wextra", "-Werror",
                        "-I", str(out / "include"), str(src)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


# The ABI header's own names, which an mpi.h that only has the ABI's values must not define (D1).
ABI_ONLY = {"MPI_ABI_VERSION", "MPI_ABI_SUBVERSION", "MPI_H_ABI", "MPI_ABI_Aint", "MPI_ABI_Count",
            "MPI_ABI_Offset"}


def test_issue26_every_abi_header_name_is_usable_from_mpi_h(generated, tmp_path):
    """Issue 26 item 1, for every kind of name: each object-like macro, enumerator and typedef of
    reference/mpi-abi/mpi.h compiles against our generated mpi.h (test_spec_vs_abi.py compares the
    integer values; this also catches the pointer constants, MPI_BUFFER_AUTOMATIC among them, and
    the types)."""
    if shutil.which("gcc") is None:
        pytest.skip("no gcc")
    out = generated[0]
    if not (out / "include" / "mpi.h").exists():
        generate(out)
    abi = (sc.SOURCE_DIR / "reference" / "mpi-abi" / "mpi.h").read_text()
    values = set(re.findall(r"^#define\s+(MPI_\w+)[ \t]", abi, re.M))
    values |= set(re.findall(r"^\s+(MPI_[A-Z0-9_]+)\s*=", abi, re.M))
    types = set(re.findall(r"typedef\b[^;{]*?\b(MPI_\w+)\s*;", abi))
    types |= set(re.findall(r"^}\s*(MPI_\w+)\s*;", abi, re.M))  # typedef struct { ... } MPI_X;
    types |= set(re.findall(r"typedef\b[^;(]*\(\s*\*?\s*(MPI_\w+)\s*\)\s*\(", abi))
    values -= ABI_ONLY
    types -= ABI_ONLY
    assert len(values) > 300 and len(types) > 30
    body = "".join(f"  (void)({n});\n" for n in sorted(values))
    body += "".join(f"  {{ {n} *p = 0; (void)p; }}\n" for n in sorted(types))
    src = tmp_path / "abi_names.c"
    src.write_text(f"#include <mpi.h>\nint main(void) {{\n{body}  return 0;\n}}\n")
    r = subprocess.run(["gcc", "-std=c11", "-fsyntax-only", "-Wall", "-Wno-unused-value",
                        "-I", str(out / "include"), str(src)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[:4000]
