#!/usr/bin/env python3
"""Differential runner for the Fortran and mixed-language programs of tests/fortran.

Mirrors tests/diff/diffrun.py (and reuses it: peers, their launch environment, the divergence file
format and the comparison): one Fortran program, plus ftest.f90 and an optional C helper, is built
with a peer's wrappers (mpifort.mpich + mpicc.mpich, or the Open MPI ones) and run; its
"LABEL: VALUE" lines must equal those of the same program built against mpiattr, except for the
peers' recorded deviations from the standard (divergences.toml beside this file). Peers run with
FTEST_REPORT_ONLY=1, so a deviation is reported by the comparison, not by `error stop`.

With --host-lib LIB the peer build links mpiattr's host-mode library in front of the peer
(docs/host.md), and the output must then equal standalone mpiattr's with no divergence applied
(only entries for peer "<peer>+mpiattr", if any).

Exit status: 0 equal, 1 different or failed, 77 peer not installed (skip).
"""
from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "diff"))
import diffrun as d  # noqa: E402

FORTRAN = {"mpich": "mpifort.mpich", "openmpi": "mpifort.openmpi"}
FFLAGS = ("-Wno-unused-dummy-argument",)


def build_and_run_peer(peer: d.Peer, src: Path, helper: Path | None, workdir: Path,
                       host_lib: str | None = None, fhelper: Path | None = None) -> str:
    workdir.mkdir(parents=True, exist_ok=True)
    exe = workdir / f"{src.stem}.{peer.name}{'.host' if host_lib else ''}"
    link = []
    if host_lib:  # mpiattr's library first, so that its MPI names are the ones bound
        lib = Path(host_lib)
        link = [f"-L{lib.parent}", f"-Wl,-rpath,{lib.parent}", f"-l:{lib.name}"]
    objs = []
    if helper is not None:
        obj = workdir / f"{helper.stem}.{peer.name}.o"
        d.run([peer.compiler, *d.CFLAGS, "-c", str(helper), "-o", str(obj)], None,
              f"{peer.name}: compile {helper.name}")
        objs.append(str(obj))
    moddir = workdir / f"mod.{peer.name}"
    moddir.mkdir(exist_ok=True)
    fsources = [str(HERE / "ftest.f90"), *([str(fhelper)] if fhelper else []), str(src)]
    # A preprocessed program (.F90) leaves out, under MPIATTR_PEER_<PEER>, what the peer's modules
    # lack (its divergences.toml entries say what; the program prints a line in its place).
    defines = [f"-DMPIATTR_PEER_{peer.name.upper()}"]
    d.run([FORTRAN[peer.name], *FFLAGS, *defines, "-J", str(moddir), *fsources, *objs,
           "-o", str(exe), *link], None, f"{peer.name}: compile {src.name}")
    env = dict(peer.env, FTEST_REPORT_ONLY="1")
    return d.run([*peer.launcher, str(exe)], env, f"{peer.name}: run {src.name}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", required=True, help="the Fortran program")
    ap.add_argument("--helper", help="its C half, if any")
    ap.add_argument("--fhelper", help="the Fortran interfaces of its C half, if any")
    ap.add_argument("--peer", required=True, choices=sorted(d.PEERS))
    ap.add_argument("--mpiattr-exe", help="the same program built against mpiattr")
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--divergences", default=str(HERE / "divergences.toml"))
    ap.add_argument("--peer-only", action="store_true", help="print the peer's output only")
    ap.add_argument("--host-lib", help="mpiattr's host-mode library for the peer")
    a = ap.parse_args()
    peer = d.PEERS[a.peer]
    if not (d.peer_available(peer) and shutil.which(FORTRAN[peer.name])):
        print(f"SKIP: {FORTRAN[peer.name]}, {peer.compiler} or the launcher is not installed")
        return d.SKIP
    src = Path(a.src)
    try:
        peer_out = build_and_run_peer(peer, src, Path(a.helper) if a.helper else None, Path(a.workdir),
                                      a.host_lib, Path(a.fhelper) if a.fhelper else None)
        if a.peer_only:
            sys.stdout.write(peer_out)
            return 0
        mine = d.run([a.mpiattr_exe], None, f"mpiattr: run {a.mpiattr_exe}")
    except d.RunError as e:
        print(e)
        return 1
    who = f"{peer.name}+mpiattr" if a.host_lib else peer.name
    divs = [x for x in d.load_divergences(Path(a.divergences))
            if x.peer == who and x.program == src.name]
    problems = d.check_unique_labels(peer_out, peer.name) + d.check_unique_labels(mine, "mpiattr")
    for p in problems:
        print(p)
    peer_lines, mine_lines = d.apply_divergences(peer_out, mine, divs)
    if d.show_diff(peer_lines, mine_lines, f"{who}/{src.name}", f"mpiattr/{src.name}") and not problems:
        print(f"OK: {src.name}: mpiattr matches {who} ({len(divs)} recorded divergence(s) checked)")
        return 0
    return 1


if __name__ == "__main__":
    sys.exit(main())
