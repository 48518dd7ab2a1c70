#!/usr/bin/env python3
"""MPIATTR_REPORT (docs/decisions.md D33): runs report_prog.c standalone and over each host MPI
under mpiexec -n 2, and checks each process's report line by line.

The counts are those report_prog.c's comments give (its known calls); the list of what is alive
at finalize is compared with the lines report_prog wrote to <dir>/expect.<rank>, which name the
handles and addresses only it knows. Each case is one ctest test (report_<case>):

  report_check.py --list
  report_check.py --case CASE --workdir DIR [--prog PROG] [--lib LIBMPIATTR_HOST] [--src report_prog.c]
                  [--launch-lock FILE]

Over a host, each run under mpiexec holds --launch-lock's flock (hostrun.py's), its compiles not.

Exit status 0: pass; 1: fail; 77: skipped (the host's mpicc or mpiexec is not installed).
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host"))  # tests/host: hostrun.py
import hostrun  # noqa: E402  (run_captured; exclusive: the launch lock; OPENMPI_FAST_START)

PREFIX = "mpiattr report: "
HOSTS = {
    "mpich": {"cc": "mpicc.mpich", "run": ["mpiexec.mpich"], "name": "over MPICH",
              "env": lambda k, v: ["-genv", k, v], "launcher_env": {}},
    "openmpi": {"cc": "mpicc.openmpi", "run": ["mpiexec.openmpi", "--oversubscribe"], "name": "over Open MPI",
                "env": lambda k, v: ["-x", f"{k}={v}"],
                "launcher_env": {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                                 "OMPI_MCA_btl": "self,vader", **hostrun.OPENMPI_FAST_START,
                                 "OMPI_MCA_rmaps_base_oversubscribe": "1"}},
}
RANKS = 2

# case -> (where: "standalone" or a host, what report_prog does, thread level, MPIATTR_REPORT
#          ("FILE": <workdir>/r.%r; "NOWHERE": a file in a directory that does not exist;
#          None: unset), how the host library is used ("linked" or "preload"))
CASES = {
    "D33_standalone_counts_every_caching_call": ("standalone", "calls", "single", "1", None),
    "D33_standalone_counts_at_thread_multiple": ("standalone", "calls", "multiple", "stderr", None),
    "D33_standalone_report_to_file_per_rank": ("standalone", "calls", "single", "FILE", None),
    "D33_standalone_no_caching_call_reports_zeros": ("standalone", "none", "single", "1", None),
    "D33_standalone_unwritable_file_goes_to_stderr": ("standalone", "calls", "single", "NOWHERE", None),
    "D33_standalone_unset_prints_nothing": ("standalone", "calls", "single", None, None),
    "D33_standalone_empty_prints_nothing": ("standalone", "calls", "single", "", None),
    "D33_standalone_zero_prints_nothing": ("standalone", "calls", "single", "0", None),
}
# The routine each creator program (creator_*) creates its one keyval with, and how it is built:
# standalone, with the wrappers beside report_prog (--prog), and over MPICH (linked). Built with -g,
# each report also names the program's lines (D60): those its "D60: keyval|dup|set" comments mark.
CREATORS = {
    "creator_mpi.f90": ("mpiattr-fort", "mpifort.mpich", "keyval 0x40100010 (comm) from MPI_COMM_CREATE_KEYVAL", "not freed, 0 attributes"),
    "creator_f08.f90": ("mpiattr-fort", "mpifort.mpich", "keyval 0x40100010 (type) from MPI_Type_create_keyval_f08", "not freed, 1 attribute"),
    "creator_cxx.cc": ("mpiattr-cxx", "mpicxx.mpich", "keyval 0x40100010 (comm) from MPI::Comm::Create_keyval", "not freed, 1 attribute"),
}


def marked_lines(src: Path) -> dict[str, int]:
    """The lines of `src` its "D60: <what>" comments mark, by what."""
    out = {}
    for n, text in enumerate(src.read_text().splitlines(), 1):
        m = re.search(r"D60: (\w+)$", text)
        if m:
            out[m.group(1)] = n
    return out


def check_places(report: list[str], src: Path, keyval_head: str, keyval_tail: str) -> None:
    """The keyval line names the creating call's file:line, the attribute line its set and dup."""
    name, lines = src.name, marked_lines(src)
    keyval = f"{keyval_head} at {name}:{lines['keyval']} ("
    if not any(ln.startswith(keyval) and ln.endswith(f"): {keyval_tail}") for ln in report):
        raise Failure(f"{name}: no line {keyval}...): {keyval_tail}")
    if "dup" in lines:
        want = [f" set at {name}:{lines['set']} (", f" from ", f" at {name}:{lines['dup']} ("]
        if not any(ln.startswith("attribute ") and all(w in ln for w in want) for ln in report):
            raise Failure(f"{name}: no attribute line with {want}")


CASES["D60_standalone_names_fortran_and_cxx_creators_and_places"] = ("standalone", "creators", "single", "1", None)
CASES["D60_mpich_names_fortran_and_cxx_creators_and_places"] = ("mpich", "creators", "single", "1", "linked")
CASES["D60_standalone_counts_attributes_of_one_place_on_one_line"] = ("standalone", "group", "single", "1", None)
for _h in HOSTS:
    CASES.update({
        f"D33_{_h}_linked_counts_every_caching_call": (_h, "calls", "single", "FILE", "linked"),
        f"D33_{_h}_preload_counts_at_thread_multiple": (_h, "calls", "multiple", "FILE", "preload"),
        f"D33_{_h}_no_caching_call_reports_zeros": (_h, "none", "single", "FILE", "linked"),
        f"D33_{_h}_unset_prints_nothing": (_h, "calls", "single", None, "linked"),
        f"D60_{_h}_counts_attributes_of_one_place_on_one_line": (_h, "group", "single", "FILE", "linked"),
    })


def expected_counts(rank: int, what: str) -> list[str]:
    """The count lines of report_prog's report on `rank` (see its comments)."""
    c = {"keyvals created": (4, 1, 1), "keyvals freed": (2, 1, 1), "attributes set": (7, 1, 0),
         "attributes read": (6 + rank, 1, 0), "attributes deleted": (9, 1, 0), "attributes copied": (4, 1, 0)}
    cb = {"copy callbacks": (3, 1), "delete callbacks": (5, 1)}
    if what != "calls":
        c = {k: (0, 0, 0) for k in c}
        cb = {k: (0, 0) for k in cb}
    if what == "group":
        c["keyvals created"] = (1, 1, 0)
        c["attributes set"] = (3, 1, 0)
    lines = [f"{k}: comm {v[0]}, type {v[1]}, win {v[2]}" for k, v in c.items()]
    lines += [f"{k}: run {v[0]}, failed {v[1]}" for k, v in cb.items()]
    return lines


class Failure(Exception):
    pass


def check_report(text: str, rank: int, size: int, how: str, what: str, expect: Path, where: str) -> None:
    lines = [ln[len(PREFIX):] for ln in text.splitlines() if ln.startswith(PREFIX)]
    if not lines:
        raise Failure(f"{where}: no report:\n{text}")
    header = f"rank {rank} of {size}, mpiattr {how}"
    if lines[0] != header:
        raise Failure(f"{where}: header is {lines[0]!r}, expected {header!r}")
    if lines[-1] != "end" or lines.count("end") != 1:
        raise Failure(f"{where}: the report does not end with one 'end' line:\n{text}")
    counts = expected_counts(rank, what)
    got = lines[1:1 + len(counts)]
    if got != counts:
        diff = "\n".join(f"  got {g!r}\n  exp {e!r}" for g, e in zip(got, counts) if g != e)
        raise Failure(f"{where}: counts differ:\n{diff}\nreport:\n{text}")
    alive = lines[1 + len(counts):-1]
    want = expect.read_text().splitlines() if what != "none" else ["alive at finalize: 0 keyvals, 0 attributes"]
    if not alive or alive[0] != want[0]:
        raise Failure(f"{where}: summary line {alive[:1]!r}, expected {want[0]!r}\nreport:\n{text}")
    if sorted(alive[1:]) != sorted(want[1:]):
        raise Failure(f"{where}: alive lines differ:\n got  {alive[1:]}\n want {want[1:]}\nreport:\n{text}")
    kinds = ["keyval" if ln.startswith("keyval ") else "attribute" for ln in alive[1:]]
    if kinds != sorted(kinds, key=lambda k: k != "keyval"):
        raise Failure(f"{where}: keyval lines must come before attribute lines:\n{text}")
    if len(text.splitlines()) != len(lines):
        raise Failure(f"{where}: lines without the prefix in the report:\n{text}")


def run(argv: list[str], env: dict[str, str], timeout: float = 120,
        lock: Path | None = None) -> subprocess.CompletedProcess:
    """Run argv; with LOCK (a launch under mpiexec: --launch-lock), holding its flock meanwhile."""
    print("$", " ".join(argv), flush=True)
    with hostrun.exclusive(lock, "another test's run"):
        p = hostrun.run_captured(argv, env, timeout)  # a hang shows each rank's stack (D106)
    if p.stdout:
        print(p.stdout, end="")
    if p.stderr:
        print(p.stderr, end="", file=sys.stderr)
    return p


def report_value(setting: str | None, workdir: Path) -> str | None:
    if setting == "FILE":
        return str(workdir / "r.%r")
    if setting == "NOWHERE":
        return str(workdir / "no-such-directory" / "r.%r")
    return setting


def check_creators(a: argparse.Namespace, where: str) -> int:
    """Each creator program's report names the routine its keyval was created with."""
    wd = a.workdir
    shutil.rmtree(wd, ignore_errors=True)
    wd.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("MPIATTR_")}
    env["MPIATTR_REPORT"] = "1"
    for src, (wrapper, host_compiler, head, tail) in CREATORS.items():
        exe = wd / Path(src).stem
        if where == "standalone":
            compiler = a.prog.resolve().parent / wrapper
            if not compiler.exists():
                print(f"{compiler} not built: {src} skipped")
                continue
            cc = [str(compiler), "-g", str(a.src.parent / src), "-o", str(exe)]
            launch = [str(exe)]
        else:
            if shutil.which(host_compiler) is None or shutil.which("mpiexec.mpich") is None:
                print(f"{host_compiler} not installed: {src} skipped")
                continue
            libdir = a.lib.resolve().parent
            cc = [host_compiler, "-g", "-Wno-deprecated-declarations", str(a.src.parent / src), "-o", str(exe),
                  f"-L{libdir}", f"-Wl,-rpath,{libdir}", "-lmpiattr_mpich"]
            launch = ["mpiexec.mpich", "-n", "1", "-genv", "MPIATTR_REPORT", "1", str(exe)]
        if run(cc, env).returncode != 0:
            raise Failure(f"{src}: compile failed")
        p = run(launch, env, lock=None if where == "standalone" else a.launch_lock)
        if p.returncode != 0:
            raise Failure(f"{src}: exited with {p.returncode}")
        check_places([ln[len(PREFIX):] for ln in p.stderr.splitlines() if ln.startswith(PREFIX)],
                     a.src.parent / src, head, tail)
    print("PASS")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--case")
    ap.add_argument("--workdir", type=Path)
    ap.add_argument("--prog", type=Path, help="report_prog built against standalone mpiattr")
    ap.add_argument("--src", type=Path, help="report_prog.c, built here for a host")
    ap.add_argument("--lib", type=Path, help="libmpiattr_<host>.so")
    ap.add_argument("--launch-lock", type=Path, help="held during each run under mpiexec (hostrun.py's)")
    a = ap.parse_args()
    if a.list:
        print("\n".join(CASES))
        return 0
    where, what, level, setting, use = CASES[a.case]
    if what == "creators":
        return check_creators(a, where)
    wd = a.workdir
    shutil.rmtree(wd, ignore_errors=True)
    wd.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("MPIATTR_")}
    value = report_value(setting, wd)

    if where == "standalone":
        if value is not None:
            env["MPIATTR_REPORT"] = value
        p = run([str(a.prog), what, level, str(wd)], env)
        if p.returncode != 0:
            raise Failure(f"report_prog exited with {p.returncode}")
        reports = {0: None}
        size, how = 1, "standalone"
        stderr = p.stderr
    else:
        host = HOSTS[where]
        if shutil.which(host["cc"]) is None or shutil.which(host["run"][0]) is None:
            print(f"{host['cc']} or {host['run'][0]} not installed: skipped")
            return 77
        exe = wd / "report_prog"
        libdir = a.lib.resolve().parent
        cc = [host["cc"], "-g", "-std=c11", "-Wall", "-Werror", "-Wno-deprecated-declarations", str(a.src), "-o", str(exe)]
        if use == "linked":
            cc += [f"-L{libdir}", f"-Wl,-rpath,{libdir}", f"-lmpiattr_{where}"]
        c = run(cc, env)
        if c.returncode != 0:
            raise Failure("compile failed")
        if use == "linked":  # the library really is in front of the host
            ldd = run(["ldd", str(exe)], env).stdout
            if f"libmpiattr_{where}.so" not in ldd:
                raise Failure(f"{exe} is not linked with libmpiattr_{where}")
        launch = list(host["run"]) + ["-n", str(RANKS)]
        if use == "preload":
            launch += host["env"]("LD_PRELOAD", str(a.lib.resolve()))
        if value is not None:
            launch += host["env"]("MPIATTR_REPORT", value)
        env.update(host["launcher_env"])
        p = run(launch + [str(exe), what, level, str(wd)], env, lock=a.launch_lock)
        if p.returncode != 0:
            raise Failure(f"mpiexec exited with {p.returncode}")
        reports = {r: None for r in range(RANKS)}
        size, how = RANKS, host["name"]
        stderr = p.stderr

    files = sorted(f.name for f in wd.glob("r.*"))
    if setting in (None, "", "0"):
        if PREFIX in stderr or PREFIX in p.stdout or files:
            raise Failure(f"MPIATTR_REPORT={setting!r}: something was reported (files {files})")
        print("PASS: no report")
        return 0
    if setting == "FILE":
        want_files = sorted(f"r.{r}" for r in reports)
        if files != want_files:
            raise Failure(f"report files {files}, expected {want_files}")
        if PREFIX in stderr:
            raise Failure("a report went to stderr as well as to the file")
        for r in reports:
            check_report((wd / f"r.{r}").read_text(), r, size, how, what, wd / f"expect.{r}", f"r.{r}")
    else:
        if files:
            raise Failure(f"report files {files}, expected none")
        if setting == "NOWHERE" and "mpiattr: MPIATTR_REPORT: cannot open " not in stderr:
            raise Failure("no message about the file that cannot be opened")
        text = "\n".join(ln for ln in stderr.splitlines() if ln.startswith(PREFIX))
        check_report(text, 0, size, how, what, wd / "expect.0", "stderr")
    print("PASS")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Failure as e:
        print(f"FAIL: {e}", file=sys.stderr)
        sys.exit(1)
