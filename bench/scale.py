#!/usr/bin/env python3
"""bench/scale.py: the cost of a get and a set against the number of objects (docs/decisions.md
D63), for mpiattr standalone, each host alone and mpiattr over each host.

Builds bench/scale_bench.cc five ways (mpiattr from an existing build tree, mpicxx.mpich and
mpicxx.openmpi alone, and each with libmpiattr_<host> linked in front), runs them in rotation -r
times and prints, per figure, the median time of each and the ratio of mpiattr over a host to the
host alone. Targets (host mode): get <= 0.5x, set <= 0.7x the host alone at every n.

    python3 bench/scale.py --build-dir build            # needs lib/libmpiattr{,_mpich,_openmpi}.so
    python3 bench/scale.py --quick                      # smoke test: tiny n, exit 0 unless a run fails
    python3 bench/scale.py --callgrind                  # instructions per call instead of time
    python3 bench/scale.py --cachegrind                 # D1 and L2-sized data misses per call (D94)

MPICH 4.0.2 makes at most 2,048 communicators (context ids), so its communicator and window figures
stop at n = 2,000. Open MPI 4.1.4 makes at most about 65,500 (its context ids are 16 bits: the
MPI_Comm_dup after that fails with MPI_ERR_INTERN), so its communicator figures stop at n = 65,000;
datatypes go to 100,000 everywhere (D78). Standard library only (Python 3.11).
"""
from __future__ import annotations

import argparse
import concurrent.futures
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "scale_bench.cc")
OMPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1", "OMPI_MCA_osc": "ucx,pt2pt"}
MPICH_MAX = 2000  # communicators (and windows, each of which dups one) MPICH 4.0.2 can make
OPENMPI_COMM_MAX = 65000  # communicators Open MPI 4.1.4 can make (65,600 fail: MPI_ERR_INTERN, D78)


def ns_for(impl: str, kind: str, quick: bool) -> list[int]:
    if quick:
        return [1, 10]
    if kind == "win":
        return [1, 100, 1000]
    ns = [1, 100, MPICH_MAX // 2, MPICH_MAX]
    if kind == "type":
        ns += [10000, 100000]
    elif "openmpi" in impl:
        ns += [10000, OPENMPI_COMM_MAX]
    elif "mpich" not in impl:  # (mpiattr standalone: no limit)
        ns += [10000, 100000]
    return ns


def caps_note(kinds: list[str], impls: list[str]) -> str:
    """What the hosts' limits left out, said under the table."""
    notes = []
    if "comm" in kinds or "win" in kinds:
        if any("mpich" in i for i in impls):
            notes.append(f"MPICH 4.0.2 makes at most 2,048 communicators: its comm figures stop at n = {MPICH_MAX:,}")
        if "comm" in kinds and any("openmpi" in i for i in impls):
            notes.append("Open MPI 4.1.4 makes at most about 65,500 communicators (MPI_Comm_dup then fails with "
                         f"MPI_ERR_INTERN): its comm figures stop at n = {OPENMPI_COMM_MAX:,}")
    return "; ".join(notes)


def build(build_dir: str, out: str) -> dict[str, list[str]]:
    """The binaries that could be built: impl -> command prefix."""
    lib = os.path.join(os.path.abspath(build_dir), "lib")
    inc = os.path.join(os.path.abspath(build_dir), "include")
    plans = {
        "mpiattr": (["g++", "-std=c++17", "-O2", "-I" + inc], ["-L" + lib, "-lmpiattr", "-Wl,-rpath," + lib], []),
        "mpich": (["mpicxx.mpich", "-std=c++17", "-O2"], [], ["mpiexec.mpich", "-n", "1"]),
        "over_mpich": (["mpicxx.mpich", "-std=c++17", "-O2"], ["-L" + lib, "-Wl,-rpath," + lib, "-lmpiattr_mpich"],
                       ["mpiexec.mpich", "-n", "1"]),
        "openmpi": (["mpicxx.openmpi", "-std=c++17", "-O2"], [], []),
        "over_openmpi": (["mpicxx.openmpi", "-std=c++17", "-O2"], ["-L" + lib, "-Wl,-rpath," + lib, "-lmpiattr_openmpi"], []),
    }
    bins = {}
    for impl, (cc, libs, launcher) in plans.items():
        if shutil.which(cc[0]) is None:
            print(f"scale.py: {cc[0]} not found: {impl} skipped", file=sys.stderr)
            continue
        exe = os.path.join(out, "scale_bench." + impl)
        r = subprocess.run(cc + [SRC, "-o", exe] + libs, capture_output=True, text=True)
        if r.returncode != 0:
            print(f"scale.py: building {impl} failed:\n{r.stderr}", file=sys.stderr)
            continue
        bins[impl] = launcher + [exe]
    return bins


def run(cmd: list[str], impl: str, kind: str, ns: list[int], extra: list[str]) -> dict[str, float]:
    env = dict(os.environ, **(OMPI_ENV if "openmpi" in impl else {}))
    r = subprocess.run(cmd + [kind] + [str(n) for n in ns] + extra, capture_output=True, text=True, env=env,
                       timeout=1800)
    if r.returncode != 0:
        raise RuntimeError(f"{impl} {kind}: exit {r.returncode}\n{r.stderr[-2000:]}")
    return {m.group(1): float(m.group(2)) for m in re.finditer(r"^RESULT (\S+) (\S+)$", r.stdout, re.M)}


def instructions(cmd: list[str], impl: str, kind: str, n: int, op: str, tool: str = "callgrind") -> float | dict:
    """Per call under valgrind: two runs of 1 and 3 passes of 65,536 calls, differenced. callgrind:
    instructions; cachegrind: {"I": instructions, "D1": D1 misses, "LL": LL data misses} with a D1 of
    32 KiB and an L2-sized "LL" of 512 KiB (8-way, 64-byte lines: deterministic, whatever the load)."""
    exe = cmd[-1]  # (valgrind runs the program itself: a singleton, MPICH's too)
    env = dict(os.environ, **(OMPI_ENV if "openmpi" in impl else {}))
    total = []
    for passes in (1, 3):
        if tool == "cachegrind":
            vg = ["valgrind", "--tool=cachegrind", "--cache-sim=yes", "--cachegrind-out-file=/dev/null",
                  "--D1=32768,8,64", "--LL=524288,8,64"]
            pats = {"I": r"I\s+refs:\s+([\d,]+)", "D1": r"D1\s+misses:\s+([\d,]+)", "LL": r"LLd misses:\s+([\d,]+)"}
        else:
            vg = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
            pats = {"I": r"Collected : (\d+)"}
        r = subprocess.run(vg + [exe, kind, str(n), "--passes", str(passes), "--only", op], capture_output=True,
                           text=True, env=env)
        got = {k: re.search(p, r.stderr) for k, p in pats.items()}
        if r.returncode != 0 or not all(got.values()):
            raise RuntimeError(f"{impl} {kind} {n} {op} under {tool} failed:\n{r.stderr[-2000:]}")
        total.append({k: int(m.group(1).replace(",", "")) for k, m in got.items()})
    per = {k: (total[1][k] - total[0][k]) / (2 * 65536) for k in total[0]}
    return per if tool == "cachegrind" else per["I"]


def fmt(v: float | None, unit: str) -> str:
    if v is None:
        return "n/a"
    return f"{v:.1f}" if unit == "instr" else f"{v:.3g} ns"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", default="build")
    ap.add_argument("--kinds", default="comm,type,win")
    ap.add_argument("--only", default="mpiattr,mpich,over_mpich,openmpi,over_openmpi")
    ap.add_argument("-r", type=int, default=3, help="repetitions (median)")
    ap.add_argument("--ms", default="20", help="per timed batch")
    ap.add_argument("--ns", help="only these n (comma-separated), where the implementation allows them")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--callgrind", action="store_true")
    ap.add_argument("--cachegrind", action="store_true",
                    help="D1 and L2-sized LL data misses per call (cachegrind's simulation), and instructions")
    ap.add_argument("--jobs", type=int, default=1, help="callgrind runs at once (default: %(default)s)")
    ap.add_argument("--no-pin", dest="pin", action="store_false",
                    help="do not pin: by default every process of a round runs on one vCPU (taskset), the "
                         "rounds cycling over the vCPUs, as bench/run.py's turns (D86)")
    a = ap.parse_args()
    cpus = sorted(os.sched_getaffinity(0)) if a.pin and shutil.which("taskset") else []
    with tempfile.TemporaryDirectory(prefix="scale_bench.") as out:
        bins = {k: v for k, v in build(a.build_dir, out).items() if k in a.only.split(",")}
        if "mpiattr" not in bins and not bins:
            return 1
        kinds = a.kinds.split(",")
        only_ns = {int(x) for x in a.ns.split(",")} if a.ns else None
        ns_of = lambda impl, kind: [n for n in ns_for(impl, kind, a.quick) if only_ns is None or n in only_ns]
        results: dict[tuple[str, str], list[float]] = {}
        try:
            if a.callgrind or a.cachegrind:  # (load-independent counts: --jobs runs several at once)
                tool = "cachegrind" if a.cachegrind else "callgrind"
                cases = [(impl, cmd, kind, n, op) for kind in kinds for impl, cmd in bins.items()
                         for n in ns_of(impl, kind) for op in ("get", "set")]
                def count(c):  # (a case that fails under valgrind is n/a, named, not the end)
                    try:
                        return instructions(c[1], c[0], c[2], c[3], c[4], tool)
                    except RuntimeError as e:
                        print(f"scale.py: {e.args[0].splitlines()[0]}", file=sys.stderr)
                        return None
                if a.cachegrind:  # (simulated misses: a table of its own, printed as they come)
                    print("| figure | implementation | instructions | D1 misses | LL misses (512 KiB) |")
                    print("|---|---|---:|---:|---:|")
                with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
                    for (impl, _, kind, n, op), v in zip(cases, pool.map(count, cases)):
                        if v is None:
                            continue
                        if a.cachegrind:
                            print(f"| {kind}_{op}/{n} | {impl} | {v['I']:.1f} | {v['D1']:.2f} | {v['LL']:.2f} |",
                                  flush=True)
                        else:
                            results[(impl, f"{kind}_{op}/{n}")] = [v]
                if a.cachegrind:
                    return 0
            else:
                for rnd in range(1 if a.quick else a.r):
                    # (A round's processes on one vCPU, so that a vCPU's slow period, D86, costs
                    # every implementation of the round alike rather than one of them.)
                    pin = ["taskset", "-c", str(cpus[rnd % len(cpus)])] if cpus else []
                    for kind in kinds:
                        for impl, cmd in bins.items():  # (in rotation: the machine's state is shared)
                            extra = ["--ms", "0.2" if a.quick else a.ms]
                            for fig, v in run(pin + cmd, impl, kind, ns_of(impl, kind), extra).items():
                                results.setdefault((impl, fig), []).append(v)
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            print(f"scale.py: {e}", file=sys.stderr)
            return 1
    if a.quick:
        print(f"scale.py --quick: {len(results)} figures from {', '.join(bins)} (not measurements)")
        return 0
    unit = "instr" if a.callgrind else "ns"
    med = {k: statistics.median(v) for k, v in results.items()}
    figs = sorted({f for _, f in med}, key=lambda f: (kinds.index(f.split("_")[0]), f.split("/")[0],
                                                       int(f.split("/")[1])))
    print(f"| figure ({unit}) | mpiattr | MPICH | over MPICH | ratio | Open MPI | over Open MPI | ratio | target |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    met = total = 0
    for f in figs:
        g = lambda i: med.get((i, f))
        limit = 0.5 if "_get/" in f else 0.7
        ratios = []
        for host in ("mpich", "openmpi"):
            h, o = g(host), g("over_" + host)
            if h and o is not None:
                total += 1
                met += o / h <= limit
                ratios.append(f"{o / h:.2f}" if o / h <= limit else f"**{o / h:.2f}**")
            else:
                ratios.append("—")
        target = f"≤ {limit}×"
        print(f"| {f} | {fmt(g('mpiattr'), unit)} | {fmt(g('mpich'), unit)} | {fmt(g('over_mpich'), unit)} | "
              f"{ratios[0]} | {fmt(g('openmpi'), unit)} | {fmt(g('over_openmpi'), unit)} | {ratios[1]} | {target} |")
    print(f"\ntargets met: {met}/{total} (ratio: mpiattr over the host / the host alone; a miss in bold)")
    if not a.callgrind:
        print(f"each round's processes pinned to one vCPU, the rounds cycling over {len(cpus)}" if cpus
              else "not pinned")
    note = caps_note(kinds, list(bins))
    if note:
        print(f"{note}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
