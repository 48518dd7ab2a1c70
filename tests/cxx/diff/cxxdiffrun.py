#!/usr/bin/env python3
"""Differential runner for the MPI:: bindings: tests/diff/diffrun.py with the peers' C++ compiler
wrappers (mpicxx.mpich, mpicxx.openmpi: both still ship the MPI-2.2 C++ bindings on Debian 12)
instead of mpicc. Same modes, same output format ("LABEL: VALUE" per line), same divergences file
format; the divergences of the C++ programs are in tests/cxx/diff/divergences.toml."""
from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "diff"))
import diffrun  # noqa: E402  (tests/diff/diffrun.py)

CXX = {"mpich": "mpicxx.mpich", "openmpi": "mpicxx.openmpi"}
diffrun.PEERS = {name: dataclasses.replace(peer, compiler=CXX[name])
                 for name, peer in diffrun.PEERS.items()}
diffrun.CFLAGS = ("-std=c++17", "-Wall", "-Wno-deprecated-declarations", "-Wno-unused-function",
                  "-Wno-cast-function-type")

if __name__ == "__main__":
    sys.exit(diffrun.main())
