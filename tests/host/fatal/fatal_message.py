#!/usr/bin/env python3
"""The message of a fatal error in host mode (docs/host.md, "Errors").

    fatal_message.py --host mpich|openmpi --case callback|keyval|sessions --lib libmpiattr_<host>.so
                     --src fatal_message.c --workdir DIR

Builds fatal_message.c with the host's mpicc and the library linked, runs it on 2 ranks and
requires: a non-zero exit status, no "NOT REACHED" line, and on stderr
  callback: "mpiattr: fatal error in MPI_Comm_free: <the host's MPI_Error_string(MPI_ERR_OTHER)>"
            (the program prints the host's text first, as "EXPECT <text>"), and none of mpiattr's
            class names that the host's number would be read as (MPI_ERR_TRUNCATE for MPICH's 15);
  keyval:   "mpiattr: fatal error in MPI_Comm_set_attr: MPI_ERR_KEYVAL" (an mpiattr code: its
            own message);
  sessions: (MPICH; sessions alone, no MPI_Init) "mpiattr: fatal error in MPI_Type_set_attr:
            MPI_ERR_KEYVAL": an error with no object goes to the initial handler (D57).
Exit status: 0 passed, 1 failed, 77 skipped (the host is not installed).
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

HOSTS = {
    "mpich": ("mpicc.mpich", ["mpiexec.mpich", "-n", "2"]),
    "openmpi": ("mpicc.openmpi", ["mpiexec.openmpi", "--oversubscribe", "-n", "2"]),
}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", required=True, choices=HOSTS)
    ap.add_argument("--case", required=True, choices=("callback", "keyval", "sessions"))
    ap.add_argument("--lib", required=True, type=Path)
    ap.add_argument("--src", required=True, type=Path)
    ap.add_argument("--workdir", required=True, type=Path)
    a = ap.parse_args()
    cc, launch = HOSTS[a.host]
    if shutil.which(cc) is None or shutil.which(launch[0]) is None:
        print(f"skipped: {cc} or {launch[0]} is not installed")
        return 77
    a.workdir.mkdir(parents=True, exist_ok=True)
    exe = a.workdir / "fatal_message"
    libdir = a.lib.resolve().parent
    libname = a.lib.name.removeprefix("lib").split(".so")[0]  # (the file may be .so.0.1)
    subprocess.run([cc, str(a.src), "-o", str(exe), f"-L{libdir}", f"-Wl,-rpath,{libdir}",
                    f"-l{libname}"], check=True)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    env.pop("LD_PRELOAD", None)
    p = subprocess.run(launch + [str(exe), a.case], env=env, capture_output=True, text=True,
                       timeout=120)
    print(f"exit status {p.returncode}\n---- stdout ----\n{p.stdout}---- stderr ----\n{p.stderr}")
    problems = []
    if p.returncode == 0:
        problems.append("the job exited 0: the fatal handler did not end it")
    if "NOT REACHED" in p.stdout:
        problems.append("a rank went on after the fatal error")
    expect = [line[len("EXPECT "):] for line in p.stdout.splitlines() if line.startswith("EXPECT ")]
    if not expect:
        problems.append("no EXPECT line: the program did not get to the fatal call")
    elif a.case == "callback":
        want = f"mpiattr: fatal error in MPI_Comm_free: {expect[0]}"
        if want not in p.stderr:
            problems.append(f"stderr lacks {want!r}")
        for wrong in ("MPI_ERR_TRUNCATE", "Message truncated"):
            if wrong in p.stderr:
                problems.append(f"stderr reads the host's code with mpiattr's numbering ({wrong!r})")
    elif a.case == "sessions":
        want = "mpiattr: fatal error in MPI_Type_set_attr: MPI_ERR_KEYVAL"
        if want not in p.stderr:
            problems.append(f"stderr lacks {want!r}")
    else:
        want = "mpiattr: fatal error in MPI_Comm_set_attr: MPI_ERR_KEYVAL"
        if want not in p.stderr:
            problems.append(f"stderr lacks {want!r}")
    for msg in problems:
        print(f"FAIL: {msg}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
