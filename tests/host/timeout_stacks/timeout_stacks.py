#!/usr/bin/env python3
"""A run that hangs shows where each of its processes was (D106).

    timeout_stacks.py --host mpich|openmpi --workdir DIR [--launch-lock FILE]

hostrun.run_captured (under run_tool), on a timeout, prints the stacks of every thread of each
process of the run (gdb), the launcher's own processes left out, and only then kills the run: a
test that hangs in CI, now and then, must say where. Checked here:
  1. run_tool on a process that outlives its timeout: the RunError says it timed out, and the
     report printed before it shows that process's stack;
  2. stacks_of on a job of 2 ranks launched by the host's mpiexec (stuck.c: rank 0 waits in
     MPI_Barrier, rank 1 sleeps outside MPI): one section per rank, rank 0's stack through
     MPI_Barrier and wait_in_barrier, rank 1's through stuck_without_mpi, and none for mpiexec or
     its helpers (Hydra's proxy, Open MPI's orted). The stacks are read again until both ranks
     are where the program sends them (up to 60 s), so a slow start cannot fail the test.
Exit status: 0 passed, 1 failed, 77 skipped (the host or gdb is not installed).
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/host: hostrun.py
import hostrun  # noqa: E402

HERE = Path(__file__).resolve().parent
failures: list[str] = []


def check(ok: bool, what: str) -> bool:
    print(f"{'ok  ' if ok else 'FAIL'} {what}", flush=True)
    if not ok:
        failures.append(what)
    return ok


def sections(stacks: str) -> dict[str, str]:
    """process header "pid (comm)" -> its lines, from stacks_of's text."""
    out: dict[str, str] = {}
    for m in re.finditer(r"^--- process (\d+ \(.*?\)) ---\n(.*?)(?=^--- process |\Z)", stacks,
                         re.M | re.S):
        out[m.group(1)] = m.group(2)
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", required=True, choices=sorted(hostrun.HOSTS))
    ap.add_argument("--workdir", required=True, type=Path)
    ap.add_argument("--launch-lock", type=Path)
    a = ap.parse_args()
    host = hostrun.HOSTS[a.host]
    if shutil.which(host.compiler) is None or shutil.which("gdb") is None:
        print(f"SKIP: {host.compiler} or gdb is not installed")
        return hostrun.SKIP
    a.workdir.mkdir(parents=True, exist_ok=True)

    # 1. run_tool's timeout report
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            hostrun.run_tool(["sleep", "60"], hostrun.clean_env(), "sleep 60", 1.0)
        check(False, "run_tool: sleep 60 with a timeout of 1 s raises RunError")
    except hostrun.RunError as e:
        text = printed.getvalue()
        secs = sections(text.partition("where each process was (gdb) ---\n")[2])
        sleeps = [body for head, body in secs.items() if head.endswith("(sleep)")]
        check("timed out after 1 s" in str(e) and len(sleeps) == 1 and "#0 " in sleeps[0],
              f"run_tool: the timeout's report shows the sleeping process's stack:\n{text}{e}")

    # 2. stacks_of on a hanging job of 2 ranks
    exe = a.workdir / "stuck"
    p = subprocess.run([host.compiler, "-g", "-O0", str(HERE / "stuck.c"), "-o", str(exe)],
                       capture_output=True, text=True, env=hostrun.clean_env())
    if not check(p.returncode == 0, f"stuck.c builds with {host.compiler}\n{p.stderr}"):
        return 1
    env = hostrun.clean_env()
    env.update(host.env)
    argv = [host.launcher, *host.launcher_args, "-n", "2", *hostrun.rank_preload_args(host), str(exe)]
    out_path = a.workdir / "stuck.out"
    with hostrun.exclusive(a.launch_lock, "another test's run"), open(out_path, "w") as out:
        job = subprocess.Popen(argv, env=env, stdout=out, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            deadline = time.monotonic() + 60
            stacks, secs = "", {}
            while time.monotonic() < deadline and job.poll() is None:
                stacks = hostrun.stacks_of(job.pid)
                secs = sections(stacks)
                bodies = list(secs.values())
                if (any("wait_in_barrier" in b and "Barrier" in b for b in bodies)
                        and any("stuck_without_mpi" in b for b in bodies)):
                    break
                time.sleep(1)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(job.pid, signal.SIGKILL)
            job.wait()
    ranks = [h for h in secs if h.endswith(f"({exe.name})")]
    launchers = [h for h in secs if not h.endswith(f"({exe.name})")]
    bodies = [secs[h] for h in ranks]
    check(len(ranks) == 2 and not launchers,
          f"one section per rank, none for the launcher's processes: {list(secs)}")
    check(any("wait_in_barrier" in b and re.search(r"\bP?MPI_Barrier\b", b) for b in bodies),
          "rank 0's stack goes through MPI_Barrier and wait_in_barrier")
    check(any("stuck_without_mpi" in b for b in bodies), "rank 1's stack goes through stuck_without_mpi")
    if failures:
        print(f"--- the stacks ---\n{stacks}--- the job's output ---\n{out_path.read_text()}")
    print("passed" if not failures else f"FAILED: {len(failures)} check(s)")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
