#!/usr/bin/env python3
"""Out of memory over a host MPI (docs/decisions.md D61, D64): one of mpiattr's allocation-failure
sweeps, run as one process over the host. The switch fails only mpiattr's own allocations: the
host's are not ours to fix.

  - a plain MPI program (tests/c/D61_allocation_failure.c; tests/fortran/D61_allocation_failure.f90
    with its C half --extra-src, which reaches the switch through dlsym) is built with the host's
    own mpicc / mpifort and run with libmpiattr_<host>.so preloaded into it through the launcher;
  - with --wrapper (tests/cxx/programs/D64_allocation_failure.cc and mpiattr-<host>-cxx: mpiattr's
    own MPI:: classes over the host), the program is built with that wrapper, which links mpiattr,
    and run as it is.

    alloc_failure.py --host mpich|openmpi (--lib libmpiattr_<host>.so | --wrapper WRAPPER)
                     --src SRC [--extra-src C_SRC] --workdir DIR [--launch-lock FILE]

Exit status: 0 passed, 1 failed, 77 skipped (the host is not installed).
"""
from __future__ import annotations

import argparse
import fcntl
import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/host: hostrun.py
import hostrun  # noqa: E402  (OPENMPI_FAST_START)

HOSTS = {
    "mpich": ("mpicc.mpich", "mpifort.mpich", ["mpiexec.mpich", "-n", "1"], lambda k, v: ["-genv", k, v]),
    "openmpi": ("mpicc.openmpi", "mpifort.openmpi", ["mpiexec.openmpi", "--oversubscribe", "-n", "1"],
                lambda k, v: ["-x", f"{k}={v}"]),
}
WARNINGS = ["-Wall", "-Wextra", "-Werror"]


def run(cmd: list[str]) -> bool:
    print("$ " + " ".join(cmd), flush=True)
    return subprocess.run(cmd).returncode == 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", required=True, choices=HOSTS)
    how = ap.add_mutually_exclusive_group(required=True)
    how.add_argument("--lib", type=Path, help="preload this library into a program the host's compiler built")
    how.add_argument("--wrapper", type=Path, help="build with this mpiattr wrapper, which links mpiattr")
    ap.add_argument("--src", required=True, type=Path)
    ap.add_argument("--extra-src", type=Path, help="a C file to build with the host's mpicc and link in")
    ap.add_argument("--workdir", required=True, type=Path)
    ap.add_argument("--launch-lock", type=Path)
    a = ap.parse_args()
    cc, fc, launch, env_arg = HOSTS[a.host]
    fortran = a.src.suffix.lower() in (".f90", ".f")
    compiler = str(a.wrapper) if a.wrapper else fc if fortran else cc
    for tool in (compiler, cc if a.extra_src else None, launch[0]):
        if tool and shutil.which(tool) is None:
            print(f"skipped: {tool} is not installed")
            return 77
    a.workdir.mkdir(parents=True, exist_ok=True)
    exe = a.workdir / a.src.stem
    objects = []
    if a.extra_src:
        obj = a.workdir / (a.extra_src.stem + ".o")
        if not run([cc, "-O1", *WARNINGS, "-c", str(a.extra_src), "-o", str(obj)]):
            return 1
        objects.append(str(obj))
    flags = ["-O1", *WARNINGS]
    if fortran:  # (the modules' own dummies and mpif.h's PARAMETERs, as tests/fortran builds them)
        flags += ["-Wno-unused-dummy-argument", "-Wno-unused-parameter", f"-J{a.workdir}"]
    elif a.src.suffix == ".c":
        flags += ["-Wno-deprecated-declarations"]
    if not run([compiler, *flags, f"-I{a.src.parent}", str(a.src), *objects, "-o", str(exe), "-ldl"]):
        return 1
    # (Open MPI as hostrun.py sets it up: root allowed, windows over point-to-point, shared memory,
    # the pml it selects anyway named.)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_osc="pt2pt", OMPI_MCA_btl="self,vader", **hostrun.OPENMPI_FAST_START)
    env.pop("LD_PRELOAD", None)
    cmd = launch + (env_arg("LD_PRELOAD", str(a.lib.resolve())) if a.lib else []) + [str(exe)]
    print("$ " + " ".join(cmd), flush=True)
    lock = open(a.launch_lock, "w") if a.launch_lock else None
    try:
        if lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
        rc = subprocess.run(cmd, env=env, timeout=240).returncode
    finally:
        if lock:
            lock.close()
    print(f"exit status {rc}")
    return 0 if rc == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
