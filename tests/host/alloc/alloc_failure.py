#!/usr/bin/env python3
"""Out of memory over a host MPI (docs/decisions.md D61): tests/c/D61_allocation_failure.c, built with
the host's own mpicc (it is plain MPI, reaching mpiattr's test switch through dlsym), run as one
process with libmpiattr_<host>.so preloaded into it through the launcher. The switch fails only
mpiattr's own allocations: the host's are not ours to fix.

    alloc_failure.py --host mpich|openmpi --lib libmpiattr_<host>.so --src D61_allocation_failure.c
                     --workdir DIR [--launch-lock FILE]

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

HOSTS = {
    "mpich": ("mpicc.mpich", ["mpiexec.mpich", "-n", "1"], lambda k, v: ["-genv", k, v]),
    "openmpi": ("mpicc.openmpi", ["mpiexec.openmpi", "--oversubscribe", "-n", "1"], lambda k, v: ["-x", f"{k}={v}"]),
}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", required=True, choices=HOSTS)
    ap.add_argument("--lib", required=True, type=Path)
    ap.add_argument("--src", required=True, type=Path)
    ap.add_argument("--workdir", required=True, type=Path)
    ap.add_argument("--launch-lock", type=Path)
    a = ap.parse_args()
    cc, launch, env_arg = HOSTS[a.host]
    if shutil.which(cc) is None or shutil.which(launch[0]) is None:
        print(f"skipped: {cc} or {launch[0]} is not installed")
        return 77
    a.workdir.mkdir(parents=True, exist_ok=True)
    exe = a.workdir / "D61_allocation_failure"
    build = [cc, "-O1", "-Wall", "-Wextra", "-Werror", "-Wno-deprecated-declarations",
             f"-I{a.src.parent}", str(a.src), "-o", str(exe), "-ldl"]
    print("$ " + " ".join(build), flush=True)
    if subprocess.run(build).returncode != 0:
        return 1
    # (Open MPI as hostrun.py sets it up: root allowed, windows over point-to-point, shared memory.)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_osc="pt2pt", OMPI_MCA_btl="self,vader")
    env.pop("LD_PRELOAD", None)
    cmd = launch + env_arg("LD_PRELOAD", str(a.lib.resolve())) + [str(exe)]
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
