#!/usr/bin/env python3
"""bench/npb.py: a whole program's overhead in host mode (docs/decisions.md D69).

Builds kernels of the NAS Parallel Benchmarks 3.4 (MPI), unchanged, with each host's own
compilers (mpifort.mpich / mpicc.mpich, mpifort.openmpi / mpicc.openmpi), runs each kernel with
the host alone and with mpiattr's host library preloaded (LD_PRELOAD=libmpiattr_<host>.so, passed
to the ranks by mpiexec), interleaved and repeated, and prints per kernel and host the time and
Mop/s of both (medians) and the ratio of the times, preloaded / alone. Every run must print
"Verification = SUCCESSFUL"; a failed build, run or verification gives exit status 1.

NPB is not part of this repository. Get NPB 3.4.x from NASA's NAS site,
https://www.nas.nasa.gov/software/npb.html (NPB3.4.3.tar.gz), unpack it and pass its
NPB3.4-MPI directory:

    python3 bench/npb.py --npb /path/to/NPB3.4-MPI --lib-dir build/lib
    python3 bench/npb.py --npb /path/to/NPB3.4-MPI --class S -r 1      # smoke test, a minute

The source tree is copied (without objects and binaries) to a scratch directory per host, whose
config/make.def this script writes; the tree given is not changed. --keep DIR keeps the builds
there (and reuses them the next time). Each run is `mpiexec.<host> -n NP bin/<kernel>.<CLASS>.x`;
a first run of each (kernel, host, mode), not timed, checks with LD_DEBUG=files that the preloaded
runs load libmpiattr_<host>.so and the host-alone runs do not. Standard library only.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HOSTS = ["mpich", "openmpi"]
LABEL = {"mpich": "MPICH", "openmpi": "Open MPI"}
OMPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}
# gfortran >= 10 rejects the mismatched buffer types NPB passes through mpif.h, and its X'...'
# constants (randi8.f).
FFLAGS = "-O3 -fallow-argument-mismatch -fallow-invalid-boz"
MAKE_DEF = """# written by mpiattr's bench/npb.py
MPIFC = mpifort.{host}
FLINK = $(MPIFC)
FMPI_LIB =
FMPI_INC =
FFLAGS = {fflags}
FLINKFLAGS = $(FFLAGS)
MPICC = mpicc.{host}
CLINK = $(MPICC)
CMPI_LIB =
CMPI_INC =
CFLAGS = -O3
CLINKFLAGS = $(CFLAGS)
CC = gcc -g
BINDIR = ../bin
CONVERTFLAG = -DFORTRAN_REC_SIZE=1
RAND = randi8
"""


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


class Failure(Exception):
    pass


def prepare(npb: Path, work: Path, host: str, fflags: str) -> Path:
    """A copy of the NPB tree for `host`, with its make.def."""
    tree = work / host
    if not tree.exists():
        shutil.copytree(npb, tree, ignore=shutil.ignore_patterns("*.o", "*.mod", "*.x", "*.x.*", "npbparams.h"))
    (tree / "bin").mkdir(exist_ok=True)
    make_def = MAKE_DEF.format(host=host, fflags=fflags)
    path = tree / "config" / "make.def"
    if not path.exists() or path.read_text() != make_def:
        path.write_text(make_def)
    return tree


def build(tree: Path, kernel: str, cls: str) -> Path:
    exe = tree / "bin" / f"{kernel}.{cls}.x"
    r = subprocess.run(["make", kernel, f"CLASS={cls}"], cwd=tree, capture_output=True, text=True)
    if r.returncode != 0 or not exe.exists():
        raise Failure(f"building {kernel}.{cls} in {tree} failed:\n{(r.stdout + r.stderr)[-3000:]}")
    return exe


def command(host: str, np: int, exe: Path, env: dict[str, str]) -> list[str]:
    if host == "mpich":
        cmd = ["mpiexec.mpich", "-n", str(np)]
        for k, v in env.items():
            cmd += ["-genv", k, v]
    else:
        cmd = ["mpiexec.openmpi", "--oversubscribe", "-n", str(np)]
        for k, v in env.items():
            cmd += ["-x", f"{k}={v}"]
    return cmd + [str(exe)]


def run(host: str, np: int, exe: Path, lib: Path | None, timeout: float,
        check_loaded: bool = False) -> dict[str, float]:
    """One run: its time (s) and Mop/s; raises Failure unless it verified."""
    env = {"LD_PRELOAD": str(lib)} if lib else {}
    if check_loaded:
        env["LD_DEBUG"] = "files"
    penv = dict(os.environ, **(OMPI_ENV if host == "openmpi" else {}))
    penv.pop("LD_PRELOAD", None)
    t0 = time.monotonic()
    r = subprocess.run(command(host, np, exe, env), capture_output=True, text=True, env=penv,
                       timeout=timeout, cwd=exe.parent)
    wall = time.monotonic() - t0
    what = f"{exe.name} over {LABEL[host]}{' preloaded' if lib else ' alone'}"
    out = r.stdout
    if r.returncode != 0:
        raise Failure(f"{what}: exit {r.returncode}\n{(out + r.stderr)[-3000:]}")
    if not re.search(r"^\s*Verification\s*=\s*SUCCESSFUL\s*$", out, re.M):
        raise Failure(f"{what}: no 'Verification = SUCCESSFUL' in its output\n{out[-3000:]}")
    if check_loaded:
        loaded = f"libmpiattr_{host}" in r.stderr
        if loaded != (lib is not None):
            raise Failure(f"{what}: libmpiattr_{host} {'not ' if lib else ''}loaded (LD_DEBUG=files)")
    t = re.search(r"^\s*Time in seconds\s*=\s*(\S+)", out, re.M)
    m = re.search(r"^\s*Mop/s total\s*=\s*(\S+)", out, re.M)
    if not t or not m:
        raise Failure(f"{what}: no time or Mop/s in its output\n{out[-2000:]}")
    return {"time": float(t.group(1)), "mops": float(m.group(1)), "wall": wall}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--npb", required=True, help="the NPB3.4-MPI directory (not changed)")
    ap.add_argument("--lib-dir", default="build/lib",
                    help="where libmpiattr_mpich.so and libmpiattr_openmpi.so are (default: %(default)s)")
    ap.add_argument("--hosts", default=",".join(HOSTS))
    ap.add_argument("--kernels", default="cg,mg,lu,is")
    ap.add_argument("--class", dest="cls", default="A", help="problem class (default: %(default)s)")
    ap.add_argument("--np", type=int, default=2, help="processes (default: %(default)s)")
    ap.add_argument("-r", "--repetitions", type=int, default=5,
                    help="timed runs of each kernel, host and mode, interleaved (default: %(default)s)")
    ap.add_argument("--fflags", default=FFLAGS, help="FFLAGS for make.def (default: %(default)s)")
    ap.add_argument("--keep", metavar="DIR", help="build in DIR and keep it (default: a scratch directory)")
    ap.add_argument("--timeout", type=float, default=1800, help="per run, seconds")
    a = ap.parse_args()

    npb = Path(a.npb).resolve()
    if not (npb / "config" / "make.def.template").exists():
        ap.error(f"{npb} does not look like NPB3.4-MPI (no config/make.def.template)")
    lib_dir = Path(a.lib_dir).resolve()
    kernels = [k.strip().lower() for k in a.kernels.split(",") if k.strip()]
    hosts, libs = [], {}
    for h in (x.strip() for x in a.hosts.split(",") if x.strip()):
        if h not in HOSTS:
            ap.error(f"unknown host {h}")
        if not shutil.which(f"mpifort.{h}") or not shutil.which(f"mpiexec.{h}"):
            log(f"npb.py: mpifort.{h} or mpiexec.{h} not found: {LABEL[h]} skipped")
            continue
        lib = lib_dir / f"libmpiattr_{h}.so"
        if not lib.exists():
            log(f"npb.py: {lib} not found (build the target mpiattr_{h})")
            return 1
        hosts.append(h)
        libs[h] = lib
    if not hosts:
        log("npb.py: no host to run")
        return 1

    t_start = time.monotonic()
    load_before = os.getloadavg()[0]
    results: dict[tuple[str, str, str], list[dict[str, float]]] = {}
    scratch = None
    try:
        if a.keep:
            work = Path(a.keep).resolve()
            work.mkdir(parents=True, exist_ok=True)
        else:
            scratch = tempfile.mkdtemp(prefix="npb.")
            work = Path(scratch)
        exes: dict[tuple[str, str], Path] = {}
        for h in hosts:
            tree = prepare(npb, work, h, a.fflags)
            for k in kernels:
                log(f"[build] {k}.{a.cls} with mpifort.{h} / mpicc.{h}  ({time.monotonic() - t_start:.0f} s)")
                exes[(k, h)] = build(tree, k, a.cls)
        # A first run of each, not timed: the binding check (LD_DEBUG=files), and warm caches.
        for k in kernels:
            for h in hosts:
                for mode in ("alone", "preloaded"):
                    log(f"[check] {k}.{a.cls} {LABEL[h]} {mode}  ({time.monotonic() - t_start:.0f} s)")
                    run(h, a.np, exes[(k, h)], libs[h] if mode == "preloaded" else None, a.timeout,
                        check_loaded=True)
        for rep in range(a.repetitions):
            for k in kernels:
                for h in hosts:
                    # (the two modes alternate which goes first)
                    modes = ("alone", "preloaded") if rep % 2 == 0 else ("preloaded", "alone")
                    for mode in modes:
                        log(f"[{rep + 1}/{a.repetitions}] {k}.{a.cls} {LABEL[h]} {mode}"
                            f"  ({time.monotonic() - t_start:.0f} s)")
                        res = run(h, a.np, exes[(k, h)], libs[h] if mode == "preloaded" else None, a.timeout)
                        results.setdefault((k, h, mode), []).append(res)
    except (Failure, subprocess.TimeoutExpired, OSError) as e:
        log(f"npb.py: {e}")
        return 1
    finally:
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)

    med = {key: {f: statistics.median(r[f] for r in v) for f in ("time", "mops", "wall")} for key, v in results.items()}
    spread = {key: (min(r["time"] for r in v), max(r["time"] for r in v)) for key, v in results.items()}
    print(f"NPB 3.4 MPI, class {a.cls}, {a.np} processes, median of {a.repetitions} interleaved runs "
          f"(all verified); load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after; "
          f"{time.monotonic() - t_start:.0f} s in all\n")
    print("| kernel | host | time alone | time preloaded | Mop/s alone | Mop/s preloaded | "
          "time preloaded / alone | times alone (min–max) | preloaded (min–max) | "
          "mpiexec's wall time preloaded / alone |")
    print("|---|---|---:|---:|---:|---:|---:|---|---|---:|")
    for k in kernels:
        for h in hosts:
            al, pre = med[(k, h, "alone")], med[(k, h, "preloaded")]
            sa, sp = spread[(k, h, "alone")], spread[(k, h, "preloaded")]
            ratio = f"{pre['time'] / al['time']:.3f}" if al["time"] > 0 else "—"  # (class S: 0.00 s)
            print(f"| {k.upper()}.{a.cls} | {LABEL[h]} | {al['time']:.2f} s | {pre['time']:.2f} s | "
                  f"{al['mops']:.1f} | {pre['mops']:.1f} | {ratio} | "
                  f"{sa[0]:.2f}–{sa[1]:.2f} s | {sp[0]:.2f}–{sp[1]:.2f} s | {pre['wall'] / al['wall']:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
