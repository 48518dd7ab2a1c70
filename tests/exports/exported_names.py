#!/usr/bin/env python3
"""tests/exports/exported_names.py MAP LIBRARY...: each of mpiattr's shared libraries exports the
names cmake/exports.map lets out and no others (docs/decisions.md D137).

A name a library exports is one a program can bind or replace: before D137, libmpiattr_cxx exported
its C callbacks as release_state, comm_copy_trampoline, throw_comm_handler, ..., so a program's own
function of such a name silently took their place. Every defined dynamic symbol (nm -D) must match
one of the map's global patterns; the map's `local: *` is what hides the rest. Prints each offender;
exit status 1 if any.
"""
import fnmatch
import re
import subprocess
import sys


def global_patterns(map_path):
    text = re.sub(r"/\*.*?\*/", "", open(map_path).read(), flags=re.S)
    section = re.search(r"global:(.*?)local:", text, flags=re.S)
    if not section:
        sys.exit(f"{map_path}: no global: ... local: section")
    return [p.strip() for p in section.group(1).split(";") if p.strip()]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    patterns = global_patterns(sys.argv[1])
    bad = 0
    for lib in sys.argv[2:]:
        out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True, capture_output=True,
                             text=True).stdout
        names = [line.split()[-1] for line in out.splitlines() if line.strip()]
        offenders = [n for n in names if not any(fnmatch.fnmatchcase(n, p) for p in patterns)]
        print(f"{lib}: {len(names)} names exported, {len(offenders)} outside {sys.argv[1]}")
        for n in offenders:
            print(f"  FAIL exported: {n}")
        if not names:
            print("  FAIL exports nothing (nm read no names)")
            bad += 1
        bad += len(offenders)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
