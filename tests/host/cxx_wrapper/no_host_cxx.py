#!/usr/bin/env python3
"""mpiattr-<host>-cxx never links the host's own C++ bindings library (issue 25, item 2).

    no_host_cxx.py --host mpich|openmpi --bindir BUILD/bin --src keyval_dup.cc --workdir DIR
                   [--launch-lock FILE]

MPICH's libmpichcxx and Open MPI 4.1's libmpi_cxx define the same MPI:: symbols as mpiattr's
libmpiattr_cxx_<host> (MPI::COMM_WORLD and about 125 more), so the wrapper must not compile with the
host's mpicxx, which adds them to the link line where only --as-needed would keep them out.
  1. The wrapper's -show, -showme:link and -link_info name no host C++ library, nor the host's
     mpicxx; a program built with it has none among its NEEDED entries nor among what ldd loads;
     it runs on 2 ranks.
  2. The same program linked with the host's C++ library forced in (-Wl,--no-as-needed -lmpichcxx,
     -lmpi_cxx), as a program would be that also links a library built on the host's MPI::
     classes: it must still run on mpiattr's classes (a C++ copy callback runs on
     MPI::COMM_WORLD.Dup(), MPI::COMM_WORLD.Get_size() is the job's size). This needs mpiattr's
     classes in a namespace of their own (their mangled names apart from the host's).
With --launch-lock, each run under mpiexec holds an exclusive flock on FILE (as hostrun.py's do).
Exit status: 0 passed, 1 failed, 77 skipped (the host is not installed).
"""
from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/host: hostrun.py
import hostrun  # noqa: E402  (OPENMPI_FAST_START)

# host -> (C wrapper, mpiexec and its arguments, C++ library name, its environment)
HOSTS = {
    "mpich": ("mpicc.mpich", ["mpiexec.mpich", "-n", "2"], "mpichcxx", {}),
    "openmpi": ("mpicc.openmpi", ["mpiexec.openmpi", "--oversubscribe", "-n", "2"], "mpi_cxx",
                {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                 "OMPI_MCA_btl": "self,vader", **hostrun.OPENMPI_FAST_START,
                 "OMPI_MCA_rmaps_base_oversubscribe": "1"}),
}
# Any host's C++ bindings library, or its C++ wrapper.
HOST_CXX = re.compile(r"mpichcxx|mpi_cxx|mpicxx\.(mpich|openmpi)")

failures: list[str] = []


def run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    print("$ " + " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.stdout or p.stderr:
        print(p.stdout + p.stderr, end="" if (p.stdout + p.stderr).endswith("\n") else "\n")
    return p


def check(ok: bool, what: str) -> bool:
    print(("ok:   " if ok else "FAIL: ") + what, flush=True)
    if not ok:
        failures.append(what)
    return ok


@contextlib.contextmanager
def launch_lock(path: Path | None):
    if path is None:
        yield
        return
    with open(path, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def needed(exe: Path) -> list[str]:
    p = subprocess.run(["readelf", "-d", str(exe)], capture_output=True, text=True)
    return re.findall(r"\(NEEDED\)\s+Shared library: \[(.*?)\]", p.stdout)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", required=True, choices=HOSTS)
    ap.add_argument("--bindir", required=True, type=Path)
    ap.add_argument("--src", required=True, type=Path)
    ap.add_argument("--workdir", required=True, type=Path)
    ap.add_argument("--launch-lock", type=Path)
    a = ap.parse_args()
    cc, launch, cxxlib, env_extra = HOSTS[a.host]
    if shutil.which(cc) is None or shutil.which(launch[0]) is None:
        print(f"skipped: {cc} or {launch[0]} is not installed")
        return 77
    wrapper = str(a.bindir / f"mpiattr-{a.host}-cxx")
    a.workdir.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, **env_extra)
    env.pop("LD_PRELOAD", None)

    def runs_ok(exe: Path, what: str) -> None:
        with launch_lock(a.launch_lock):
            p = run(launch + [str(exe), "2"], env=env, timeout=120)
        oks = len(re.findall(r"rank \d of 2: ok", p.stdout))
        check(p.returncode == 0 and oks == 2 and "FAIL" not in p.stdout,
              f"{what}: both ranks run on mpiattr's classes (exit {p.returncode}, {oks} ranks ok)")

    # 1. the wrapper's command lines, and what a program built with it loads
    for flag in ("-show", "-showme:link", "-link_info"):
        p = run([wrapper, flag, str(a.src), "-o", "x"])
        check(p.returncode == 0 and not HOST_CXX.search(p.stdout),
              f"mpiattr-{a.host}-cxx {flag} names no host C++ library nor mpicxx")
    plain = a.workdir / "plain"
    p = run([wrapper, "-Wall", "-Wextra", "-Werror", str(a.src), "-o", str(plain)])
    if not check(p.returncode == 0, "the program builds with the wrapper"):
        return 1
    libs = needed(plain)
    check(not any(HOST_CXX.search(l) for l in libs), f"NEEDED has no host C++ library: {libs}")
    check(any(l.startswith(f"libmpiattr_cxx_{a.host}.") for l in libs)
          and any(l.startswith(f"libmpiattr_{a.host}.") for l in libs),
          "NEEDED has libmpiattr_cxx_<host> and libmpiattr_<host>")
    p = run(["ldd", str(plain)])
    check(p.returncode == 0 and not HOST_CXX.search(p.stdout), "ldd loads no host C++ library")
    runs_ok(plain, "built by the wrapper")

    # 2. the host's C++ library forced onto the link line
    forced = a.workdir / "forced"
    p = run([wrapper, str(a.src), "-o", str(forced), "-Wl,--no-as-needed", f"-l{cxxlib}"])
    if check(p.returncode == 0, f"the program links with -Wl,--no-as-needed -l{cxxlib} added"):
        libs = needed(forced)
        if check(any(l.startswith(f"lib{cxxlib}.") for l in libs),
                 f"(the check applies: lib{cxxlib} is among NEEDED: {libs})"):
            runs_ok(forced, f"lib{cxxlib} forced in")
    print("passed" if not failures else f"FAILED: {len(failures)} check(s)")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
