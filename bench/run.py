#!/usr/bin/env python3
"""Build bench/attr_bench.cc against mpiattr, MPICH and Open MPI, run the
three interleaved and print a Markdown table with the ratios and targets.

    python3 bench/run.py                 # full run (~5-8 min on 2 cores)
    python3 bench/run.py --callgrind     # + instructions per get/set
    python3 bench/run.py --quick         # CI smoke test (< 1 min): builds and runs each once,
                                         # prints no figures; exit 0 unless something crashed
    python3 bench/run.py --host          # host mode: MPICH and Open MPI alone against
                                         # mpiattr's host libraries linked in front of them
    python3 bench/run.py --lang          # Fortran (mpif.h, use mpi, mpi_f08) and MPI:: figures:
                                         # standalone against the peers' own bindings, and
                                         # over each host against the host alone (D68)
    python3 bench/run.py --aa mpiattr    # A/A check of the method: the same library on both
                                         # sides, each ratio's distance from 1.00 (D79)

Python 3.11, standard library only.  See bench/README.md.
"""
from __future__ import annotations

import argparse
import datetime
import glob
import json
import os
import platform
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent
SOURCE = BENCH_DIR / "attr_bench.cc"

IMPLS = ["mpiattr", "mpich", "openmpi"]
LABEL = {"mpiattr": "mpiattr", "mpich": "MPICH", "openmpi": "Open MPI"}
PEERS = ["mpich", "openmpi"]

# Host mode (--host): each host MPI alone, and the same host with mpiattr's host library
# (libmpiattr_<host>, runtime_host/) linked in front of it, answering every caching call.
HOSTS = ["mpich", "openmpi"]
LABEL.update({"mpiattr_mpich": "mpiattr over MPICH", "mpiattr_openmpi": "mpiattr over Open MPI"})


def over(host: str) -> str:
    """The implementation name of mpiattr's host library over `host`."""
    return f"mpiattr_{host}"


# The caching routines attr_bench calls (and the dup/free that copy and delete attributes): in
# host mode each must bind to libmpiattr_<host> in the linked binary and to the host alone in the
# plain one, or the comparison measures the wrong thing (a link order that lets the host win).
CACHING_SYMBOLS = [
    "MPI_Comm_create_keyval", "MPI_Comm_free_keyval", "MPI_Comm_get_attr", "MPI_Comm_set_attr",
    "MPI_Comm_delete_attr", "MPI_Comm_dup", "MPI_Comm_free", "MPI_Type_create_keyval",
    "MPI_Type_get_attr", "MPI_Type_set_attr", "MPI_Type_dup", "MPI_Type_free",
    "MPI_Win_create_keyval", "MPI_Win_get_attr", "MPI_Win_set_attr", "MPI_Win_free",
]

NS = [1, 16, 256, 4096, 65536]
NS_SMALL = [1, 4096]

CXXFLAGS = ["-std=c++17", "-O2", "-DNDEBUG"]
BENCH_LIBS = ["-lbenchmark", "-lpthread"]

# The timed loops' placement (D86): every implementation's attr_bench is built once per padding
# of LAYOUT_PADS (ATTR_BENCH_PAD, bytes of padding before each timed loop, functions aligned to 64
# bytes and loops not aligned), so that each is measured at the same four placements of its loops
# in the 64-byte lines, rotated over its processes, and no side's figure rests on where its build
# happened to put one loop. --aa builds its B side at the same placements shifted by AA_SHIFT
# bytes, so the A/A check sees placement luck too.
LAYOUT_PADS = (0, 16, 32, 48)
LAYOUT_FLAGS = ["-falign-functions=64", "-fno-align-loops"]
AA_SHIFT = 8

# Open MPI as a singleton: root is allowed, and one-sided windows need an osc
# component that works in a single process: ucx under MPI_THREAD_MULTIPLE,
# pt2pt otherwise (pt2pt refuses MPI_THREAD_MULTIPLE in 4.1).
OMPI_ENV = {
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    "OMPI_MCA_osc": "ucx,pt2pt",
}

# Host mode, D69: the routines mpiattr defines in front of the host but does not serve, timed as
# the dup + free with no attribute (attr_bench.cc --front: through the MPI_ names and through the
# host library's own PMPI_ routines, alternating in one process).
FRONT_ROWS = [
    ("error_class_front", "`MPI_Error_class` of a host code and of a class"),
    ("error_string_front", "`MPI_Error_string` of a host code and of a class"),
    ("errhandler_front", "`MPI_Comm_set_errhandler` + `_get_errhandler` + `MPI_Errhandler_free` + "
                         "`MPI_Comm_call_errhandler` (`MPI_ERRORS_RETURN`)"),
    ("errhandler_create_free_front", "`MPI_Comm_create_errhandler` + `MPI_Errhandler_free`"),
]
# MPI_Finalize (attr_bench.cc --finalize K), once per process: FINALIZE_PER_REP x -r processes of
# each build per run, one at a time in rotation with the other builds' (D79: A B A B ..., not 7 of
# A then 7 of B), their median; 0 communicators means no caching call at all.
FINALIZE_KS = [0, 1000]
FINALIZE_PER_REP = 3

CALLGRIND_CASES = [  # (op, attributes on the communicator, operations)
    ("get", 1, 200_000),
    ("get", 4096, 16_384),
    ("set", 1, 200_000),
    ("set", 4096, 16_384),
]


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------
# Building


@dataclass
class Impl:
    name: str
    binary: Path
    launcher: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    layouts: list[Path] = field(default_factory=list)  # the same benchmark at each of LAYOUT_PADS

    def command(self, args: list[str], wrapper: list[str] | None = None) -> list[str]:
        return self.launcher + (wrapper or []) + [str(self.binary)] + args

    def at(self, layout: int) -> "Impl":
        """The same implementation, its benchmark built with the `layout`th padding (D86)."""
        if not self.layouts:
            return self
        return Impl(self.name, self.layouts[layout % len(self.layouts)], self.launcher, self.env,
                    self.layouts)


def compile_layouts(name: str, cmd: list[str], exe: Path, pads: list[int]) -> str | None:
    """Compiles `cmd` (without -o) once per padding of `pads` into exe.<pad>, two at a time;
    returns an error or None (D86)."""
    jobs: list[tuple[list[str], subprocess.Popen]] = []
    err = None
    for pad in pads:
        full = [*cmd, *LAYOUT_FLAGS, f"-DATTR_BENCH_PAD={pad}", "-o", f"{exe}.{pad}"]
        log(f"{LABEL.get(name, name)}: " + " ".join(full))
        jobs.append((full, subprocess.Popen(full, text=True, stdout=subprocess.PIPE,
                                            stderr=subprocess.STDOUT)))
        while len([j for _, j in jobs if j.poll() is None]) >= 2:
            time.sleep(0.05)
    for full, j in jobs:
        out = j.communicate()[0]
        if j.returncode != 0 and err is None:
            err = f"{' '.join(full)}: failed:\n{out[-4000:]}"
    return err


def run_cmd(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, text=True, capture_output=True, **kw)


def find_file(root: Path, patterns: list[str], exclude: tuple[str, ...]) -> Path | None:
    for pat in patterns:
        hits = sorted(
            p for p in root.rglob(pat)
            if not any(part in exclude for part in p.relative_to(root).parts)
        )
        if hits:
            return min(hits, key=lambda p: len(p.parts))
    return None


def mpiattr_paths(prefix: Path) -> tuple[list[Path], Path, Path] | None:
    """Return (include dirs, lib dir, lib file) found in a build or install tree."""
    exclude = ("CMakeFiles", "attr_bench", "_deps")
    inc = prefix / "include" / "mpi.h"
    if not inc.is_file():
        inc = find_file(prefix, ["mpi.h"], exclude)
    lib = None
    for cand in ("lib/libmpiattr.so", "lib64/libmpiattr.so", "lib/libmpiattr.a", "lib64/libmpiattr.a"):
        if (prefix / cand).exists():
            lib = prefix / cand
            break
    if lib is None:
        lib = find_file(prefix, ["libmpiattr.so", "libmpiattr.so.*", "libmpiattr.a"], exclude)
    if inc is None or lib is None:
        return None
    incs = [inc.parent]
    if (REPO / "include").is_dir() and (REPO / "include") != inc.parent:
        incs.append(REPO / "include")  # in case the generated mpi.h includes sources
    return incs, lib.parent, lib


def cmake_build(args, targets: list[str]) -> tuple[Path, str | None]:
    """Configures (Release) and builds `targets` in --build-dir; returns (build dir, error)."""
    prefix = Path(args.build_dir).resolve()
    log(f"mpiattr: configuring and building {' '.join(targets)} with CMake in {prefix}")
    cfg = ["cmake", "-S", str(REPO), "-B", str(prefix), "-DCMAKE_BUILD_TYPE=Release",
           f"-DPython3_EXECUTABLE={sys.executable}", "-DMPIATTR_TESTS=OFF"] + args.cmake_arg
    r = run_cmd(cfg)
    if r.returncode != 0:
        return prefix, f"cmake configure failed:\n{r.stdout[-3000:]}{r.stderr[-3000:]}"
    bld = ["cmake", "--build", str(prefix), "-j", str(os.cpu_count() or 2)]
    for t in targets:
        bld += ["--target", t]
    r = run_cmd(bld)
    if r.returncode != 0:
        return prefix, f"cmake build failed:\n{r.stdout[-3000:]}{r.stderr[-3000:]}"
    return prefix, None


def build_mpiattr(args, out_dir: Path, pads: list[int] | None = None,
                  impl_name: str = "mpiattr") -> tuple[Impl | None, str | None]:
    """Returns (impl, error).  (None, None) means 'skipped, not an error'. With `pads`, the
    benchmark once per padding (D86)."""
    if args.mpiattr_prefix:
        prefix = Path(args.mpiattr_prefix).resolve()
    elif pads and impl_name != "mpiattr":  # --aa's B side: the library is built already
        prefix = Path(args.build_dir).resolve()
    else:
        if not (REPO / "CMakeLists.txt").is_file():
            log(f"mpiattr: no top-level CMakeLists.txt in {REPO} yet; skipping mpiattr")
            return None, None
        prefix, err = cmake_build(args, args.cmake_target or ["mpiattr"])
        if err:
            return None, err
    found = mpiattr_paths(prefix)
    if found is None:
        return None, f"no mpi.h and libmpiattr.{{so,a}} found under {prefix}"
    incs, libdir, libfile = found
    exe = out_dir / f"attr_bench.{impl_name}"
    cxx = os.environ.get("CXX", "g++")
    cmd = [cxx, *CXXFLAGS, *[f"-I{d}" for d in incs], str(SOURCE),
           f"-L{libdir}", "-lmpiattr", f"-Wl,-rpath,{libdir}", *BENCH_LIBS]
    err = compile_layouts(impl_name, cmd, exe, pads or [0])
    if err:
        return None, f"compiling attr_bench against mpiattr failed:\n{err}"
    layouts = [Path(f"{exe}.{p}") for p in pads or [0]]
    return Impl(impl_name, layouts[0], layouts=layouts), None


def build_peer(name: str, out_dir: Path, thread_single: bool,
               host_lib: Path | None = None, pads: list[int] | None = None,
               tag: str = "") -> tuple[Impl | None, str | None]:
    """The benchmark built with the host's wrapper: the host alone, or (host_lib, host mode)
    with mpiattr's host library linked in front of it (the wrapper appends the host's own
    libraries after the user's arguments, so -lmpiattr_<host> comes first)."""
    suffix = {"mpich": "mpich", "openmpi": "openmpi"}[name]
    impl_name = over(name) if host_lib else name
    cxx = shutil.which(f"mpicxx.{suffix}")
    mpiexec = shutil.which(f"mpiexec.{suffix}")
    if cxx is None:
        log(f"{LABEL[impl_name]}: mpicxx.{suffix} not found (libmpich-dev / libopenmpi-dev missing); n/a")
        return None, None
    exe = out_dir / f"attr_bench.{impl_name}{tag}"
    cmd = [cxx, *CXXFLAGS, str(SOURCE)]
    if host_lib:
        libdir = host_lib.parent
        cmd += [f"-L{libdir}", f"-Wl,-rpath,{libdir}", f"-lmpiattr_{name}"]
    cmd += BENCH_LIBS
    err = compile_layouts(impl_name, cmd, exe, pads or [0])
    if err:
        return None, f"compiling attr_bench with {cxx} failed:\n{err}"
    layouts = [Path(f"{exe}.{p}") for p in pads or [0]]
    if name == "mpich":
        if mpiexec is None:
            return None, "mpiexec.mpich not found"
        return Impl(impl_name, layouts[0], launcher=[mpiexec, "-n", "1"], layouts=layouts), None
    env = dict(OMPI_ENV)
    if thread_single:
        env["OMPI_MCA_osc"] = "pt2pt,ucx"
    return Impl(impl_name, layouts[0], env=env, layouts=layouts), None  # singleton: run directly


def host_libraries(args, hosts: list[str]) -> tuple[dict[str, Path], str | None]:
    """Builds (or, with --mpiattr-prefix, finds) libmpiattr_<host>.so for each host."""
    if args.mpiattr_prefix:
        prefix = Path(args.mpiattr_prefix).resolve()
    else:
        prefix, err = cmake_build(args, args.cmake_target or [f"mpiattr_{h}" for h in hosts])
        if err:
            return {}, err
    libs: dict[str, Path] = {}
    for h in hosts:
        lib = next((prefix / d / f"libmpiattr_{h}.so" for d in ("lib", "lib64")
                    if (prefix / d / f"libmpiattr_{h}.so").exists()), None)
        if lib is None:
            lib = find_file(prefix, [f"libmpiattr_{h}.so"], ("CMakeFiles", "attr_bench", "_deps"))
        if lib is None:
            return libs, f"no libmpiattr_{h}.so under {prefix}"
        libs[h] = lib.resolve().parent / f"libmpiattr_{h}.so"
    return libs, None


def check_bindings(impl: Impl, host: str, linked: bool, tmp: Path, thread_args: list[str]) -> None:
    """Runs the binary once with LD_BIND_NOW + LD_DEBUG=bindings and checks which library each
    caching routine of CACHING_SYMBOLS binds to: libmpiattr_<host> when linked, else the host."""
    d = Path(tempfile.mkdtemp(prefix=f"ld-{impl.name}-", dir=tmp))
    probe = Impl(impl.name, impl.binary, impl.launcher,
                 {**impl.env, "LD_BIND_NOW": "1", "LD_DEBUG": "bindings", "LD_DEBUG_OUTPUT": str(d / "ld")})
    execute(probe, thread_args + ["--quick", "--gbench", "--benchmark_filter=^keyval_create_free$"],
            timeout=120)
    pat = re.compile(r"binding file (\S+) \[0\] to (\S+) \[\d+\]: normal symbol `([^']+)'")
    bound: dict[str, str] = {}
    for f in d.glob("ld.*"):
        for line in f.read_text(errors="replace").splitlines():
            m = pat.search(line)
            if m and m.group(1) == str(impl.binary) and m.group(3) in CACHING_SYMBOLS:
                bound[m.group(3)] = m.group(2)
    shutil.rmtree(d, ignore_errors=True)
    want = f"libmpiattr_{host}" if linked else None
    bad = []
    for sym in CACHING_SYMBOLS:
        lib = bound.get(sym)
        if lib is None:
            bad.append(f"{sym}: no binding seen")
        elif linked and want not in Path(lib).name:
            bad.append(f"{sym} -> {lib}")
        elif not linked and "libmpiattr" in Path(lib).name:
            bad.append(f"{sym} -> {lib}")
    if bad:
        raise RunError(f"{impl.name}: caching routines bound to the wrong library "
                       f"(expected {want or 'the host'}): " + "; ".join(bad))
    log(f"{LABEL[impl.name]}: {len(bound)} caching routines bind to "
        f"{Path(next(iter(bound.values()))).name}")


# --------------------------------------------------------------------------
# Running


class RunError(Exception):
    pass


# --------------------------------------------------------------------------
# Other work on the machine


def busy_seconds() -> float:
    """CPU seconds spent busy on all CPUs since boot (/proc/stat), or 0 if unknown."""
    try:
        f = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    except (OSError, ValueError):
        return 0.0
    return (sum(f) - f[3] - f[4]) / os.sysconf("SC_CLK_TCK")  # all but idle and iowait


def own_seconds() -> float:
    """CPU seconds used by this script and the processes it waited for."""
    return sum(r.ru_utime + r.ru_stime for r in (resource.getrusage(resource.RUSAGE_SELF),
                                                 resource.getrusage(resource.RUSAGE_CHILDREN)))


def wait_idle(max_wait: float) -> float:
    """Waits (at most max_wait s) until other processes use < 0.15 CPU over half a second;
    returns the seconds waited (0 when the first half second was idle)."""
    t0, first = time.monotonic(), True
    while True:
        b, o = busy_seconds(), own_seconds()
        time.sleep(0.5)
        other = ((busy_seconds() - b) - (own_seconds() - o)) / 0.5
        waited = time.monotonic() - t0
        if other < 0.15 or waited >= max_wait:
            if first:
                return 0.0
            log(f"waited {waited:.0f} s for the machine to go idle ({other:.2f} CPUs busy now)")
            return waited
        first = False


def execute(impl: Impl, args: list[str], timeout: float, wrapper: list[str] | None = None) -> str:
    env = dict(os.environ)
    env.update(impl.env)
    cmd = impl.command(args, wrapper)
    try:
        r = subprocess.run(cmd, text=True, capture_output=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise RunError(f"{' '.join(cmd)}: timed out after {timeout:.0f} s")
    if r.returncode != 0:
        raise RunError(f"{' '.join(cmd)}: exit {r.returncode}\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
    return r.stdout


def parse_results(stdout: str) -> dict[str, str]:
    out = {}
    for line in stdout.splitlines():
        if line.startswith("RESULT "):
            parts = line.split(None, 2)
            if len(parts) == 3:
                out[parts[1]] = parts[2].strip()
    return out


def run_gbench(impl: Impl, extra: list[str], bench_filter: str | None, min_time: float | None,
               tmp: Path, timeout: float, batches: int = 1, timer: str = "real",
               stat: str = "min", wrapper: list[str] | None = None
               ) -> tuple[dict[str, float], dict[str, str]]:
    """One process: each benchmark of `bench_filter` timed in `batches` batches of at least
    `min_time` s (Google Benchmark's repetitions), by the calling thread's CPU time (`timer`
    "cpu": time the process spent preempted by other work on the machine is not counted) or by
    the wall clock ("real"). The process's figure is the minimum (or median, `stat`) of its
    batches; the counters (computed by attr_bench from its own clock) the median. D79."""
    out = tmp / f"gb-{impl.name}-{time.monotonic_ns()}.json"
    args = list(extra) + ["--gbench", f"--benchmark_out={out}", "--benchmark_out_format=json"]
    if bench_filter:
        args.append(f"--benchmark_filter={bench_filter}")
    if min_time is not None:
        args.append(f"--benchmark_min_time={min_time}")
    if batches > 1:
        args.append(f"--benchmark_repetitions={batches}")
    stdout = execute(impl, args, timeout, wrapper)
    data = json.loads(out.read_text())
    out.unlink()
    per: dict[str, list[float]] = {}
    for b in data.get("benchmarks", []):
        if b.get("error_occurred"):
            raise RunError(f"{impl.name}: {b['name']}: {b.get('error_message')}")
        if b.get("run_type", "iteration") != "iteration":
            continue
        name = b.get("run_name", b["name"])
        scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
        per.setdefault(name, []).append(b["cpu_time" if timer == "cpu" else "real_time"] * scale)
        if "per_attr_ns" in b:  # a user counter (the dup + free deltas): already in ns
            per.setdefault(name + ":per_attr_ns", []).append(float(b["per_attr_ns"]))
        if "front_ratio" in b:  # host mode: through the MPI_ names / the host's own routines
            per.setdefault(name + ":front_ratio", []).append(float(b["front_ratio"]))
    times = {k: (min(v) if stat == "min" and ":" not in k else statistics.median(v))
             for k, v in per.items()}
    return times, parse_results(stdout)


def derive(times: dict[str, float]) -> dict[str, float]:
    """Turn one process's raw benchmark times into figures (ns)."""
    fig = dict(times)
    for kind in ("comm", "type"):
        t0 = times.get(f"{kind}_dup_free/0")
        for n in NS:
            # Per attribute: from the batches that alternate the object with n attributes and a
            # bare one in one loop (attr_bench.cc: dup_free_delta); else (t_n - t_0) / n.
            delta = times.get(f"{kind}_dup_free_delta/{n}:per_attr_ns")
            tn = times.get(f"{kind}_dup_free/{n}")
            if delta is not None:
                fig[f"{kind}_dup_per_attr/{n}"] = delta
            elif tn is not None and t0 is not None:
                fig[f"{kind}_dup_per_attr/{n}"] = (tn - t0) / n
    return fig


def extra_figures(res: dict[str, str]) -> dict[str, float]:
    fig = {}
    for key in ("mem_bytes_per_attr", "threads_1_ns_per_get", "threads_2_distinct_ratio",
                "threads_2_same_ratio", "threads_2_distinct_ratio_median_trial",
                "threads_2_same_ratio_median_trial", "threads_2_trivial_ratio",
                "threads_1_vcpu_ratio"):
        if key in res:
            fig[key] = float(res[key])
    for key in res:
        if key.startswith("finalize_ns/"):
            fig[key] = float(res[key])
    return fig


def run_callgrind(impl: Impl, tmp: Path, thread_args: list[str]) -> dict[str, float]:
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        log("valgrind not found; no instruction counts")
        return {}
    fig = {}
    for op, nattrs, iters in CALLGRIND_CASES:
        d = Path(tempfile.mkdtemp(prefix=f"cg-{impl.name}-", dir=tmp))
        wrapper = [valgrind, "--tool=callgrind", "--instr-atstart=no",
                   f"--callgrind-out-file={d}/cg.out.%p"]
        stdout = execute(impl, thread_args + [f"--callgrind-{op}", str(iters), "--attrs", str(nattrs)],
                         timeout=900, wrapper=wrapper)
        if parse_results(stdout).get("callgrind_unavailable"):
            log(f"{impl.name}: built without <valgrind/callgrind.h>; no instruction counts")
            return {}
        totals: dict[str, int] = {}
        for f in glob.glob(f"{d}/cg.out.*"):
            trig, tot = None, None
            for line in Path(f).read_text(errors="replace").splitlines():
                if line.startswith("desc: Trigger: Client Request: "):
                    trig = line.rsplit(":", 1)[1].strip()
                elif line.startswith("totals:"):
                    tot = int(line.split()[1])
            if trig and tot is not None:
                totals[trig] = tot
        shutil.rmtree(d, ignore_errors=True)
        if "op" not in totals or "base" not in totals:
            raise RunError(f"{impl.name}: callgrind dumps not found")
        fig[f"ir_{op}/{nattrs}"] = (totals["op"] - totals["base"]) / iters
    return fig


# --------------------------------------------------------------------------
# Table


@dataclass
class Row:
    label: str
    key: str
    unit: str  # "time", "bytes", "ratio", "count"
    target: tuple | None = None  # ("peer", f) | ("mpich", f) | ("le", x) | ("ge", x) | ("flat", x)


# The targets of each figure family: against the faster peer (standalone) or against the host
# alone (host mode, docs/host.md). A family missing from a table has no target there.
TARGETS = {
    False: {"get": ("peer", 0.35), "flat": ("flat", 1.5), "set": ("peer", 0.5),
            "keyval": ("peer", 0.5), "dup_attr": ("peer", 0.3), "mem": ("le", 24.0),
            "type_dup": ("peer", 0.5), "type_make": ("mpich", 1.0),
            "threads": ("ge", 1.8)},
    # Host mode: dup + free with no attribute is judged on the same-process figure (attr_bench.cc:
    # dup_free_front); across processes the hosts' own times are bimodal (README.md).
    # The other routines mpiattr defines in front of the host without serving them (the error
    # routines for a host's code; the error-handler routines, which it does not define: a control)
    # are judged the same way; finalize, which a process calls once, across processes (D69).
    True: {"get": ("host", 0.5), "set": ("host", 0.5), "dup_front": ("le", 1.05),
           "dup_attr": ("host", 0.3), "finalize": ("host", 1.05)},
}


def rows(with_callgrind: bool, host: bool = False) -> list[Row]:
    """Every figure of the table; host: the host-mode table (its targets and row names)."""
    t = TARGETS[host].get
    none = " attribute" if host else " attributes"
    r: list[Row] = []
    for n in NS:
        r.append(Row(f"`MPI_Comm_get_attr` hit, n={n}", f"comm_get_hit/{n}", "time", t("get")))
    r.append(Row("`MPI_Comm_get_attr` hit, n=65536 / n=1", "comm_get_hit_flatness", "ratio", t("flat")))
    for n in NS:
        r.append(Row(f"`MPI_Comm_get_attr` unset key, n={n}", f"comm_get_miss/{n}", "time"))
    for n in NS:
        r.append(Row(f"`MPI_Comm_set_attr` replace, n={n}", f"comm_set_replace/{n}", "time", t("set")))
    for n in NS:
        r.append(Row(f"`MPI_Comm_set_attr` + `MPI_Comm_delete_attr`, n={n}", f"comm_set_delete/{n}", "time"))
    for n in NS_SMALL:
        r.append(Row(f"`MPI_Type_get_attr` hit, n={n}", f"type_get_hit/{n}", "time", t("get")))
    for n in NS_SMALL:
        r.append(Row(f"`MPI_Win_get_attr` hit, n={n}", f"win_get_hit/{n}", "time", t("get")))
    r.append(Row("keyval create + free", "keyval_create_free", "time", t("keyval")))
    r.append(Row(f"`MPI_Comm_dup` + `MPI_Comm_free`, no{none}", "comm_dup_free/0", "time", t("dup_none")))
    if host:
        r.append(Row("`MPI_Comm_dup` + `MPI_Comm_free`, no attribute, through `MPI_` / the host's own "
                     "`PMPI_`, one process", "comm_dup_free_front/0:front_ratio", "ratio", t("dup_front")))
    for n in NS:
        r.append(Row(f"`MPI_Comm_dup` + free, per attribute, n={n}", f"comm_dup_per_attr/{n}", "time",
                     t("dup_attr")))
    r.append(Row(f"`MPI_Type_dup` + `MPI_Type_free`, no{none}", "type_dup_free/0", "time", t("dup_none")))
    if host:
        r.append(Row("`MPI_Type_dup` + `MPI_Type_free`, no attribute, through `MPI_` / the host's own "
                     "`PMPI_`, one process", "type_dup_free_front/0:front_ratio", "ratio", t("dup_front")))
    for n in NS:
        r.append(Row(f"`MPI_Type_dup` + free, per attribute, n={n}", f"type_dup_per_attr/{n}", "time",
                     t("dup_attr")))
    if not host:  # D62: a dup shares what it can with its original; constructors as fast as MPICH's
        r.append(Row("`MPI_Type_dup` of `MPI_INT` + `MPI_Type_free`", "type_named_dup_free", "time",
                     t("type_dup")))
        r.append(Row("`MPI_Type_dup` of a contiguous type + `MPI_Type_free`", "type_derived_dup_free", "time",
                     t("type_dup")))
        for name, label in (("contiguous", "`MPI_Type_contiguous`(4, `MPI_INT`)"),
                            ("vector", "`MPI_Type_vector`(4, 2, 3, `MPI_INT`)"),
                            ("struct", "`MPI_Type_create_struct` (int, 2 double)")):
            r.append(Row(f"{label} + `MPI_Type_free`", f"type_{name}_free", "time", t("type_make")))
    if host:  # D69: the routines mpiattr intercepts but does not serve
        for key, label in FRONT_ROWS:
            r.append(Row(f"{label}, through `MPI_` / the host's own `PMPI_`, one process",
                         f"{key}/0:front_ratio", "ratio", t("dup_front")))
        for k in FINALIZE_KS:
            r.append(Row(f"`MPI_Finalize`, {k} communicators with an attribute alive (median of "
                         f"{FINALIZE_PER_REP} × -r processes, interleaved)", f"finalize_ns/{k}", "time",
                         t("finalize")))
    r.append(Row("memory per attribute (RSS growth)", "mem_bytes_per_attr", "bytes", t("mem")))
    r.append(Row("get, 1 thread (ns per get)", "threads_1_ns_per_get", "time"))
    # D79: the fastest of many short trials of each (one in which both threads had a CPU), and
    # the median trial's ratio, which shows how often they did not on this machine.
    r.append(Row("get throughput, 2 threads distinct comms / 1 thread (fastest trials)",
                 "threads_2_distinct_ratio", "ratio", t("threads")))
    r.append(Row("get throughput, 2 threads same comm / 1 thread (fastest trials)", "threads_2_same_ratio",
                 "ratio"))
    r.append(Row("the same, distinct comms, median trial (machine-dependent)",
                 "threads_2_distinct_ratio_median_trial", "ratio"))
    # D91: the threads pinned one per vCPU, one thread's time the slower vCPU's; the same trials
    # of a trivial call (no MPI) give the machine's ceiling in that run.
    r.append(Row("the machine's ceiling: a trivial call, 2 threads / 1 thread (fastest trials)",
                 "threads_2_trivial_ratio", "ratio"))
    r.append(Row("one thread's get, slower vCPU / faster vCPU (fastest trials)", "threads_1_vcpu_ratio",
                 "ratio"))
    if with_callgrind:
        for op in ("get", "set"):
            for n in (1, 4096):
                r.append(Row(f"instructions per {op}, n={n} (callgrind)", f"ir_{op}/{n}", "count"))
    return r


# Every process's figures of the run ({impl: {figure: [one value per process]}}), for the spread
# of the ratios (set by main before the tables are made).
RAW: dict[str, dict[str, list[float]]] = {}
# The vCPU each of those processes was pinned to (-1: not pinned), in the same order (D86).
STRATA: dict[str, dict[str, list[int]]] = {}


def resample(rng: random.Random, values: list[float], strata: list[int]) -> list[float]:
    """One bootstrap sample of a side's processes: resampled within each vCPU's processes, as the
    run placed them (the same number on each vCPU, D86), or all together when not pinned."""
    if len(strata) != len(values):
        strata = [-1] * len(values)
    groups: dict[int, list[float]] = {}
    for v, c in zip(values, strata):
        groups.setdefault(c, []).append(v)
    return [x for g in groups.values() for x in rng.choices(g, k=len(g))]


# What the JSON's "median" (kept under that name for the scripts that read it) holds since D79.
FIGURE_OF = ("per implementation and figure, figure_of() of its processes' values: the lower "
             "quartile of times, the median of the rest (two-thread ratios since D91)")


def figure_of(key: str, values: list[float]) -> float:
    """One implementation's figure from its processes' (D79). This VM has slow and fast periods
    lasting seconds (a process's get read 2.1-2.3 ns or 3.9-4.4 ns, by CPU time, on both sides
    of an A/A check, depending on when it ran), so a process's time is the code's time or more:
    a time (and a cost per attribute) is the lower quartile of the processes' (the 2nd fastest of
    7), which is the fast period's value when at least two processes of each side fell in one,
    and is not moved by a single process that read low. A ratio where more is better (two
    threads over one) was the upper quartile, for the same reason, until D91 pinned the threads
    and measured one thread on each vCPU: a slow vCPU no longer lowers it, a disturbed one-thread
    trial raises it as a disturbed two-thread trial lowers it, so it is the median. The
    one-process ratios (front), memory and instruction counts, which have no slow period, the
    median."""
    v = sorted(values)
    if key.endswith(":front_ratio") or key.startswith(("mem_", "ir_", "threads_2_")):
        return statistics.median(v)
    return v[len(v) // 4]


def ratio_interval(a: list[float], b: list[float], key: str = "", rounds: int = 2000,
                   sa: list[int] | None = None, sb: list[int] | None = None
                   ) -> tuple[float, float] | None:
    """The 90 % bootstrap interval of figure_of(a) / figure_of(b): the turns resampled with
    replacement when both sides ran the same turns (process i of each in turn i, pinned runs:
    `sa`, `sb`, the vCPU of each process, equal), else each side's processes apart; within each
    vCPU's (D86; a fixed seed, so a report is reproducible from its JSON). None with fewer than 3
    processes on a side."""
    if len(a) < 3 or len(b) < 3:
        return None
    rng = random.Random(79)
    rs = []
    sa = sa if sa and len(sa) == len(a) else [-1] * len(a)
    sb = sb if sb and len(sb) == len(b) else [-1] * len(b)
    if len(a) == len(b) and sa == sb:
        # D86: process i of both sides ran in the same turn, on the same vCPU, at the same
        # placement of the loops, one right after the other: resample the turns, not each side's
        # processes apart (within each vCPU's turns)
        turns: dict[int, list[int]] = {}
        for i, c in enumerate(sa):
            turns.setdefault(c, []).append(i)
        for _ in range(rounds):
            idx = [i for g in turns.values() for i in rng.choices(g, k=len(g))]
            mb = figure_of(key, [b[i] for i in idx])
            if mb:
                rs.append(figure_of(key, [a[i] for i in idx]) / mb)
    else:
        for _ in range(rounds):
            mb = figure_of(key, resample(rng, b, sb))
            if mb:
                rs.append(figure_of(key, resample(rng, a, sa)) / mb)
    if not rs:
        return None
    rs.sort()
    return rs[int(0.05 * len(rs))], rs[int(0.95 * len(rs)) - 1]


def spread_pct(a_impl: str, b_impl: str, key: str) -> float | None:
    """Half the width of the ratio's 90 % interval, in percent of the ratio (D79)."""
    a, b = RAW.get(a_impl, {}).get(key, []), RAW.get(b_impl, {}).get(key, [])
    iv = ratio_interval(a, b, key, sa=STRATA.get(a_impl, {}).get(key), sb=STRATA.get(b_impl, {}).get(key))
    if iv is None or not a or not b or not figure_of(key, b):
        return None
    r = figure_of(key, a) / figure_of(key, b)
    return 100 * (iv[1] - iv[0]) / 2 / r if r else None


def ratio_text(a_impl: str, b_impl: str, key: str, a: float | None, b: float | None) -> str:
    """A ratio cell: the ratio of the figures and its spread (± half its 90 % interval)."""
    if a is None or b is None or b == 0:
        return "n/a"
    sp = spread_pct(a_impl, b_impl, key)
    return f"{a / b:.2f}" + (f" ±{sp:.0f}%" if sp is not None else "")


def make_aa_table(fig: dict[str, dict[str, float]], order: list[str], host: bool) -> tuple[str, str]:
    """The A/A check (--aa): the same implementation on both sides. Every figure's ratio should be
    1.00; how far it is, and the bootstrap spread, are the method's error (D79)."""
    a_impl, b_impl = order
    lines = [f"| figure | {LABEL[a_impl]} | {LABEL[b_impl]} | A/B | 90 % interval | spread |",
             "|---|---:|---:|---:|---|---:|"]
    devs: list[tuple[float, str]] = []
    spreads: list[float] = []
    for row in rows(False, host=host):
        a, b = fig[a_impl].get(row.key), fig[b_impl].get(row.key)
        if a is None or b is None or row.key not in RAW.get(a_impl, {}):
            continue
        r = a / b if b else None
        iv = ratio_interval(RAW[a_impl][row.key], RAW[b_impl].get(row.key, []), row.key,
                            sa=STRATA.get(a_impl, {}).get(row.key), sb=STRATA.get(b_impl, {}).get(row.key))
        sp = spread_pct(a_impl, b_impl, row.key)
        if r is not None:
            devs.append((abs(r - 1), row.label))
        if sp is not None:
            spreads.append(sp)
        lines.append("| " + " | ".join([
            row.label, fmt(a, row.unit), fmt(b, row.unit), "n/a" if r is None else f"{r:.3f}",
            "" if iv is None else f"{iv[0]:.3f}–{iv[1]:.3f}",
            "" if sp is None else f"±{sp:.1f}%"]) + " |")
    devs.sort()
    within = sum(d <= 0.05 for d, _ in devs)
    summary = (f"A/A: {within}/{len(devs)} ratios within ±5 % of 1.00"
               + (f"; median |A/B - 1| {100 * statistics.median(d for d, _ in devs):.1f} %, largest "
                  f"{100 * devs[-1][0]:.1f} % ({devs[-1][1]})" if devs else "")
               + (f"; bootstrap spread median ±{statistics.median(spreads):.1f} %, largest "
                  f"±{max(spreads):.1f} %" if spreads else ""))
    return "\n".join(lines), summary


def fmt(v: float | None, unit: str) -> str:
    if v is None:
        return "n/a"
    if unit == "time":
        a = abs(v)
        if a < 1e3:
            return f"{v:.3g} ns" if a >= 10 else f"{v:.2f} ns"
        if a < 1e6:
            return f"{v / 1e3:.3g} µs"
        return f"{v / 1e6:.3g} ms"
    if unit == "bytes":
        return f"{v:.1f} B"
    if unit == "ratio":
        return f"{v:.2f}×"
    return f"{v:.0f}" if abs(v) >= 100 else f"{v:.1f}"


def target_text(t: tuple | None, unit: str) -> str:
    if t is None:
        return ""
    kind, x = t
    u = {"bytes": " B", "ratio": "×"}.get(unit, "")
    return {"peer": f"≤ {x:g}× faster peer", "le": f"≤ {x:g}{u}", "ge": f"≥ {x:g}{u}",
            "flat": f"≤ {x:g}× (flat in n)", "host": f"≤ {x:g}× host alone", "mpich": f"≤ {x:g}× MPICH"}[kind]


def evaluate(t: tuple | None, mine: float | None, peers: list[float]) -> str:
    if t is None:
        return ""
    if mine is None:
        return "n/a"
    kind, x = t
    if kind in ("peer", "host", "mpich"):
        if not peers:
            return "n/a"
        ok = mine <= x * min(peers)
    elif kind in ("le", "flat"):
        ok = mine <= x
    else:
        ok = mine >= x
    return "yes" if ok else "**NO**"


def make_table(fig: dict[str, dict[str, float]], with_callgrind: bool) -> tuple[str, int, int]:
    for impl, f in fig.items():
        first, last = f.get(f"comm_get_hit/{NS[0]}"), f.get(f"comm_get_hit/{NS[-1]}")
        if first and last:  # the "flat in n": 65536 within 1.5x of 1
            f["comm_get_hit_flatness"] = last / first
    lines = ["| figure | mpiattr | MPICH | Open MPI | mpiattr/MPICH | mpiattr/Open MPI | target | met? |",
             "|---|---:|---:|---:|---:|---:|---|---|"]
    met = total = 0
    for row in rows(with_callgrind):
        vals = {i: fig.get(i, {}).get(row.key) for i in IMPLS}
        ratios = [ratio_text("mpiattr", p, row.key, vals["mpiattr"], vals[p]) for p in PEERS]
        judged = ["mpich"] if row.target and row.target[0] == "mpich" else PEERS
        peers = [vals[p] for p in judged if vals[p] is not None]
        verdict = evaluate(row.target, vals["mpiattr"], peers)
        if verdict in ("yes", "**NO**"):
            total += 1
            met += verdict == "yes"
        ceiling = fig.get("mpiattr", {}).get("threads_2_trivial_ratio")
        if verdict == "**NO**" and row.key.startswith("threads_2_") and ceiling is not None \
                and ceiling < row.target[1]:  # D91: the machine gave no two threads that scale
            verdict += f" (the machine's ceiling {ceiling:.2f}×)"
        lines.append("| " + " | ".join([row.label, *(fmt(vals[i], row.unit) for i in IMPLS), *ratios,
                                          target_text(row.target, row.unit), verdict]) + " |")
    return "\n".join(lines), met, total


def make_host_table(fig: dict[str, dict[str, float]], hosts: list[str],
                    with_callgrind: bool) -> tuple[str, int, int]:
    """Host mode: per host, the host alone, mpiattr over it and the ratio; one verdict per host."""
    for f in fig.values():
        first, last = f.get(f"comm_get_hit/{NS[0]}"), f.get(f"comm_get_hit/{NS[-1]}")
        if first and last:
            f["comm_get_hit_flatness"] = last / first
    head = ["figure"]
    for h in hosts:
        head += [f"{LABEL[h]} alone", f"{LABEL[over(h)]}", "ratio"]
    head += ["target"] + [f"met? {LABEL[h]}" for h in hosts]
    lines = ["| " + " | ".join(head) + " |",
             "|---|" + "---:|---:|---:|" * len(hosts) + "---|" + "---|" * len(hosts)]
    met = total = 0
    for row in rows(with_callgrind, host=True):
        cells, verdicts = [row.label], []
        for h in hosts:
            alone, mine = fig.get(h, {}).get(row.key), fig.get(over(h), {}).get(row.key)
            ratio = ratio_text(over(h), h, row.key, mine, alone)
            cells += [fmt(alone, row.unit), fmt(mine, row.unit), ratio]
            v = evaluate(row.target, mine, [alone] if alone is not None else [])
            if v in ("yes", "**NO**"):
                total += 1
                met += v == "yes"
            verdicts.append(v)
        cells += [target_text(row.target, row.unit)] + verdicts
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines), met, total


def source_state() -> str:
    """The commit the libraries were built from, and whether their sources were modified."""
    r = run_cmd(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"])
    if r.returncode != 0:
        return "(not a git checkout)"
    st = run_cmd(["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no", "--",
                  ".", ":!bench", ":!docs", ":!tests", ":!*.md"])
    changed = [line[3:] for line in st.stdout.splitlines()]
    if not changed:
        return r.stdout.strip()
    names = ", ".join(changed) if len(changed) <= 3 else f"{len(changed)} files"
    return f"{r.stdout.strip()} + uncommitted changes ({names})"


def machine_info(impls: dict[str, Impl], args) -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    vers = []
    for name, cmd in (("mpich", ["mpichversion", "-v"]), ("openmpi", ["ompi_info", "--version"])):
        if (name in impls or over(name) in impls) and shutil.which(cmd[0]):
            r = run_cmd(cmd)
            m = re.search(r"(\d+\.\d+(\.\d+)?)", r.stdout)
            if m:
                vers.append(f"{LABEL[name]} {m.group(1)}")
    level = ("MPI_THREAD_SINGLE" if args.thread_single else "MPI_THREAD_MULTIPLE") + \
        " (two-thread figures: MPI_THREAD_MULTIPLE)"
    mode = "quick (smoke test, figures not meaningful)" if args.quick else \
        (f"lower quartile of {args.repetitions} interleaved processes per figure (D79), each the "
         f"{args.batch_stat} of {args.batches} batches of ≥ {args.min_time} s timed by "
         f"{'the thread CPU time' if args.timer == 'cpu' else 'the wall clock'}")
    if args.lang and not args.quick:  # D92: attr_bench's method
        mode = (f"lower quartile of {args.repetitions} interleaved singleton processes per figure, "
                f"each the fastest of {args.batches} batches of ≥ {args.min_time} s timed by the "
                "thread CPU time (D92)")
    if not args.quick:  # D86
        mode += (f" · each turn's processes pinned to one vCPU, the turns cycling over "
                 f"{len(args.cpus)}" if args.cpus else " · not pinned")
        mode += (f" · the timed loops at {args.layouts} placements ({'/'.join(map(str, LAYOUT_PADS[:args.layouts]))}"
                 f" bytes of padding{f', B side +{AA_SHIFT}' if args.aa else ''}), rotated (D86)")
        if not args.lang:
            mode += (" · two-thread figures: one thread per vCPU, against one thread on the slower "
                     "vCPU, the median process (D91)")
    host = f"host mode, mpiattr {source_state()} · " if args.host or args.lang else ""
    elapsed = max(time.monotonic() - args.t_start, 1e-9)
    others = (busy_seconds() - args.busy_before) - (own_seconds() - args.own_before)
    waited = f", {args.waited:.0f} s waited for idle" if args.waited else ""
    if args.repeated:
        waited += f", {args.repeated} runs repeated (others busy during them)"
    return (f"{datetime.date.today()} · {cpu} · {os.cpu_count()} CPUs · {platform.release()} · "
            f"{', '.join(vers) or 'no peers'} · {host}{level} · {mode} · load average "
            f"{args.load_before:.1f} before, {os.getloadavg()[0]:.1f} after · other processes used "
            f"{max(others, 0.0) / elapsed:.2f} CPUs on average{waited}")


# --------------------------------------------------------------------------
# The language bindings (--lang, D68): Fortran (mpif.h, use mpi, mpi_f08) and MPI::


LANG_FORTRAN = BENCH_DIR / "lang_bench.F90"
LANG_CXX = BENCH_DIR / "cxx_bench.cc"
LANG_IMPLS = ["mpiattr", "mpich", "openmpi", "mpiattr_mpich", "mpiattr_openmpi"]
FORMS = [("f77", "`mpif.h`"), ("f90", "`use mpi`"), ("f08", "`mpi_f08`")]
# (figure, label, family): the Fortran figures of lang_bench.F90 per form ...
LANG_FORTRAN_FIGURES = [
    ("comm_get_hit", "`MPI_COMM_GET_ATTR` hit", "get"),
    ("comm_set_replace", "`MPI_COMM_SET_ATTR` replace", "set"),
    ("attr_get_hit", "`MPI_ATTR_GET` hit (INTEGER)", "get"),
    ("attr_put_replace", "`MPI_ATTR_PUT` replace (INTEGER)", "set"),
    ("type_get_hit", "`MPI_TYPE_GET_ATTR` hit", "get"),
    ("type_set_replace", "`MPI_TYPE_SET_ATTR` replace", "set"),
    ("win_get_hit", "`MPI_WIN_GET_ATTR` hit", "get"),
    ("win_set_replace", "`MPI_WIN_SET_ATTR` replace", "set"),
]
# ... and cxx_bench.cc's: the C routines measured by the same loop, then MPI::.
LANG_CXX_FIGURES = [
    ("c_comm_get_hit", "C `MPI_Comm_get_attr` hit", "get"),
    ("c_comm_set_replace", "C `MPI_Comm_set_attr` replace", "set"),
    ("cxx_comm_get_hit", "`MPI::Comm::Get_attr` hit", "get"),
    ("cxx_comm_set_replace", "`MPI::Comm::Set_attr` replace", "set"),
    ("cxx_type_get_hit", "`MPI::Datatype::Get_attr` hit", "get"),
    ("cxx_type_set_replace", "`MPI::Datatype::Set_attr` replace", "set"),
    ("cxx_win_get_hit", "`MPI::Win::Get_attr` hit", "get"),
    ("cxx_win_set_replace", "`MPI::Win::Set_attr` replace", "set"),
]
# Targets (D68): against the faster peer's own binding of the same language, as the C figures'
# (get 0.35x, set 0.5x); over a host, against the host alone with its own binding (get 0.5x,
# set 0.7x: the scale targets of D63, the host's f2c and its table being in both).
LANG_TARGETS = {"get": 0.35, "set": 0.5}
LANG_HOST_TARGETS = {"get": 0.5, "set": 0.7}


def lang_figures() -> list[tuple[str, str, str]]:
    """(key, label, family) of every row of the --lang table, in order."""
    out = []
    for form, flabel in FORMS:
        for fig, label, fam in LANG_FORTRAN_FIGURES:
            if form == "f08" and fig.startswith("attr_"):
                continue  # MPI-1 routines: no mpi_f08 form
            out.append((f"{form}_{fig}", f"{flabel} {label}", fam))
    return out + LANG_CXX_FIGURES


def lang_prefix(args) -> tuple[Path | None, str | None]:
    """The mpiattr build or install tree whose wrappers (bin/mpiattr-fort, -cxx, -<host>-fort,
    -<host>-cxx) build the programs: --mpiattr-prefix, or the CMake build of mpiattr_bindings."""
    if args.mpiattr_prefix:
        return Path(args.mpiattr_prefix).resolve(), None
    return cmake_build(args, args.cmake_target or ["mpiattr_bindings"])


def lang_pad_source(out_dir: Path, pad: int) -> Path:
    """An assembler file whose .text is 64 + `pad` bytes aligned to 64: linked before lang_bench.o
    (whose functions are aligned to 16), it moves every Fortran loop by `pad` bytes in the 64-byte
    lines (D92: D86's four placements, without touching the Fortran source)."""
    src = out_dir / f"lang_pad_{pad}.s"
    src.write_text("\t.text\n\t.p2align 6\n\t.globl lang_bench_pad\nlang_bench_pad:\n"
                   f"\t.skip {64 + pad}, 0x90\n\t.section .note.GNU-stack,\"\",@progbits\n")
    return src


def lang_build(args, prefix: Path | None, out_dir: Path, wanted: list[str], pads: list[int]
               ) -> tuple[dict[str, list[Impl]], list[str]]:
    """Builds lang_bench.F90 and cxx_bench.cc for each implementation at each padding of `pads`
    (D92): {name: [fortran, c++]}, each Impl carrying its builds as its layouts. Every
    implementation runs as a singleton (no mpiexec; Open MPI without its orted), D92."""
    built: dict[str, list[Impl]] = {}
    failures: list[str] = []
    for name in wanted:
        host = name.removeprefix("mpiattr_") if name.startswith("mpiattr_") else \
            (name if name in HOSTS else None)
        if name == "mpiattr" or name != host:  # mpiattr's wrappers
            tag = "" if name == "mpiattr" else f"-{host}"
            if prefix is None:
                continue
            fc, cxx = (str(prefix / "bin" / f"mpiattr{tag}-{w}") for w in ("fort", "cxx"))
            if not (Path(fc).exists() and Path(cxx).exists()):
                # (A build without a Fortran compiler, or without that host: nothing to compare.)
                log(f"{LABEL[name]}: no {fc} / {cxx}; n/a")
                continue
        else:
            fc, cxx = shutil.which(f"mpifort.{host}"), shutil.which(f"mpicxx.{host}")
            if fc is None or cxx is None:
                log(f"{LABEL[name]}: mpifort.{host} / mpicxx.{host} not found; n/a")
                continue
        # D92: singletons on both sides of every comparison. MPICH's starts without mpiexec (no
        # hydra processes); Open MPI's without the orted a singleton forks (which inherits the
        # benchmark's vCPU), by ess_singleton_isolated.
        env: dict[str, str] = {}
        if host == "openmpi":
            env = dict(OMPI_ENV, OMPI_MCA_ess_singleton_isolated="1")
            if args.thread_single:
                env["OMPI_MCA_osc"] = "pt2pt,ucx"
        moddir = out_dir / f"mod-{name}"
        moddir.mkdir(parents=True, exist_ok=True)
        fexe, cexe = out_dir / f"lang_bench.{name}", out_dir / f"cxx_bench.{name}"
        fobj = moddir / "lang_bench.o"
        ok = True
        # Fortran: compiled once, linked once per padding after the padding object.
        steps = [[fc, "-O2", f"-J{moddir}", "-c", str(LANG_FORTRAN), "-o", str(fobj)]]
        steps += [[fc, "-O2", str(lang_pad_source(out_dir, pad)), str(fobj), "-o", f"{fexe}.{pad}"]
                  for pad in pads]
        for cmd in steps:
            log(f"{LABEL[name]}: " + " ".join(cmd))
            r = run_cmd(cmd, cwd=moddir)
            if r.returncode != 0:
                log(f"{LABEL[name]}: build failed:\n{r.stdout[-3000:]}{r.stderr[-3000:]}")
                failures.append(f"{LABEL[name]}: {LANG_FORTRAN.name} build failed")
                ok = False
                break
        # C++: ATTR_BENCH_PAD bytes before each timed loop, as attr_bench (D86).
        err = compile_layouts(name, [cxx, *CXXFLAGS, str(LANG_CXX)], cexe, pads)
        if err:
            log(f"{LABEL[name]}: build failed:\n{err}")
            failures.append(f"{LABEL[name]}: {LANG_CXX.name} build failed")
            ok = False
        if ok:
            flays = [Path(f"{fexe}.{p}") for p in pads]
            clays = [Path(f"{cexe}.{p}") for p in pads]
            built[name] = [Impl(name, flays[0], [], env, flays), Impl(name, clays[0], [], env, clays)]
    return built, failures


def lang_run(args, built: dict[str, list[Impl]], quick: bool) -> tuple[dict[str, dict[str, list[float]]], list[str]]:
    """Runs each implementation's two programs in turns (quick: once, tiny counts). As attr_bench's
    groups (D86, D92): a turn runs one process of each implementation, in rotation, all pinned to
    one vCPU; turn r on vCPU r mod #vCPUs at the placement floor(r / #vCPUs) mod #placements; each
    figure the fastest of --batches batches of at least --min-time s by the thread's CPU time."""
    order = [n for n in LANG_IMPLS if n in built]
    raw: dict[str, dict[str, list[float]]] = {n: {} for n in order}
    failures: list[str] = []
    level = (["quick"] if quick else [f"batches={args.batches}", f"mintime={args.min_time}"]) + \
        ([] if args.thread_single else ["multiple"])
    reps = 1 if quick else args.repetitions
    ncpu = max(1, len(args.cpus))
    for rep in range(reps):
        rot = order[rep % len(order):] + order[:rep % len(order)] if order else []
        for name in rot:
            for prog in built[name]:
                impl = prog.at(rep // ncpu)
                log(f"[lang] rep {rep + 1}/{reps}: {LABEL[name]} {impl.binary.name}"
                    f"  ({time.monotonic() - args.t_start:.0f} s)")
                pin = ["taskset", "-c", str(args.cpus[rep % ncpu])] \
                    if args.cpus and not quick else None  # D86
                try:
                    if args.wait_idle:
                        args.waited += wait_idle(args.wait_idle)
                    res = parse_results(execute(impl, level, timeout=300, wrapper=pin))
                except RunError as e:
                    log(f"{LABEL[name]}: {impl.binary.name} failed: {e}")
                    failures.append(f"{LABEL[name]}: {impl.binary.name} run")
                    continue
                for k, v in res.items():
                    raw[name].setdefault(k, []).append(float(v))
                    STRATA.setdefault(name, {}).setdefault(k, []).append(
                        int(pin[-1]) if pin else -1)
    return raw, failures


def make_lang_table(fig: dict[str, dict[str, float]]) -> tuple[str, int, int]:
    """Standalone against the peers' own bindings of the language, then each host with mpiattr's
    library in front against the host alone (the same build as the peer column)."""
    lines = ["| figure | mpiattr | MPICH | Open MPI | mpiattr / faster peer | target | met? "
             "| over MPICH | / MPICH | over Open MPI | / Open MPI | host target | met? MPICH | met? Open MPI |",
             "|---|---:|---:|---:|---:|---|---|---:|---:|---:|---:|---|---|---|"]
    met = total = 0

    def verdict(mine, base, x):
        nonlocal met, total
        if mine is None or base is None:
            return "n/a"
        total += 1
        ok = mine <= x * base
        met += ok
        return "yes" if ok else "**NO**"

    for key, label, fam in lang_figures():
        v = {n: fig.get(n, {}).get(key) for n in LANG_IMPLS}
        peers = [v[p] for p in PEERS if v[p] is not None]
        best = min(peers) if peers else None
        faster = next((p for p in PEERS if v[p] is not None and v[p] == best), PEERS[0])
        ratio = "n/a" if v["mpiattr"] is None or not best else \
            ratio_text("mpiattr", faster, key, v["mpiattr"], best)
        cells = [label, *(fmt(v[n], "time") for n in ("mpiattr", "mpich", "openmpi")), ratio,
                 f"≤ {LANG_TARGETS[fam]:g}× faster peer", verdict(v["mpiattr"], best, LANG_TARGETS[fam])]
        hv = []
        for h in HOSTS:
            mine, alone = v[over(h)], v[h]
            cells += [fmt(mine, "time"), "n/a" if mine is None or not alone else
                      ratio_text(over(h), h, key, mine, alone)]
            hv.append(verdict(mine, alone, LANG_HOST_TARGETS[fam]))
        cells += [f"≤ {LANG_HOST_TARGETS[fam]:g}× host alone", *hv]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines), met, total


def lang_smoke(args, out_dir: Path) -> tuple[list[str], list[str]]:
    """--quick (CI): builds the Fortran and MPI:: programs for mpiattr standalone and over each host
    and runs each once with tiny counts; lines for the report, and failures. (Not the peers alone,
    to keep CI's stage short: their builds compile the same sources with the same host compilers,
    and `--lang --quick` runs them too.)"""
    prefix, err = lang_prefix(args)
    if err:
        return [f"  lang: {err}"], ["mpiattr (lang): build failed"]
    built, failures = lang_build(args, prefix, out_dir, [n for n in LANG_IMPLS if n.startswith("mpiattr")],
                                 list(LAYOUT_PADS[:1]))
    raw, fails = lang_run(args, built, quick=True)
    failures += fails
    lines = []
    for n in built:
        got = len(raw.get(n, {}))
        lines.append(f"  {LABEL[n]} (Fortran, MPI::): ran, {got} figures reported")
        if got < len(lang_figures()):
            failures.append(f"{LABEL[n]} (lang): {got} figures of {len(lang_figures())}")
    return lines, failures


def lang_main(args, out_dir: Path) -> int:
    """--lang: the Fortran and MPI:: figures, standalone and over the hosts (D68)."""
    wanted = [s.strip() for s in (args.only or ",".join(LANG_IMPLS)).split(",") if s.strip()]
    bad = [w for w in wanted if w not in LANG_IMPLS]
    if bad:
        log(f"unknown implementation(s) for --lang: {', '.join(bad)} (known: {', '.join(LANG_IMPLS)})")
        return 2
    need_mpiattr = any(w.startswith("mpiattr") for w in wanted)
    prefix, err = lang_prefix(args) if need_mpiattr else (None, None)
    failures = [f"mpiattr: {err}"] if err else []
    built, fails = lang_build(args, prefix, out_dir, wanted,
                              list(LAYOUT_PADS[:1 if args.quick else args.layouts]))
    failures += fails
    if not built:
        log("nothing to run")
        return 1
    if args.quick:
        raw, fails = lang_run(args, built, quick=True)
        failures += fails
        report = "lang_bench / cxx_bench --quick: smoke test, timings not measured.\n" + "".join(
            f"  {LABEL[n]}: ran, {len(raw[n])} figures reported\n" for n in raw)
    else:
        raw, fails = lang_run(args, built, quick=False)
        failures += fails
        fig = {n: {k: figure_of(k, v) for k, v in raw[n].items()} for n in raw}
        RAW.update(raw)
        table, met, total = make_lang_table(fig)
        header = f"lang_bench + cxx_bench (--lang): {machine_info(built, args)}"
        report = (f"{header}\n\n{table}\n\ntargets met: {met}/{total} (time; instructions: "
                  f"bench/icount.py)\n")
        if args.json:
            Path(args.json).write_text(json.dumps({"info": header, "runs": raw, "vcpu": STRATA, "median": fig, "median_is": FIGURE_OF}, indent=1))
    print(report)
    if failures:
        print("failures: " + "; ".join(failures))
    if args.out:
        Path(args.out).write_text(report)
    log(f"total time {time.monotonic() - args.t_start:.0f} s")
    if failures:
        return 1
    return 1 if args.strict and not args.quick and met < total else 0


# --------------------------------------------------------------------------
# Main


def group_repetitions(gname: str, impl: str, reps: int) -> int:
    """Processes of `impl` for the group `gname`: -r, FINALIZE_PER_REP x -r for MPI_Finalize (one
    figure per process), and -r except where the peers' (and the hosts
    alone's) figures are thousands of times mpiattr's, so their spread cannot move a verdict, and
    each of their processes costs seconds: n = 65536 (MPICH sets 65536 attributes in about 7 s)
    and memory (1000 x 1000 attributes): at most 3 there. D79."""
    if gname.startswith("finalize"):  # one figure per process, from the wall clock
        return FINALIZE_PER_REP * reps
    if not impl.startswith("mpiattr") and (gname.endswith("n=65536") or gname == "memory"):
        return min(reps, 3)
    return reps


def groups(host: bool = False) -> list[tuple[str, list[str], str | None]]:
    """(name, extra binary args, benchmark filter) - one process each."""
    g: list[tuple[str, list[str], str | None]] = []
    if host:
        g.append(("no attribute, one process", ["--front"], r"^[a-z_]+_front/0$"))
        for k in FINALIZE_KS:
            g.append((f"finalize k={k}", ["--finalize", str(k)], None))
    for n in NS:
        g.append((f"comm n={n}", [], rf"^(comm_dup_free/0|comm_[a-z_]+/{n})$"))
    for n in NS:
        g.append((f"type n={n}", [], rf"^(type_dup_free/0|type_[a-z_]+/{n})$"))
    g.append(("win", [], r"^win_get_hit/"))
    if not host:
        g.append(("datatypes", [], r"^type_[a-z_]+_free$"))
    g.append(("keyval", [], r"^keyval_create_free$"))
    g.append(("memory", ["--mem"], None))
    g.append(("threads", ["--threads"], None))
    return g


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", default=str(REPO / "build-bench"),
                    help="CMake build dir for mpiattr; the benchmark binaries go to <dir>/attr_bench "
                         "(default: %(default)s)")
    ap.add_argument("--only",
                    help="comma-separated subset of mpiattr,mpich,openmpi (with --host: of the hosts "
                         "mpich,openmpi) (default: all available)")
    ap.add_argument("--host", action="store_true",
                    help="host mode: each host MPI alone against the same host with mpiattr's host "
                         "library (libmpiattr_mpich / libmpiattr_openmpi) linked in front of it")
    ap.add_argument("--lang", action="store_true",
                    help="the language bindings (D68): Fortran (mpif.h, use mpi, mpi_f08) and MPI:: "
                         "get and set, mpiattr standalone against MPICH's and Open MPI's own bindings, "
                         "and over each host against the host alone (lang_bench.F90, cxx_bench.cc)")
    ap.add_argument("--quick", action="store_true",
                    help="CI smoke test: tiny counts, one run each, no callgrind; exit 0 unless a run fails")
    ap.add_argument("--callgrind", action="store_true", help="add instruction counts (valgrind)")
    ap.add_argument("-r", "--repetitions", type=int, default=None,
                    help="processes per figure and implementation, interleaved (A B C A B C ...); "
                         "the figure is their lower quartile (default: 7 rounded up to a multiple of --layouts x "
                         "the vCPUs, i.e. 8, --lang too since D92). D79, D86")
    ap.add_argument("--min-time", type=float, default=0.02,
                    help="Google Benchmark min time per batch, seconds (--lang: its programs' own, D92; "
                         "default: %(default)s)")
    ap.add_argument("--batches", type=int, default=5,
                    help="timed batches per figure in one process (Google Benchmark repetitions); "
                         "the process's figure is their minimum (default: %(default)s)")
    ap.add_argument("--timer", choices=["cpu", "real"], default="cpu",
                    help="what the single-threaded figures are timed by: the benchmark thread's CPU "
                         "time (default: time preempted by other processes not counted) or the wall "
                         "clock (the method before D79)")
    ap.add_argument("--batch-stat", choices=["min", "median"], default="min",
                    help="a process's figure from its batches (default: %(default)s)")
    ap.add_argument("--aa", metavar="IMPL",
                    help="A/A check of the method: run implementation IMPL (mpiattr, mpich, openmpi; "
                         "with --host: mpich, mpiattr_mpich, openmpi, mpiattr_openmpi) against itself, "
                         "as two interleaved sides, and report each figure's ratio and its spread "
                         "(D79)")
    ap.add_argument("--layouts", type=int, default=len(LAYOUT_PADS), choices=range(1, len(LAYOUT_PADS) + 1),
                    metavar="K",
                    help="placements of the timed loops: each implementation's benchmark is built "
                         f"with the first K paddings of {LAYOUT_PADS} bytes, rotated over its "
                         "processes (default: %(default)s; 1: one placement, as before D86)")
    ap.add_argument("--no-pin", dest="pin", action="store_false",
                    help="do not pin the processes: by default each process of a single-threaded "
                         "group runs on one vCPU (taskset), every implementation's process of a turn "
                         "on the same one, the turns cycling over the vCPUs (D86)")
    ap.add_argument("--level", choices=["single", "multiple"], default="single",
                    help="thread level the single-threaded figures are measured at (default: "
                         "%(default)s, where the peers take no locks: the issue's baseline figures); "
                         "the two-thread figures always use MPI_THREAD_MULTIPLE")
    ap.add_argument("--mpiattr-prefix", help="use an existing mpiattr build/install tree (include/mpi.h, "
                                             "lib/libmpiattr.*) instead of building with CMake")
    ap.add_argument("--cmake-arg", action="append", default=[], help="extra argument for cmake configure")
    ap.add_argument("--cmake-target", action="append", default=[],
                    help="CMake target to build (repeatable; default: mpiattr, the library; with --host: "
                         "mpiattr_mpich and mpiattr_openmpi)")
    ap.add_argument("--groups", metavar="REGEX",
                    help="run only the groups of figures (one process each, e.g. 'comm n=16', "
                         "'no attribute, one process', 'finalize k=0') whose name matches REGEX")
    ap.add_argument("--out", help="also write the Markdown report to this file")
    ap.add_argument("--json", help="also write all raw per-run figures to this JSON file")
    ap.add_argument("--strict", action="store_true", help="exit 1 if a target is missed (full mode)")
    ap.add_argument("--wait-idle", type=float, default=0, metavar="S",
                    help="before each run, wait up to S seconds until other processes use < 0.15 CPU, "
                         "and repeat (up to 3 times) a run during which they used more (default: 0, "
                         "do neither)")
    args = ap.parse_args()
    args.thread_single = args.level == "single"
    args.cpus = sorted(os.sched_getaffinity(0)) if args.pin and shutil.which("taskset") else []
    if args.pin and not args.cpus:
        log("taskset not found; the processes are not pinned")
    if args.repetitions is None:  # D86: every (vCPU, placement) the same number of times
        cycle = max(1, len(args.cpus)) * args.layouts  # --lang too since D92
        args.repetitions = -(-7 // cycle) * cycle

    known = HOSTS if args.host else LANG_IMPLS if args.lang else IMPLS
    wanted = [s.strip() for s in (args.only or ",".join(known)).split(",") if s.strip()]
    bad = [w for w in wanted if w not in known]
    if bad:
        ap.error(f"unknown {'host' if args.host else 'implementation'}(s): {', '.join(bad)}")
    if args.aa:  # build only what the A/A check runs
        aa_known = [i for h in HOSTS for i in (h, over(h))] if args.host else IMPLS
        if args.lang or args.quick or args.aa not in aa_known:
            ap.error(f"--aa takes one of {', '.join(aa_known)}, without --lang or --quick")
        wanted = [args.aa.removeprefix("mpiattr_")] if args.host else [args.aa]
    t_start = args.t_start = time.monotonic()
    args.load_before = os.getloadavg()[0]
    args.busy_before, args.own_before, args.waited, args.repeated = busy_seconds(), own_seconds(), 0.0, 0
    if args.load_before > 0.25 * (os.cpu_count() or 1) and not args.quick:
        log(f"warning: load average is {args.load_before:.1f} on {os.cpu_count()} CPUs; "
            "other work on the machine will distort the figures")
    build_dir = Path(args.build_dir).resolve()
    out_dir = build_dir / "attr_bench"
    out_dir.mkdir(parents=True, exist_ok=True)
    if args.lang:
        if args.host:
            ap.error("--lang covers the hosts already (mpiattr over MPICH, over Open MPI)")
        return lang_main(args, out_dir)

    failures: list[str] = []
    impls: dict[str, Impl] = {}
    thread_args = ["--thread-single"] if args.thread_single else []
    # D86: the placements of the timed loops (one for the smoke test: it times nothing)
    pads = list(LAYOUT_PADS[:1 if args.quick else args.layouts])
    if args.host:
        hosts = [h for h in HOSTS if h in wanted and shutil.which(f"mpicxx.{h}")]
        for h in wanted:
            if h not in hosts:
                log(f"{LABEL[h]}: mpicxx.{h} not found (libmpich-dev / libopenmpi-dev missing); n/a")
        libs, err = host_libraries(args, hosts) if hosts else ({}, None)
        if err:
            log(f"mpiattr host libraries: {err}")
            failures.append("mpiattr host libraries: build failed")
        for h in hosts:
            for lib in [None] + ([libs[h]] if h in libs else []):
                name = over(h) if lib else h
                impl, err = build_peer(h, out_dir, args.thread_single, host_lib=lib, pads=pads)
                if err:
                    log(f"{LABEL[name]}: {err}")
                    failures.append(f"{LABEL[name]}: build failed")
                    continue
                with tempfile.TemporaryDirectory(prefix="attr_bench-ld-") as td:
                    try:
                        check_bindings(impl, h, lib is not None, Path(td), thread_args)
                    except (RunError, OSError) as e:
                        log(f"{LABEL[name]}: {e}")
                        failures.append(f"{LABEL[name]}: binding check")
                        continue
                impls[name] = impl
            if h not in libs:
                log(f"{LABEL[over(h)]}: no host library; n/a")
        host_order = [i for h in hosts for i in (h, over(h))]
    else:
        hosts, host_order, libs = [], [], {}
        for name in wanted:
            impl, err = build_mpiattr(args, out_dir, pads) if name == "mpiattr" else \
                build_peer(name, out_dir, args.thread_single, pads=pads)
            if err:
                log(f"{LABEL[name]}: {err}")
                failures.append(f"{LABEL[name]}: build failed")
            if impl:
                impls[name] = impl
    if not impls:
        log("nothing to run")
        return 1 if failures else 0

    order = [i for i in (host_order if args.host else IMPLS) if i in impls]
    if args.aa:  # the A/A check: the same binary on both sides, B a second name for it
        if args.aa not in impls:
            log(f"{args.aa}: not built; no A/A check")
            return 1
        a = impls[args.aa]
        b_name = f"{args.aa}_b"
        LABEL[b_name] = f"{LABEL[args.aa]} (B)"
        # D86: B is the same source and library built with its loops AA_SHIFT bytes further
        b_pads = [p + AA_SHIFT for p in pads]
        if args.aa == "mpiattr":
            b, err = build_mpiattr(args, out_dir, b_pads, impl_name=b_name)
        else:
            h = args.aa.removeprefix("mpiattr_")
            b, err = build_peer(h, out_dir, args.thread_single,
                                host_lib=libs.get(h) if args.aa != h else None, pads=b_pads, tag="_b")
        if err or b is None:
            log(f"{LABEL[b_name]}: {err}")
            return 1
        impls = {args.aa: a, b_name: Impl(b_name, b.binary, b.launcher, b.env, b.layouts)}
        order = [args.aa, b_name]
    raw: dict[str, dict[str, list[float]]] = {i: {} for i in order}

    def record(impl: str, figs: dict[str, float], cpu: int = -1) -> None:
        for k, v in figs.items():
            raw[impl].setdefault(k, []).append(v)
            STRATA.setdefault(impl, {}).setdefault(k, []).append(cpu)

    def attempt(name: str, what: str, fn) -> None:
        try:
            fn()
        except (RunError, OSError, ValueError, KeyError) as e:
            log(f"{LABEL[name]}: {what} failed: {e}")
            failures.append(f"{LABEL[name]}: {what}")

    with tempfile.TemporaryDirectory(prefix="attr_bench-") as tmpd:
        tmp = Path(tmpd)
        if args.quick:
            # One process per implementation runs every mode.  The peers (and the
            # hosts alone) skip n = 65536 (MPICH needs ~10 s per object to set that many).
            for name in order:
                impl = impls[name]
                filt = None if name.startswith("mpiattr") else \
                    r"^(keyval_create_free|type_[a-z_]+_free|[a-z_]+/(0|1|16|256|4096))$"
                log(f"[quick] {LABEL[name]}")

                def one(impl=impl, filt=filt, name=name):
                    times, res = run_gbench(impl, thread_args + ["--quick", "--mem", "--threads"], filt,
                                            None, tmp, timeout=300)
                    record(name, derive(times))
                    record(name, extra_figures(res))
                attempt(name, "quick run", one)
        else:
            for gname, extra, filt in groups(args.host):
                if args.groups and not re.search(args.groups, gname):
                    continue
                reps = max(group_repetitions(gname, n, args.repetitions) for n in order)
                for rep in range(reps):
                    rot = order[rep % len(order):] + order[:rep % len(order)]
                    for name in [n for n in rot if rep < group_repetitions(gname, n, args.repetitions)]:
                        # D86: this turn's vCPU and placement, the same for every implementation
                        cpu = args.cpus[rep % len(args.cpus)] if args.cpus else None
                        impl = impls[name].at(rep // max(1, len(args.cpus)))
                        pin = None if cpu is None or gname == "threads" else ["taskset", "-c", str(cpu)]
                        log(f"[{gname}] rep {rep + 1}/{reps}: {LABEL[name]}"
                            + (f" on vCPU {cpu}" if pin else "") + f", {impl.binary.name}"
                            f"  ({time.monotonic() - t_start:.0f} s)")

                        def measure(impl=impl, extra=extra, filt=filt, gname=gname,
                                    pin=pin) -> dict[str, float]:
                            if filt is None:
                                level = [] if gname == "threads" else thread_args
                                return extra_figures(parse_results(
                                    execute(impl, level + extra, timeout=900, wrapper=pin)))
                            if "--front" in extra:  # D79: one run of 0.25 s, as before: these
                                # ratios alternate both sides inside the run (D69, D74)
                                times, _ = run_gbench(impl, thread_args + extra, filt, 0.25, tmp,
                                                      timeout=900, timer=args.timer, wrapper=pin)
                                return derive(times)
                            times, _ = run_gbench(impl, thread_args + extra, filt, args.min_time, tmp,
                                                  timeout=900, batches=args.batches, timer=args.timer,
                                                  stat=args.batch_stat, wrapper=pin)
                            return derive(times)

                        def one(measure=measure, name=name, cpu=-1 if pin is None else cpu) -> None:
                            # --wait-idle: start on an idle machine, and repeat (at most 3 times)
                            # a run during which other processes were busy.
                            for tries in range(4):
                                if args.wait_idle:
                                    args.waited += wait_idle(args.wait_idle)
                                b, o, t = busy_seconds(), own_seconds(), time.monotonic()
                                figs = measure()
                                other = ((busy_seconds() - b) - (own_seconds() - o)) / \
                                    max(time.monotonic() - t, 1e-3)
                                if not args.wait_idle or other < 0.15 or tries == 3:
                                    break
                                args.repeated += 1
                                log(f"  other processes used {other:.2f} CPUs during the run; repeating it")
                            record(name, figs, cpu)
                        attempt(name, gname, one)
            if args.callgrind:
                for name in order:
                    log(f"[callgrind] {LABEL[name]}  ({time.monotonic() - t_start:.0f} s)")

                    def one(impl=impls[name], name=name):
                        record(name, run_callgrind(impl, tmp, thread_args))
                    attempt(name, "callgrind", one)

    fig = {i: {k: figure_of(k, v) for k, v in raw[i].items()} for i in order}
    RAW.update(raw)
    if args.quick:
        # A smoke test: tiny counts, one run, on a machine doing other work. Its figures say nothing
        # (some come out negative once the loop's own cost is subtracted), so none is printed and
        # no target is judged; only that each implementation built, ran and reported.
        lines = [f"attr_bench --quick{' --host' if args.host else ''}: smoke test. Each "
                 "implementation was built and run once with tiny counts; timings are not "
                 "measured and no target is judged (run without --quick for figures)."]
        for i in order:
            n = len(fig[i])
            lines.append(f"  {LABEL[i]}: ran, {n} figures reported" if n else
                         f"  {LABEL[i]}: reported no figures")
            if not n:
                failures.append(f"{LABEL[i]}: quick run reported nothing")
        if not args.host and not args.only:
            # The Fortran and MPI:: programs (--lang, D68): built and run once each, so that CI
            # keeps them building against every implementation.
            more, fails = lang_smoke(args, out_dir)
            lines += more
            failures += [f if f.startswith("mpiattr") else f"(peer) {f}" for f in fails]
        report = "\n".join(lines) + "\n"
        header = lines[0]
    elif args.aa:
        table, summary = make_aa_table(fig, order, args.host)
        header = f"attr_bench --aa {args.aa}{' --host' if args.host else ''}: {machine_info(impls, args)}"
    elif args.host:
        table, met, total = make_host_table(fig, hosts, args.callgrind and not args.quick)
        header = f"attr_bench --host: {machine_info(impls, args)}"
        summary = f"targets met: {met}/{total} (ratio: mpiattr over the host / the host alone)"
    else:
        table, met, total = make_table(fig, args.callgrind and not args.quick)
        header = f"attr_bench: {machine_info(impls, args)}"
        summary = f"targets met: {met}/{total}" + ("" if "mpiattr" in impls else " (mpiattr not built)")
    if not args.quick:
        report = f"{header}\n\n{table}\n\n{summary}\n"
    print(report)
    if failures:
        print("failures: " + "; ".join(failures))
    log(f"total time {time.monotonic() - t_start:.0f} s")
    if args.out:
        Path(args.out).write_text(report)
    if args.json:
        Path(args.json).write_text(json.dumps({"info": header, "runs": raw, "vcpu": STRATA, "median": fig, "median_is": FIGURE_OF}, indent=1))

    if args.aa:
        return 1 if failures else 0
    if args.host:  # the hosts alone are the baseline: every build and run counts
        if failures:
            return 1
        return 1 if args.strict and not args.quick and met < total else 0
    mpiattr_failed = any(f.startswith("mpiattr") for f in failures)
    if args.quick:
        return 1 if mpiattr_failed else 0
    if mpiattr_failed:
        return 1
    if args.strict and met < total:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
