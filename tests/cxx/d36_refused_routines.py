#!/usr/bin/env python3
"""Writes the header cxx_d36_refused_test.cc includes: every routine that spec/ marks `unsupported`
(D36: the standalone runtime refuses it with MPI_ERR_UNSUPPORTED_OPERATION), with the reason its
error string gives. Read through the code generator's own loader, so the test follows the spec as
routines move from `unsupported` to `core`.

    d36_refused_routines.py --codegen DIR --spec DIR --out FILE
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--codegen", required=True)
    ap.add_argument("--spec", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    sys.path.insert(0, a.codegen)
    from mpiattr_codegen.load import load  # noqa: E402

    spec = load(a.spec)
    refused = sorted((f.name, f.unsupported, f.cxx is not None) for f in spec.functions if f.unsupported)
    lines = ["// Written into the build tree by tests/cxx/d36_refused_routines.py from spec/: the routines the standalone",
             "// runtime refuses (D36), each with the reason its error string gives and whether it has",
             "// an MPI-2.2 C++ binding.",
             "struct d36_refused_routine { const char* name; const char* why; bool has_cxx; };",
             "static const d36_refused_routine kD36Refused[] = {"]
    lines += [f"    {{{json.dumps(name)}, {json.dumps(why)}, {'true' if cxx else 'false'}}},"
              for name, why, cxx in refused]
    lines += ["    {0, 0, false}};", ""]
    text = "\n".join(lines)
    out = Path(a.out)
    if not out.exists() or out.read_text() != text:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
