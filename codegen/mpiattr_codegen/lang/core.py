"""The core's view of the spec: one header of constants (error classes and their strings,
predefined keys, handle values, datatypes, operations), so the C++ core never includes mpi.h."""
from __future__ import annotations

from ..model import Spec

OUTPUTS = [("core/constants.h.j2", "include/mpiattr/gen/constants.h")]

_OBJ = {"COMM": "comm", "WIN": "win", "TYPE": "type"}


def handle_name(name: str) -> str:
    """MPI_COMM_WORLD -> comm_world: the core's name for a handle constant."""
    return name[4:].lower()


def filters(spec: Spec) -> dict:
    return {"handle_name": handle_name, "object_enum": lambda o: _OBJ[o]}


def context(spec: Spec) -> dict:
    return {}
