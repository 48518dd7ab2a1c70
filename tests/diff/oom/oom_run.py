#!/usr/bin/env python3
"""Out of memory, differential (docs/decisions.md D61, D66): D66_out_of_memory.c on one MPI library,
with fail_malloc.c's interposer preloaded, which fails every allocation of the calling thread
during one MPI call of each operation.

    oom_run.py --mode mpiattr --exe D66_out_of_memory (built against mpiattr)   --interposer LIB
    oom_run.py --mode alone   --peer mpich|openmpi --src D66_out_of_memory.c     --interposer LIB
    oom_run.py --mode preload --peer mpich|openmpi --src ... --host-lib libmpiattr_<peer>.so ...
               --workdir DIR --divergences ../divergences.toml

Each "D66 <operation>: <outcome>" line the program prints must be the standard's outcome,
EXPECTED below (an error of class MPI_ERR_NO_MEM that changed nothing, or a success that did all
it should: the call needed no memory it could not get), except where tests/diff/divergences.toml
records the library's own: `peer` "mpich" / "openmpi" for the library alone, "mpich+mpiattr" /
"openmpi+mpiattr" for mpiattr preloaded over it, where a call mpiattr forwards fails inside the
host. A recorded line must be exactly its `observed` outcome (so a change shows), every other line
exactly EXPECTED's, and mpiattr standalone has no divergence at all. The "detail" lines (the
message, how far a loop got, what a dying process printed) vary and are printed, never compared.
The peers run as singletons (no launcher: a process forked after MPI_Init is then nobody else's
business when it aborts), built with the peer's mpicc.

Exit status: 0 as expected, 1 not, 77 the peer is not installed (skipped).
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import diffrun  # noqa: E402  (PEERS, CFLAGS, load_divergences: the other differential tests')

SKIP = 77
PROGRAM = "D66_out_of_memory.c"

# What the standard asks of each operation when memory runs out (MPI-4.1 §8.7: MPI_ERR_NO_MEM,
# R3.4), as mpiattr does it (D61): an error that changed nothing, or, where the call needs no
# memory it could not have set aside, a success that did everything.
EXPECTED = {
    "MPI_Comm_create_keyval": "MPI_SUCCESS, the keyval works",  # (mpiattr's keyvals are preallocated)
    "MPI_Comm_set_attr grow": "MPI_ERR_NO_MEM, nothing changed",
    "MPI_Comm_set_attr replace": "MPI_SUCCESS, replaced, the old value's delete callback ran once",
    "MPI_Comm_dup": "MPI_ERR_NO_MEM, nothing changed",
    "MPI_Type_set_attr grow": "MPI_ERR_NO_MEM, nothing changed",
    "MPI_Win_set_attr grow": "MPI_ERR_NO_MEM, nothing changed",
    "MPI_Comm_free": "MPI_SUCCESS, every delete callback ran once",  # (frees never fail: D61)
}


def run(argv: list[str], env: dict[str, str], what: str) -> subprocess.CompletedProcess:
    print("$ " + " ".join(argv), flush=True)
    try:
        return subprocess.run(argv, env=env, capture_output=True, text=True,
                              timeout=diffrun.TIMEOUT, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as e:
        raise SystemExit(f"{what}: timed out after {diffrun.TIMEOUT} s\n{e.stdout or ''}{e.stderr or ''}")


def outcomes(text: str) -> dict[str, str]:
    """The outcome lines, "D66 <operation>: <outcome>" (not the detail lines), by label."""
    out = {}
    for line in text.splitlines():
        label, sep, value = line.partition(": ")
        if sep and label.startswith("D66 ") and not label.endswith(" detail"):
            out[label] = value
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", required=True, choices=["mpiattr", "alone", "preload"])
    ap.add_argument("--peer", choices=sorted(diffrun.PEERS))
    ap.add_argument("--exe", type=Path, help="the program built against mpiattr (--mode mpiattr)")
    ap.add_argument("--src", type=Path, help="the program's source (--mode alone, preload)")
    ap.add_argument("--host-lib", type=Path, help="libmpiattr_<peer>.so (--mode preload)")
    ap.add_argument("--interposer", required=True, type=Path)
    ap.add_argument("--workdir", type=Path)
    ap.add_argument("--divergences", type=Path)
    a = ap.parse_args()

    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    preload = [str(a.interposer.resolve())]
    if a.mode == "mpiattr":
        exe, who, key = a.exe, "mpiattr", None
    else:
        if a.peer is None or a.src is None or a.workdir is None or (a.mode == "preload") != bool(a.host_lib):
            ap.error("--mode alone/preload need --peer, --src, --workdir, and preload --host-lib")
        peer = diffrun.PEERS[a.peer]
        if shutil.which(peer.compiler) is None:
            print(f"SKIP: {peer.compiler} is not installed")
            return SKIP
        a.workdir.mkdir(parents=True, exist_ok=True)
        exe = a.workdir / f"D66_out_of_memory.{a.peer}"
        build = run([peer.compiler, *diffrun.CFLAGS, "-Werror", str(a.src), "-o", str(exe), "-ldl"],
                    env, f"{a.peer}: compile")
        if build.returncode != 0:
            print(build.stdout + build.stderr)
            return 1
        env.update(peer.env)
        if a.mode == "preload":
            preload.append(str(a.host_lib.resolve()))
            who, key = f"mpiattr over {a.peer}", f"{a.peer}+mpiattr"
        else:
            who, key = f"{a.peer} alone", a.peer
    env["LD_PRELOAD"] = ":".join(preload)
    print(f"$ LD_PRELOAD={env['LD_PRELOAD']}", flush=True)
    p = run([str(exe)], env, f"{who}: run")
    sys.stdout.write(p.stdout)
    if p.stderr:
        sys.stdout.write("--- stderr ---\n" + p.stderr)
    if p.returncode != 0:
        print(f"FAIL: {who}: the program's exit status is {p.returncode}")
        return 1

    divs = [d for d in diffrun.load_divergences(a.divergences) if d.program == PROGRAM] if a.divergences else []
    mine = {d.line: d for d in divs if key is not None and d.peer == key}
    got = outcomes(p.stdout)
    problems = []
    for op, standard in EXPECTED.items():
        label = f"D66 {op}"
        if label not in got:
            problems.append(f"{label}: no outcome printed")
        elif label in mine:
            if got[label] != mine[label].observed:
                problems.append(f"{label}: {got[label]!r}; divergences.toml records observed = "
                                f"{mine[label].observed!r} (update it if {who} changed)")
        elif got[label] != standard:
            problems.append(f"{label}: {got[label]!r}, the standard's outcome is {standard!r}")
    for label in sorted(set(got) - {f"D66 {op}" for op in EXPECTED}):
        problems.append(f"{label}: an operation EXPECTED does not list")
    for label in sorted(set(mine) - set(got)):
        problems.append(f"divergences.toml records {label!r} for {key}, which the program does not print")
    for pr in problems:
        print(f"FAIL: {pr}")
    if problems:
        return 1
    print(f"OK: {who}: {len(EXPECTED) - len(mine)} operation(s) as the standard asks, "
          f"{len(mine)} recorded divergence(s) as recorded")
    return 0


if __name__ == "__main__":
    sys.exit(main())
