#!/usr/bin/env python3
"""The standalone runtime as a process: how it is launched (D26) and what it leaves behind when it
ends without returning from main (D27). Each case runs one command with stdout redirected to a
file, as `./prog > out.txt` does, and checks the exit status, that file and stderr.

  runtime_check.py --list                      the case names (CMake makes one test of each)
  runtime_check.py --case NAME --bin-dir DIR   run one case; programs are taken from DIR:
                                               mpiattr-run, mpiexec, mpirun, rt_prog,
                                               rt_prog_cxx, rt_prog_f (the last two when built)

Exit status: 0 passed, 1 failed, 77 skipped (a program the case needs is not there: the Fortran
program without a Fortran compiler, mpiexec.mpich or mpiexec.openmpi not installed).
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

SKIP = 77
TIMEOUT = 60

# What launchers set in a job's processes (Hydra, PRRTE/ORTE): removed from the environment every
# case starts from, so that a test run inside a job is not mistaken for one of its processes.
LAUNCHER_VARIABLES = (
    "PMI_SIZE", "PMI_RANK", "PMI_FD", "PMI_PORT", "PMI_ID", "PMI_JOBID", "MPI_LOCALNRANKS",
    "MPI_LOCALRANKID", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE",
    "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_NODE_RANK", "PMIX_RANK", "PMIX_NAMESPACE",
    "MPIATTR_IGNORE_LAUNCHER", "MPIATTR_TEST_VAR",
)
# Open MPI's mpiexec refuses to run as root without these.
OPENMPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}

C_LINES = "".join(f"D27: C line {i} of 3\n" for i in (1, 2, 3))
CXX_LINES = "".join(f"D27: C++ line {i} of 3\n" for i in (1, 2, 3))
F_LINES = "".join(f"D27: Fortran line {i} of 3\n" for i in (1, 2, 3))
HELLO = "rank 0 of 1\n"
HOST_DOC = "docs/host.md"
INIT_REFUSED = ("several processes", "mpiattr-run -n 1", HOST_DOC)


@dataclass(frozen=True)
class Case:
    argv: tuple[str, ...]  # {name} stands for a program: run, mpiexec, mpirun, c, cxx, f,
                           # mpiexec.mpich, mpiexec.openmpi
    status: int | str = 0  # the exit status, "nonzero", or "expected": the N of the program's
                           # "expecting exit status N" line (an error class, D150)
    stdout: str | None = ""  # the whole of stdout's file (None: not checked)
    stdout_has: tuple[str, ...] = ()
    stderr_has: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    merged: bool = False  # stderr into stdout's file too (2>&1): checks what comes first


def c(*args: str) -> tuple[str, ...]:
    return ("{c}", *args)


CASES: dict[str, Case] = {
    # ---- D27: output is kept when the process ends in MPI_Abort or a fatal error ----
    "D27_c_abort": Case(c("abort"), status=3, stdout=C_LINES,
                        stderr_has=("MPI_Abort called with error code 3",)),
    "D27_c_fatal": Case(c("fatal"), status="expected", stdout=C_LINES,
                        stderr_has=("fatal error in MPI_Comm_set_attr", "MPI_ERR_KEYVAL")),
    "D27_c_errors_abort": Case(c("errors_abort"), status="expected", stdout=C_LINES,
                               stderr_has=("fatal error in MPI_Comm_set_attr", "MPI_ERR_KEYVAL")),
    # The program's output comes before the message, as it was written before it.
    "D27_c_abort_output_first": Case(c("abort"), status=3, merged=True, stdout=None,
                                     stdout_has=(C_LINES + "mpiattr: MPI_Abort called with error code 3\n",)),
    "D27_c_fatal_output_first": Case(c("fatal"), status="expected", merged=True, stdout=None,
                                     stdout_has=(C_LINES + "mpiattr: fatal error in MPI_Comm_set_attr",)),
    # ---- D150: MPI_Abort's exit status is its errorcode's low 8 bits, 0 included ----
    "D150_c_abort_zero": Case(c("abort", "0"), status=0, stdout=C_LINES,
                              stderr_has=("MPI_Abort called with error code 0",)),
    "D150_c_abort_low_8_bits": Case(c("abort", "258"), status=2, stdout=C_LINES,
                                    stderr_has=("MPI_Abort called with error code 258",)),
    "D27_cxx_abort": Case(("{cxx}",), status=3, stdout=CXX_LINES,
                          stderr_has=("MPI_Abort called with error code 3",)),
    "D27_fortran_abort": Case(("{f}", "abort"), status=3, stdout=F_LINES,
                              stderr_has=("MPI_Abort called with error code 3",)),
    "D27_fortran_fatal": Case(("{f}", "fatal"), status="expected", stdout=F_LINES,
                              stderr_has=("fatal error in MPI_COMM_SET_ATTR", "MPI_ERR_KEYVAL")),
    "D27_fortran_abort_output_first": Case(("{f}", "abort"), status=3, merged=True, stdout=None,
                                           stdout_has=(F_LINES + "mpiattr: MPI_Abort called",)),

    # ---- D26: mpiattr-run (mpiexec, mpirun) runs one process ----
    "D26_run_no_n": Case(("{run}", *c("hello")), stdout=HELLO),
    "D26_run_n1": Case(("{run}", "-n", "1", *c("hello")), stdout=HELLO),
    "D26_run_np1": Case(("{run}", "-np", "1", *c("hello")), stdout=HELLO),
    "D26_mpiexec_n1": Case(("{mpiexec}", "-n", "1", *c("hello")), stdout=HELLO),
    "D26_mpirun_np1": Case(("{mpirun}", "--np=01", *c("hello")), stdout=HELLO),
    "D26_mpiexec_fortran": Case(("{mpiexec}", "-n", "1", "{f}", "hello"), stdout=HELLO),
    "D26_run_harmless_options": Case(
        ("{run}", "--oversubscribe", "--allow-run-as-root", "--bind-to", "core", "--map-by", "slot",
         "-n", "1", "-x", "MPIATTR_TEST_VAR=from -x", *c("hello")),
        stdout=HELLO + "MPIATTR_TEST_VAR=from -x\n"),
    "D26_run_genv": Case(("{mpiexec}", "-genv", "MPIATTR_TEST_VAR", "from genv", "-n", "1", *c("hello")),
                         stdout=HELLO + "MPIATTR_TEST_VAR=from genv\n"),
    "D26_run_x_passes_name": Case(("{run}", "-x", "MPIATTR_TEST_VAR", *c("hello")),
                                  env={"MPIATTR_TEST_VAR": "inherited"},
                                  stdout=HELLO + "MPIATTR_TEST_VAR=inherited\n"),
    "D26_run_exit_status": Case(("{run}", "-n", "1", *c("exit", "7")), status=7),
    "D26_run_program_arguments": Case(("{run}", *c("hello", "-n", "2")), stdout=HELLO),
    "D26_run_refuses_n2": Case(("{run}", "-n", "2", *c("hello")), status=1,
                               stderr_has=("mpiattr-run: -n 2: this mpiattr build runs one process",
                                           "host mode", HOST_DOC)),
    "D26_mpirun_refuses_np4": Case(("{mpirun}", "-np", "4", *c("hello")), status=1,
                                   stderr_has=("mpirun: -np 4: this mpiattr build runs one process",
                                               HOST_DOC)),
    "D26_run_refuses_mpmd": Case(("{run}", "-n", "1", *c("hello"), ":", "-n", "1", *c("hello")),
                                 status=1, stderr_has=("':' starts another program", HOST_DOC)),
    "D26_run_refuses_n0": Case(("{run}", "-n", "0", *c("hello")), status=1,
                               stderr_has=("-n 0: a job has at least one process",)),
    "D26_run_refuses_bad_count": Case(("{run}", "-np", "two", *c("hello")), status=1,
                                      stderr_has=("-np 'two' is not a number of processes",)),
    "D26_run_refuses_unknown_option": Case(("{run}", "-frobnicate", *c("hello")), status=1,
                                           stderr_has=("unknown option -frobnicate",)),
    "D26_run_refuses_bad_variable": Case(("{run}", "-x", "1X=2", *c("hello")), status=1,
                                         stderr_has=("-x: '1X' is not a variable name",)),
    "D26_run_no_program": Case(("{run}", "-n", "1"), status=1, stderr_has=("no program to run",)),
    "D26_run_missing_program": Case(("{run}", "./no-such-program"), status=1,
                                    stderr_has=("cannot run './no-such-program'",)),
    # A program started by mpiattr-run is a job of its own, even inside another launcher's job.
    "D26_run_inside_outer_job": Case(("{run}", *c("hello")), stdout=HELLO,
                                     env={"PMI_SIZE": "4", "PMI_RANK": "2", "OMPI_COMM_WORLD_SIZE": "4"}),

    # ---- D26: MPI_Init refuses a launcher's several processes, accepts one ----
    "D26_init_hydra_size": Case(c("hello"), status=1, env={"PMI_SIZE": "2", "PMI_RANK": "0"},
                                stderr_has=("fatal error in MPI_Init", *INIT_REFUSED, "PMI_SIZE=2")),
    "D26_init_hydra_local": Case(c("hello"), status=1, env={"MPI_LOCALNRANKS": "3"},
                                 stderr_has=(*INIT_REFUSED, "MPI_LOCALNRANKS=3")),
    "D26_init_openmpi_size": Case(c("hello"), status=1,
                                  env={"OMPI_COMM_WORLD_SIZE": "4", "OMPI_COMM_WORLD_RANK": "0"},
                                  stderr_has=(*INIT_REFUSED, "OMPI_COMM_WORLD_SIZE=4")),
    "D26_init_pmix_rank": Case(c("hello"), status=1, env={"PMIX_RANK": "1"},
                               stderr_has=(*INIT_REFUSED, "PMIX_RANK=1")),
    "D26_init_fortran": Case(("{f}", "hello"), status=1, env={"PMI_SIZE": "2"},
                             stderr_has=("fatal error in MPI_INIT", *INIT_REFUSED, "PMI_SIZE=2")),
    "D26_init_size_one": Case(c("hello"), stdout=HELLO, env={
        "PMI_SIZE": "1", "PMI_RANK": "0", "MPI_LOCALNRANKS": "1", "MPI_LOCALRANKID": "0",
        "OMPI_COMM_WORLD_SIZE": "1", "OMPI_COMM_WORLD_RANK": "0", "OMPI_COMM_WORLD_LOCAL_SIZE": "1",
        "PMIX_RANK": "0"}),
    "D26_init_not_a_count": Case(c("hello"), stdout=HELLO, env={"PMI_SIZE": "two", "PMIX_RANK": ""}),
    "D26_init_ignore_launcher": Case(c("hello"), stdout=HELLO,
                                     env={"PMI_SIZE": "2", "PMI_RANK": "1", "MPIATTR_IGNORE_LAUNCHER": "1"}),
    "D26_init_ignore_launcher_0": Case(c("hello"), status=1,
                                       env={"PMI_SIZE": "2", "MPIATTR_IGNORE_LAUNCHER": "0"},
                                       stderr_has=INIT_REFUSED),

    # ---- D26 under the real launchers ----
    "D26_launcher_mpich_n1": Case(("{mpiexec.mpich}", "-n", "1", *c("hello")), stdout=HELLO),
    "D26_launcher_mpich_n2": Case(("{mpiexec.mpich}", "-n", "2", *c("hello")), status="nonzero",
                                  stderr_has=("fatal error in MPI_Init", *INIT_REFUSED, "PMI_SIZE=2")),
    "D26_launcher_openmpi_n1": Case(("{mpiexec.openmpi}", "-n", "1", *c("hello")), stdout=HELLO,
                                    env=OPENMPI_ENV),
    "D26_launcher_openmpi_n2": Case(("{mpiexec.openmpi}", "--oversubscribe", "-n", "2", *c("hello")),
                                    status="nonzero", env=OPENMPI_ENV,
                                    stderr_has=(*INIT_REFUSED, "OMPI_COMM_WORLD_SIZE=2")),
}


def programs(bin_dir: Path) -> dict[str, str | None]:
    def there(name: str) -> str | None:
        p = bin_dir / name
        return str(p) if p.exists() else None
    return {
        "run": there("mpiattr-run"), "mpiexec": there("mpiexec"), "mpirun": there("mpirun"),
        "c": there("rt_prog"), "cxx": there("rt_prog_cxx"), "f": there("rt_prog_f"),
        "mpiexec.mpich": shutil.which("mpiexec.mpich"),
        "mpiexec.openmpi": shutil.which("mpiexec.openmpi"),
    }


def run_case(name: str, case: Case, bin_dir: Path) -> int:
    progs = programs(bin_dir)
    argv = []
    for a in case.argv:
        if a.startswith("{") and a.endswith("}"):
            p = progs[a[1:-1]]
            if p is None:
                print(f"SKIP: {a[1:-1]} is not built or not installed")
                return SKIP
            argv.append(p)
        else:
            argv.append(a)
    env = {k: v for k, v in os.environ.items() if k not in LAUNCHER_VARIABLES}
    env.update(case.env)
    # Hydra's mpiexec, when both processes of a job end at once (as they do when MPI_Init refuses
    # them), now and then dies of SIGPIPE itself before it passes their stderr on (about 1 run in
    # 100 with two tests running beside it; never seen with its stderr a file). That is the
    # launcher's race, not the program's answer: such a run, killed by a signal with nothing on
    # stderr, is made once more, and the second must pass every check.
    real_launcher = case.argv[0] in ("{mpiexec.mpich}", "{mpiexec.openmpi}")
    for attempt in (1, 2):
        with tempfile.TemporaryDirectory(prefix=f"rt-{name}-") as tmp:
            out_path = Path(tmp) / "out.txt"
            with open(out_path, "wb") as out:
                try:
                    p = subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, stdout=out,
                                       stderr=subprocess.STDOUT if case.merged else subprocess.PIPE,
                                       timeout=TIMEOUT, cwd=tmp)
                except subprocess.TimeoutExpired:
                    print(f"FAIL: timed out after {TIMEOUT} s: {' '.join(argv)}")
                    return 1
            stdout = out_path.read_text(errors="replace")
        if not (real_launcher and attempt == 1 and p.returncode < 0 and not p.stderr):
            break
        print(f"(the launcher died of signal {-p.returncode} with nothing on stderr: run again)")
    stderr = (p.stderr or b"").decode(errors="replace")
    problems = []
    if case.status == "nonzero" and p.returncode == 0:
        problems.append("exit status 0, expected non-zero")
    elif isinstance(case.status, int) and p.returncode != case.status:
        problems.append(f"exit status {p.returncode}, expected {case.status}")
    elif case.status == "expected":
        said = re.search(r"expecting exit status (\d+)", stdout if case.merged else stderr)
        if said is None:
            problems.append("the program did not say which exit status to expect")
        elif p.returncode != int(said.group(1)):
            problems.append(f"exit status {p.returncode}, expected {said.group(1)} ({said.group(0)})")
    if case.stdout is not None and stdout != case.stdout:
        problems.append(f"stdout's file holds {stdout!r}, expected {case.stdout!r}")
    for s in case.stdout_has:
        if s not in stdout:
            problems.append(f"stdout's file lacks {s!r}")
    for s in case.stderr_has:
        if s not in stderr:
            problems.append(f"stderr lacks {s!r}")
    print(f"$ {' '.join(argv)}" + "".join(f"\n  {k}={v}" for k, v in case.env.items()))
    print(f"--- exit status {p.returncode}; stdout's file ---\n{stdout}--- stderr ---\n{stderr}---")
    for msg in problems:
        print(f"FAIL: {msg}")
    return 1 if problems else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--case")
    ap.add_argument("--bin-dir", type=Path)
    args = ap.parse_args()
    if args.list:
        print("\n".join(CASES))
        return 0
    if args.case not in CASES or args.bin_dir is None:
        ap.error("--case NAME (one of --list) and --bin-dir are required")
    return run_case(args.case, CASES[args.case], args.bin_dir)


if __name__ == "__main__":
    sys.exit(main())
