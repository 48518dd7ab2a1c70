#!/usr/bin/env python3
"""MPICH's MPIX_*_create_keyval_x over a host MPI (docs/decisions.md D35, docs/host.md).

    keyval_x.py --host mpich|openmpi --mode linked|wrapper|cxx-header --lib libmpiattr_<host>.so
                --bindir BUILD/bin --incdir BUILD/include --src D35_keyval_x_destructor.c
                --workdir DIR [--launch-lock FILE]

Neither host of the stage has these routines (Debian's MPICH 4.0.2 and Open MPI 4.1.4 declare and
define none), so hostrun.py's "alone" run, which needs the program to build on the host by itself,
cannot apply; nor can a preload run: built without mpiattr's library the program has an undefined
reference to MPIX_Comm_create_keyval_x, which no LD_PRELOAD at run time can cure at link time.
The modes:
  linked      the host's mpicc, -I<incdir>/host (the host's mpi.h plus the extensions' declarations)
              and -lmpiattr_<host>; run on 2 ranks, once as is and once at MPI_THREAD_MULTIPLE
  wrapper     the same, built with <bindir>/mpiattr-<host>-cc (which adds both itself)
  cxx-header  the program compiled as C++ by the host's mpicxx with -I<incdir>/host (and without
              the host's MPI:: classes): the header's declarations are C++-clean (extern "C", the
              typedef beside the host's)
With --launch-lock, each run under mpiexec holds an exclusive flock on FILE (hostrun.py's
--launch-lock); the compiles, and the cxx-header mode, which runs nothing, do not.
Exit status: 0 passed, 1 failed, 77 skipped (the host is not installed).
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/host: hostrun.py
import hostrun  # noqa: E402  (run_captured; exclusive: the launch lock; OPENMPI_FAST_START)

HOSTS = {
    "mpich": ("mpicc.mpich", "mpicxx.mpich", ["mpiexec.mpich", "-n", "2"]),
    "openmpi": ("mpicc.openmpi", "mpicxx.openmpi", ["mpiexec.openmpi", "--oversubscribe", "-n", "2"]),
}


def run(cmd: list[str], env: dict[str, str] | None = None,
        timeout: float | None = None) -> subprocess.CompletedProcess:
    print("$ " + " ".join(cmd), flush=True)
    return hostrun.run_captured(cmd, env, timeout)  # a hang shows each rank's stack (D106)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", required=True, choices=HOSTS)
    ap.add_argument("--mode", required=True, choices=("linked", "wrapper", "cxx-header"))
    ap.add_argument("--lib", required=True, type=Path)
    ap.add_argument("--bindir", required=True, type=Path)
    ap.add_argument("--incdir", required=True, type=Path)
    ap.add_argument("--src", required=True, type=Path)
    ap.add_argument("--workdir", required=True, type=Path)
    ap.add_argument("--launch-lock", type=Path, metavar="FILE")
    a = ap.parse_args()
    cc, cxx, launch = HOSTS[a.host]
    if shutil.which(cc) is None or shutil.which(launch[0]) is None:
        print(f"skipped: {cc} or {launch[0]} is not installed")
        return 77
    a.workdir.mkdir(parents=True, exist_ok=True)
    exe = a.workdir / "keyval_x"
    hostinc = f"-I{a.incdir / 'host'}"
    # (The program also calls the MPI-1 routines, which Open MPI's mpi.h marks deprecated.)
    warn = ["-Wall", "-Wextra", "-Werror", "-Wno-deprecated-declarations"]
    if a.mode == "cxx-header":
        # (Without the host's own MPI:: classes, which -Wextra finds fault with in Open MPI's.)
        p = run([cxx, "-x", "c++", "-fsyntax-only", *warn, "-DOMPI_SKIP_MPICXX", "-DMPICH_SKIP_MPICXX",
                 hostinc, str(a.src)])
        print(p.stdout + p.stderr)
        return 0 if p.returncode == 0 else 1
    if a.mode == "linked":
        libdir = a.lib.resolve().parent
        libname = a.lib.name.removeprefix("lib").split(".so")[0]  # (the file may be .so.0.1)
        build = [cc, *warn, hostinc, str(a.src), "-o", str(exe), f"-L{libdir}",
                 f"-Wl,-rpath,{libdir}", f"-l{libname}"]
    else:
        build = [str(a.bindir / f"mpiattr-{a.host}-cc"), *warn, str(a.src), "-o", str(exe)]
    p = run(build)
    if p.returncode != 0:
        print(p.stdout + p.stderr)
        print("FAIL: the program does not build")
        return 1
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    if a.host == "openmpi":
        env.update(hostrun.OPENMPI_FAST_START)
    env.pop("LD_PRELOAD", None)
    failed = False
    for args in ([], ["multiple"]):
        with hostrun.exclusive(a.launch_lock, "another test's run"):
            p = run(launch + [str(exe), *args], env=env, timeout=120)
        print(f"exit status {p.returncode}\n---- stdout ----\n{p.stdout}---- stderr ----\n{p.stderr}")
        if p.returncode != 0 or "passed" not in p.stdout or "FAIL" in p.stderr:
            print(f"FAIL: the run {' '.join(args) or '(MPI_Init)'} did not pass")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
