#!/usr/bin/env python3
"""Host-mode runner: build one tests/host program against a host MPI, run it on N ranks, judge it.

    hostrun.py --host mpich|openmpi --mode alone|linked|preload|wrapper --src prog.{c,f90,F90,cc}
    hostrun.py --host mpiattr --mode standalone --bindir build/bin --src ... (one process)
               --workdir DIR [--extra-src FILE ...] [--lib /path/libmpiattr_<host>.so]
               [--wrapper mpiattr-<host>-cc] [--np 4] [--divergences divergences.toml]
               [--facts-from DIR] [--timeout 120] [--launch-lock FILE] [--cache-dir DIR]

Languages, by the suffix of --src: `.c` is built with the host's C wrapper (mpicc.<host>), `.f90`
and `.F90` with its Fortran wrapper (mpifort.<host>), `.cc` with its C++ wrapper (mpicxx.<host>).
Each --extra-src (repeatable; `.c`, `.f90`, `.F90`, `.cc`) is first compiled on its own with its
language's wrapper (`-c`), in the order given, so a Fortran module it defines (the harness
fortran/fhost_check.f90) is there when the program is compiled; the objects are linked into the
program by --src's wrapper. Fortran modules go to a directory of the run's own. Every compile gets
`-I` for the source's directory and for tests/host/c (host_check.h, which also compiles as C++).
In wrapper mode --src is built with the mpiattr wrapper given (mpiattr-<host>-cc, -fort, or -cxx,
which builds a C++ program on mpiattr's own MPI:: classes over the host); extra sources are still
compiled with the host's wrappers.

Modes:
  alone    the host MPI by itself (plain wrapper build). Exactly the checks that
           divergences.toml lists for this host and program must FAIL, every other check
           must be ok: a host that starts passing a listed check fails the run, so the file is
           kept up to date. The run's FACT lines are written to DIR/facts.json.
  (linked and preload: every check must be ok, except exactly the [[limitation]] entries of
  divergences.toml for this host and program: what mpiattr over that host cannot detect.)
  linked   built with `-L<libdir> -Wl,-rpath,<libdir> -l<lib>` before the host's libraries
           (the wrapper appends those after the user's arguments). Every check must be ok.
  wrapper  built with mpiattr's wrapper for the host (--wrapper build/bin/mpiattr-<host>-cc),
           which adds the library itself; judged as linked.
  preload  built plainly (with --facts-from, a copy of the alone run's executable when it is
           newer than the sources and the harness), run with LD_PRELOAD=<lib> given to the ranks
           through the launcher (`mpiexec.mpich -genv LD_PRELOAD <lib>`,
           `mpiexec.openmpi -x LD_PRELOAD=<lib>`), so the launcher itself does not load it.
           Every check must be ok.

  standalone
           no host at all: --host mpiattr, built with standalone mpiattr's own wrappers
           (--bindir: mpiattr-cc, -fort, -cxx) and run by its launcher, mpiattr-run, on one
           process. The programs are standard MPI written for MPICH and Open MPI, so this shows
           they build unchanged against mpiattr; every check must be ok but the [[limitation]]
           entries for host "mpiattr", and the caching routines must come from libmpiattr.

Proof that the library was (or was not) in front of the host: the runner passes
HOSTCHECK_PROVIDER=<library name> (linked, preload) or HOSTCHECK_NOT_PROVIDER=libmpiattr (alone)
to the ranks; the harness (c/host_check.h, report(); for Fortran fortran/fhost_check.f90 with
fortran/fhost_provider.c) resolves every caching routine under the link names the program's calls
use (the C names; `mpi_x_` for mpif.h and `use mpi`; `mpi_x_f08_` for `use mpi_f08`) with
dlsym(RTLD_DEFAULT) + dladdr, i.e. the definition the program's own calls bind to, and records
the check `harness_caching_routines_provider`. The runner requires that check to be present and
ok in every mode, so a preload that did not take (wrong path, a launcher that drops the variable,
a setuid loader ignoring it) or a link order that lets the host's definitions win fails the run.

Facts: with --facts-from DIR (the alone run's workdir), the FACT lines of a linked or preload run
must equal those of the alone run (DIR/facts.json): the library must answer what the host would
(predefined attribute values, thread level, ...). INFO lines are only shown.

Output format of the programs (c/host_check.h, fortran/fhost_check.f90): `CHECK <name>: ok`,
`CHECK <name>: FAIL (ranks r1,r2)`, `FACT <name>: <value>`, `INFO <name>: <value>`,
`HOSTCHECK DONE ranks=<n> checks=<c>` (rank 0, from report()), and per rank after MPI_Finalize
`HOSTCHECK LOCAL rank=<r> checks=<c>` after its own CHECK lines (local_report()); those are merged
over the ranks.

Sharing the machine (--launch-lock FILE): the run under mpiexec holds an exclusive flock on FILE,
so that of the tests that name the same file only one runs its 4 ranks at a time (MPICH busy-polls:
two such runs on 2 cores take turns at every collective), while their compiles, and other tests,
go on beside it. The wait for the lock is printed. With HOSTRUN_MPICH_YIELD set (the test files
do), MPICH's ranks also get mpich_progress_yield.c's shim preloaded, beside mpiattr's library in
preload mode: a rank whose poll found nothing yields its core (4x faster on 2 cores).

Compiling once (--cache-dir DIR, hosts mpich and openmpi only): what the host's own wrappers compile
(`-c`) is kept in DIR under a key of everything that goes into the object: the command line, the
source, every file of the directories it is given with -I (its own and tests/host/c), the
objects and modules compiled before it (--extra-src, in order), the wrapper's `-show` and the
wrapper and compiler files themselves (path, size, mtime). A compile whose key is there is not
run again; its object, its Fortran modules and its messages are taken from DIR. So the Fortran
harness is compiled once per host, and a program once for its alone and linked runs, which link
that one object each their own way (linked: with the library before the host's). Wrapper mode
still compiles the program with mpiattr's wrapper, and standalone mode uses no cache (their
headers belong to the build).

Exit status: 0 pass, 1 fail, 77 skip (the host's compiler wrapper or launcher is missing).
"""
from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

SKIP = 77
BUILD_TIMEOUT = 120  # seconds
CFLAGS = ("-Wall", "-Wno-deprecated-declarations", "-pthread")
# -Wall -Wno-unused-dummy-argument: callbacks need not use every dummy argument.
FFLAGS = ("-Wall", "-Wno-unused-dummy-argument", "-fcheck=bounds")
CXXFLAGS = ("-Wall",)
HERE = Path(__file__).resolve().parent
HARNESS_INCLUDE = HERE / "c"  # host_check.h
NOT_PROVIDER = "libmpiattr"  # no file of this name may answer the caching calls in alone mode
PROVIDER_CHECK = "harness_caching_routines_provider"


@dataclass(frozen=True)
class Host:
    name: str
    compiler: str  # the C wrapper
    launcher: str
    launcher_args: tuple[str, ...]  # before -n
    env: dict[str, str]  # for the launcher (Open MPI's mpiexec hands OMPI_MCA_* to the ranks)

    def wrapper_for(self, lang: str) -> str:
        """The host's compiler wrapper for a language ("c", "fortran", "cxx")."""
        if self.name == "mpiattr":  # standalone mpiattr: mpiattr-cc, -fort, -cxx beside the launcher
            d = Path(self.launcher).parent
            return str(d / {"c": "mpiattr-cc", "fortran": "mpiattr-fort", "cxx": "mpiattr-cxx"}[lang])
        return {"c": self.compiler, "fortran": f"mpifort.{self.name}",
                "cxx": f"mpicxx.{self.name}"}[lang]

    def env_args(self, key: str, value: str) -> list[str]:
        """Launcher arguments that give the ranks (not the launcher) KEY=VALUE."""
        if self.name == "mpich":
            return ["-genv", key, value]
        return ["-x", f"{key}={value}"]


# What every Open MPI launch of the tests names so that its ranks start faster without changing
# what they run (D80): the pml Open MPI would select here anyway (see HOSTS).
OPENMPI_FAST_START = {"OMPI_MCA_pml": "ob1"}

HOSTS = {
    "mpich": Host("mpich", "mpicc.mpich", "mpiexec.mpich", (), {}),
    # Open MPI 4.1 refuses root without the two ALLOW variables. osc=pt2pt: windows work over
    # point-to-point here (no RDMA network); note that osc/pt2pt refuses MPI_Win_* in a process
    # initialised with MPI_THREAD_MULTIPLE, so the window program uses MPI_Init. btl=self,vader:
    # shared memory only, no network probing. pml=ob1: the point-to-point layer Open MPI selects
    # here anyway (Debian's openmpi-mca-params.conf excludes ucx, and cm's MTLs, psm and psm2, find
    # no hardware), named so that each rank does not open and probe cm and its MTLs first: a
    # quarter of a 4-rank launch (OPENMPI_FAST_START, D80). Oversubscribe: 4 ranks on 2 cores.
    "openmpi": Host(
        "openmpi", "mpicc.openmpi", "mpiexec.openmpi", ("--oversubscribe",),
        {
            "OMPI_ALLOW_RUN_AS_ROOT": "1",
            "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
            "OMPI_MCA_osc": "pt2pt",
            "OMPI_MCA_btl": "self,vader",
            **OPENMPI_FAST_START,
            "OMPI_MCA_rmaps_base_oversubscribe": "1",
        },
    ),
}

# source suffix -> language, and the flags each language is compiled with
LANGS = {".c": "c", ".f90": "fortran", ".F90": "fortran", ".cc": "cxx"}
LANG_FLAGS = {"c": CFLAGS, "fortran": FFLAGS, "cxx": CXXFLAGS}


def language(src: Path) -> str | None:
    return LANGS.get(src.suffix)


CHECK_RE = re.compile(r"^CHECK (\S+): (ok|FAIL(?: \(ranks ([0-9,\-]*)\))?)\s*$")
VALUE_RE = re.compile(r"^(FACT|INFO) (\S+): (.*?)\s*$")
DONE_RE = re.compile(r"^HOSTCHECK DONE ranks=(\d+) checks=(\d+)\s*$")
LOCAL_RE = re.compile(r"^HOSTCHECK LOCAL rank=(-?\d+) checks=(\d+)\s*$")


class RunError(Exception):
    """A build or run failed; the message says which and shows its output."""


# ---------------------------------------------------------------- divergences.toml

@dataclass(frozen=True)
class Divergence:
    host: str
    program: str
    check: str
    standard: str
    reason: str


def load_divergences(path: Path | None, table: str = "divergence") -> list[Divergence]:
    """The [[divergence]] entries (the host alone) or the [[limitation]] entries (mpiattr over the
    host, linked or preloaded: what it cannot do better than the host it sits on; host "mpiattr":
    standalone mpiattr, what one process cannot show)."""
    if path is None:
        return []
    with open(path, "rb") as f:
        data = tomllib.load(f)
    unknown_top = set(data) - {"divergence", "limitation"}
    if unknown_top:
        raise SystemExit(f"{path}: unknown top-level keys {sorted(unknown_top)}")
    allowed = {"host", "program", "check", "standard", "reason"}
    out, seen = [], set()
    for i, entry in enumerate(data.get(table, [])):
        where = f"{path}: {table} #{i + 1}"
        extra, missing = set(entry) - allowed, allowed - set(entry)
        if extra or missing:
            raise SystemExit(f"{where}: unknown keys {sorted(extra)}, missing keys {sorted(missing)}")
        if entry["host"] not in HOSTS and not (table == "limitation" and entry["host"] == "mpiattr"):
            raise SystemExit(f"{where}: unknown host {entry['host']!r}")
        d = Divergence(**{k: str(entry[k]) for k in allowed})
        key = (d.host, d.program, d.check)
        if key in seen:
            raise SystemExit(f"{where}: listed twice: {key}")
        seen.add(key)
        out.append(d)
    return out


# ---------------------------------------------------------------- build and run

# A run that times out shows where each of its processes was (D106): the stacks of every thread,
# by gdb, before the run is killed. The launchers' own processes are left out.
LAUNCHER_COMMS = ("mpiexec", "mpirun", "orterun", "orted", "prterun", "prted", "hydra_pmi_proxy")
STACK_TIMEOUT = 20.0  # seconds for gdb on one process
STACK_BUDGET = 45.0  # seconds for all of them: the report must come before ctest's own timeout
STACK_PROCESSES = 8  # at most this many processes are shown
STACK_LINES = 120  # lines per process at most


def process_tree(root: int) -> list[int]:
    """root and every process descended from it that is alive now (from /proc)."""
    children: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()  # after "pid (comm) ": state, ppid, ...
        children.setdefault(int(fields[1]), []).append(int(d.name))
    tree, todo = [], [root]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo.extend(children.get(pid, []))
    return sorted(tree)


def stacks_of(root: int) -> str:
    """The threads' stacks of each process under root but the launchers', as gdb prints them."""
    gdb = shutil.which("gdb")
    if gdb is None:
        return "(gdb is not installed: no stacks)\n"
    parts = []
    deadline = time.monotonic() + STACK_BUDGET
    for pid in process_tree(root):
        try:
            comm = Path(f"/proc/{pid}/comm").read_text().strip()
        except OSError:
            continue
        if comm.startswith(LAUNCHER_COMMS):
            continue
        left = deadline - time.monotonic()
        if len(parts) == STACK_PROCESSES or left < 1:
            parts.append("(more processes not shown)\n")
            break
        try:
            r = subprocess.run([gdb, "-nx", "-batch", "-p", str(pid), "-ex", "thread apply all bt 40"],
                               capture_output=True, text=True, timeout=min(STACK_TIMEOUT, left),
                               stdin=subprocess.DEVNULL)
            lines = [ln for ln in r.stdout.splitlines() if ln.startswith(("Thread ", "#"))]
            if not lines:
                lines = ["(gdb showed no stack)"] + r.stderr.strip().splitlines()[-2:]
        except subprocess.TimeoutExpired:
            lines = ["(gdb did not finish in time)"]
        if len(lines) > STACK_LINES:
            lines = lines[:STACK_LINES] + [f"({len(lines) - STACK_LINES} more lines)"]
        parts.append(f"--- process {pid} ({comm}) ---\n" + "\n".join(lines) + "\n")
    return "".join(parts) or "(no process of the run was left)\n"


class Hung(subprocess.TimeoutExpired):
    """A run_captured run that outlived its timeout: what it wrote, and where its processes were."""

    def __init__(self, argv: list[str], timeout: float, out: str, err: str, stacks: str):
        super().__init__(argv, timeout, output=out, stderr=err)
        self.stacks = stacks


def run_captured(argv: list[str], env: dict[str, str] | None = None,
                 timeout: float | None = None) -> subprocess.CompletedProcess:
    """subprocess.run(argv, capture_output=True, text=True, timeout=timeout), in a session of its
    own and with no stdin. On a timeout it prints where each process of the run was (D106), kills
    them all and raises Hung (a subprocess.TimeoutExpired) with their output and the stacks."""
    p = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         stdin=subprocess.DEVNULL, text=True, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        stacks = stacks_of(p.pid)
        print(f"--- {argv[0]} timed out after {timeout:.0f} s; where each process was (gdb) ---\n"
              f"{stacks}", end="", flush=True)
        for sig in (signal.SIGTERM, signal.SIGKILL):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, sig)
            try:
                out, err = p.communicate(timeout=5)
                break
            except subprocess.TimeoutExpired:
                continue
        else:
            out, err = "", ""
        raise Hung(argv, timeout, out, err, stacks) from None
    return subprocess.CompletedProcess(argv, p.returncode, out, err)


def run_tool(argv: list[str], env: dict[str, str], what: str, timeout: float) -> tuple[str, str, float]:
    """Run argv (run_captured: on a timeout it has printed the stacks of its processes, D106);
    RunError unless it exits 0. Returns stdout, stderr, secs."""
    print(f"$ {' '.join(argv)}", flush=True)
    t0 = time.monotonic()
    try:
        p = run_captured(argv, env, timeout)
    except Hung as e:
        raise RunError(f"{what}: timed out after {timeout:.0f} s (hang or deadlock?; where each "
                       f"process was is printed above)\n"
                       f"--- stdout ---\n{e.output}--- stderr ---\n{e.stderr}") from None
    secs = time.monotonic() - t0
    if p.returncode != 0:
        raise RunError(f"{what}: exit status {p.returncode} after {secs:.1f} s\n"
                       f"--- stdout ---\n{p.stdout}--- stderr ---\n{p.stderr}")
    return p.stdout, p.stderr, secs


# HOSTRUN_MPICH_YIELD (set by tests/host/CMakeLists.txt): the path of mpich_progress_yield.c's
# library, preloaded into MPICH's ranks so that a rank waiting in MPICH's polling loop yields its
# core (4 ranks on 2 cores; the file says why). Scheduling only: MPICH's results are its own.
YIELD_ENV = "HOSTRUN_MPICH_YIELD"


def rank_preload_args(host: Host, lib: Path | None = None) -> list[str]:
    """Launcher arguments that preload LIB (if given) and, for MPICH, the yield shim into the
    ranks (not into the launcher)."""
    libs = [str(lib)] if lib is not None else []
    shim = os.environ.get(YIELD_ENV)
    if host.name == "mpich" and shim:
        libs.append(shim)
    return host.env_args("LD_PRELOAD", " ".join(libs)) if libs else []


def clean_env() -> dict[str, str]:
    env = dict(os.environ)
    if "LD_PRELOAD" in env:
        print(f"note: ignoring LD_PRELOAD={env['LD_PRELOAD']!r} from the environment")
        del env["LD_PRELOAD"]
    return env


def lib_link_args(lib: Path) -> list[str]:
    libdir = str(lib.parent)
    m = re.fullmatch(r"lib(.+)\.so", lib.name)
    name = f"-l{m.group(1)}" if m else f"-l:{lib.name}"
    return ["-L", libdir, f"-Wl,-rpath,{libdir}", name]


def lib_stem(lib: Path) -> str:
    """libmpiattr_mpich.so.1.2 -> libmpiattr_mpich (what dladdr's path must contain)."""
    return lib.name.split(".so")[0]


def compile_args(lang: str, src: Path, moddir: Path) -> list[str]:
    """Flags, include directories (and for Fortran the module directory) for one source."""
    args = [*LANG_FLAGS[lang], "-I", str(src.parent), "-I", str(HARNESS_INCLUDE)]
    if lang == "fortran":
        args += ["-J", str(moddir), "-I", str(moddir)]
    return args


@contextlib.contextmanager
def exclusive(path: Path | None, what: str):
    """Hold an exclusive flock on PATH for the block (None: no lock); print a wait that took time."""
    if path is None:
        yield
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as f:
        t0 = time.monotonic()
        fcntl.flock(f, fcntl.LOCK_EX)
        waited = time.monotonic() - t0
        if waited >= 0.1:
            print(f"note: waited {waited:.1f} s for {path.name} ({what})", flush=True)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def file_identity(path: str | None) -> list:
    """A file's resolved path, size and mtime (a wrapper or compiler: a package upgrade changes it)."""
    found = shutil.which(path) if path else None
    if not found:
        return [path, None]
    real = os.path.realpath(found)
    st = os.stat(real)
    return [real, st.st_size, st.st_mtime_ns]


_identities: dict[str, list] = {}


def wrapper_identity(wrapper: str, env: dict[str, str]) -> list:
    """What a host's compiler wrapper is: its `-show` (the compiler and the host's include and
    library directories) and the wrapper and compiler files."""
    if wrapper not in _identities:
        p = subprocess.run([wrapper, "-show"], env=env, capture_output=True, text=True,
                           stdin=subprocess.DEVNULL, timeout=BUILD_TIMEOUT)
        show = p.stdout.split()
        _identities[wrapper] = [p.returncode, show, file_identity(wrapper),
                                file_identity(show[0] if show else None)]
    return _identities[wrapper]


_dir_digests: dict[Path, str] = {}


def dir_digest(d: Path) -> str:
    """The contents of the regular files of one include directory (not recursive)."""
    if d not in _dir_digests:
        h = hashlib.sha256()
        for f in sorted(d.iterdir()):
            if f.is_file():
                h.update(f.name.encode() + b"\0" + hashlib.sha256(f.read_bytes()).digest())
        _dir_digests[d] = h.hexdigest()
    return _dir_digests[d]


class ObjectCache:
    """Objects (and Fortran modules) compiled by a host's own wrapper, kept under DIR/<key>/ for
    every later compile with the same key (see the module's docstring). Entries are made whole in a
    temporary directory and renamed into place, under a lock per key; they are never changed."""

    def __init__(self, root: Path):
        self.root = root

    def key(self, argv: list[str], src: Path, before: str, env: dict[str, str]) -> str:
        incdirs = [Path(argv[i + 1]) for i, a in enumerate(argv[:-1]) if a == "-I"]
        parts = {
            "argv": argv,
            "src": hashlib.sha256(src.read_bytes()).hexdigest(),
            "includes": {str(d): dir_digest(d) for d in incdirs if d.is_dir()},
            "before": before,  # the objects and modules compiled first (a module this one uses)
            "wrapper": wrapper_identity(argv[0], env),
        }
        return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:40]

    def compile(self, argv: list[str], src: Path, obj: Path, moddir: Path | None, before: str,
                run: Callable[[list[str]], str]) -> str:
        """Compile SRC (ARGV: without -o and, for Fortran, without the module directory) to OBJ,
        Fortran modules to MODDIR, through the cache; returns the key (BEFORE of the next)."""
        env = clean_env()
        key = self.key(argv, src, before, env)
        entry = self.root / key
        self.root.mkdir(parents=True, exist_ok=True)
        with exclusive(self.root / f"{key}.lock", f"{src.name} being compiled by another test"):
            if not (entry / "obj.o").is_file():
                tmp = self.root / f"{key}.tmp.{os.getpid()}"
                shutil.rmtree(tmp, ignore_errors=True)
                tmp.mkdir()
                mods = ["-J", str(tmp), "-I", str(moddir)] if moddir is not None else []
                try:
                    err = run([*argv, *mods, "-o", str(tmp / "obj.o")])
                except BaseException:
                    shutil.rmtree(tmp, ignore_errors=True)
                    raise
                (tmp / "stderr.txt").write_text(err)
                (tmp / "argv.txt").write_text(" ".join(argv) + "\n")
                shutil.rmtree(entry, ignore_errors=True)  # a partial entry (cannot happen: rename)
                tmp.rename(entry)
            else:
                print(f"(compiled before, {entry}: {' '.join(argv)})", flush=True)
                err = (entry / "stderr.txt").read_text()
                if err.strip():
                    print(err, end="" if err.endswith("\n") else "\n")
        shutil.copy2(entry / "obj.o", obj)
        if moddir is not None:
            for m in entry.glob("*.mod"):
                shutil.copy2(m, moddir / m.name)
        return key


def build(host: Host, mode: str, src: Path, workdir: Path, lib: Path | None,
          wrapper: Path | None = None, extra: tuple[Path, ...] = (), name: str | None = None,
          defines: tuple[str, ...] = (), cache: ObjectCache | None = None) -> Path:
    """Build the program. With CACHE (a host's own wrappers only), each compile goes through it
    (`-c`), and the program's object is linked by a separate call of its wrapper; in wrapper mode
    the program is still compiled and linked by the mpiattr wrapper in one call."""
    tag = f"{Path(name).stem if name else src.stem}.{host.name}.{mode}"
    exe = workdir / tag
    moddir = workdir / f"mod.{tag}"  # Fortran modules of this build
    fortran = any(language(f) == "fortran" for f in (src, *extra))
    if fortran:
        moddir.mkdir(parents=True, exist_ok=True)
    env = clean_env()

    def run_compile(argv: list[str], what: str) -> str:
        out, err, _ = run_tool(argv, env, f"{host.name}: compile {what}", BUILD_TIMEOUT)
        if err.strip():
            print(err, end="" if err.endswith("\n") else "\n")
        return err

    def compile_one(lang: str, x: Path, obj: Path, before: str, extra_args=()) -> str:
        if cache is None:
            run_compile([host.wrapper_for(lang), *compile_args(lang, x, moddir), *extra_args,
                         "-c", str(x), "-o", str(obj)], x.name)
            return ""
        argv = [host.wrapper_for(lang), *LANG_FLAGS[lang], "-I", str(x.parent),
                "-I", str(HARNESS_INCLUDE), *extra_args, "-c", str(x)]
        return cache.compile(argv, x, obj, moddir if lang == "fortran" else None, before,
                             lambda a: run_compile(a, x.name))

    objs, before = [], ""
    for i, x in enumerate(extra):  # in order: a module must exist before its users compile
        obj = workdir / f"{tag}.x{i}.{x.name}.o"
        before = compile_one(language(x), x, obj, before)
        objs.append(str(obj))
    lang = language(src)
    defs = [f"-D{d}" for d in defines]
    if cache is not None and mode != "wrapper":
        obj = workdir / f"{tag}.o"
        compile_one(lang, src, obj, before, defs)
        argv = [host.wrapper_for(lang), *LANG_FLAGS[lang], str(obj), *objs, "-o", str(exe)]
        if mode == "linked":
            argv += lib_link_args(lib)
        run_compile(argv, f"(link) {obj.name}")
        return exe
    compiler = str(wrapper) if mode == "wrapper" else host.wrapper_for(lang)
    argv = [compiler, *compile_args(lang, src, moddir), *defs, str(src), *objs, "-o", str(exe)]
    if mode == "linked":
        argv += lib_link_args(lib)
    run_compile(argv, src.name)
    return exe


def plain_build_of_alone(host: Host, args, src: Path, extra: tuple[Path, ...]) -> Path | None:
    """A preload run needs the plain build, which the alone run (--facts-from, a fixture that ran
    just before) has already made from the same sources and defines: a copy of its executable,
    when that is newer than every source and the harness, so that the suite compiles each host
    program once less. None: build it."""
    if args.facts_from is None:
        return None
    stem = Path(args.program).stem if args.program else src.stem
    alone = args.facts_from.resolve() / f"{stem}.{host.name}.alone"
    try:
        built = alone.stat().st_mtime
        inputs = (src, *extra, HARNESS_INCLUDE / "host_check.h", Path(__file__))
        if built <= max(p.stat().st_mtime for p in inputs):
            return None
        exe = args.workdir.resolve() / f"{stem}.{host.name}.{args.mode}"
        shutil.copy2(alone, exe)
        return exe
    except OSError:
        return None


def launch(host: Host, mode: str, exe: Path, np: int, lib: Path | None,
           timeout: float, lock: Path | None = None) -> tuple[str, str, float]:
    env = clean_env()
    env.update(host.env)
    argv = [host.launcher, *host.launcher_args, "-n", str(np)]
    argv += rank_preload_args(host, lib if mode == "preload" else None)
    if mode == "alone":
        argv += host.env_args("HOSTCHECK_NOT_PROVIDER", NOT_PROVIDER)
    else:
        argv += host.env_args("HOSTCHECK_PROVIDER", lib_stem(lib))
    argv.append(str(exe))
    with exclusive(lock, f"another test's run on {np} ranks"):
        return run_tool(argv, env, f"{host.name}: run {exe.name} on {np} ranks", timeout)


# ---------------------------------------------------------------- parse

@dataclass
class Result:
    checks: dict[str, set[int] | None] = field(default_factory=dict)  # name -> failing ranks (None: ok)
    order: list[str] = field(default_factory=list)
    facts: dict[str, str] = field(default_factory=dict)
    infos: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    complete: bool = False  # report() ran: its FACT lines are all there


def parse(out: str, np: int) -> Result:
    res = Result()
    counts: dict[str, int] = {}
    done: list[tuple[int, int]] = []
    local: dict[int, int] = {}
    for line in out.splitlines():
        if m := CHECK_RE.match(line):
            name, verdict, ranks = m.group(1), m.group(2), m.group(3)
            counts[name] = counts.get(name, 0) + 1
            if name not in res.checks:
                res.checks[name] = None
                res.order.append(name)
            if verdict != "ok":
                failed = {int(r) for r in ranks.split(",") if r} if ranks else {-1}
                res.checks[name] = (res.checks[name] or set()) | failed
        elif m := VALUE_RE.match(line):
            table = res.facts if m.group(1) == "FACT" else res.infos
            name, value = m.group(2), m.group(3)
            if m.group(1) == "FACT" and name in table and table[name] != value:
                res.problems.append(f"FACT {name} printed with different values: "
                                    f"{table[name]!r} and {value!r}")
            table[name] = value
        elif m := DONE_RE.match(line):
            done.append((int(m.group(1)), int(m.group(2))))
        elif m := LOCAL_RE.match(line):
            local[int(m.group(1))] = int(m.group(2))
        elif line.startswith(("CHECK ", "FACT ", "HOSTCHECK")):
            res.problems.append(f"malformed harness line (interleaved output?): {line!r}")
    if len(done) != 1:
        res.problems.append(f"expected one 'HOSTCHECK DONE' line from report(), got {len(done)} "
                            "(crash, or report() not called)")
        return res
    ranks, nglobal = done[0]
    res.complete = True
    if ranks != np:
        res.problems.append(f"report() ran on {ranks} ranks, expected {np}")
    nlocal = 0
    if local:
        if sorted(local) != list(range(np)):
            res.problems.append(f"local_report() lines from ranks {sorted(local)}, expected 0..{np - 1}")
        if len(set(local.values())) != 1:
            res.problems.append(f"ranks recorded different numbers of local checks: {local}")
        nlocal = max(local.values())
    if len(res.checks) != nglobal + nlocal:
        res.problems.append(f"{len(res.checks)} distinct checks printed, expected {nglobal} from "
                            f"report() + {nlocal} from local_report()")
    if np > 1:
        for name, c in counts.items():
            if c not in (1, np):
                res.problems.append(f"check {name} printed {c} times (expected once, or once per rank)")
    return res


# ---------------------------------------------------------------- facts.json

def facts_path(workdir: Path) -> Path:
    return workdir / "facts.json"


def write_facts(workdir: Path, program: str, host: str, facts: dict[str, str] | None) -> None:
    """Record the program's facts in workdir/facts.json (None: forget them)."""
    path = facts_path(workdir)
    with open(workdir / ".facts.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        data = {}
        if path.exists():
            with contextlib.suppress(ValueError):
                data = json.loads(path.read_text())
        if facts is None:
            data.pop(program, None)
        else:
            data[program] = {"host": host, "facts": facts}
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
        tmp.replace(path)


def compare_facts(facts_dir: Path, program: str, host: str, mine: dict[str, str]) -> list[str]:
    path = facts_path(facts_dir)
    if not path.exists():
        return [f"--facts-from: {path} does not exist (run the alone test first)"]
    data = json.loads(path.read_text())
    if program not in data:
        return [f"--facts-from: {path} has no facts for {program}"]
    entry = data[program]
    if entry.get("host") != host:
        return [f"--facts-from: {path} holds facts of host {entry.get('host')!r}, not {host!r}"]
    theirs: dict[str, str] = entry["facts"]
    diffs = []
    for name in sorted(set(theirs) | set(mine)):
        a, b = theirs.get(name), mine.get(name)
        if a != b:
            diffs.append(f"FACT {name}: host alone {a if a is not None else '(missing)'}, "
                         f"this run {b if b is not None else '(missing)'}")
    return diffs


# ---------------------------------------------------------------- main

def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--host", required=True, choices=sorted(HOSTS) + ["mpiattr"])
    ap.add_argument("--mode", required=True,
                    choices=("alone", "linked", "preload", "wrapper", "standalone"))
    ap.add_argument("--bindir", type=Path, help="standalone mpiattr's build/bin (--host mpiattr)")
    ap.add_argument("--wrapper", type=Path, help="mpiattr-<host>-cc, -fort or -cxx for --src's "
                                                 "language (wrapper mode: it links the library)")
    ap.add_argument("--src", required=True, type=Path, help="the program: .c, .f90, .F90 or .cc")
    ap.add_argument("--extra-src", action="append", type=Path, default=[], metavar="FILE",
                    help="another source compiled (-c, with its language's wrapper, in the order "
                         "given) and linked into the program; repeatable")
    ap.add_argument("--workdir", required=True, type=Path)
    ap.add_argument("--lib", type=Path, help="libmpiattr_<host>.so (linked and preload modes)")
    ap.add_argument("--np", type=int, default=4)
    ap.add_argument("--divergences", type=Path)
    ap.add_argument("--facts-from", type=Path, help="the alone run's workdir (holds facts.json)")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds for the run")
    ap.add_argument("--define", action="append", default=[],
                    help="NAME[=VALUE] for --src's compile (a variant of one source)")
    ap.add_argument("--divergences-of", metavar="PROGRAM",
                    help="take the divergences.toml entries of PROGRAM (a variant of it built with "
                         "another --define, whose departures are the same); default: --program")
    ap.add_argument("--program", help="the program's name in reports and divergences.toml "
                                      "(default: --src's file name; set for a variant)")
    ap.add_argument("--launch-lock", type=Path, metavar="FILE",
                    help="hold an exclusive flock on FILE while the program runs under mpiexec")
    ap.add_argument("--cache-dir", type=Path, metavar="DIR",
                    help="compile once: keep what the host's wrappers compile in DIR (not with "
                         "--host mpiattr)")
    ap.add_argument("--verbose", action="store_true", help="print the program's whole output")
    args = ap.parse_args()

    if (args.host == "mpiattr") != (args.mode == "standalone"):
        print("FAIL: --mode standalone goes with --host mpiattr, and only with it")
        return 1
    if args.host == "mpiattr":
        if args.bindir is None:
            print("FAIL: --host mpiattr needs --bindir")
            return 1
        bindir = args.bindir.resolve()
        host = Host("mpiattr", str(bindir / "mpiattr-cc"), str(bindir / "mpiattr-run"), (), {})
        args.lib = bindir.parent / "lib" / "libmpiattr.so"  # the provider of the caching routines
        args.np = 1
    else:
        host = HOSTS[args.host]
    src = args.src.resolve()
    extra = tuple(x.resolve() for x in args.extra_src)
    program = args.program or src.name
    tag = f"[{host.name} {args.mode} {program}]"
    for f in (src, *extra):
        if language(f) is None:
            print(f"FAIL {tag}: {f.name}: unknown language (suffixes: {', '.join(LANGS)})")
            return 1
    if args.mode == "wrapper" and args.wrapper is None:
        print(f"FAIL {tag}: --mode wrapper needs --wrapper")
        return 1
    tools = sorted({host.wrapper_for(language(f)) for f in (src, *extra)} | {host.launcher})
    missing = [t for t in tools if not shutil.which(t)]
    if missing:
        print(f"SKIP {tag}: {', '.join(missing)} not installed")
        return SKIP
    for f in (src, *extra):
        if not f.is_file():
            print(f"FAIL {tag}: no such source file {f}")
            return 1
    lib = None
    if args.mode != "alone":
        if args.lib is None:
            print(f"FAIL {tag}: --mode {args.mode} needs --lib")
            return 1
        lib = args.lib.resolve()
        if not lib.is_file():
            print(f"FAIL {tag}: library {lib} does not exist (build it first)")
            return 1
    listed_as = args.divergences_of or program
    divs = [d for d in load_divergences(args.divergences)
            if d.host == host.name and d.program == listed_as]
    limits = [d for d in load_divergences(args.divergences, "limitation")
              if d.host == host.name and d.program == listed_as]
    workdir = args.workdir.resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    if args.mode == "alone":  # no stale facts if this run fails
        write_facts(workdir, program, host.name, None)

    try:
        exe = plain_build_of_alone(host, args, src, extra) if args.mode == "preload" else None
        if exe is None:
            cache = (ObjectCache(args.cache_dir.resolve())
                     if args.cache_dir is not None and host.name in HOSTS else None)
            exe = build(host, args.mode, src, workdir, lib, args.wrapper, extra, args.program,
                        tuple(args.define), cache)
        out, err, secs = launch(host, args.mode, exe, args.np, lib, args.timeout,
                                args.launch_lock.resolve() if args.launch_lock else None)
    except RunError as e:
        print(f"FAIL {tag}\n{e}")
        return 1
    (workdir / f"{exe.name}.out").write_text(out)
    (workdir / f"{exe.name}.err").write_text(err)
    if args.verbose:
        print(out, end="")

    res = parse(out, args.np)
    failures: list[str] = list(res.problems)
    failing = {n: r for n, r in res.checks.items() if r is not None}
    ok = {n for n, r in res.checks.items() if r is None}

    def ranks(n: str) -> str:
        return ",".join(str(r) for r in sorted(failing[n]))

    if PROVIDER_CHECK not in res.checks:
        failures.append(f"the harness did not record {PROVIDER_CHECK} (environment not passed to the ranks?)")
    elif PROVIDER_CHECK in failing:
        what = ("the caching routines do not come from " + lib_stem(lib)) if lib else \
               f"a {NOT_PROVIDER}* library answers the caching routines"
        seen = "; ".join(f"{k[len('provider_of_'):]} from {v}" for k, v in res.infos.items()
                         if k.startswith("provider_of_")) or "?"
        failures.append(f"{PROVIDER_CHECK} failed: {what} (provider seen: {seen})")

    expected = {d.check: d for d in (divs if args.mode == "alone" else limits)}
    host_fails = {d.check for d in divs} if args.mode != "alone" else set()
    for name in res.order:
        if name in failing and name not in expected and name != PROVIDER_CHECK:
            hint = (f" (the host alone fails it too, see divergences.toml: is the call answered "
                    "by the library?)") if name in host_fails else ""
            failures.append(f"CHECK {name}: FAIL on ranks {ranks(name)}{hint}")
    for name, d in expected.items():
        if name in ok:
            who = (f"{host.name} alone" if args.mode == "alone" else "standalone mpiattr"
                   if args.mode == "standalone" else f"mpiattr over {host.name}")
            failures.append(f"CHECK {name}: ok, but divergences.toml says {who} fails it "
                            f"({d.standard}; {d.reason}) -- it now passes: remove the entry")
        elif name not in res.checks:
            failures.append(f"CHECK {name}: listed in divergences.toml but not printed (renamed?)")

    if args.mode == "alone" and res.complete:
        write_facts(workdir, program, host.name, res.facts)
    elif args.facts_from is not None:
        failures += compare_facts(args.facts_from.resolve(), program, host.name, res.facts)

    nfail = len(failing)
    print(f"{tag} {len(res.checks)} checks, {len(ok)} ok, {nfail} failed"
          f"{f' ({len(expected)} expected by divergences.toml)' if expected else ''}, "
          f"{len(res.facts)} facts; run {secs:.1f} s")
    for name in res.order:
        if name in failing:
            note = " (expected: divergences.toml)" if name in expected else ""
            print(f"  CHECK {name}: FAIL (ranks {ranks(name)}){note}")
    for name, value in res.infos.items():
        print(f"  INFO {name}: {value}")
    if failures:
        print(f"FAIL {tag}:")
        for f in failures:
            print(f"  - {f}")
        if err.strip():
            tail = err.strip().splitlines()[-40:]
            print("--- stderr (last lines) ---\n" + "\n".join(tail))
        return 1
    if args.mode != "alone" and divs:
        print(f"  ({len(divs)} check(s) that {host.name} alone fails, per divergences.toml, pass here)")
    print(f"PASS {tag}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
