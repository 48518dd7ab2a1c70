#!/usr/bin/env python3
"""A fatal error raised by mpiattr over a host looks like the host's (docs/decisions.md D4, D56).

    fatal_message.py --host mpich|openmpi --case CASE... [--preload-case CASE...]
                     --lib libmpiattr_<host>.so --src fatal_message.c --workdir DIR
    (CASE: keyval, comm, callback, or sessions: MPICH, sessions alone, no MPI_Init, D57)

Builds fatal_message.c with the host's mpicc twice, plain and with the library linked, and runs
each case on one rank on the host alone and with mpiattr linked (and, for a --preload-case, the
plain build with LD_PRELOAD=<lib>). Open MPI's ranks start under mpiexec; MPICH's as singletons,
without mpiexec: Hydra's mpiexec passes on the exit status of a rank that aborts only most of the
time (under load about 1 run in 10 exits 1 instead, the host alone as with mpiattr; the
singleton's own status never varied in 240 runs; docs/decisions.md D102). The program prints
"STATUS <n>", the host's value of the error's class, and "EXPECT <text>", the host's
MPI_Error_string(MPI_ERR_OTHER). Required of every run with mpiattr:
  - exit status n, as the host alone exits for its own error of that class (it takes the status
    from the code its fatal handler gets: the host's, not mpiattr's, D56);
  - "mpiattr: fatal error in <routine>: <message>" exactly once on stderr (callback: the host's
    text of MPI_ERR_OTHER, the callback's own code; keyval, sessions: MPI_ERR_KEYVAL; comm:
    MPI_ERR_COMM);
  - nothing that says the host could not decode its code ("Invalid error code", "error ring
    index", "Unknown error", "this should not happen"), nor a host code read with mpiattr's
    numbering (callback: MPICH's 15 as MPI_ERR_TRUNCATE);
  - the host's own fatal message names the same class as the host alone's (MPICH: "Fatal error
    in ...: <class text>"; Open MPI: "*** <MPI_ERR_...>: ..."), except where the host alone
    raises another class (HOST_ALONE_CLASS below), or no handler can run (sessions: mpiattr ends
    the process itself, NO_HOST_HANDLER). Open MPI 4.1 sometimes loses its help text
    ("ORTE_ERROR_LOG: Data unpack had inadequate space"): a run without it is not compared.
And of the host alone: a non-zero exit, status n unless HOST_ALONE_CLASS lists the case.
Exit status: 0 every case passed, 1 one failed, 77 skipped (the host is not installed).
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/host: hostrun.py
import hostrun  # noqa: E402  (OPENMPI_FAST_START)

HOSTS = {
    "mpich": ("mpicc.mpich", []),  # a singleton (module docstring)
    "openmpi": ("mpicc.openmpi", ["mpiexec.openmpi", "--oversubscribe", "-n", "1"]),
}
ROUTINE = {"callback": "MPI_Comm_free", "keyval": "MPI_Comm_free_keyval", "comm": "MPI_Comm_get_attr",
           "sessions": "MPI_Type_set_attr"}
# Cases where mpiattr ends the process itself: with sessions alone there is no communicator whose
# handler could take the error (D57), so the host prints nothing of its own.
NO_HOST_HANDLER = {"sessions"}
# Where the host alone raises another class than the standard's: (host, case) -> its exit status
# as a class name, for the record. Open MPI 4.1 gives MPI_ERR_OTHER for MPI_KEYVAL_INVALID
# (docs/host.md, the divergence table).
HOST_ALONE_CLASS = {("openmpi", "keyval"): "MPI_ERR_OTHER"}
UNDECODED = ("Invalid error code", "error ring index", "Unknown error", "this should not happen")
# The host's fatal message, and the class text in it.
HOST_LINE = {"mpich": re.compile(r"Fatal error in [^:]*: ([^,\n]*)"),
             "openmpi": re.compile(r"\*\*\* (MPI_ERR_\w+):")}


def host_class_text(host: str, stderr: str) -> str | None:
    m = HOST_LINE[host].search(stderr)
    return m.group(1).strip() if m else None


def check_case(host: str, case: str, results: dict[str, subprocess.CompletedProcess]) -> list[str]:
    """The problems of one case's runs (results: alone, linked and maybe preload)."""
    problems = []
    alone = results["alone"]
    values = dict(line.split(" ", 1) for line in alone.stdout.splitlines()
                  if line.startswith(("EXPECT ", "STATUS ")))
    if "STATUS" not in values:
        return ["alone: the program did not get to the fatal call"]
    status = int(values["STATUS"]) & 0xFF
    divergent = HOST_ALONE_CLASS.get((host, case))
    if alone.returncode == 0:
        problems.append("alone: the job exited 0")
    elif divergent is None and alone.returncode != status:
        problems.append(f"alone: exit status {alone.returncode}, not {status}: the host's fatal handler "
                        "no longer exits with the class (the comparison below rests on that)")
    if divergent:
        print(f"note: {host} alone raises {divergent} in case {case} (exit {alone.returncode}); the "
              f"standard and mpiattr the class of STATUS {status}")
    alone_text = host_class_text(host, alone.stderr)
    routine = ROUTINE[case]
    want = {"callback": values.get("EXPECT", "?"), "keyval": "MPI_ERR_KEYVAL", "comm": "MPI_ERR_COMM",
            "sessions": "MPI_ERR_KEYVAL"}[case]
    for name, p in results.items():
        if name == "alone":
            continue
        if p.returncode != status:
            problems.append(f"{name}: exit status {p.returncode}; the host alone exits {status} "
                            f"for this class")
        if "NOT REACHED" in p.stdout:
            problems.append(f"{name}: the program went on after the fatal error")
        ours = [line for line in p.stderr.splitlines() if line.startswith("mpiattr: fatal error in ")]
        if len(ours) != 1:
            problems.append(f"{name}: {len(ours)} lines of mpiattr's fatal message, not 1")
        elif not ours[0].startswith(f"mpiattr: fatal error in {routine}: {want}"):
            problems.append(f"{name}: mpiattr's message is {ours[0]!r}, not "
                            f"'mpiattr: fatal error in {routine}: {want}...'")
        for bad in UNDECODED + (("MPI_ERR_TRUNCATE", "Message truncated") if case == "callback" else ()):
            if bad in p.stderr:
                problems.append(f"{name}: stderr has {bad!r}: a code its reader cannot decode")
        mine = host_class_text(host, p.stderr)
        if host == "mpich" and mine is None and case not in NO_HOST_HANDLER:
            problems.append(f"{name}: no 'Fatal error in' line from MPICH's handler")
        if divergent is None and mine is not None and alone_text is not None and mine != alone_text:
            problems.append(f"{name}: the host's message names {mine!r}, the host alone's {alone_text!r}")
    return problems


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", required=True, choices=HOSTS)
    ap.add_argument("--case", required=True, nargs="+", choices=tuple(ROUTINE))
    ap.add_argument("--preload-case", nargs="*", default=[], choices=tuple(ROUTINE),
                    help="cases also run with the plain build preloaded")
    ap.add_argument("--lib", required=True, type=Path)
    ap.add_argument("--src", required=True, type=Path)
    ap.add_argument("--workdir", required=True, type=Path)
    a = ap.parse_args()
    cc, launch = HOSTS[a.host]
    if shutil.which(cc) is None or (launch and shutil.which(launch[0]) is None):
        print(f"skipped: {' or '.join([cc] + launch[:1])} is not installed")
        return 77
    a.workdir.mkdir(parents=True, exist_ok=True)
    plain, linked = a.workdir / "fatal_message_plain", a.workdir / "fatal_message_linked"
    lib = a.lib.resolve()
    subprocess.run([cc, str(a.src), "-o", str(plain)], check=True)
    subprocess.run([cc, str(a.src), "-o", str(linked), f"-L{lib.parent}", f"-Wl,-rpath,{lib.parent}",
                    f"-l:{lib.name}"], check=True)
    # (The pml Open MPI selects anyway, named: its ranks start faster, hostrun.py.)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               **hostrun.OPENMPI_FAST_START)
    env.pop("LD_PRELOAD", None)
    # A singleton must not take itself for a rank of a job the test runs in.
    for name in [k for k in env if k.startswith(("PMI_", "PMIX_", "OMPI_COMM_WORLD_"))]:
        env.pop(name)
    # (LD_PRELOAD reaches Open MPI's ranks through the launcher's option, not the launcher itself.)
    failed = False
    for case in a.case:
        runs = {"alone": (plain, False), "linked": (linked, False)}
        if case in a.preload_case:
            runs["preload"] = (plain, True)
        results = {}
        for name, (exe, preloaded) in runs.items():
            run_env = dict(env, LD_PRELOAD=str(lib)) if preloaded and not launch else env
            extra = ["-x", f"LD_PRELOAD={lib}"] if preloaded and launch else []
            argv = launch[:1] + extra + launch[1:] + [str(exe), case]
            p = subprocess.run(argv, env=run_env, capture_output=True, text=True, timeout=120)
            print(f"==== {case}, {name}: exit status {p.returncode}\n---- stdout ----\n{p.stdout}"
                  f"---- stderr ----\n{p.stderr}")
            results[name] = p
        for msg in check_case(a.host, case, results):
            print(f"FAIL: {case}: {msg}")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
