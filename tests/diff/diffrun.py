#!/usr/bin/env python3
"""Differential runner: one C program, built against a peer MPI and mpiattr.

Each program in tests/diff/c/ prints one fact per line, "LABEL: VALUE".
This script builds the program with a peer's compiler wrapper (MPICH or
Open MPI), runs it with the environment and launcher that peer needs, runs
the same program already built against mpiattr, and compares the outputs
line by line.

Known deviations of a peer from the standard are listed in
divergences.toml. For such a line the peer must print exactly the recorded
`observed` value (so a peer fix shows up as a failure to update the file),
and the line is not compared with mpiattr.

Modes:
  --mpiattr-exe PATH   compare the peer with mpiattr (ctest mode)
  --mpiattr-exe PATH --host-lib LIB
                       build with the peer's compiler linked with mpiattr's host-mode library
                       LIB (docs/host.md) and compare with standalone mpiattr: no divergence
                       applies, mpiattr over a host must give what mpiattr gives alone
  --mpiattr-exe PATH --host-wrapper WRAPPER
                       the same, built with mpiattr's wrapper for the peer (mpiattr-<peer>-cxx:
                       mpiattr's MPI:: classes over the peer's C library)
  --peer-only          build and run on the peer, print its output
  --compare-peers      build and run on MPICH and Open MPI, diff them

Exit status: 0 equal, 1 different or failed, 77 peer not installed (skip).
"""
from __future__ import annotations

import argparse
import difflib
import os
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host"))  # tests/host: hostrun.py
import hostrun  # noqa: E402  (run_captured: a run that hangs shows its stacks, D106)

SKIP = 77
TIMEOUT = 60  # seconds, per build and per run


@dataclass(frozen=True)
class Peer:
    name: str
    compiler: str
    launcher: tuple[str, ...]  # argv prefix; empty = run the binary directly
    env: dict[str, str]


PEERS = {
    "mpich": Peer(
        name="mpich",
        compiler="mpicc.mpich",
        launcher=("mpiexec.mpich", "-n", "1"),
        env={},
    ),
    # Open MPI 4.1 refuses to run as root without the two ALLOW variables.
    # osc=pt2pt: the default one-sided component (rdma/ucx) cannot create a
    # window in a single process here. btl=self: only one process, no network
    # probing. pml=ob1: the one Open MPI selects here anyway, named so that it does not open and
    # probe cm and its MTLs first (tests/host/hostrun.py OPENMPI_FAST_START, D80). Run as a
    # singleton (no mpiexec): faster and just as reliable.
    "openmpi": Peer(
        name="openmpi",
        compiler="mpicc.openmpi",
        launcher=(),
        env={
            "OMPI_ALLOW_RUN_AS_ROOT": "1",
            "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
            "OMPI_MCA_osc": "pt2pt",
            "OMPI_MCA_btl": "self",
            "OMPI_MCA_pml": "ob1",
        },
    ),
}

CFLAGS = ("-std=c11", "-Wall", "-Wno-deprecated-declarations", "-Wno-unused-function")


class RunError(Exception):
    """A build or run failed; the message says which and shows its output."""


@dataclass(frozen=True)
class Divergence:
    peer: str
    program: str
    line: str
    standard: str
    observed: str


def load_divergences(path: Path | None) -> list[Divergence]:
    if path is None:
        return []
    with open(path, "rb") as f:
        data = tomllib.load(f)
    allowed = {"peer", "program", "line", "standard", "observed"}
    out = []
    for i, entry in enumerate(data.get("divergence", [])):
        where = f"{path}: divergence #{i + 1}"
        extra = set(entry) - allowed
        missing = allowed - set(entry)
        if extra or missing:
            raise SystemExit(f"{where}: unknown keys {sorted(extra)}, missing keys {sorted(missing)}")
        if entry["peer"].removesuffix("+mpiattr") not in PEERS:
            raise SystemExit(f"{where}: unknown peer {entry['peer']!r}")
        out.append(Divergence(**{k: str(entry[k]) for k in allowed}))
    return out


def peer_available(peer: Peer) -> bool:
    tools = [peer.compiler] + ([peer.launcher[0]] if peer.launcher else [])
    return all(shutil.which(t) for t in tools)


def run(argv: list[str], env: dict[str, str] | None, what: str) -> str:
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    try:
        p = hostrun.run_captured(argv, full_env, TIMEOUT)
    except subprocess.TimeoutExpired as e:
        raise RunError(f"{what}: timed out after {TIMEOUT} s\n$ {' '.join(argv)}\n"
                       f"--- stdout ---\n{e.stdout or ''}\n--- stderr ---\n{e.stderr or ''}")
    if p.returncode != 0:
        raise RunError(f"{what}: exit status {p.returncode}\n$ {' '.join(argv)}\n"
                       f"--- stdout ---\n{p.stdout}--- stderr ---\n{p.stderr}")
    return p.stdout


def build_and_run_peer(peer: Peer, src: Path, workdir: Path, host_lib: str | None = None,
                       wrapper: str | None = None) -> str:
    workdir.mkdir(parents=True, exist_ok=True)
    exe = workdir / f"{src.stem}.{peer.name}{'.host' if host_lib else ''}{'.wrapped' if wrapper else ''}"
    link = []
    if host_lib:  # mpiattr's library first, so that its MPI_* names are the ones bound
        lib = Path(host_lib)
        link = [f"-L{lib.parent}", f"-Wl,-rpath,{lib.parent}", f"-l:{lib.name}"]
    run([wrapper or peer.compiler, *CFLAGS, "-I", str(src.parent), str(src), "-o", str(exe), *link],
        None, f"{peer.name}: compile {src.name}")
    return run([*peer.launcher, str(exe)], peer.env, f"{peer.name}: run {src.name}")


def split_label(line: str) -> tuple[str, str] | None:
    label, sep, value = line.partition(":")
    return (label, value.strip()) if sep else None


def check_unique_labels(text: str, who: str) -> list[str]:
    seen: set[str] = set()
    problems = []
    for line in text.splitlines():
        parts = split_label(line)
        if parts and parts[0] in seen:
            problems.append(f"{who}: label printed twice: {parts[0]!r}")
        if parts:
            seen.add(parts[0])
    return problems


def apply_divergences(peer_out: str, mpiattr_out: str, divs: list[Divergence]) -> tuple[list[str], list[str]]:
    """Return the two outputs as lists of lines, with divergent lines replaced.

    Peer line "L: observed" -> "L: <recorded divergence>"; any other value is
    left as is plus a note, so it shows in the diff. mpiattr's line "L: ..."
    -> the same placeholder (not compared). A missing line still shows."""
    by_label = {d.line: d for d in divs}

    def placeholder(label: str) -> str:
        return f"{label}: <recorded divergence, not compared>"

    peer_lines = []
    for line in peer_out.splitlines():
        parts = split_label(line)
        if parts and parts[0] in by_label:
            d = by_label[parts[0]]
            if parts[1] == d.observed:
                line = placeholder(parts[0])
            else:
                line = f"{line}    <-- divergences.toml records observed = {d.observed!r}"
        peer_lines.append(line)
    mpiattr_lines = []
    for line in mpiattr_out.splitlines():
        parts = split_label(line)
        if parts and parts[0] in by_label:
            line = placeholder(parts[0])
        mpiattr_lines.append(line)
    return peer_lines, mpiattr_lines


def show_diff(a: list[str], b: list[str], name_a: str, name_b: str) -> bool:
    """Print a unified diff; return True if the inputs are equal."""
    if a == b:
        return True
    sys.stdout.writelines(difflib.unified_diff(
        [l + "\n" for l in a], [l + "\n" for l in b], fromfile=name_a, tofile=name_b))
    return False


def mode_compare(args, divs: list[Divergence]) -> int:
    peer = PEERS[args.peer]
    src = Path(args.src[0])
    if not peer_available(peer):
        print(f"SKIP: {peer.compiler} or its launcher is not installed")
        return SKIP
    try:
        peer_out = build_and_run_peer(peer, src, Path(args.workdir), args.host_lib, args.host_wrapper)
        mine = run([args.mpiattr_exe], None, f"mpiattr: run {args.mpiattr_exe}")
    except RunError as e:
        print(e)
        return 1
    problems = check_unique_labels(peer_out, peer.name) + check_unique_labels(mine, "mpiattr")
    for p in problems:
        print(p)
    if args.host_lib or args.host_wrapper:  # mpiattr over the host: as mpiattr alone
        mine_divs = [d for d in divs if d.peer == f"{peer.name}+mpiattr" and d.program == src.name]
        who = f"mpiattr over {peer.name}"
    else:
        mine_divs = [d for d in divs if d.peer == peer.name and d.program == src.name]
        who = peer.name
    peer_lines, mine_lines = apply_divergences(peer_out, mine, mine_divs)
    equal = show_diff(peer_lines, mine_lines, f"{who}/{src.name}", f"mpiattr/{src.name}")
    if equal and not problems:
        print(f"OK: {src.name}: mpiattr matches {who}"
              f" ({len(mine_divs)} recorded difference(s) checked)")
        return 0
    return 1


def mode_peer_only(args) -> int:
    peer = PEERS[args.peer]
    if not peer_available(peer):
        print(f"SKIP: {peer.compiler} or its launcher is not installed")
        return SKIP
    status = 0
    for s in args.src:
        try:
            sys.stdout.write(build_and_run_peer(peer, Path(s), Path(args.workdir)))
        except RunError as e:
            print(e)
            status = 1
    return status


def mode_compare_peers(args, divs: list[Divergence]) -> int:
    """Development aid: diff MPICH against Open MPI, raw and after applying
    each peer's recorded divergences (then both should agree)."""
    if not all(peer_available(p) for p in PEERS.values()):
        print("SKIP: a peer is not installed")
        return SKIP
    status = 0
    for s in args.src:
        src = Path(s)
        outs = {}
        try:
            for name, peer in PEERS.items():
                outs[name] = build_and_run_peer(peer, src, Path(args.workdir))
        except RunError as e:
            print(e)
            status = 1
            continue
        for name, text in outs.items():
            for p in check_unique_labels(text, f"{name}/{src.name}"):
                print(p)
                status = 1
        print(f"=== {src.name}: raw mpich vs openmpi")
        raw_equal = show_diff(outs["mpich"].splitlines(), outs["openmpi"].splitlines(),
                              f"mpich/{src.name}", f"openmpi/{src.name}")
        if raw_equal:
            print("identical")
        # Each peer with its divergences masked; recorded values must match.
        masked = {}
        for name, text in outs.items():
            own = [d for d in divs if d.peer == name and d.program == src.name]
            both = [d for d in divs if d.program == src.name]
            lines, _ = apply_divergences(text, "", own)
            # Lines that diverge for the other peer are not comparable either.
            other_labels = {d.line for d in both if d.peer != name}
            masked[name] = [
                (f"{sp[0]}: <recorded divergence, not compared>"
                 if (sp := split_label(l)) and sp[0] in other_labels else l)
                for l in lines]
        if not raw_equal or any(d.program == src.name for d in divs):
            print(f"=== {src.name}: after applying divergences.toml")
            if show_diff(masked["mpich"], masked["openmpi"], f"mpich/{src.name}", f"openmpi/{src.name}"):
                print("identical")
            else:
                status = 1
    return status


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", action="append", required=True,
                    help="C program (repeatable with --peer-only / --compare-peers)")
    ap.add_argument("--peer", choices=sorted(PEERS))
    ap.add_argument("--mpiattr-exe", help="the same program built against mpiattr")
    ap.add_argument("--workdir", required=True, help="where peer binaries are built")
    ap.add_argument("--divergences", help="divergences.toml")
    ap.add_argument("--host-lib", help="mpiattr's host-mode library for the peer (compare mode)")
    ap.add_argument("--host-wrapper", help="build with this mpiattr-<peer>-* wrapper instead of the "
                                           "peer's (compare mode, as --host-lib)")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--peer-only", action="store_true")
    mode.add_argument("--compare-peers", action="store_true")
    args = ap.parse_args()

    divs = load_divergences(Path(args.divergences) if args.divergences else None)
    if args.compare_peers:
        return mode_compare_peers(args, divs)
    if not args.peer:
        ap.error("--peer is required unless --compare-peers")
    if args.peer_only:
        return mode_peer_only(args)
    if not args.mpiattr_exe or len(args.src) != 1:
        ap.error("give exactly one --src and --mpiattr-exe (or --peer-only / --compare-peers)")
    return mode_compare(args, divs)


if __name__ == "__main__":
    sys.exit(main())
