"""Builds every C, C++ and Fortran example of README.md with mpiattr's compiler wrappers and runs
each under valgrind, so that the examples a user copies first stay correct.

Usage: readme_examples.py README.md BIN_DIR WORK_DIR
  BIN_DIR holds the wrappers (mpiattr-cc, mpiattr-cxx, mpiattr-fort); WORK_DIR receives the
  extracted sources and programs. A fenced block is an example when its info string is c, cpp /
  c++ or fortran. Valgrind must report no error and no definitely lost memory (exit status 1
  otherwise), and each program must exit 0. Each of the three languages must have an example, so
  that a renamed fence does not silently drop one from the check.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

LANGS = {  # fence info string -> (source suffix, wrapper)
    "c": (".c", "mpiattr-cc"),
    "cpp": (".cc", "mpiattr-cxx"),
    "c++": (".cc", "mpiattr-cxx"),
    "fortran": (".f90", "mpiattr-fort"),
}
VALGRIND_ARGS = ["--error-exitcode=1", "--leak-check=full", "--errors-for-leak-kinds=definite"]
FENCE = re.compile(r"^```([A-Za-z0-9+]*)[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)


def examples(readme: str) -> list[tuple[int, str, str]]:
    """(line, language, code) of each example block, in order."""
    out = []
    for m in FENCE.finditer(readme):
        lang = m.group(1).lower()
        if lang in LANGS:
            out.append((readme.count("\n", 0, m.start()) + 1, lang, m.group(2)))
    return out


def run(cmd: list[str]) -> subprocess.CompletedProcess:
    print("$", " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=240)
    for stream in (p.stdout, p.stderr):
        if stream.strip():
            print(stream.rstrip())
    return p


def main(argv: list[str]) -> int:
    if len(argv) != 4:
        print(__doc__)
        return 2
    readme, bin_dir, work = Path(argv[1]), Path(argv[2]), Path(argv[3])
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        print("FAIL: valgrind not found (scripts/deps.sh installs it)")
        return 1
    found = examples(readme.read_text())
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    failures, clean = [], 0
    for line, lang, code in found:
        suffix, wrapper = LANGS[lang]
        name = f"readme_line{line}_{lang.replace('+', 'p')}"
        src, exe = work / (name + suffix), work / name
        src.write_text(code)
        print(f"== {readme.name}:{line} ({lang}) ==", flush=True)
        if run([str(bin_dir / wrapper), "-g", str(src), "-o", str(exe)]).returncode != 0:
            failures.append(f"{readme.name}:{line} ({lang}): does not build")
            continue
        rc = run([valgrind, "--quiet", *VALGRIND_ARGS, str(exe)]).returncode
        if rc != 0:
            failures.append(f"{readme.name}:{line} ({lang}): exit status {rc} under valgrind")
        else:
            clean += 1
    missing = sorted({LANGS[k][1] for k in LANGS} - {LANGS[lang][1] for _, lang, _ in found})
    if missing:
        failures.append(f"{readme.name}: no example for {', '.join(missing)}")
    for f in failures:
        print("FAIL:", f)
    print(f"{clean} of {len(found)} README examples built and ran clean under valgrind")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
