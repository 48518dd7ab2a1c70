#!/usr/bin/env python3
"""The standalone runtime as a process: what it leaves behind when it ends without returning from
main (D27). Each case runs one command with stdout redirected to a
file, as `./prog > out.txt` does, and checks the exit status, that file and stderr.

  runtime_check.py --list                      the case names (CMake makes one test of each)
  runtime_check.py --case NAME --bin-dir DIR   run one case; programs are taken from DIR:
                                               rt_prog, rt_prog_cxx, rt_prog_f (when built)

Exit status: 0 passed, 1 failed, 77 skipped (a program the case needs is not there: the Fortran
program without a Fortran compiler).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

SKIP = 77
TIMEOUT = 60


C_LINES = "".join(f"D27: C line {i} of 3\n" for i in (1, 2, 3))
CXX_LINES = "".join(f"D27: C++ line {i} of 3\n" for i in (1, 2, 3))
F_LINES = "".join(f"D27: Fortran line {i} of 3\n" for i in (1, 2, 3))


@dataclass(frozen=True)
class Case:
    argv: tuple[str, ...]  # {name} stands for a program: c, cxx, f
    status: int | str = 0  # the exit status, or "nonzero"
    stdout: str | None = ""  # the whole of stdout's file (None: not checked)
    stdout_has: tuple[str, ...] = ()
    stderr_has: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    merged: bool = False  # stderr into stdout's file too (2>&1): checks what comes first


def c(*args: str) -> tuple[str, ...]:
    return ("{c}", *args)


CASES: dict[str, Case] = {
    # ---- D27: output is kept when the process ends in MPI_Abort or a fatal error ----
    "D27_c_abort": Case(c("abort"), status=3, stdout=C_LINES,
                        stderr_has=("MPI_Abort called with error code 3",)),
    "D27_c_fatal": Case(c("fatal"), status=1, stdout=C_LINES,
                        stderr_has=("fatal error in MPI_Comm_set_attr", "MPI_ERR_KEYVAL")),
    "D27_c_errors_abort": Case(c("errors_abort"), status=1, stdout=C_LINES,
                               stderr_has=("fatal error in MPI_Comm_set_attr", "MPI_ERR_KEYVAL")),
    # The program's output comes before the message, as it was written before it.
    "D27_c_abort_output_first": Case(c("abort"), status=3, merged=True, stdout=None,
                                     stdout_has=(C_LINES + "mpiattr: MPI_Abort called with error code 3\n",)),
    "D27_c_fatal_output_first": Case(c("fatal"), status=1, merged=True, stdout=None,
                                     stdout_has=(C_LINES + "mpiattr: fatal error in MPI_Comm_set_attr",)),
    "D27_cxx_abort": Case(("{cxx}",), status=3, stdout=CXX_LINES,
                          stderr_has=("MPI_Abort called with error code 3",)),
    "D27_fortran_abort": Case(("{f}", "abort"), status=3, stdout=F_LINES,
                              stderr_has=("MPI_Abort called with error code 3",)),
    "D27_fortran_fatal": Case(("{f}", "fatal"), status=1, stdout=F_LINES,
                              stderr_has=("fatal error in MPI_COMM_SET_ATTR", "MPI_ERR_KEYVAL")),
    "D27_fortran_abort_output_first": Case(("{f}", "abort"), status=3, merged=True, stdout=None,
                                           stdout_has=(F_LINES + "mpiattr: MPI_Abort called",)),
}


def programs(bin_dir: Path) -> dict[str, str | None]:
    def there(name: str) -> str | None:
        p = bin_dir / name
        return str(p) if p.exists() else None
    return {"c": there("rt_prog"), "cxx": there("rt_prog_cxx"), "f": there("rt_prog_f")}


def run_case(name: str, case: Case, bin_dir: Path) -> int:
    progs = programs(bin_dir)
    argv = []
    for a in case.argv:
        if a.startswith("{") and a.endswith("}"):
            p = progs[a[1:-1]]
            if p is None:
                print(f"SKIP: {a[1:-1]} is not built or not installed")
                return SKIP
            argv.append(p)
        else:
            argv.append(a)
    env = dict(os.environ)
    env.update(case.env)
    with tempfile.TemporaryDirectory(prefix=f"rt-{name}-") as tmp:
        out_path = Path(tmp) / "out.txt"
        with open(out_path, "wb") as out:
            try:
                p = subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, stdout=out,
                                   stderr=subprocess.STDOUT if case.merged else subprocess.PIPE,
                                   timeout=TIMEOUT, cwd=tmp)
            except subprocess.TimeoutExpired:
                print(f"FAIL: timed out after {TIMEOUT} s: {' '.join(argv)}")
                return 1
        stdout = out_path.read_text(errors="replace")
    stderr = (p.stderr or b"").decode(errors="replace")
    problems = []
    if case.status == "nonzero" and p.returncode == 0:
        problems.append("exit status 0, expected non-zero")
    elif isinstance(case.status, int) and p.returncode != case.status:
        problems.append(f"exit status {p.returncode}, expected {case.status}")
    if case.stdout is not None and stdout != case.stdout:
        problems.append(f"stdout's file holds {stdout!r}, expected {case.stdout!r}")
    for s in case.stdout_has:
        if s not in stdout:
            problems.append(f"stdout's file lacks {s!r}")
    for s in case.stderr_has:
        if s not in stderr:
            problems.append(f"stderr lacks {s!r}")
    print(f"$ {' '.join(argv)}" + "".join(f"\n  {k}={v}" for k, v in case.env.items()))
    print(f"--- exit status {p.returncode}; stdout's file ---\n{stdout}--- stderr ---\n{stderr}---")
    for msg in problems:
        print(f"FAIL: {msg}")
    return 1 if problems else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--case")
    ap.add_argument("--bin-dir", type=Path)
    args = ap.parse_args()
    if args.list:
        print("\n".join(CASES))
        return 0
    if args.case not in CASES or args.bin_dir is None:
        ap.error("--case NAME (one of --list) and --bin-dir are required")
    return run_case(args.case, CASES[args.case], args.bin_dir)


if __name__ == "__main__":
    sys.exit(main())
