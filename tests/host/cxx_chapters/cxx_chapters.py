#!/usr/bin/env python3
"""Differential runner for one MPI-2.2 chapter program on the MPI:: bindings over a host MPI.

    cxx_chapters.py --host mpich|openmpi --src prog.cc --wrapper build/bin/mpiattr-<host>-cxx
                    --workdir DIR [--divergences divergences.toml] [--np 4] [--timeout 120]
                    [--launch-lock FILE]
    cxx_chapters.py --host mpich|openmpi --src prog.cc --workdir DIR --host-only
    cxx_chapters.py --src prog.cc --workdir DIR --compare-hosts

The program (a *.cc of this folder, "LABEL: VALUE" lines from rank 0, see chapter_out.h) is built
twice for the host:
  host     with the host's own C++ bindings (mpicxx.mpich / mpicxx.openmpi, which Debian ships);
  mpiattr  with --wrapper, mpiattr-<host>-cxx: mpiattr's MPI:: classes over the host's C library
           (the host's own C++ bindings skipped; docs/cxx.md).
Both run under the host's launcher on --np ranks (the launchers and environment of
tests/host/hostrun.py: `mpiexec.mpich -n 4`, `mpiexec.openmpi --oversubscribe -n 4` with Open MPI's
run-as-root variables, osc pt2pt, btl self,vader and pml ob1), each in its own directory under --workdir
(the I/O program writes a file in its working directory), each run holding --launch-lock's flock
(the compiles do not: they go on beside another test's run). Both must exit 0 and print the same
lines, except for the lines divergences.toml records for this host and program, where the host's
own bindings depart from MPI-2.2: the host must print exactly the recorded `observed` value (so a
host that changes shows up), and mpiattr exactly the `expected` one (the standard's). The two
builds must also be what they claim: the mpiattr one linked with libmpiattr_cxx_<host>, the host
one with no mpiattr library (their NEEDED entries).

--host-only builds and runs only the host's own build and prints its output (and checks the
recorded `observed` values); --compare-hosts builds with both hosts' own bindings and diffs them
(development aids: a line that differs between MPICH and Open MPI is worth a look).

Exit status: 0 equal, 1 different or failed, 77 skip (the host's mpicxx or mpiexec is missing).
"""
from __future__ import annotations

import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # tests/host: hostrun.py
sys.path.insert(0, str(HERE.parents[1] / "diff"))  # tests/diff: diffrun.py
import diffrun  # noqa: E402  (split_label, check_unique_labels, show_diff)
import hostrun  # noqa: E402  (HOSTS, run_tool, clean_env, RunError, SKIP)

SKIP = hostrun.SKIP
BUILD_TIMEOUT = 120  # seconds, per compile
CXXFLAGS = ("-Wall", "-Wno-deprecated-declarations")
PLACEHOLDER = "<recorded divergence: checked against divergences.toml>"


@dataclass(frozen=True)
class Divergence:
    host: str
    program: str
    line: str  # the LABEL
    standard: str  # the MPI-2.2 section(s) the line rests on
    reason: str  # what the host's own bindings do instead
    observed: str  # the VALUE the host's own bindings print
    expected: str  # the VALUE the standard gives, which mpiattr's bindings must print


def load_divergences(path: Path | None) -> list[Divergence]:
    if path is None:
        return []
    with open(path, "rb") as f:
        data = tomllib.load(f)
    unknown_top = set(data) - {"divergence"}
    if unknown_top:
        raise SystemExit(f"{path}: unknown top-level keys {sorted(unknown_top)}")
    allowed = {"host", "program", "line", "standard", "reason", "observed", "expected"}
    out, seen = [], set()
    for i, entry in enumerate(data.get("divergence", [])):
        where = f"{path}: divergence #{i + 1}"
        extra, missing = set(entry) - allowed, allowed - set(entry)
        if extra or missing:
            raise SystemExit(f"{where}: unknown keys {sorted(extra)}, missing keys {sorted(missing)}")
        if entry["host"] not in hostrun.HOSTS:
            raise SystemExit(f"{where}: unknown host {entry['host']!r}")
        if not (HERE / entry["program"]).is_file():
            raise SystemExit(f"{where}: no program {entry['program']!r} in {HERE}")
        d = Divergence(**{k: str(entry[k]) for k in allowed})
        if d.observed == d.expected:
            raise SystemExit(f"{where}: observed equals expected: no divergence")
        key = (d.host, d.program, d.line)
        if key in seen:
            raise SystemExit(f"{where}: listed twice: {key}")
        seen.add(key)
        out.append(d)
    return out


# ---------------------------------------------------------------- build and run

def build(compiler: str, src: Path, exe: Path, what: str) -> None:
    argv = [compiler, *CXXFLAGS, "-I", str(src.parent), str(src), "-o", str(exe)]
    _, err, _ = hostrun.run_tool(argv, hostrun.clean_env(), f"{what}: compile {src.name}", BUILD_TIMEOUT)
    if err.strip():
        print(err, end="" if err.endswith("\n") else "\n")


def needed(exe: Path) -> list[str]:
    """The NEEDED entries of an executable's dynamic section."""
    out = subprocess.run(["readelf", "-d", str(exe)], capture_output=True, text=True, check=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)


def run(host: hostrun.Host, exe: Path, np: int, rundir: Path, timeout: float,
        lock: Path | None = None) -> str:
    """Run exe on np ranks with rundir as the working directory, holding LOCK (hostrun.py
    --launch-lock) for the run only; its stdout."""
    env = hostrun.clean_env()
    env.update(host.env)
    rundir.mkdir(parents=True, exist_ok=True)
    argv = [host.launcher, *host.launcher_args, "-n", str(np), *hostrun.rank_preload_args(host), str(exe)]
    cwd = os.getcwd()
    os.chdir(rundir)  # run_tool has no cwd; this script runs one thing at a time
    try:
        with hostrun.exclusive(lock, f"another test's run on {np} ranks"):
            out, err, secs = hostrun.run_tool(argv, env, f"{host.name}: run {exe.name} on {np} ranks",
                                              timeout)
    finally:
        os.chdir(cwd)
    (rundir / f"{exe.name}.out").write_text(out)
    (rundir / f"{exe.name}.err").write_text(err)
    print(f"  ran in {secs:.1f} s")
    return out


def exe_path(host: hostrun.Host, kind: str, src: Path, workdir: Path) -> Path:
    d = workdir / kind
    d.mkdir(parents=True, exist_ok=True)
    exe = d / f"{src.stem}.{host.name}.{kind}"
    exe.unlink(missing_ok=True)
    return exe


def build_and_run(host: hostrun.Host, compiler: str, kind: str, src: Path, workdir: Path,
                  np: int, timeout: float, lock: Path | None = None) -> tuple[str, Path]:
    exe = exe_path(host, kind, src, workdir)
    build(compiler, src, exe, f"{host.name} ({kind})")
    return run(host, exe, np, exe.parent / "run", timeout, lock), exe


def host_tools_missing(host: hostrun.Host) -> list[str]:
    return [t for t in (host.wrapper_for("cxx"), host.launcher) if not shutil.which(t)]


# ---------------------------------------------------------------- judge

def output_problems(text: str, who: str, np: int) -> list[str]:
    problems = [p for p in diffrun.check_unique_labels(text, who)]
    lines = text.splitlines()
    if f"ranks: {np}" not in lines:
        problems.append(f"{who}: no 'ranks: {np}' line (the program did not run as expected)")
    for line in lines:
        parts = diffrun.split_label(line)
        if parts is None or not parts[0] or not parts[1]:
            problems.append(f"{who}: not a 'LABEL: VALUE' line: {line!r}")
    return problems


def mask(text: str, divs: list[Divergence], field: str, who: str) -> tuple[list[str], list[str]]:
    """The lines with each recorded divergence's line replaced by a placeholder when its value is
    the recorded `field` (observed for the host, expected for mpiattr); problems otherwise."""
    by_label = {d.line: d for d in divs}
    lines, problems, seen = [], [], set()
    for line in text.splitlines():
        parts = diffrun.split_label(line)
        if parts and parts[0] in by_label:
            d = by_label[parts[0]]
            seen.add(d.line)
            want = getattr(d, field)
            if parts[1] == want:
                line = f"{parts[0]}: {PLACEHOLDER}"
            else:
                problems.append(f"{who}: line {parts[0]!r} is {parts[1]!r}, divergences.toml records "
                                f"{field} = {want!r} ({d.standard})")
        lines.append(line)
    for d in divs:
        if d.line not in seen:
            problems.append(f"{who}: line {d.line!r} of divergences.toml not printed (renamed?)")
    return lines, problems


def compile_errors(message: str) -> list[str]:
    """The compiler's `error:` lines in a RunError message (what the report needs)."""
    return [l for l in message.splitlines() if " error: " in l or l.startswith("error:")]


# ---------------------------------------------------------------- modes

def mode_compare(args, host: hostrun.Host, src: Path, divs: list[Divergence]) -> int:
    tag = f"[{host.name} {src.name}]"
    wrapper = args.wrapper.resolve()
    if not wrapper.is_file():
        print(f"FAIL {tag}: {wrapper} does not exist (build mpiattr first)")
        return 1
    workdir = args.workdir.resolve()
    outs: dict[str, str] = {}
    failures: list[str] = []
    builds = {"host": host.wrapper_for("cxx"), "mpiattr": str(wrapper)}
    exes = {kind: exe_path(host, kind, src, workdir) for kind in builds}
    # The two compiles at once (most of a test's time), then the runs one after the other.
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        compiled = {kind: pool.submit(build, compiler, src, exes[kind], f"{host.name} ({kind})")
                    for kind, compiler in builds.items()}
    for kind in builds:
        exe = exes[kind]
        try:
            compiled[kind].result()
            outs[kind] = run(host, exe, args.np, exe.parent / "run", args.timeout, args.launch_lock)
        except hostrun.RunError as e:
            print(f"FAIL {tag} ({kind} build)\n{e}")
            errs = compile_errors(str(e))
            if errs:
                print(f"--- {kind} compile errors ({len(errs)}) ---")
                print("\n".join(errs))
            failures.append(f"the {kind} build did not build or did not exit 0")
            continue
        libs = needed(exe)
        mine = [l for l in libs if "mpiattr" in l]
        if kind == "mpiattr" and not any(l.startswith(f"libmpiattr_cxx_{host.name}") for l in libs):
            failures.append(f"the mpiattr build does not link libmpiattr_cxx_{host.name} "
                            f"(NEEDED: {', '.join(libs)})")
        if kind == "host" and mine:
            failures.append(f"the host build links mpiattr libraries: {', '.join(mine)}")
    if len(outs) == 2:
        failures += output_problems(outs["host"], "host", args.np)
        failures += output_problems(outs["mpiattr"], "mpiattr", args.np)
        host_lines, p1 = mask(outs["host"], divs, "observed", f"{host.name}'s own bindings")
        mine_lines, p2 = mask(outs["mpiattr"], divs, "expected", f"mpiattr-{host.name}-cxx")
        failures += p1 + p2
        if not diffrun.show_diff(host_lines, mine_lines, f"{host.name}-own-bindings/{src.name}",
                                 f"mpiattr-{host.name}-cxx/{src.name}"):
            failures.append("the outputs differ (diff above)")
    if failures:
        print(f"FAIL {tag}:")
        for f in failures:
            print(f"  - {f}")
        return 1
    nlines = len(outs["host"].splitlines())
    print(f"PASS {tag}: {nlines} lines equal, {len(divs)} recorded divergence(s) of "
          f"{host.name}'s own bindings checked (mpiattr prints the standard's value)")
    return 0


def mode_host_only(args, host: hostrun.Host, src: Path, divs: list[Divergence]) -> int:
    try:
        out, _ = build_and_run(host, host.wrapper_for("cxx"), "host", src, args.workdir.resolve(),
                               args.np, args.timeout, args.launch_lock)
    except hostrun.RunError as e:
        print(e)
        return 1
    sys.stdout.write(out)
    problems = output_problems(out, "host", args.np) + mask(out, divs, "observed", host.name)[1]
    for p in problems:
        print(f"PROBLEM: {p}")
    return 1 if problems else 0


def mode_compare_hosts(args, src: Path) -> int:
    outs = {}
    for name, host in hostrun.HOSTS.items():
        if host_tools_missing(host):
            print(f"SKIP: {name} is not installed")
            return SKIP
        try:
            outs[name], _ = build_and_run(host, host.wrapper_for("cxx"), "host", src,
                                          args.workdir.resolve() / name, args.np, args.timeout,
                                          args.launch_lock)
        except hostrun.RunError as e:
            print(e)
            return 1
    if diffrun.show_diff(outs["mpich"].splitlines(), outs["openmpi"].splitlines(),
                         f"mpich/{src.name}", f"openmpi/{src.name}"):
        print("identical")
        return 0
    return 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--host", choices=sorted(hostrun.HOSTS))
    ap.add_argument("--src", required=True, type=Path, help="the program (*.cc of this folder)")
    ap.add_argument("--wrapper", type=Path, help="mpiattr-<host>-cxx (compare mode)")
    ap.add_argument("--workdir", required=True, type=Path)
    ap.add_argument("--divergences", type=Path, help="divergences.toml")
    ap.add_argument("--np", type=int, default=4)
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds for each run")
    ap.add_argument("--launch-lock", type=Path, metavar="FILE",
                    help="hold an exclusive flock on FILE during each run under mpiexec, not during "
                         "the compiles (hostrun.py --launch-lock)")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--host-only", action="store_true")
    mode.add_argument("--compare-hosts", action="store_true")
    args = ap.parse_args()

    src = args.src.resolve()
    if not src.is_file():
        print(f"FAIL: no such program {src}")
        return 1
    if args.compare_hosts:
        return mode_compare_hosts(args, src)
    if args.host is None:
        ap.error("--host is required unless --compare-hosts")
    host = hostrun.HOSTS[args.host]
    missing = host_tools_missing(host)
    if missing:
        print(f"SKIP [{host.name} {src.name}]: {', '.join(missing)} not installed")
        return SKIP
    divs = [d for d in load_divergences(args.divergences)
            if d.host == host.name and d.program == src.name]
    if args.host_only:
        return mode_host_only(args, host, src, divs)
    if args.wrapper is None:
        ap.error("--wrapper is required (or --host-only / --compare-hosts)")
    return mode_compare(args, host, src, divs)


if __name__ == "__main__":
    sys.exit(main())
