#!/usr/bin/env bash
# Builds mpiattr (the libraries, headers, Fortran modules and compiler wrappers the README uses:
# target mpiattr_bindings) and runs the demo (examples/demo.c): a library caching
# per-communicator state.
set -euo pipefail
cd "$(dirname "$0")"
scripts/deps.sh
cmake -S . -B build -DPython3_EXECUTABLE=/usr/bin/python3 -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" --target mpiattr_bindings demo >/dev/null
./build/bin/demo
